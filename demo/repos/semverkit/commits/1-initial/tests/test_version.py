import pytest

from semverkit import Version


def test_parse_and_str():
    version = Version.parse("v1.2.3-rc.1+build.5")
    assert (version.major, version.minor, version.patch) == (1, 2, 3)
    assert version.prerelease == ("rc", "1")
    assert str(version) == "1.2.3-rc.1+build.5"


@pytest.mark.parametrize("text", ["1.2", "01.2.3", "1.2.3-", "one.two.three"])
def test_invalid_versions(text):
    with pytest.raises(ValueError):
        Version.parse(text)


def test_build_metadata_is_ignored_for_equality():
    assert Version.parse("1.0.0+a") == Version.parse("1.0.0+b")


def test_numeric_parts_compare_as_numbers():
    assert Version.parse("1.9.0") < Version.parse("1.10.0")


def test_bump():
    version = Version.parse("1.2.3")
    assert str(version.bump("major")) == "2.0.0"
    assert str(version.bump("minor")) == "1.3.0"
    assert str(version.bump("patch")) == "1.2.4"
