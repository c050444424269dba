"""Serialize configurations back to INI text."""
from . import values
from .parser import Config


def dump(data):
    """Return a Config or a {section: {key: value}} mapping as INI text."""
    sections = data.as_dict() if isinstance(data, Config) else data
    lines = []
    for name, entries in sections.items():
        if lines:
            lines.append("")
        lines.append(f"[{name}]")
        for key, value in entries.items():
            lines.append(f"{key} = {_format_value(value)}")
    return "\n".join(lines) + "\n"


def _format_value(value):
    return values.to_text(value)
