"""How wide text is on a monospace terminal, and padding to a width."""
import unicodedata


def display_width(text):
    """Terminal columns: wide/fullwidth characters take two, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def text_width(text):
    """Width of the widest line of a possibly multi-line text."""
    return max(display_width(line) for line in text.split("\n"))


def pad(text, width, align="left"):
    """Pad text to width columns; align is "left", "right" or "center"."""
    gap = max(width - display_width(text), 0)
    if align == "right":
        return " " * gap + text
    if align == "center":
        left = gap // 2
        return " " * left + text + " " * (gap - left)
    return text + " " * gap
