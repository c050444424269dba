"""How wide text is on a monospace terminal, and padding to a width."""


def display_width(text):
    return len(text)


def pad(text, width):
    return text + " " * max(width - display_width(text), 0)
