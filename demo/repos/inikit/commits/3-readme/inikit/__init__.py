"""inikit: a small INI configuration parser and writer."""
from .errors import ParseError
from .parser import Config, load, parse
from .writer import dump

__all__ = ["Config", "ParseError", "dump", "load", "parse"]
__version__ = "0.2.0"
