"""moneyx: exact money amounts and currencies."""
from .currency import UnknownCurrency
from .money import CurrencyMismatch, Money

__all__ = ["CurrencyMismatch", "Money", "UnknownCurrency"]
