"""Korean sentence templates of storygraph, keyed by verdict.

Every summary is one polite sentence (``-니다.``) that a creator who never saw this tool
can read: scenes by ``title``, flags by ``label``, with the deciding numbers.  Hedges
are written as ``(connective, final)`` clause pairs so that several can be joined into
one sentence by :func:`verdicts.korean.join_clauses`.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from verdicts.korean import josa

from .conditions import And, Compare, Const, Expr, FlagTrue, Not, Or
from .model import Flag

__all__ = ["describe_condition", "id_list", "Clause"]

Clause = tuple[str, str]

_INT_OPS = {">=": "{v} 이상", ">": "{v} 초과", "<=": "{v} 이하", "<": "{v} 미만", "==": "{v}", "!=": "{v} 아님"}


def _label(flag: str, flags: Mapping[str, Flag]) -> str:
    spec = flags.get(flag)
    return spec.name if spec else flag


def describe_condition(expr: Expr | None, flags: Mapping[str, Flag]) -> str:
    """The condition in words, flags by label: ``trust >= 3 and not has_key`` →
    ``신뢰도 3 이상 그리고 열쇠 없음``."""
    if expr is None:
        return "읽지 못한 조건"
    if isinstance(expr, Const):
        return "조건 없음" if expr.value else "늘 거짓"
    if isinstance(expr, FlagTrue):
        return f"{_label(expr.flag, flags)} 있음"
    if isinstance(expr, Compare):
        label = _label(expr.flag, flags)
        spec = flags.get(expr.flag)
        if (spec is not None and spec.type == "bool") or isinstance(expr.value, bool):
            truth = bool(expr.value) == (expr.op == "==")
            return f"{label} {'있음' if truth else '없음'}"
        if isinstance(expr.value, str):
            return f"{label} {expr.value or '빈 값'}" + (" 아님" if expr.op == "!=" else "")
        return f"{label} " + _INT_OPS[expr.op].format(v=expr.value)
    if isinstance(expr, Not):
        if isinstance(expr.arg, FlagTrue):
            return f"{_label(expr.arg.flag, flags)} 없음"
        return f"({describe_condition(expr.arg, flags)}) 아님"
    joiner = " 그리고 " if isinstance(expr, And) else " 또는 "
    parts = []
    for arg in expr.args:
        text = describe_condition(arg, flags)
        parts.append(f"({text})" if isinstance(arg, (And, Or)) else text)
    return joiner.join(parts)


#: longer lists name the first few and count the rest
ID_LIST_LIMIT = 5


def id_list(ids: Sequence[str]) -> str:
    """``BR-1``, ``BR-1와 BR-2``, ``BR-1, BR-2와 BR-3``; past five, the first four and
    ``외 N개`` (a hedge on a scene with 2,000 branches stays readable)."""
    ids = list(ids)
    if len(ids) > ID_LIST_LIMIT:
        return f"{', '.join(ids[:ID_LIST_LIMIT - 1])} 외 {len(ids) - ID_LIST_LIMIT + 1}개"
    if len(ids) <= 1:
        return "".join(ids)
    return ", ".join(ids[:-2] + [josa(ids[-2], "과/와") + " " + ids[-1]])


#: how an opaque condition (``condition_opaque``) is named in sentences
OPAQUE_CONDITION = "알 수 없는 조건"


def when(cond_text: str) -> str:
    """``신뢰도 5 이상일 때`` or ``조건 없이``."""
    if cond_text == "조건 없음":
        return "조건 없이"
    if cond_text == OPAQUE_CONDITION:
        return "알 수 없는 조건에 따라"
    if cond_text == "읽지 못한 조건":
        return "읽지 못한 조건식으로"
    return f"{cond_text}일 때"


# ------------------------------------------------------------------ scene summaries


def scene_unreached(*, name: str, incoming: int, sources: Sequence[str]) -> str:
    if incoming == 0:
        return f"{josa(name, '은/는')} 시작 장면이 아니고 이 장면으로 오는 분기가 0개라 독자가 들어올 길이 없습니다."
    return (f"{josa(name, '으로/로')} 오는 분기 {incoming}개가 모두 독자가 닿지 못하는 "
            f"{id_list(sources)}에서 출발해 이 장면에도 아무도 들어오지 못합니다.")


def scene_no_ending(*, name: str, outgoing: int, onward: int, endings: int) -> str:
    if outgoing == 0:
        return f"{josa(name, '은/는')} 엔딩이 아닌데 나가는 분기가 0개라 여기 들어온 독자는 그 자리에서 멈춥니다."
    return f"{name}에 들어온 독자는 이어지는 장면 {onward}곳을 돌아도 엔딩 {endings}개 가운데 어디에도 닿지 못합니다."

def scene_reaches(*, name: str, is_entry: bool, is_ending: bool, reachable_endings: int, endings: int) -> str:
    if is_ending and not is_entry:
        return f"{josa(name, '은/는')} 엔딩 장면이라 여기 닿은 독자는 이야기를 마칩니다."
    if is_entry:
        return f"시작 장면인 {name}에서 출발한 독자는 엔딩 {endings}개 가운데 {reachable_endings}개에 닿을 수 있습니다."
    return f"{name}에 들어온 독자는 엔딩 {endings}개 가운데 {reachable_endings}개까지 길이 이어집니다."


# ------------------------------------------------------------------ branch summaries


def branch_missing_target(*, branch_id: str, from_name: str, condition: str, to_scene: str, scenes: int) -> str:
    return (f"{from_name}에서 {when(condition)} 갈라지는 {josa(branch_id, '이/가')} 장면 {scenes}개 목록에 없는 "
            f"{josa(to_scene, '을/를')} 가리켜 그 자리에서 이야기가 끊깁니다.")


def branch_unreached(*, branch_id: str, from_scene: str, from_name: str | None, incoming: int) -> str:
    if from_name is None:
        return f"{josa(branch_id, '이/가')} 출발하는 {josa(from_scene, '은/는')} 장면 목록에 없어 이 분기를 지나는 독자가 없습니다."
    return (f"{from_name}에는 시작 장면에서 이어지는 길이 없어(들어오는 분기 {incoming}개) "
            f"그곳에서 출발하는 {josa(branch_id, '을/를')} 지나는 독자가 없습니다.")


def branch_shadowing(*, branch_id: str, order_no: int | None, from_name: str, later_id: str, later_order: int | None,
                     later_condition: str, covers: Sequence[str], unsatisfiable: bool, role: str = "auto") -> str:
    later = f"순번 {later_order}의 {later_id}({later_condition})"
    if role == "choice" and not unsatisfiable:
        return (f"{from_name}에서 메뉴보다 앞선 자동 분기 {josa(id_list(covers), '이/가')} {josa(later, '이/가')} 열릴 모든 경우에 "
                f"먼저 걸려 선택지 {josa(later_id, '은/는')} 어떤 독자에게도 제시되지 않습니다.")
    if role == "fallback" and not unsatisfiable:
        return (f"{from_name}에서 {josa(id_list(covers), '이/가')} 모든 독자에게 늘 하나 이상 걸리거나 제시되어 메뉴 뒤의 대비 분기인 "
                f"{josa(later, '은/는')} 어떤 독자에게도 걸리지 않습니다.")
    if unsatisfiable:
        return (f"{from_name}에서 순번 {order_no}인 {branch_id} 바로 뒤의 {josa(later, '은/는')} "
                f"플래그 범위 안에서 조건이 참이 될 수 없어 어떤 독자에게도 나오지 않습니다.")
    if list(covers) == [branch_id]:
        return (f"{from_name}에서 순번 {order_no}인 {branch_id}의 조건이 {josa(later, '을/를')} 남김없이 덮어 "
                f"{josa(later_id, '은/는')} 어떤 독자에게도 나오지 않습니다.")
    return (f"{from_name}에서 앞 순번 {id_list(covers)}의 조건 {len(covers)}개가 합쳐서 {josa(later, '을/를')} 남김없이 덮어 "
            f"{josa(later_id, '은/는')} 어떤 독자에게도 나오지 않습니다.")


def branch_no_ending(*, branch_id: str, from_name: str, to_name: str, endings: int) -> str:
    return (f"{from_name}에서 {josa(to_name, '으로/로')} 가는 {josa(branch_id, '을/를')} 탄 독자는 "
            f"그 뒤로 엔딩 {endings}개 가운데 어디에도 닿지 못합니다.")


def branch_reaches(*, branch_id: str, from_name: str, condition: str, to_name: str, to_is_ending: bool, reachable_endings: int) -> str:
    if to_is_ending:
        return f"{from_name}에서 {when(condition)} 엔딩 {josa(to_name, '으로/로')} 바로 이어지는 분기 {josa(branch_id, '은/는')} 이야기를 끝까지 이끕니다."
    return (f"{from_name}에서 {when(condition)} {josa(to_name, '으로/로')} 이어지는 {josa(branch_id, '은/는')} "
            f"그 뒤로 엔딩 {reachable_endings}개까지 길이 열려 있습니다.")


# ------------------------------------------------------------------ hedges


def hedge_never_fires(*, covers: Sequence[str], same_target: bool, to_name: str, role: str = "auto") -> Clause:
    if role == "choice":
        head = f"메뉴보다 앞선 자동 분기 {josa(id_list(covers), '이/가')} 늘 먼저 걸려 이 선택지는 메뉴에 나오지 않"
    elif role == "fallback":
        head = f"{josa(id_list(covers), '이/가')} 늘 하나 이상 걸리거나 제시되어 메뉴 뒤의 이 대비 분기는 실제로 걸리지 않"
    else:
        head = f"앞 순번 {josa(id_list(covers), '이/가')} 조건을 모두 덮어 이 분기는 실제로 나오지 않"
    if same_target:
        base = f"{head}지만 같은 {josa(to_name, '으로/로')} 가는 중복이라 길이 끊기지는 않"
        return base + "고", base + "습니다."
    base = f"{head}으므로 {josa(to_name, '으로/로')} 가는 이 길은 어떤 독자도 밟지 못하"
    return base + "고", base + "는 길입니다."

def hedge_unsatisfiable(*, condition: str, first: bool) -> Clause:
    head = "순번 맨 앞이라 가리는 분기는 없지만 " if first else ""
    base = f"{head}이 분기의 조건({condition})은 플래그 범위 안에서 그 자체로 참이 될 수 없어 한 번도 나오지 않"
    return base + "고", base + "습니다."


def hedge_opaque(*, source: str | None) -> Clause:
    written = f"이 분기의 조건은 원래 '{source}'라고 적혀 있는데" if source else "이 분기의 원래 조건은"
    base = (f"{written} 조건식 언어로 옮기지 못해 적힌 그대로 읽지 못했으므로 걸릴 수도 있고 안 걸릴 수도 있는 것으로 보아 "
            f"겹침과 막힌 조합을 따지지 않았")
    return base + "고", base + "습니다."


def hedge_later_unsatisfiable(*, later_id: str) -> Clause:
    base = f"뒤 순번 {josa(later_id, '은/는')} 이 분기와 상관없이 조건 자체가 참이 될 수 없는 경우"
    return base + "이고", base + "입니다."

def hedge_undecided(*, code: str, scene_name: str, siblings: Sequence[str], column: str | None,
                    branch_ids: Sequence[str], flags: Sequence[str]) -> Clause:
    others = f"같은 장면의 {josa(id_list(siblings), '과/와')} " if siblings else ""
    reason = {
        "no_flags": f"{scene_name}에 쓸 수 있는 플래그(available_flags)가 적혀 있지 않아",
        "column": f"입력에 {column} 열이 없어",
        "order": f"{id_list(branch_ids)}의 order_no가 비었거나 겹쳐 어느 분기가 먼저 걸리는지 몰라",
        "syntax": f"{id_list(branch_ids)}의 조건식을 읽지 못해",
        "kind": f"{id_list(branch_ids)}의 kind가 auto도 choice도 아니라 어느 분기가 먼저 걸리는지 몰라",
        "undeclared": f"flag_spec에 없는 플래그 {josa(id_list(flags), '을/를')} 써서",
        "bad_flag": f"flag_spec에서 받아들이지 않은 플래그 {josa(id_list(flags), '을/를')} 써서",
        "type": f"{id_list(flags)} 비교가 flag_spec의 형식과 맞지 않아",
        "not_available": f"{josa(id_list(flags), '이/가')} {scene_name}의 available_flags에 없어",
        "budget": f"{scene_name}에서 나가는 분기의 조건이 너무 많이 얽혀 계산 한도 안에 끝나지 않아",
    }[code]
    base = f"{reason} {others}조건이 겹치는지는 따지지 않았"
    return base + "고", base + "습니다."

def hedge_island(*, sources: Sequence[str]) -> Clause:
    base = f"이 장면은 독자가 닿지 못하는 {id_list(sources)}에서만 들어오는 자리라 그쪽에 길을 내면 함께 열리"
    return base + "고", base[:-1] + "립니다."

def hedge_missing_target(*, to_scene: str, close: str | None, rejected_lines: Sequence[int]) -> Clause:
    if close:
        base = f"{josa(to_scene, '은/는')} 있는 장면 {close}의 오타일 수도 있어 분기를 고칠지 장면을 새로 만들지는 창작자가 정"
    elif rejected_lines:
        lines = ", ".join(str(n) for n in rejected_lines[:3])
        base = f"scene_id가 비어 판정하지 못한 장면 줄({lines}번째 줄)이 {to_scene}일 수도 있어 그 줄을 채울지 분기를 고칠지는 창작자가 정"
    else:
        base = f"{josa(to_scene, '이/가')} 지운 장면인지 아직 쓰지 않은 장면인지는 알 수 없어 장면을 만들지 분기를 옮길지는 창작자가 정"
    return base + "하고", base + "합니다."

def hedge_from_missing_scene(*, from_scene: str) -> Clause:
    base = f"출발 장면 {josa(from_scene, '이/가')} 목록에 없어 이 분기의 조건이 겹치는지도 따지지 않"
    return base + "았고", base + "았습니다."


# ------------------------------------------------------------------ lint findings


def _count_text(count: int | None, total: int | None) -> str:
    if count is None or total is None:
        return "셀 수 없이 많은 조합"
    return f"조합 {total}개 가운데 {count}개"


def finding_unsatisfiable(*, branch_id: str, condition: str) -> str:
    return f"{branch_id}의 조건({condition})은 플래그 범위 안에서 참이 될 수 없어 이 분기는 한 번도 나오지 않습니다."


def _nothing_taken(menu: bool) -> str:
    return "자동 분기가 하나도 걸리지 않고 선택지도 하나 제시되지 않아" if menu else "나가는 분기가 하나도 걸리지 않아"


def finding_stuck(*, name: str, description: str, count: int | None, total: int | None, example: str,
                  menu: bool = False) -> str:
    return (f"{name}에서 {description}인 독자에게는 {_nothing_taken(menu)}({_count_text(count, total)}) "
            f"예를 들어 {josa(example, '이라/라')}면 이야기가 멈춥니다.")


def hedge_stuck_undecided() -> Clause:
    base = "플래그 조합이 너무 많아 어떤 조합의 독자가 이 장면에서 멈추는지는 계산 한도 안에 다 따지지 못했"
    return base + "고", base + "습니다."


def hedge_stuck(*, description: str, count: int | None, total: int | None, menu: bool = False) -> Clause:
    base = f"{description}인 독자에게는 {_nothing_taken(menu)}({_count_text(count, total)}) 이 장면에서 멈추"
    return base + "고", base[:-1] + "춥니다."


def finding_reached_only_dead(*, name: str, branches: Sequence[str]) -> str:
    return (f"{josa(name, '은/는')} 실제로는 한 번도 걸리지 않는 {josa(id_list(branches), '을/를')} 거쳐야만 들어올 수 있어 "
            f"어떤 독자도 닿지 못합니다.")


def hedge_reached_only_dead(*, branches: Sequence[str]) -> Clause:
    base = f"이 장면으로 오는 길은 실제로 걸리지 않는 {id_list(branches)}에 기대고 있어 실제 독자는 여기 닿지 못하"
    return base + "고", base[:-1] + "합니다."


def finding_used_up_menu(*, name: str, choices: Sequence[str]) -> str:
    return (f"{josa(name, '은/는')} 한 번만 고를 수 있는 선택지 {len(choices)}개({id_list(choices)})만 내놓는데 "
            f"어느 것을 골라도 이 장면으로 돌아올 수 있어, 모두 고른 독자가 다시 오면 고를 것이 남지 않아 이야기가 멈춥니다.")


def finding_ending_only_dead(*, name: str, branches: Sequence[str]) -> str:
    return (f"{name}에서 엔딩으로 가는 길은 실제로 한 번도 걸리지 않는 {id_list(branches)}뿐이라 "
            f"여기 온 독자는 이야기를 끝내지 못합니다.")


def hedge_ending_only_dead(*, branches: Sequence[str]) -> Clause:
    base = f"엔딩으로 가는 길이 실제로 걸리지 않는 {id_list(branches)}에 기대고 있어 실제 독자는 끝까지 가지 못하"
    return base + "고", base[:-1] + "합니다."


def finding_unused_flag(*, flag: str, label: str) -> str:
    shown = flag if label == flag else f"{label}({flag})"
    return f"flag_spec에 선언된 {josa(shown, '은/는')} 어느 조건식에도 쓰이지 않습니다."


def finding_available_unused(*, name: str, flags: Sequence[str]) -> str:
    return f"{name}의 available_flags에 적힌 {josa(id_list(flags), '은/는')} 이 장면의 어느 분기 조건에도 쓰이지 않습니다."


def finding_out_of_range(*, branch_id: str, comparison: str, label: str, lo: int | None, hi: int | None, truth: bool) -> str:
    always = "늘 참" if truth else "늘 거짓"
    return f"{branch_id}의 비교 {josa(comparison, '은/는')} {label} 범위 {lo}–{hi} 안에서 {always}이라 아무것도 가르지 못합니다."


def finding_always_true(*, branch_id: str, condition: str, later: Sequence[str]) -> str:
    return (f"{branch_id}의 조건 {josa(condition, '은/는')} 어떤 독자에게나 참이라 "
            f"뒤 순번 {josa(id_list(later), '은/는')} 한 번도 나오지 않습니다.")
