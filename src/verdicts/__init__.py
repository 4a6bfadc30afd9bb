"""verdicts — the shared core of the verdict domains.

Rows of input tables are judged by fixed rules into exactly one verdict each; every
judgement becomes a card with evidence, a one-sentence Korean summary and a hedge.  This
package owns what every domain shares: the card and evidence model, input issues,
reading tables, automatic checks, schema validation, grouping and reporters.
"""

__all__ = [
    "Card", "Evidence", "InputIssue", "CheckResult", "Finding", "SourceInfo", "Report", "Domain", "domain_names",
    "get_domain", "VerdictsError", "InputError", "ConditionSyntaxError", "ConfigError",
]

#: where each public name lives (imported when first asked for: a command line that
#: only needs the errors or the Korean helpers does not import the kit)
_HOMES = {
    "Domain": "domain", "Report": "domain", "domain_names": "domain", "get_domain": "domain",
    "ConditionSyntaxError": "errors", "ConfigError": "errors", "InputError": "errors", "VerdictsError": "errors",
    "Card": "model", "CheckResult": "model", "Evidence": "model", "Finding": "model", "InputIssue": "model",
    "SourceInfo": "model",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'verdicts' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f".{home}", __name__), name)
