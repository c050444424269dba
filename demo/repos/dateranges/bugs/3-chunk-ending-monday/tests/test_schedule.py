from datetime import date

from dateranges import (
    DateSpan,
    add_business_days,
    business_days,
    business_days_per_week,
    is_business_day,
    weekly_chunks,
)

MONDAY = date(2024, 3, 4)
WEDNESDAY = date(2024, 3, 6)
FRIDAY = date(2024, 3, 8)
SUNDAY = date(2024, 3, 10)


def test_weekends_are_not_business_days():
    assert is_business_day(MONDAY)
    assert not is_business_day(date(2024, 3, 9))


def test_holiday_spans_are_not_business_days():
    assert not is_business_day(WEDNESDAY, [DateSpan(WEDNESDAY, FRIDAY)])


def test_business_days_of_a_full_week():
    assert len(business_days(DateSpan(MONDAY, SUNDAY))) == 5


def test_business_days_skip_holidays():
    days = business_days(DateSpan(MONDAY, SUNDAY), [DateSpan(WEDNESDAY, WEDNESDAY)])
    assert WEDNESDAY not in days
    assert len(days) == 4


def test_add_business_days_skips_weekend():
    assert add_business_days(FRIDAY, 1) == date(2024, 3, 11)


def test_add_business_days_skips_holidays():
    assert add_business_days(MONDAY, 2, [DateSpan(date(2024, 3, 5), date(2024, 3, 5))]) == date(2024, 3, 7)


def test_weekly_chunks_are_clipped_to_the_span():
    chunks = weekly_chunks(DateSpan.parse("2024-03-06..2024-03-19"))
    assert chunks == [
        DateSpan.parse("2024-03-06..2024-03-10"),
        DateSpan.parse("2024-03-11..2024-03-17"),
        DateSpan.parse("2024-03-18..2024-03-19"),
    ]


def test_business_days_include_the_last_day():
    assert business_days(DateSpan(MONDAY, FRIDAY))[-1] == FRIDAY


def test_holiday_ending_on_first_day_of_span():
    days = business_days(DateSpan(WEDNESDAY, FRIDAY), [DateSpan(MONDAY, WEDNESDAY)])
    assert days == [date(2024, 3, 7), FRIDAY]


def test_weekly_chunks_span_ending_on_monday():
    chunks = weekly_chunks(DateSpan.parse("2024-03-06..2024-03-18"))
    assert chunks[-1] == DateSpan.parse("2024-03-18..2024-03-18")
    assert sum(len(chunk) for chunk in chunks) == 13


def test_business_days_per_week():
    report = business_days_per_week(DateSpan.parse("2024-03-06..2024-03-18"))
    assert [count for _, count in report] == [3, 5, 1]
