"""Inclusive ranges of calendar days."""
from datetime import date, timedelta

ONE_DAY = timedelta(days=1)


class DateSpan:
    """All days from start to end, both included."""

    __slots__ = ("start", "end")

    def __init__(self, start, end):
        if end < start:
            raise ValueError(f"span ends before it starts: {start} > {end}")
        self.start = start
        self.end = end

    @classmethod
    def parse(cls, text):
        """Parse 'YYYY-MM-DD..YYYY-MM-DD'."""
        first, sep, last = text.partition("..")
        if not sep:
            raise ValueError(f"expected 'start..end', got {text!r}")
        return cls(date.fromisoformat(first.strip()), date.fromisoformat(last.strip()))

    @classmethod
    def coerce(cls, value):
        """A DateSpan from a DateSpan, a date (one day) or text ('YYYY-MM-DD' or 'a..b')."""
        if isinstance(value, DateSpan):
            return value
        if isinstance(value, date):
            return cls(value, value)
        if ".." in value:
            return cls.parse(value)
        day = date.fromisoformat(value.strip())
        return cls(day, day)

    def __repr__(self):
        return f"DateSpan({self.start.isoformat()}..{self.end.isoformat()})"

    def __eq__(self, other):
        return isinstance(other, DateSpan) and (self.start, self.end) == (other.start, other.end)

    def __hash__(self):
        return hash((self.start, self.end))

    def __contains__(self, day):
        return self.start <= day <= self.end

    def __len__(self):
        return (self.end - self.start).days + 1

    def __iter__(self):
        day = self.start
        while day <= self.end:
            yield day
            day += ONE_DAY

    def overlaps(self, other):
        """True when the spans share at least one day (ends are inclusive)."""
        return self.start <= other.end and other.start <= self.end

    def intersection(self, other):
        """The days both spans cover, or None."""
        if not self.overlaps(other):
            return None
        return DateSpan(max(self.start, other.start), min(self.end, other.end))
