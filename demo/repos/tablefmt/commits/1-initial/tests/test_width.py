from tablefmt import display_width, pad


def test_ascii_width():
    assert display_width("hello") == 5


def test_pad_left_aligned():
    assert pad("ab", 4) == "ab  "


def test_pad_never_truncates():
    assert pad("abcdef", 3) == "abcdef"
