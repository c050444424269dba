import pytest

from semverkit import Range, max_satisfying


@pytest.mark.parametrize(
    ("version", "range_text", "expected"),
    [
        ("1.5.0", ">=1.2.0 <2.0.0", True),
        ("2.0.0", ">=1.2.0 <2.0.0", False),
        ("1.2.4", "^1.2.3", True),
        ("2.1.0", "^1.2.3", False),
        ("1.2.9", "~1.2.3", True),
        ("1.3.0", "~1.2.3", False),
        ("1.2.3", "1.2.3", True),
    ],
)
def test_membership(version, range_text, expected):
    assert (version in Range(range_text)) is expected


def test_max_satisfying_releases():
    assert str(max_satisfying(["1.0.0", "1.4.2", "1.10.0", "2.0.0"], "^1.0.0")) == "1.10.0"


def test_max_satisfying_none():
    assert max_satisfying(["1.0.0"], ">=2.0.0") is None


@pytest.mark.parametrize(
    ("version", "range_text", "expected"),
    [
        pytest.param("2.0.0-rc.1", "^1.2.3", False, id="next major rc"),
        pytest.param("1.3.0-beta.1", ">=1.2.0 <2.0.0", False, id="unrelated beta"),
        pytest.param("1.2.3-beta.10", ">=1.2.3-beta.2", True, id="same release beta"),
        pytest.param("1.2.4", "^1.2.3", True, id="plain release"),
    ],
)
def test_prereleases_need_opt_in(version, range_text, expected):
    assert (version in Range(range_text)) is expected


HISTORY = ["0.2.3", "0.2.9", "0.3.0-beta.1", "0.3.0", "1.2.0", "1.2.7", "1.9.0", "2.0.0-rc.1"]


@pytest.mark.parametrize(
    ("range_text", "best"),
    [
        ("^0.2.3", "0.2.9"),
        ("^1.2", "1.9.0"),
        ("~1.2", "1.2.7"),
        ("^1.2.3", "1.9.0"),
        (">=0.3.0-beta.1 <0.4.0", "0.3.0"),
    ],
)
def test_max_satisfying(range_text, best):
    assert str(max_satisfying(HISTORY, range_text)) == best
