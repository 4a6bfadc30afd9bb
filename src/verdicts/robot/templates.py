"""Korean sentence templates of the robot domain, keyed by verdict.

Every summary is one polite sentence (``-니다.``) a researcher can read without this
tool, with the deciding numbers in it: runs and successes, rates as percentages, the
median cycle in seconds, and where and with which hand to collect next.  A card whose
verdict stopped at a rule because a value was empty says so in its summary.  Hedges are
``(connective, final)`` clause pairs joined by :func:`verdicts.korean.join_clauses`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Sequence

from verdicts.korean import code, josa


__all__ = ["pct", "sec", "where", "Clause"]

Clause = tuple[str, str]


def pct(value: Decimal) -> str:
    """A rate as a percentage: ``0.63`` → ``63%``, ``0.875`` → ``87.5%``.

    >>> pct(Decimal("0.63")), pct(Decimal("1.00")), pct(Decimal("0.875"))
    ('63%', '100%', '87.5%')
    """
    return format((value * 100).normalize(), "f") + "%"


def sec(value: Decimal) -> str:
    """Seconds as written, without trailing zeros: ``12.40`` → ``12.4``.

    >>> sec(Decimal("12.40")), sec(Decimal("11")), sec(Decimal("1E+1"))
    ('12.4', '11', '10')
    """
    return format(value.normalize(), "f")


def where(site: str | None, hand: str | None) -> str:
    """``안산 현장에서 `parallel_2f` 손으로`` (parts that are unknown are left out)."""
    parts = [f"{site} 현장에서" if site else "수집 현장에서"]
    if hand:
        parts.append(f"{code(hand)} 손으로")
    return " ".join(parts)




# ------------------------------------------------------------------ 학습에 없는 조건


def skill_mismatch(*, required: str | None, have: str | None, has_row: bool, more: int | None, minimum: int | None,
                   site: str | None, hand: str | None) -> str:
    need = f"{code(required)} 능력" if required else "요구 능력"
    if not has_row:
        return (f"이 태스크에 필요한 {josa(need, '을/를')} 담은 수집 줄이 {code('dataset_index')}에 없어 "
                f"그 능력의 시연부터 새로 모아야 합니다.")
    short = f"최소 {minimum}회 기준에서 {more}회가 모자라며 " if more else ""
    return (f"이 태스크는 {josa(need, '이/가')} 필요한데 모아 둔 데이터는 {code(have) if have else '다른 능력'}뿐이고 {short}"
            f"{where(site, hand)} {need}의 시연을 새로 모아야 합니다.")


def not_evaluated(*, required: str | None, artifact: str, more: int | None, minimum: int | None) -> str:
    need = f"{code(required)} 능력" if required else "요구 능력"
    head = f"{need}의 데이터는 있지만 이번 회차에 모델 {josa(code(artifact), '으로/로')} 이 태스크를 한 번도 평가하지 않아 평가부터 돌려야 "
    if more:
        return head + f"하고, 수집 회차도 최소 {minimum}회에서 {more}회가 모자랍니다."
    return head + "합니다."


# ------------------------------------------------------------------ 성공률 미달


def below_target(*, runs: int, successes: int, rate: Decimal, target: Decimal, more: int | None, minimum: int | None,
                 site: str | None, hand: str | None) -> str:
    head = f"평가 {runs}회 중 {successes}회만 성공해 성공률 {josa(pct(rate), '이/가')} 목표 {pct(target)}에 못 미치므로 "
    if more:
        return head + f"{where(site, hand)} {more}회를 더 모아 최소 {minimum}회를 채워야 합니다."
    if more == 0:
        return head + f"회차 수 기준 {minimum}회는 채웠어도 {where(site, hand)} 실패가 난 상황을 더 모아야 합니다."
    return head + f"{where(site, hand)} 시연을 더 모아야 합니다."


# ------------------------------------------------------------------ 실패 유형 쏠림


def concentrated(*, total: int, reason: str, count: int, share: Decimal, limit: Decimal, site: str | None, hand: str | None) -> str:
    return (f"가장 잦은 실패 사유 {code(reason)} 하나가 실패 {total}회 가운데 {josa(f'{count}회({pct(share)})', '을/를')} 차지해 "
            f"쏠림 상한 {josa(pct(limit), '을/를')} 넘으므로 {where(site, hand)} 이 실패가 나는 상황을 골라 모아야 합니다.")


# ------------------------------------------------------------------ 작업 주기 초과


def cycle_over(*, rate: Decimal, target: Decimal, median: Decimal, limit: Decimal, site: str | None, hand: str | None) -> str:
    return (f"성공률 {josa(pct(rate), '은/는')} 목표 {josa(pct(target), '을/를')} 지켰지만 주기 중앙값이 {sec(median)}초로 "
            f"상한 {sec(limit)}초를 넘으므로 {where(site, hand)} 더 빠른 시연을 모아야 합니다.")


# ------------------------------------------------------------------ 배포 후보


def deploy(*, runs: int, successes: int, rate: Decimal, target: Decimal, median: Decimal, limit: Decimal) -> str:
    return (f"평가 {runs}회 중 {successes}회 성공해 성공률 {josa(pct(rate), '이/가')} 목표 {pct(target)} 이상이고 "
            f"주기 중앙값 {sec(median)}초도 상한 {sec(limit)}초 안이라 더 모으지 않고 배포 후보로 올릴 수 있습니다.")


# ------------------------------------------------------------------ hedges


def _names(values: Sequence[str]) -> str:
    """Column names quoted and joined: ```success`와 `cycle_sec```."""
    values = [code(v) for v in values]
    if len(values) == 1:
        return values[0]
    return ", ".join(values[:-2] + [josa(values[-2], "과/와") + " " + values[-1]])


def hedge_unnamed_failures(*, total: int, unnamed: int) -> Clause:
    base = f"실패 {total}회 가운데 {unnamed}회는 {code('failure_reason')} 값이 비어 어느 유형인지 세지 못했"
    return base + "고", base + "습니다."


def hedge_few_failures(*, total: int, share: Decimal, limit: Decimal) -> Clause:
    base = (f"가장 잦은 사유의 몫 {josa(pct(share), '이/가')} 상한 {josa(pct(limit), '을/를')} 넘지만 실패가 {total}회로 "
            f"3회에 못 미쳐 쏠림 판정은 건너뛰었")
    return base + "고", base + "습니다."


def hedge_episode_count_empty() -> Clause:
    base = f"{code('dataset_index')}의 {code('episode_count')} 값이 비어 몇 회를 더 모아야 하는지는 세지 못했"
    return base + "고", base + "습니다."


def hedge_min_episode_empty() -> Clause:
    base = f"{code('task_spec')}의 {code('min_episode_count')} 값이 비어 몇 회를 더 모아야 하는지는 세지 못했"
    return base + "고", base + "습니다."


def hedge_no_dataset_table() -> Clause:
    base = f"{code('dataset_index')} 표를 읽지 못해 모든 태스크에 수집 줄이 없는 것으로 보았"
    return base + "고", base + "습니다."


def hedge_no_runs() -> Clause:
    base = "이번 회차에 이 태스크의 평가를 돌리지 않아 성공률과 주기 칸은 비어 있"
    return base + "고", base + "습니다."


def hedge_success_unknown(*, unknown: int) -> Clause:
    base = f"{code('success')} 값을 알 수 없는 평가 줄이 {_rows(unknown)}라 성공률과 실패 집계 칸은 비워 두었"
    return base + "고", base + "습니다."


def hedge_cycle_unknown(*, unknown: int) -> Clause:
    base = f"{code('cycle_sec')} 값을 읽지 못한 평가 줄이 {_rows(unknown)}라 주기 중앙값 칸은 비워 두었"
    return base + "고", base + "습니다."


def _rows(n: int) -> str:
    return "하나뿐이" if n == 1 else f"{n}개"
