"""dateranges: inclusive day spans and working-day arithmetic."""
from .schedule import add_business_days, business_days, business_days_per_week, is_business_day, weekly_chunks
from .span import DateSpan

__all__ = [
    "DateSpan",
    "add_business_days",
    "business_days",
    "business_days_per_week",
    "is_business_day",
    "weekly_chunks",
]
