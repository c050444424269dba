import pytest

from moneyx import currency


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
