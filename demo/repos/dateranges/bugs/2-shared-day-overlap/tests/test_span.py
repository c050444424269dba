from datetime import date

import pytest

from dateranges import DateSpan


def test_parse_and_repr():
    span = DateSpan.parse("2024-03-01 .. 2024-03-31")
    assert span == DateSpan(date(2024, 3, 1), date(2024, 3, 31))
    assert repr(span) == "DateSpan(2024-03-01..2024-03-31)"


def test_reversed_span_is_rejected():
    with pytest.raises(ValueError):
        DateSpan(date(2024, 3, 2), date(2024, 3, 1))


def test_parse_requires_separator():
    with pytest.raises(ValueError):
        DateSpan.parse("2024-03-01")


def test_contains_both_ends():
    span = DateSpan(date(2024, 3, 1), date(2024, 3, 3))
    assert date(2024, 3, 1) in span
    assert date(2024, 3, 3) in span
    assert date(2024, 3, 4) not in span


def test_overlapping_spans_intersect():
    first = DateSpan(date(2024, 3, 1), date(2024, 3, 10))
    second = DateSpan(date(2024, 3, 5), date(2024, 3, 20))
    assert first.overlaps(second)
    assert first.intersection(second) == DateSpan(date(2024, 3, 5), date(2024, 3, 10))


@pytest.mark.parametrize(
    ("text", "days"),
    [
        pytest.param("2024-03-01..2024-03-01", 1, id="single day"),
        pytest.param("2024-02-01..2024-02-29", 29, id="leap february"),
        pytest.param("2023-12-30..2024-01-02", 4, id="across new year"),
    ],
)
def test_length_counts_both_ends(text, days):
    assert len(DateSpan.parse(text)) == days


def test_iteration_includes_the_end():
    days = list(DateSpan.parse("2024-03-01..2024-03-03"))
    assert days == [date(2024, 3, 1), date(2024, 3, 2), date(2024, 3, 3)]


def test_spans_sharing_one_day_overlap():
    first = DateSpan.parse("2024-03-01..2024-03-05")
    second = DateSpan.parse("2024-03-05..2024-03-09")
    assert first.overlaps(second)
    assert second.overlaps(first)
    only = first.intersection(second)
    assert only == DateSpan.parse("2024-03-05..2024-03-05")
    assert len(only) == 1


def test_disjoint_spans_do_not_intersect():
    first = DateSpan.parse("2024-03-01..2024-03-04")
    assert first.intersection(DateSpan.parse("2024-03-05..2024-03-09")) is None
