"""The installed tool's version (the ``storygraph`` distribution holds both packages)."""

from __future__ import annotations

from functools import lru_cache

__all__ = ["tool_version"]


@lru_cache(maxsize=None)
def tool_version() -> str:
    """The version of the installed distribution, or ``0.0.0+unknown`` when it is run
    from a tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("storygraph")
    except PackageNotFoundError:  # pragma: no cover
        return "0.0.0+unknown"
