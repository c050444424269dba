"""The currencies moneyx knows: display symbol and minor-unit digits (ISO 4217)."""


class UnknownCurrency(KeyError):
    """Raised for a currency code the registry does not know."""


_CURRENCIES = {
    "USD": ("$", 2),
    "EUR": ("€", 2),
    "GBP": ("£", 2),
    "JPY": ("¥", 0),
    "CHF": ("CHF ", 2),
}


def _entry(code):
    try:
        return _CURRENCIES[code.upper()]
    except KeyError:
        raise UnknownCurrency(code) from None


def symbol(code):
    return _entry(code)[0]


def decimals(code):
    return _entry(code)[1]


def codes():
    return sorted(_CURRENCIES)


def register(code, symbol, decimals):
    """Add or replace a currency, e.g. register("BTC", "₿", 8)."""
    if int(decimals) < 0:
        raise ValueError(f"decimals must be >= 0, got {decimals!r}")
    _CURRENCIES[code.upper()] = (symbol, int(decimals))
