from decimal import Decimal

import pytest

from moneyx import CurrencyMismatch, Money


def test_amounts_are_decimals():
    assert Money("0.10", "usd").amount == Decimal("0.10")
    assert Money(5, "USD").currency == "USD"


def test_addition_and_subtraction():
    assert Money("0.10", "USD") + Money("0.20", "USD") == Money("0.30", "USD")
    assert Money("1.00", "EUR") - Money("0.01", "EUR") == Money("0.99", "EUR")


def test_mixed_currencies_are_rejected():
    with pytest.raises(CurrencyMismatch):
        Money("1", "USD") + Money("1", "EUR")


def test_multiply_by_integer():
    assert Money("19.99", "USD") * 3 == Money("59.97", "USD")
    assert 2 * Money("1.50", "GBP") == Money("3.00", "GBP")


def test_money_times_money_is_an_error():
    with pytest.raises(TypeError):
        Money("1", "USD") * Money("1", "USD")


def test_allocate_even_split():
    assert Money("10.00", "USD").allocate([1, 1]) == [Money("5.00", "USD"), Money("5.00", "USD")]
