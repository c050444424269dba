"""inikit: a small INI configuration parser."""
from .errors import ParseError
from .parser import Config, load, parse

__all__ = ["Config", "ParseError", "load", "parse"]
__version__ = "0.1.0"
