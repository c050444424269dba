import pytest

from inikit import values


@pytest.mark.parametrize("raw", ["yes", "True", " on ", "1"])
def test_truthy_words(raw):
    assert values.to_bool(raw) is True


@pytest.mark.parametrize("raw", ["no", "FALSE", "off", "0"])
def test_falsy_words(raw):
    assert values.to_bool(raw) is False


def test_bad_bool_raises():
    with pytest.raises(ValueError):
        values.to_bool("maybe")


def test_list_drops_empty_items():
    assert values.to_list("a,,b, ") == ["a", "b"]


@pytest.mark.parametrize(("value", "text"), [(True, "true"), (False, "false"), (["a", "b"], "a, b"), (3, "3")])
def test_to_text(value, text):
    assert values.to_text(value) == text
