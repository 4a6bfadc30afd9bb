"""storygraph — tells story creators where their branching scenario gets stuck.

>>> from storygraph import lint
>>> report = lint("examples/lighthouse/scenario.csv")  # doctest: +SKIP
>>> {c.target_no: c.verdict for c in report.cards}["SC-19"]  # doctest: +SKIP
'어디서도 안 닿음'
"""

from .domain import DOMAIN, lint

__all__ = ["lint", "DOMAIN", "__version__"]


def __getattr__(name: str) -> str:
    # the version is looked up when asked for: importlib.metadata costs about 40 ms of
    # every run's start, and only the reports that name the tool need it
    if name != "__version__":
        raise AttributeError(f"module 'storygraph' has no attribute {name!r}")
    from verdicts.version import tool_version

    global __version__
    __version__ = tool_version()
    return __version__
