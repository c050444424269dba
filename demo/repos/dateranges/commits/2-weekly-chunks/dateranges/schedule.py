"""Working-day arithmetic over DateSpans."""
from datetime import timedelta

from .span import ONE_DAY, DateSpan

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


def weekly_chunks(span):
    """Split span into Monday-to-Sunday weeks, clipped to the span."""
    chunks = []
    monday = span.start - timedelta(days=span.start.weekday())
    while monday < span.end:
        week = DateSpan(monday, monday + 6 * ONE_DAY)
        chunks.append(week.intersection(span))
        monday += 7 * ONE_DAY
    return chunks


def business_days_per_week(span, holidays=()):
    """(week chunk, number of working days in it) for every week of span."""
    return [(chunk, len(business_days(chunk, holidays))) for chunk in weekly_chunks(span)]
