"""Money: an amount in one currency, with exact decimal arithmetic."""
from decimal import ROUND_HALF_UP, Decimal

from . import currency


class CurrencyMismatch(ValueError):
    """Raised when combining amounts of different currencies."""


class Money:
    __slots__ = ("amount", "currency")

    def __init__(self, amount, code):
        self.currency = code.upper()
        # always hold a whole number of minor units (cents, yen, ...)
        places = Decimal(1).scaleb(-currency.decimals(self.currency))
        self.amount = Decimal(str(amount)).quantize(places, rounding=ROUND_HALF_UP)

    def __repr__(self):
        return f"Money('{self.amount}', '{self.currency}')"

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return (self.amount, self.currency) == (other.amount, other.currency)

    def __hash__(self):
        return hash((self.amount, self.currency))

    def _check(self, other):
        if not isinstance(other, Money) or other.currency != self.currency:
            raise CurrencyMismatch(f"cannot combine {self!r} with {other!r}")

    def __add__(self, other):
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    def __sub__(self, other):
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def __mul__(self, factor):
        if isinstance(factor, Money):
            raise TypeError("cannot multiply money by money")
        return Money(self.amount * Decimal(str(factor)), self.currency)

    __rmul__ = __mul__

    def __neg__(self):
        return Money(-self.amount, self.currency)

    def allocate(self, ratios):
        """Split into parts proportional to ratios, e.g. [1, 1, 2]."""
        total = sum(ratios)
        if total <= 0:
            raise ValueError("ratios must sum to a positive number")
        return [Money(self.amount * Decimal(ratio) / Decimal(total), self.currency) for ratio in ratios]
