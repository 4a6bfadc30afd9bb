"""verdicts.residue — judge card E3: is placeholder or template residue visible on a
generated slide component?

Inputs are components (one YAML or JSON file each, a folder is a set): the page's own
content (``page_yaml``), the nodes the user text was bound into (``binding``), the
template's nodes inside (``frame_tree``) and outside (``outside_nodes``) the bound area,
the placeholder phrases, and the texts read off the picture (step 1, a pluggable reader).
One card per component, with one of five answers in order of precedence.  The card
itself (E3) is data: :mod:`.evalcard` reads and validates it.
"""

from .domain import DOMAIN, ResidueDomain, judge_components
from .model import ANSWERS, VERDICTS, ResidueCard

__all__ = ["DOMAIN", "ResidueDomain", "ResidueCard", "ANSWERS", "VERDICTS", "judge_components"]
