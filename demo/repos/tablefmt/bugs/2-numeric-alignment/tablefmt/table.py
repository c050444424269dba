"""Render rows of cells as an aligned plain-text table."""
from decimal import Decimal

from .width import display_width, pad


def _cell_text(value):
    return "" if value is None else str(value)


def _is_number(value):
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _default_align(rows, col):
    """Right-align a column whose non-empty body cells are all numbers."""
    cells = [row[col] for row in rows if col < len(row) and row[col] is not None]
    return "right" if cells and all(_is_number(cell) for cell in cells) else "left"


def render(rows, headers=None, align=None):
    """Return rows (lists of cells) as text, columns separated by ' | '.

    align maps a column index to "left", "right" or "center"; by default numeric
    columns are right-aligned and the others left-aligned.
    """
    body = [[_cell_text(cell) for cell in row] for row in rows]
    head = [_cell_text(cell) for cell in headers] if headers else None
    table = ([head] if head else []) + body
    if not table:
        return ""
    ncols = max(len(row) for row in table)
    for row in table:
        row.extend([""] * (ncols - len(row)))
    widths = [max(display_width(row[col]) for row in table) for col in range(ncols)]
    aligns = [(align or {}).get(col) or _default_align(rows, col) for col in range(ncols)]

    def line(cells):
        padded = (pad(cell, width, how) for cell, width, how in zip(cells, widths, aligns))
        return " | ".join(padded).rstrip()

    out = []
    if head:
        out.append(line(head))
        out.append("-+-".join("-" * width for width in widths))
    out.extend(line(row) for row in body)
    return "\n".join(out)
