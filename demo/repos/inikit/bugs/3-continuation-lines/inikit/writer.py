"""Serialize configurations back to INI text."""
from . import values
from .parser import COMMENT_PREFIXES, Config


def dump(data):
    """Return a Config or a {section: {key: value}} mapping as INI text."""
    sections = data.as_dict() if isinstance(data, Config) else data
    lines = []
    for name, entries in sections.items():
        if lines:
            lines.append("")
        lines.append(f"[{name}]")
        for key, value in entries.items():
            # continuation lines are indented so that parse() joins them back
            text = _format_value(value).replace("\n", "\n    ")
            lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def _format_value(value):
    text = values.to_text(value)
    return f'"{text}"' if _needs_quotes(text) else text


def _needs_quotes(text):
    """True when parse() would otherwise trim the text or cut it at a comment."""
    if text != text.strip():
        return True
    return any(space + prefix in text for space in " \t" for prefix in COMMENT_PREFIXES)
