"""storygraph — tells story creators where their branching scenario gets stuck.

>>> from storygraph import lint
>>> report = lint("examples/lighthouse/scenario.csv")  # doctest: +SKIP
>>> {c.target_no: c.verdict for c in report.cards}["SC-19"]  # doctest: +SKIP
'어디서도 안 닿음'
"""

from importlib.metadata import PackageNotFoundError, version

from .domain import DOMAIN, lint

try:
    __version__ = version("storygraph")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0.0.0+unknown"

__all__ = ["lint", "DOMAIN", "__version__"]
