"""moneyx: exact money amounts, currencies and formatting."""
from .currency import UnknownCurrency
from .fmt import format_money
from .money import CurrencyMismatch, Money

__all__ = ["CurrencyMismatch", "Money", "UnknownCurrency", "format_money"]
