"""storygraph — tells story creators where their branching scenario gets stuck.

>>> from storygraph import lint
>>> report = lint("examples/lighthouse/scenario.csv")  # doctest: +SKIP
>>> {c.target_no: c.verdict for c in report.cards}["SC-19"]  # doctest: +SKIP
'어디서도 안 닿음'
"""

__all__ = ["lint", "DOMAIN", "__version__"]

#: declared, not assigned: the first read goes through ``__getattr__`` below
__version__: str


def __getattr__(name: str):
    # looked up when asked for, so that the command line starts without the analysis:
    # ``lint`` and ``DOMAIN`` import the domain; the version (importlib.metadata, about
    # 40 ms) is read only by the reports that name the tool
    if name in ("lint", "DOMAIN"):
        from . import domain

        return getattr(domain, name)
    if name != "__version__":
        raise AttributeError(f"module 'storygraph' has no attribute {name!r}")
    from verdicts.version import tool_version

    global __version__
    __version__ = tool_version()
    return __version__
