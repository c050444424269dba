"""Conversions from raw INI strings to Python values, and back."""

TRUE_WORDS = frozenset({"1", "yes", "true", "on"})
FALSE_WORDS = frozenset({"0", "no", "false", "off"})


def to_bool(raw):
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"not a boolean: {raw!r}")


def to_int(raw):
    return int(raw.strip())


def to_list(raw, sep=","):
    return [item.strip() for item in raw.split(sep) if item.strip()]


def to_text(value):
    """Render a Python value as INI text."""
    return str(value)
