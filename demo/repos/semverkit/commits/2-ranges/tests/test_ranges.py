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
