"""dateranges: inclusive day spans and working-day arithmetic."""
from .schedule import add_business_days, business_days, is_business_day
from .span import DateSpan

__all__ = ["DateSpan", "add_business_days", "business_days", "is_business_day"]
