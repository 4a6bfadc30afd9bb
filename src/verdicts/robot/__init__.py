"""verdicts.robot — what to collect next for each evaluated robot task.

Inputs are one evaluation round: ``evaluation_run`` (one row per episode of one
``model_artifact``), ``task_spec`` (one row per task, with its thresholds) and
``dataset_index`` (what was collected for each task, where and with which hand).  One
card per task, with one of five verdicts in order of precedence.
"""

from .domain import DOMAIN, RobotDomain, judge_round
from .model import RobotCard, VERDICTS

__all__ = ["DOMAIN", "RobotDomain", "RobotCard", "VERDICTS", "judge_round"]
