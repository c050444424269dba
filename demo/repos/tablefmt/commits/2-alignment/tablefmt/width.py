"""How wide text is on a monospace terminal, and padding to a width."""


def display_width(text):
    return len(text)


def pad(text, width, align="left"):
    """Pad text to width columns; align is "left", "right" or "center"."""
    gap = max(width - display_width(text), 0)
    if align == "right":
        return " " * gap + text
    if align == "center":
        left = gap // 2
        return " " * left + text + " " * (gap - left)
    return text + " " * gap
