from decimal import Decimal

import pytest

from moneyx import Money, UnknownCurrency, currency


@pytest.mark.parametrize(("code", "digits"), [("USD", 2), ("jpy", 0), ("CHF", 2)])
def test_decimals(code, digits):
    assert currency.decimals(code) == digits


def test_symbol():
    assert currency.symbol("EUR") == "€"


def test_unknown_code_lookup_raises():
    with pytest.raises(currency.UnknownCurrency):
        currency.symbol("XYZ")


def test_codes_are_sorted():
    codes = currency.codes()
    assert codes == sorted(codes)
    assert {"CHF", "EUR", "GBP", "JPY", "USD"} <= set(codes)


def test_register_custom_currency():
    currency.register("BTC", "₿", 8)
    assert currency.decimals("btc") == 8
    assert "BTC" in currency.codes()


def test_money_in_registered_currency():
    currency.register("BTC", "₿", 8)
    assert Money("0.123456789", "BTC").amount == Decimal("0.12345679")


def test_money_in_unknown_currency_raises():
    with pytest.raises(UnknownCurrency):
        Money("1", "XYZ")


def test_register_rejects_negative_decimals():
    with pytest.raises(ValueError):
        currency.register("ABC", "A", -1)
