import pytest

from tablefmt import render


def test_simple_table():
    assert render([["alice", "x"], ["bob", "yy"]]) == "alice | x\nbob   | yy"


def test_headers_and_rule():
    text = render([["alice", "admin"]], headers=["name", "role"])
    assert text == "name  | role\n------+------\nalice | admin"


def test_ragged_rows_are_padded():
    assert render([["a"], ["b", "c"]]) == "a |\nb | c"


def test_none_renders_empty():
    assert render([[None, "x"]]) == " | x"


def test_empty_table():
    assert render([]) == ""


def test_explicit_alignment():
    text = render([["a", "1"], ["bb", "22"]], headers=["k", "value"], align={1: "right"})
    assert text == "k  | value\n---+------\na  |     1\nbb |    22"


def test_wide_characters_align():
    assert render([["名前", "x"], ["ab", "y"]]) == "名前 | x\nab   | y"


def test_numeric_columns_align_right():
    text = render([["アリス", 7], ["bob", 12]], headers=["名前", "score"])
    assert text == "名前   | score\n-------+------\nアリス |     7\nbob    |    12"


def test_explicit_alignment_wins():
    assert render([[1, "a"], [22, "b"]], align={0: "left"}) == "1  | a\n22 | b"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        pytest.param([["a"], [1]], "a\n1", id="mixed column"),
        pytest.param([[True], [False]], "True\nFalse", id="booleans"),
        pytest.param([[None], [5], [10]], "\n 5\n10", id="numbers with a gap"),
    ],
)
def test_default_alignment(rows, expected):
    assert render(rows) == expected
