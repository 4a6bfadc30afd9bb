"""verdicts — the shared core of the verdict domains.

Rows of input tables are judged by fixed rules into exactly one verdict each; every
judgement becomes a card with evidence, a one-sentence Korean summary and a hedge.  This
package owns what every domain shares: the card and evidence model, input issues,
reading tables, automatic checks, schema validation, grouping and reporters.
"""

from .domain import Domain, Report, domain_names, get_domain
from .errors import ConditionSyntaxError, ConfigError, InputError, VerdictsError
from .model import Card, CheckResult, Evidence, Finding, InputIssue, SourceInfo

__all__ = [
    "Card", "Evidence", "InputIssue", "CheckResult", "Finding", "SourceInfo", "Report", "Domain", "domain_names",
    "get_domain", "VerdictsError", "InputError", "ConditionSyntaxError", "ConfigError",
]
