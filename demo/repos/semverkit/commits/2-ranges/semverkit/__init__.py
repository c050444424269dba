"""semverkit: semantic versions and version ranges."""
from .ranges import Range, max_satisfying
from .version import Version

__all__ = ["Range", "Version", "max_satisfying"]
