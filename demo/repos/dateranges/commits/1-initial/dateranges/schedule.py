"""Working-day arithmetic over DateSpans."""
from .span import ONE_DAY

WEEKEND = frozenset({5, 6})  # Saturday, Sunday


def is_business_day(day, holidays=()):
    """A weekday that no holiday span covers."""
    return day.weekday() not in WEEKEND and not any(day in holiday for holiday in holidays)


def business_days(span, holidays=()):
    """The working days of span, in order."""
    relevant = [holiday for holiday in holidays if holiday.overlaps(span)]
    return [day for day in span if is_business_day(day, relevant)]


def add_business_days(start, count, holidays=()):
    """The day that is `count` working days after start."""
    day = start
    while count > 0:
        day += ONE_DAY
        if is_business_day(day, holidays):
            count -= 1
    return day
