"""verdicts.mail — did the mail an AI agent sent on the user's behalf stick to what the
original mail said?

Inputs are one mailbox round: ``agent_action`` (one row per mail the agent sent),
``mailbox_thread`` (one row per received message) and ``action_policy`` (one row per kind
of action, with its limits).  One card per action, with one of five verdicts in order of
precedence.
"""

from .domain import DOMAIN, MailDomain, judge_mailbox
from .model import MailCard, VERDICTS

__all__ = ["DOMAIN", "MailDomain", "MailCard", "VERDICTS", "judge_mailbox"]
