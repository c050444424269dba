"""Version ranges: comparators (>=1.2.0 <2.0.0), caret (^1.2.3) and tilde (~1.2.3)."""
import operator

from .version import Version

_OPERATORS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "=": operator.eq}


class Range:
    """The versions that satisfy every comparator of a space-separated range."""

    def __init__(self, text):
        self.text = text
        self.comparators = [comparator for token in text.split() for comparator in _expand(token)]

    def __repr__(self):
        return f"Range({self.text!r})"

    def __contains__(self, version):
        if isinstance(version, str):
            version = Version.parse(version)
        if version.prerelease and not self._names_prerelease_of(version):
            return False
        return all(compare(version, bound) for compare, bound in self.comparators)

    def _names_prerelease_of(self, version):
        """Prereleases only match a range naming a prerelease of the same release (npm rule)."""
        release = (version.major, version.minor, version.patch)
        return any(
            bound.prerelease and (bound.major, bound.minor, bound.patch) == release
            for _, bound in self.comparators
        )


def _expand(token):
    """The (operator, bound) pairs one token of a range stands for."""
    if token.startswith("^"):
        low, given = Version.parse_partial(token[1:])
        return [(operator.ge, low), (operator.lt, _caret_limit(low, given))]
    if token.startswith("~"):
        low, given = Version.parse_partial(token[1:])
        return [(operator.ge, low), (operator.lt, low.bump("major" if given == 1 else "minor"))]
    for symbol in (">=", "<=", ">", "<", "="):
        if token.startswith(symbol):
            return [(_OPERATORS[symbol], Version.parse(token[len(symbol):]))]
    return [(operator.eq, Version.parse(token))]


def _caret_limit(low, given):
    """^ allows changes right of the first non-zero part: ^1.2.3 <2.0.0, ^0.2.3 <0.3.0, ^0.0.3 <0.0.4."""
    if low.major or given == 1:
        return low.bump("major")
    if low.minor or given == 2:
        return low.bump("minor")
    return low.bump("patch")


def max_satisfying(versions, range_text):
    """The highest of versions (strings or Versions) inside the range, or None."""
    allowed = Range(range_text)
    parsed = [Version.parse(v) if isinstance(v, str) else v for v in versions]
    matching = [version for version in parsed if version in allowed]
    return max(matching) if matching else None
