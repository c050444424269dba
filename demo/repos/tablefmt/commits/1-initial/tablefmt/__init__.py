"""tablefmt: plain-text tables."""
from .table import render
from .width import display_width, pad

__all__ = ["display_width", "pad", "render"]
