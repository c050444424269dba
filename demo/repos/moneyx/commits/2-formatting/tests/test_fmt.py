from moneyx import Money, format_money


def test_format_with_grouping():
    assert format_money(Money("1234567.5", "USD")) == "$1,234,567.50"


def test_format_without_grouping():
    assert format_money(Money("1234.5", "EUR"), grouping=False) == "€1234.50"


def test_negative_amounts_put_sign_first():
    assert format_money(Money("-5", "GBP")) == "-£5.00"


def test_zero_decimal_currency():
    assert format_money(Money("1500", "JPY")) == "¥1,500"
