import pytest

from tablefmt import display_width, pad, width


def test_ascii_width():
    assert display_width("hello") == 5


def test_pad_left_aligned():
    assert pad("ab", 4) == "ab  "


def test_pad_never_truncates():
    assert pad("abcdef", 3) == "abcdef"


def test_pad_right_aligned():
    assert pad("ab", 4, "right") == "  ab"


def test_pad_center_puts_extra_space_right():
    assert pad("ab", 5, "center") == " ab  "


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        pytest.param("abc", 3, id="ascii"),
        pytest.param("日本語", 6, id="cjk ideographs"),
        pytest.param("ｶﾀｶﾅ", 4, id="halfwidth katakana"),
        pytest.param("e\u0301te\u0301", 3, id="combining accents"),
    ],
)
def test_display_width(text, columns):
    assert display_width(text) == columns


def test_pad_wide_text():
    assert pad("日本", 6) == "日本  "


def test_text_width_uses_widest_line():
    assert width.text_width("ab\n日本語\n") == 6
