"""verdicts.extraction — does each value an AI worker extracted match the source document?

One card per ``run_id:field_name`` cell (seed 000, restated in the spec
``extraction.md``): the value is judged by five ordered rules into one verdict, each
with evidence, a polite Korean sentence an operator reads before deciding, and a hedge.
"""

from .domain import DOMAIN, ExtractionDomain, judge_batch

__all__ = ["DOMAIN", "ExtractionDomain", "judge_batch"]
