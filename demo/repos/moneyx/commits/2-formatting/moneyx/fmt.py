"""Human-readable money: symbol, thousands separators, minor-unit digits."""
from . import currency


def format_money(money, grouping=True):
    digits = currency.decimals(money.currency)
    sign = "-" if money.amount < 0 else ""
    spec = f"{',' if grouping else ''}.{digits}f"
    return f"{sign}{currency.symbol(money.currency)}{format(abs(money.amount), spec)}"
