"""Parse INI text into a Config of raw string values."""
from . import values
from .errors import ParseError

COMMENT_PREFIXES = ("#", ";")


class Config:
    """Parsed configuration: section name -> {key: raw string value}."""

    def __init__(self, sections=None):
        self._sections = sections if sections is not None else {}

    def sections(self):
        return list(self._sections)

    def has(self, section, key):
        return key.lower() in self._sections.get(section, {})

    def get(self, section, key, default=None):
        return self._sections.get(section, {}).get(key.lower(), default)

    def getint(self, section, key, default=None):
        raw = self.get(section, key)
        return default if raw is None else values.to_int(raw)

    def getbool(self, section, key, default=None):
        raw = self.get(section, key)
        return default if raw is None else values.to_bool(raw)

    def getlist(self, section, key, default=None):
        raw = self.get(section, key)
        return default if raw is None else values.to_list(raw)

    def as_dict(self):
        return {name: dict(entries) for name, entries in self._sections.items()}


def parse(text):
    sections = {}
    current = None
    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(COMMENT_PREFIXES):
            continue
        if stripped.startswith("["):
            if not stripped.endswith("]"):
                raise ParseError(lineno, "unterminated section header")
            current = sections.setdefault(stripped[1:-1].strip(), {})
            continue
        if current is None:
            raise ParseError(lineno, "key outside of any section")
        key, sep, value = stripped.partition("=")
        if not sep:
            raise ParseError(lineno, "expected 'key = value'")
        current[key.strip().lower()] = _clean_value(value)
    return Config(sections)


def _clean_value(raw):
    """Cut an inline comment (a prefix after whitespace, outside quotes); drop quotes."""
    value = raw.strip()
    in_quotes = False
    for index, char in enumerate(value):
        if char == '"':
            in_quotes = not in_quotes
        elif char in COMMENT_PREFIXES and not in_quotes and index and value[index - 1].isspace():
            value = value[:index].rstrip()
            break
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return value


def load(path):
    with open(path, encoding="utf-8") as handle:
        return parse(handle.read())
