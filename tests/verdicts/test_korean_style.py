"""Every Korean sentence the tools write, read as a careful editor would.

Three parts:

* each defect kind of :mod:`korean_style` is caught on a sentence that has it, and a
  corrected sentence passes (so the checks below can fail);
* golden sentences: one table of template → expected sentence for representative
  inputs, every variant of the condition wording included;
* every text the bundled examples make — storygraph's examples, the gold scenarios and
  the generated corpus (as ``tests/golden/out`` holds them), the robot round, and the
  mail, extraction and residue examples run here — and a few CLI error messages,
  checked by the patterns and, on a sample, by kiwipiepy's morphological analyser.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from storygraph import templates as T
from storygraph.conditions import parse_condition
from storygraph.model import Flag
from verdicts.korean import joins_caveats, josa
from verdicts.robot import templates as RT
from verdicts.residue import templates as ST

from .korean_style import KINDS, english_headings, kiwi_problems, style_problems

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "out"
BIN = Path(sys.executable).parent

# ----------------------------------------------------------------------------- each defect kind is caught

#: (kind, a sentence with the defect, the sentence corrected)
DEFECTS = [
    ("fallback-particle", "플래그 `season`이(가) 목록에 없습니다.", "플래그 `season`이 목록에 없습니다."),
    ("semicolon", "이 자리에 올 수 없습니다; 정수가 와야 합니다.", "이 자리에는 정수가 와야 합니다."),
    ("repeated-word", "이 태스크에 필요한 필요한 능력이 없습니다.", "이 태스크에 필요한 능력이 없습니다."),
    ("seed-term", "자기 채점 칸은 보고서 화면에 있습니다.", "자가채점 칸은 보고서 화면에 있습니다."),
    ("count-word", "이 장면으로 오는 분기가 0개라 길이 없습니다.", "이 장면으로 오는 분기가 하나도 없어 길이 없습니다."),
    ("count-word", "오는 분기 1개가 모두 막혔습니다.", "오는 분기는 하나뿐인데 막혔습니다."),
    ("count-word", "엔딩 3개 가운데 3개에 닿을 수 있습니다.", "엔딩 3개 모두에 닿을 수 있습니다."),
    ("count-word", "조건 1개가 합쳐서 덮습니다.", "조건이 덮습니다."),
    ("noun-form-predicate", "남쪽 항로 있음일 때 이어집니다.", "남쪽 항로가 있을 때 이어집니다."),
    ("logic-word", "신뢰도 3 이상 그리고 열쇠 있을 때 이어집니다.", "신뢰도가 3 이상이고 열쇠가 있을 때 이어집니다."),
    ("unquoted-code", "분기의 비교 trust > 5는 늘 거짓입니다.", "분기의 비교 `trust > 5`는 늘 거짓입니다."),
    ("unquoted-code", "BR-51의 조건은 참이 될 수 없습니다.", "분기 `BR-51`의 조건은 참이 될 수 없습니다."),
    ("unquoted-code", "available_flags에 없는 플래그입니다.", "`available_flags`에 없는 플래그입니다."),
    ("code-subject", "`SC-88`이 지운 장면인지는 알 수 없습니다.", "장면 `SC-88`이 지운 장면인지는 알 수 없습니다."),
    ("particle-agreement", "장면 `Tower`은 엔딩입니다.", "장면 `Tower`는 엔딩입니다."),
    ("particle-agreement", "장면 `SC-10`로 갑니다.", "장면 `SC-10`으로 갑니다."),
    ("particle-agreement", "`required_skill`와 맞지 않습니다.", "`required_skill`과 맞지 않습니다."),
    ("space-before-particle", "`evidence` 의 값이 같습니다.", "`evidence`의 값이 같습니다."),
    ("single-quoted-code", "플래그 'trsut'은 `flag_spec`에 없습니다.", "플래그 `trsut`은 `flag_spec`에 없습니다."),
    ("single-quoted-code", "장면 'SC-88'에서 나가는 분기가 없습니다.", "장면 `SC-88`에서 나가는 분기가 없습니다."),
    ("single-quoted-code", "'--plant' 값은 `KIND=N` 꼴이어야 합니다.", "`--plant` 값은 `KIND=N` 꼴이어야 합니다."),
    ("english-heading", "What it flags: 어떤 장면도 닿지 않습니다.", "잡는 것: 어떤 장면도 닿지 않습니다."),
    ("english-heading", "**Instead.** 분기를 더하세요.", "**고치는 법.** 분기를 더하세요."),
    # issue 30, item 6: each wording a Korean editor sent back, as the tools wrote it
    ("quantifier-particle", "등대 입구에 들어온 독자는 엔딩 107개 모두까지 길이 이어집니다.",
     "등대 입구에 들어온 독자는 엔딩 107개 모두로 길이 이어집니다."),
    ("decimal-hours", "관리사무소 대화에 나간 회신은 회신 기준이 12시간인데 받은 지 12.13시간 뒤에 나가 0.13시간 늦었습니다.",
     "관리사무소 대화에 나간 회신은 회신 기준이 12시간인데 받은 지 12시간 8분 뒤에 나가 8분 늦었습니다."),
    ("enum-value-form", "해안에서 날씨가 흐렸을 때 등대로 이어지는 분기입니다.", "해안에서 날씨가 “흐림”일 때 등대로 이어지는 분기입니다."),
    ("enum-value-form", "해안에서 날씨가 비일 때 등대로 이어지는 분기입니다.", "해안에서 날씨가 “비”일 때 등대로 이어지는 분기입니다."),
    ("enum-value-form", "안개 낀 해안에서 등불이 꺼졌고 열쇠가 없는 독자는 멈춥니다.",
     "안개 낀 해안에서 등불이 “꺼짐”이고 열쇠가 없는 독자는 멈춥니다."),
    ("quotation-mark", "아직 검사한 시나리오가 없습니다. 「샘플 데이터로 보기」를 누르세요.",
     "아직 검사한 시나리오가 없습니다. “샘플 데이터로 보기”를 누르세요."),
    ("quotation-mark", "임시 문구 『제목 입력』은 위성 자리에만 있어 결함으로 세지 않습니다.",
     "임시 문구 “제목 입력”은 위성 자리에만 있어 결함으로 세지 않습니다."),
    ("translationese", "판정 순서에서 앞선 사유로 카드를 세우고 넘긴 시간은 남겨 두었습니다.",
     "판정은 순서가 앞선 사유를 따랐고 넘긴 시간은 남겨 두었습니다."),
    ("translationese", "`trust >= 5` 비교가 신뢰도 범위 0–5 안에서 독자를 가릅니다.",
     "`trust >= 5` 비교가 신뢰도 범위 0–5 안에서 참도 거짓도 될 수 있습니다."),
    ("translationese", "분기를 더하면 아무 분기도 걸리지 않던 조합이 모두 닫힙니다.",
     "분기를 더하면 아무 분기도 걸리지 않던 조합에도 모두 갈 길이 생깁니다."),
    ("rejected-term", "`field` 이름이 세 표의 컬럼에 실제로 있는지 대조합니다.", "`field` 이름이 세 표의 열에 실제로 있는지 대조합니다."),
    ("rejected-term", "성공률은 지켰지만 한 사이클 중앙값이 12.43초로 상한을 넘습니다.", "성공률은 지켰지만 주기 중앙값이 12.43초로 상한을 넘습니다."),
    ("rejected-term", "문구가 가리킨 페이지에 없습니다.", "문구가 가리킨 쪽에 없습니다."),
    ("card-field-term", "넘긴 시간은 `overdue_hours` 칸에 남겨 두었습니다.", "넘긴 시간은 `overdue_hours` 필드에 남겨 두었습니다."),
    ("jargon", "카드마다 시드의 출력 스키마로 검사합니다.", "카드마다 명세의 출력 스키마로 검사합니다."),
    ("jargon", "키트의 필수 필드 검사는 `null`을 없는 것으로 봅니다.", "공통 필수 필드 검사는 `null`을 없는 것으로 봅니다."),
    ("jargon", "대치 규칙이 허용하므로(결정 11) 결함은 아닙니다.", "대치 규칙이 허용하므로 결함은 아닙니다."),
    ("particle-agreement", "`storygraph explain NAME`로 자세한 설명을 봅니다.", "`storygraph explain NAME`으로 자세한 설명을 봅니다."),
]


@pytest.mark.parametrize("kind,bad,good", DEFECTS, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(DEFECTS)])
def test_each_defect_kind_is_caught(kind, bad, good):
    assert any(p.startswith(kind) for p in style_problems(bad)), style_problems(bad)
    assert style_problems(good) == []


def test_every_kind_has_a_case():
    covered = {k for k, _, _ in DEFECTS} | {k for k, _, _ in KIWI_DEFECTS}
    assert covered == set(KINDS)


#: what only the analyser sees (the patterns pass these)
KIWI_DEFECTS = [
    ("particle-agreement", "선창는 엔딩입니다.", "선창은 엔딩입니다."),
    ("noun-form-predicate", "등불 꺼짐일 때 나갑니다.", "등불이 꺼졌을 때 나갑니다."),
    ("spacing", "등대지기의방에 들어온 독자는 멈춥니다.", "등대지기의 방에 들어온 독자는 멈춥니다."),
]


def test_the_analyser_catches_what_patterns_miss():
    bad = [b for _, b, _ in KIWI_DEFECTS]
    good = [g for _, _, g in KIWI_DEFECTS]
    found = kiwi_problems(bad)
    for kind, text, _ in KIWI_DEFECTS:
        assert any(t == text and p.startswith(kind) for t, p in found), (kind, text, found)
    assert kiwi_problems(good) == []


# ----------------------------------------------------------------------------- josa on Latin and digit endings


@pytest.mark.parametrize("word,pair,expected", [
    ("Tower", "은/는", "Tower는"), ("weather", "은/는", "weather는"), ("editor", "이/가", "editor가"),
    ("hotel", "으로/로", "hotel로"), ("room", "을/를", "room을"), ("ring", "이/가", "ring이"),
    ("name", "은/는", "name은"), ("code", "을/를", "code를"), ("luck", "을/를", "luck을"), ("robot", "이/가", "robot이"),
    ("`required_skill`", "과/와", "`required_skill`과"), ("`BR-13`", "을/를", "`BR-13`을"), ("`SC-10`", "으로/로", "`SC-10`으로"),
    ("SQL", "은/는", "SQL은"), ("HTML", "은/는", "HTML은"), ("API", "을/를", "API를"),
    ("20", "이/가", "20이"), ("100", "이/가", "100이"), ("1000", "은/는", "1000은"), ("20,000", "을/를", "20,000을"),
    ("3.5", "이/가", "3.5가"), ("0", "은/는", "0은"), ("63%", "이/가", "63%가"),
])
def test_josa_reads_latin_and_digits(word, pair, expected):
    assert josa(word, pair) == expected


# ----------------------------------------------------------------------------- golden sentences

FLAGS = {
    "trust": Flag("trust", "신뢰도", "int", 0, 5, (), 1),
    "has_key": Flag("has_key", "열쇠", "bool", None, None, (), 2),
    "route_south": Flag("route_south", "남쪽 항로", "bool", None, None, (), 3),
    "lamp": Flag("lamp", "등불", "enum", None, None, ("꺼짐", "희미함", "밝음"), 4),
    "weather": Flag("weather", "날씨", "enum", None, None, ("맑음", "안개", "폭풍", "비", "흐림"), 5),
    "luck": Flag("luck", None, "int", 0, 9, (), 6),
}

CONDITIONS = [
    ("has_key", "열쇠가 있을 때"),
    ("not has_key", "열쇠가 없을 때"),
    ("has_key == false", "열쇠가 없을 때"),
    ("route_south", "남쪽 항로가 있을 때"),
    ('lamp != "꺼짐"', "등불이 “꺼짐”이 아닐 때"),
    ('lamp == "꺼짐"', "등불이 “꺼짐”일 때"),
    ('lamp == "희미함"', "등불이 “희미함”일 때"),
    ('lamp != "밝음"', "등불이 “밝음”이 아닐 때"),
    ('weather == "안개"', "날씨가 “안개”일 때"),
    ('weather == "비"', "날씨가 “비”일 때"),
    ('weather == "흐림"', "날씨가 “흐림”일 때"),
    ('weather != "폭풍"', "날씨가 “폭풍”이 아닐 때"),
    ('weather == "맑음" or weather == "안개"', "날씨가 “맑음”이거나 “안개”일 때"),
    ("trust >= 3", "신뢰도가 3 이상일 때"),
    ("trust > 5", "신뢰도가 5보다 클 때"),
    ("trust < 3", "신뢰도가 3보다 작을 때"),
    ("trust <= 1", "신뢰도가 1 이하일 때"),
    ("trust == 10", "신뢰도가 10일 때"),
    ("trust != 2", "신뢰도가 2가 아닐 때"),
    ("not trust >= 3", "신뢰도가 3보다 작을 때"),
    ("trust >= 2 and trust <= 4", "신뢰도가 2 이상이고 4 이하일 때"),
    ("trust >= 3 and has_key", "신뢰도가 3 이상이고 열쇠가 있을 때"),
    ("trust >= 3 or has_key", "신뢰도가 3 이상이거나 열쇠가 있을 때"),
    ('lamp == "꺼짐" and has_key', "등불이 “꺼짐”이고 열쇠가 있을 때"),
    ("(trust >= 3 and has_key) or route_south", "신뢰도가 3 이상이고 열쇠가 있는 경우이거나 남쪽 항로가 있을 때"),
    ("not (trust >= 3 and has_key)", "신뢰도가 3 이상이고 열쇠가 있는 경우가 아닐 때"),
    ("luck >= 7", "플래그 `luck`이 7 이상일 때"),
    ("true", "조건 없이"),
    # a condition whose types do not fit is quoted, never worded
    ("has_key >= 1", "형식이 맞지 않는 조건식 `has_key >= 1`에 따라"),
    ('trust >= "3"', '형식이 맞지 않는 조건식 `trust >= "3"`에 따라'),
    ("season == 1", "형식이 맞지 않는 조건식 `season == 1`에 따라"),
]


@pytest.mark.parametrize("source,expected", CONDITIONS)
def test_condition_wording(source, expected):
    cond = T.describe_condition(parse_condition(source), FLAGS, source)
    assert cond.when == expected
    assert style_problems(f"장면에서 {cond.when} 갈라지는 분기입니다.") == []


def _c(source: str):
    return T.describe_condition(parse_condition(source), FLAGS, source)


#: (template call, expected sentence) — one row a variant
SENTENCES = [
    (lambda: T.scene_unreached(name="선장의 고백", incoming=0, sources=[]),
     "선장의 고백은 시작 장면이 아닌데 이 장면으로 오는 분기가 하나도 없어 독자가 들어올 길이 없습니다."),
    (lambda: T.scene_unreached(name="숨겨진 편지", incoming=1, sources=["선장의 고백(`SC-19`)"]),
     "숨겨진 편지로 오는 분기는 하나뿐인데 그 분기가 독자가 닿지 못하는 선장의 고백(`SC-19`)에서 출발해 이 장면에도 아무도 들어오지 못합니다."),
    (lambda: T.scene_unreached(name="Tower", incoming=2, sources=["A(`S1`)", "B(`S2`)"]),
     "Tower로 오는 분기 2개가 모두 독자가 닿지 못하는 A(`S1`)와 B(`S2`)에서 출발해 이 장면에도 아무도 들어오지 못합니다."),
    (lambda: T.scene_no_ending(name="막힌 수문", outgoing=0, onward=0, endings=3),
     "막힌 수문은 엔딩이 아닌데 나가는 분기가 하나도 없어 여기 들어온 독자는 그 자리에서 멈춥니다."),
    (lambda: T.scene_no_ending(name="안개 속 표류", outgoing=1, onward=1, endings=3),
     "안개 속 표류에 들어온 독자는 이어지는 장면 한 곳을 돌아도 엔딩 3개 가운데 어디에도 닿지 못합니다."),
    (lambda: T.scene_no_ending(name="미로", outgoing=2, onward=4, endings=1),
     "미로에 들어온 독자는 이어지는 장면 4곳을 돌아도 하나뿐인 엔딩에 닿지 못합니다."),
    (lambda: T.scene_no_ending(name="맴도는 방", outgoing=1, onward=0, endings=0),
     "맴도는 방에 들어온 독자는 이 장면을 맴돌 뿐 닿을 엔딩이 하나도 없어 이야기를 끝내지 못합니다."),
    (lambda: T.scene_reaches(name="부두의 첫 만남", is_entry=True, is_ending=False, reachable_endings=3, endings=3),
     "시작 장면인 부두의 첫 만남에서 출발한 독자는 엔딩 3개 모두에 닿을 수 있습니다."),
    (lambda: T.scene_reaches(name="등대 입구", is_entry=False, is_ending=False, reachable_endings=1, endings=3),
     "등대 입구에 들어온 독자는 엔딩 3개 가운데 하나까지 길이 이어집니다."),
    (lambda: T.scene_reaches(name="선술집", is_entry=False, is_ending=False, reachable_endings=2, endings=3),
     "선술집에 들어온 독자는 엔딩 3개 가운데 2개까지 길이 이어집니다."),
    (lambda: T.scene_reaches(name="단 하나의 길", is_entry=False, is_ending=False, reachable_endings=1, endings=1),
     "단 하나의 길에 들어온 독자는 하나뿐인 엔딩까지 길이 이어집니다."),
    (lambda: T.scene_reaches(name="등대의 불빛", is_entry=False, is_ending=True, reachable_endings=1, endings=3),
     "등대의 불빛은 엔딩 장면이라 여기 닿은 독자는 이야기를 마칩니다."),
    (lambda: T.undone(why=T.undone_reached_only_dead(branches=["BR-14"]),
                      summary="비밀 창고에 들어온 독자는 엔딩 3개 가운데 하나까지 길이 이어집니다."),
     "한 번도 걸리지 않는 분기 `BR-14`를 거쳐야만 들어오는 곳이라 실제 독자는 여기 닿지 못하지만, 표의 길만 따지면 "
     "비밀 창고에 들어온 독자는 엔딩 3개 가운데 하나까지 길이 이어집니다."),
    (lambda: T.undone(why=T.undone_ending_only_dead(branches=["BR-46"]),
                      summary="지하 수로에 들어온 독자는 엔딩 3개 가운데 하나까지 길이 이어집니다."),
     "엔딩으로 가는 길이 한 번도 걸리지 않는 분기 `BR-46`뿐이라 실제 독자는 끝까지 가지 못하지만, 표의 길만 따지면 "
     "지하 수로에 들어온 독자는 엔딩 3개 가운데 하나까지 길이 이어집니다."),
    (lambda: T.branch_missing_target(branch_id="BR-42", from_name="등대지기의 방", condition=_c("trust >= 5"), to_scene="SC-88", scenes=32),
     "등대지기의 방에서 신뢰도가 5 이상일 때 갈라지는 분기 `BR-42`가 장면 32개의 목록에 없는 `SC-88`을 가리켜 그 자리에서 이야기가 끊깁니다."),
    (lambda: T.branch_unreached(branch_id="BR-30", from_scene="SC-19", from_name="선장의 고백", incoming=0),
     "선장의 고백에는 들어오는 분기가 하나도 없어 그곳에서 출발하는 분기 `BR-30`을 지나는 독자가 없습니다."),
    (lambda: T.branch_unreached(branch_id="BR-31", from_scene="SC-20", from_name="숨겨진 편지", incoming=1),
     "숨겨진 편지에는 시작 장면에서 이어지는 길이 없어 그곳에서 출발하는 분기 `BR-31`을 지나는 독자가 없습니다."),
    (lambda: T.branch_unreached(branch_id="BR-9", from_scene="SC-X", from_name=None, incoming=0),
     "분기 `BR-9`가 출발하는 장면 `SC-X`는 장면 목록에 없어 이 분기를 지나는 독자가 없습니다."),
    (lambda: T.branch_shadowing(branch_id="BR-13", order_no=3, from_name="창고 뒷골목", later_id="BR-14", later_order=4,
                                later_condition=_c("trust >= 3 and has_key"), covers=["BR-13"], unsatisfiable=False),
     "창고 뒷골목에서 순번 3인 분기 `BR-13`의 조건이 순번 4인 분기 `BR-14`(신뢰도가 3 이상이고 열쇠가 있을 때)를 남김없이 덮어 "
     "뒤의 분기는 어떤 독자에게도 나오지 않습니다."),
    (lambda: T.branch_shadowing(branch_id="BR-61", order_no=2, from_name="등불 점검", later_id="BR-62", later_order=3,
                                later_condition=_c("true"), covers=["BR-60", "BR-61"], unsatisfiable=False),
     "등불 점검에서 앞 순번 `BR-60`과 `BR-61`의 조건이 함께 순번 3인 분기 `BR-62`(조건 없음)를 남김없이 덮어 "
     "뒤의 분기는 어떤 독자에게도 나오지 않습니다."),
    (lambda: T.branch_shadowing(branch_id="BR-50", order_no=1, from_name="선장실", later_id="BR-51", later_order=2,
                                later_condition=_c("trust > 5"), covers=[], unsatisfiable=True),
     "선장실에서 순번 1인 분기 `BR-50` 바로 뒤의 순번 2인 분기 `BR-51`(신뢰도가 5보다 클 때)은 플래그 범위 안에서 조건이 참이 될 수 없어 "
     "어떤 독자에게도 나오지 않습니다."),
    (lambda: T.branch_no_ending(branch_id="BR-10", from_name="남쪽 부두", to_name="안개 속 표류", endings=3),
     "남쪽 부두에서 안개 속 표류로 가는 분기 `BR-10`을 탄 독자는 그 뒤로 엔딩 3개 가운데 어디에도 닿지 못합니다."),
    (lambda: T.branch_reaches(branch_id="BR-02", from_name="부두의 첫 만남", condition=_c("true"), to_name="선술집",
                              to_is_ending=False, reachable_endings=2, endings=3),
     "부두의 첫 만남에서 조건 없이 선술집으로 이어지는 분기 `BR-02`는 그 뒤로 엔딩 3개 가운데 2개까지 길이 열려 있습니다."),
    (lambda: T.branch_reaches(branch_id="BR-21", from_name="밀수선 갑판", condition=_c("trust >= 2"), to_name="항구의 아침",
                              to_is_ending=True, reachable_endings=1, endings=3),
     "밀수선 갑판에서 신뢰도가 2 이상일 때 엔딩 항구의 아침으로 바로 이어지는 분기 `BR-21`은 이야기를 끝까지 이끕니다."),
    (lambda: T.branch_reaches(branch_id="BR-7", from_name="방", condition=_c("has_key >= 1"), to_name="복도",
                              to_is_ending=False, reachable_endings=1, endings=1),
     "방에서 형식이 맞지 않는 조건식 `has_key >= 1`에 따라 복도로 이어지는 분기 `BR-7`은 그 뒤로 하나뿐인 엔딩까지 길이 열려 있습니다."),
    (lambda: T.hedge_unsatisfiable(condition=_c("trust > 5"), first=True).text,
     "순번 맨 앞이라 가리는 분기는 없지만 이 분기는 신뢰도가 5보다 큰 경우에만 나오는데 그런 경우가 플래그 범위 안에 없어 "
     "한 번도 나오지 않습니다."),
    (lambda: T.hedge_missing_target(to_scene="SC-88", close=None, rejected_lines=[]).text,
     "장면 `SC-88`이 지운 장면인지 아직 쓰지 않은 장면인지는 알 수 없어 장면을 만들지 분기를 옮길지는 창작자가 정합니다."),
    (lambda: T.hedge_missing_target(to_scene="sc-07", close="SC-07", rejected_lines=[]).text,
     "장면 `sc-07`은 있는 장면 `SC-07`의 오타일 수도 있어 분기를 고칠지 장면을 새로 만들지는 창작자가 정합니다."),
    (lambda: T.hedge_undecided(reason_code="not_available", scene_name="해안", siblings=["b2"], column=None, branch_ids=["b1"],
                               flags=["열쇠"]).text,
     "플래그 열쇠가 해안의 `available_flags`에 없어 같은 장면의 분기 `b2`와 조건이 겹치는지는 따지지 않았습니다."),
    (lambda: T.finding_unsatisfiable(branch_id="BR-51", condition=_c("trust > 5")),
     "분기 `BR-51`은 신뢰도가 5보다 큰 경우에만 나오는데 그런 경우가 플래그 범위 안에 없어 한 번도 나오지 않습니다."),
    (lambda: T.finding_stuck(name="안개 낀 해안", readers="등불이 “꺼짐”이고 열쇠가 없는 독자", count=1, total=6,
                             example="등불이 “꺼짐”이고 열쇠가 없다면"),
     "안개 낀 해안에서 등불이 “꺼짐”이고 열쇠가 없는 독자에게는 나가는 분기가 하나도 걸리지 않아(조합 6개 가운데 하나) "
     "예를 들어 등불이 “꺼짐”이고 열쇠가 없다면 이야기가 멈춥니다."),
    (lambda: T.finding_unused_flag(flag="weather", label="날씨"),
     "`flag_spec`에 선언된 플래그 날씨(`weather`)는 어느 조건식에도 쓰이지 않습니다."),
    (lambda: T.finding_out_of_range(branch_id="BR-51", comparison="trust > 5", label="신뢰도", lo=0, hi=5, truth=False),
     "분기 `BR-51`의 비교 `trust > 5`는 신뢰도의 범위 0–5 안에서 늘 거짓이라 아무것도 가르지 못합니다."),
    (lambda: T.finding_always_true(branch_id="BR-45", condition="trust >= 0", later=["BR-46"]),
     "분기 `BR-45`의 조건 `trust >= 0`은 어떤 독자에게나 참이라 뒤 순번의 분기 `BR-46`은 한 번도 나오지 않습니다."),
    (lambda: RT.skill_mismatch(required=None, have=None, has_row=False, more=None, minimum=None, site=None, hand=None),
     "이 태스크에 필요한 요구 능력을 담은 수집 줄이 `dataset_index`에 없어 그 능력의 시연부터 새로 모아야 합니다."),
    (lambda: RT.skill_mismatch(required="tool_use", have="pick_place", has_row=True, more=20, minimum=400, site="안산", hand="parallel_2f"),
     "이 태스크는 `tool_use` 능력이 필요한데 모아 둔 데이터는 `pick_place`뿐이고 최소 400회 기준에서 20회가 모자라며 "
     "안산 현장에서 `parallel_2f` 손으로 `tool_use` 능력의 시연을 새로 모아야 합니다."),
    (lambda: RT.not_evaluated(required="surface_wipe", artifact="grip-policy-v3.2", more=None, minimum=None),
     "`surface_wipe` 능력의 데이터는 있지만 이번 회차에 모델 `grip-policy-v3.2`로 이 태스크를 한 번도 평가하지 않아 평가부터 돌려야 합니다."),
    (lambda: RT.hedge_success_unknown(unknown=1).text,
     "`success` 값을 알 수 없는 평가 줄이 하나뿐이라 성공률과 실패 집계 칸은 비워 두었습니다."),
    (lambda: RT.deploy(runs=40, successes=36, rate=Decimal("0.9"), target=Decimal("0.8"), median=Decimal("11.5"), limit=Decimal("14")),
     "평가 40회 중 36회 성공해 성공률 90%가 목표 80% 이상이고 주기 중앙값 11.5초도 상한 14초 안이라 더 모으지 않고 배포 후보로 올릴 수 있습니다."),
    (lambda: ST.complete(5, 1),
     "그림에서 읽은 글 5개 가운데 하나는 남은 것으로 세지 않는 글이고 나머지는 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다."),
    (lambda: ST.complete(1), "그림에서 읽은 글 하나가 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다."),
]


@pytest.mark.parametrize("make,expected", SENTENCES, ids=[str(i) for i in range(len(SENTENCES))])
def test_golden_sentence(make, expected):
    text = make()
    assert text == expected
    assert style_problems(text) == []


def test_golden_sentences_pass_the_analyser():
    texts = [make() for make, _ in SENTENCES]
    assert kiwi_problems(texts) == []


# ----------------------------------------------------------------------------- every emitted text

#: the JSON keys whose values the tools write (the rest is the creator's data)
SENTENCE_KEYS = {"summary", "hedge", "message", "description", "reason", "uncovered"}


def _strings(node, key=None):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "fix" and isinstance(v, dict) and isinstance(v.get("text"), str):
                yield v["text"]  # 고치는 법 (the edits are data)
            elif k != "evidence":
                yield from _strings(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v, key)
    elif isinstance(node, str) and key in SENTENCE_KEYS and re.search(r"[가-힣]", node):
        yield node.split("\n")[0]  # a syntax error quotes the condition under its sentence


def _json(text: str):
    return json.loads(re.sub(r"\n\[exit \d+\]\n$", "", text))


def _run(*argv: str, stdout_only: bool = False) -> str:
    env = {**os.environ, "VERDICTS_JOBS": "1", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([str(BIN / argv[0]), *argv[1:]], cwd=ROOT, capture_output=True, env=env, timeout=300,
                          encoding="utf-8")
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout if stdout_only else proc.stdout + "\n" + proc.stderr


#: what a text report puts before a sentence: ``verdict · ID  ``, ``↳ ``, ``[통과] C01 ``
_PREFIX = re.compile(r"^\s*(?:[^·\n]{1,40} · \S+\s{2}|↳ |\[[^\]]{1,10}\] \S+ |\S+:\d+ [^—\n]{0,80} — |[^·\n]{1,40} · \S+ \([^)\n]*\)\s{2})")


def _sentences_of_text(out: str):
    """The Korean sentences of a text report or an error message, one a line."""
    for line in out.splitlines():
        line = _PREFIX.sub("", line.strip()).strip()
        line = re.sub(r"^(?:오류|error|Error|고치는 법)\s*:\s*", "", line)
        if re.search(r"[가-힣]", line) and line.endswith("다."):
            yield line


@pytest.fixture(scope="module")
def emitted(tmp_path_factory) -> dict[str, list[str]]:
    """Every emitted sentence, by where it came from."""
    texts: dict[str, list[str]] = {}
    for path in sorted(GOLDEN.iterdir()):
        raw = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            texts[path.name] = list(_strings(_json(raw)))
        elif path.suffix == ".text":
            texts[path.name] = list(_sentences_of_text(raw))
    for domain in ("mail", "extraction", "residue"):
        out = _run("verdicts", "run", domain, f"examples/{domain}", "--format", "json", stdout_only=True)
        texts[f"{domain}.json"] = list(_strings(json.loads(out[:out.rindex("}") + 1])))
    # conditions that do not parse or do not fit their flags, and CLI errors
    tmp = tmp_path_factory.mktemp("style")
    bad = tmp / "bad.csv"
    bad.write_text(  # the union form: one header, each row filling its table's columns
        "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,order_no,condition_expr,"
        "flag,label,type,min_value,max_value,values\n"
        "S,방,Y,N,trust|has_key,,,,,,,,,,,\nE,끝,N,Y,,,,,,,,,,,,\n"
        ",,,,,b1,S,E,1,has_key >= 1,,,,,,\n,,,,,b2,S,E,2,trust => 2,,,,,,\n,,,,,b3,S,E,3,trust >= \"3\",,,,,,\n"
        ",,,,,b4,S,E,4,luck > 1,,,,,,\n,,,,,b5,S,Nowhere,5,,,,,,,\n"
        ",,,,,,,,,,trust,신뢰도,int,0,5,\n,,,,,,,,,,has_key,열쇠,bool,,,\n",
        encoding="utf-8")
    texts["bad.json"] = list(_strings(_json(_run("storygraph", "lint", str(bad), "--format", "json", "--quiet", stdout_only=True))))
    for argv in (("storygraph", "explain", "없는이름"), ("storygraph", "lint", str(tmp / "없음.csv")),
                 ("verdicts", "run", "robot", str(tmp / "없음"))):
        texts[" ".join(argv[:2])] = list(_sentences_of_text(_run(*argv)))
    return texts


def test_the_corpus_is_large(emitted):
    assert sum(len(v) for v in emitted.values()) > 5000
    for name in ("robot.json", "mail.json", "extraction.json", "residue.json", "bad.json",
                 "lint-tests_golden_corpus_fuzz-3-300.json", "lint-examples_gold_cafe.json"):
        assert emitted[name], name


def test_the_corpus_holds_the_fix_texts(emitted):
    """The 고치는 법 sentences are read too: from the JSON ``fix`` fields and the text
    reports' ``고치는 법:`` lines (the condition typos of ``bad.csv`` included)."""
    fixes = {t for texts in emitted.values() for t in texts if re.search(r"(고치|옮기|좁히|줄이|더하|보내|미루|삼으)면 ", t)}
    assert len(fixes) >= 40, sorted(fixes)
    assert any("대신" in t and "조건식을" in t for t in emitted["bad.json"]), emitted["bad.json"]


def test_every_emitted_sentence_reads_well(emitted):
    bad = {}
    for source, texts in emitted.items():
        for text in dict.fromkeys(texts):
            problems = style_problems(text)
            if problems:
                bad.setdefault(problems[0].split(":")[0], []).append(f"{source}: {problems[0]} || {text}")
    assert not bad, "\n".join(f"{k} ({len(v)}):\n  " + "\n  ".join(v[:5]) for k, v in bad.items())


#: how many distinct sentences the analyser reads (it takes some 20 ms a sentence)
KIWI_SAMPLE = 400


def test_a_sample_passes_the_analyser(emitted):
    unique = list(dict.fromkeys(t for texts in emitted.values() for t in texts))
    # every sentence shape once: sentences that differ only in names, numbers and quoted
    # text share a shape
    shapes: dict[str, str] = {}
    for text in unique:
        shape = re.sub(r"`[^`]*`|'[^']*'|\d[\d,.]*", "·", text)
        shape = re.sub(r"^\S+( \S+)?", "", shape)
        shapes.setdefault(shape, text)
    sample = list(shapes.values())
    step = max(1, len(sample) // KIWI_SAMPLE)
    found = kiwi_problems(sample[::step])
    assert not found, "\n".join(f"{p} || {t}" for t, p in found[:20])


def test_a_green_card_undone_by_its_hedge_says_so_first():
    cards = _json((GOLDEN / "lint-examples_lighthouse_scenario.json").read_text(encoding="utf-8"))["cards"]
    by_id = {c["target_no"]: c for c in cards}
    for target in ("SC-12", "SC-28", "BR-14", "BR-51"):
        card = by_id[target]
        assert card["verdict"] == "끝까지 닿음" and card["hedge"]
        assert "표의 길만 따지면" in card["summary"] and card["summary"].index("표의 길만 따지면") < 80, card["summary"]
    for card in cards:
        undone = card["hedge"] and re.search(r"닿지 못합니다|밟지 못하는 길입니다|끝까지 가지 못합니다", card["hedge"])
        if card["verdict"] == "끝까지 닿음" and undone:
            assert "표의 길만 따지면" in card["summary"], card


# ----------------------------------------------------------------------------- rule documentation and messages
#
# The rule documentation users read — ``explain`` of every name of every domain (the
# function ``storygraph explain NAME`` and ``verdicts explain DOMAIN NAME`` print), the
# name lists ``explain`` prints without a name, and the generated docs pages — and the
# messages of the command line and of each domain's input issues on broken inputs.


def _doc_lines(text: str):
    """The Korean sentences of an ``explain`` text or a docs page, one a line: a
    section heading (``잡는 것:``, ``**잡는 것.** ``), a list dash, a table's cells and a
    title's underline are taken off."""
    for line in text.splitlines():
        line = line.strip()
        cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else [line]
        for cell in cells:
            cell = re.sub(r"^(?:\*\*[^*]+\.\*\* |- |#+ |[A-Z]*\d+ · |SCHEMA · )", "", cell)
            if re.search(r"[가-힣]", cell) and cell.endswith("다."):
                yield cell


def _index_lines(text: str):
    """The headlines of an ``explain`` name list (after the names and two spaces)."""
    for line in text.splitlines()[1:]:
        if line.startswith("  ") and re.search(r"\S {2,}\S", line.strip()):
            yield re.split(r"(?<=\S) {2,}", line.strip(), maxsplit=1)[1]


def _message_lines(out: str):
    """The Korean messages of a failed command: each line but the help pointer, the
    program's name taken off (``verdicts run: …``)."""
    for line in out.splitlines():
        line = re.sub(r"^(?:verdicts|storygraph)(?: [a-z]+)*: ", "", line.strip())
        if re.search(r"[가-힣]", line) and not line.startswith("도움말:"):
            yield line


def _broken_copy(domain: str, tmp: Path) -> Path:
    """``examples/DOMAIN`` with broken rows added to each table (a repeated key, an
    empty key, values of the wrong type or naming nothing), or for residue a repeated
    component and one that is not a component."""
    import shutil

    dst = tmp / domain
    shutil.copytree(ROOT / "examples" / domain, dst)
    if domain == "residue":
        first = sorted(dst.glob("*.yaml"))[0]
        (dst / "ZZ-repeat.yaml").write_bytes(first.read_bytes())
        (dst / "ZZ-bad.yaml").write_text("component_id: BAD\npage_yaml: 3\nframe_tree: [{node_id: n, box: [1900, 0, 200, 100]}]\n",
                                          encoding="utf-8")
        return dst
    for table in sorted(dst.glob("*.csv")):
        if table.name.startswith("gold"):
            continue
        lines = table.read_text(encoding="utf-8").splitlines()
        width = len(lines[0].split(","))
        lines += [lines[1], "," + ",".join(["x-1"] * (width - 1)), ",".join(f"zz_{i}" for i in range(width))]
        table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dst


#: command lines that fail, each with one message (exit 2)
WRONG_COMMANDS = [
    ("verdicts", "rnu"), ("verdicts", "run", "robot", "examples/robot", "--fromat", "json"),
    ("verdicts", "run", "robot", "examples/robot", "--format", "jsn"), ("verdicts", "run", "robot", "examples/robot", "--jobs", "0"),
    ("verdicts", "run", "robto", "examples/robot"), ("verdicts", "card", "show"), ("verdicts", "card", "show", "E9"),
    ("verdicts", "run", "robot", "examples/robot", "--grading", "x.json"),
    ("storygraph", "lint", "examples/lighthouse/scenario.csv", "--grading", "x.json"),
    ("storygraph", "fuzz", "--plant", "oops"), ("storygraph", "fuzz", "--plant", "typo=2"),
    ("storygraph", "render", "examples/lighthouse/scenario.csv", "-o", "x.abc"),
    ("storygraph", "render", "examples/lighthouse/scenario.csv", "-o", "x.svg", "--focus", "SC-404"),
]


@pytest.fixture(scope="module")
def documentation() -> dict[str, str]:
    """Every whole text of the rule documentation, by where it came from."""
    from verdicts.domain import domain_names, get_domain

    texts: dict[str, str] = {}
    for name in domain_names():
        domain = get_domain(name)
        for entry in domain.explainable_names():
            texts[f"explain {name} {entry}"] = domain.explain(entry)
        texts[f"docs {name}"] = (ROOT / domain.docs_page).read_text(encoding="utf-8")
        texts[f"verdicts explain {name}"] = _run("verdicts", "explain", name, stdout_only=True)
    texts["storygraph explain"] = _run("storygraph", "explain", stdout_only=True)
    return texts


@pytest.fixture(scope="module")
def messages(tmp_path_factory) -> dict[str, list[str]]:
    """Command-line messages and the input issues (and cards) of broken inputs of every
    domain, by where they came from."""
    tmp = tmp_path_factory.mktemp("messages")
    out: dict[str, list[str]] = {}
    for argv in WRONG_COMMANDS:
        out[" ".join(argv)] = list(_message_lines(_run(*argv)))
    from verdicts.domain import domain_names

    for name in domain_names():
        out[f"verdicts explain {name} nosuch"] = list(_message_lines(_run("verdicts", "explain", name, "nosuch")))
    out["storygraph explain nosuch"] = list(_message_lines(_run("storygraph", "explain", "nosuch")))
    (tmp / "storygraph.toml").write_text('fial_on = ["issues", "nosuch"]\n[diagram]\nfocsu = "findings"\n', encoding="utf-8")
    (tmp / "scenario.csv").write_bytes((ROOT / "examples/lighthouse/scenario.csv").read_bytes())
    out["config"] = list(_message_lines(_run("storygraph", "lint", str(tmp / "scenario.csv"))))
    for domain in ("robot", "mail", "extraction", "residue"):
        broken = _broken_copy(domain, tmp)
        raw = _run("verdicts", "run", domain, str(broken), "--format", "json", stdout_only=True)
        out[f"broken {domain}"] = list(_strings(json.loads(raw[:raw.rindex("}") + 1])))
    return out


def test_the_documentation_corpus_covers_every_name(documentation):
    from verdicts.domain import domain_names, get_domain

    for name in domain_names():
        assert len([k for k in documentation if k.startswith(f"explain {name} ")]) == len(get_domain(name).explainable_names())
        domain = get_domain(name)
        listed = list(_index_lines(documentation[f"verdicts explain {name}"]))
        # one line a rule, a finding kind and a check (and the schema check and the
        # withheld state every domain has, and the undone group where a domain has one)
        assert len(listed) == (len(domain.rules()) + len(domain.finding_kinds) + len(domain.documented_checks())
                               + 1 + 1 + (1 if domain.undone_doc else 0)), name
    assert sum(len(list(_doc_lines(t))) for t in documentation.values()) > 600


def test_the_documentation_has_korean_headings_only(documentation):
    from verdicts.docs import SECTIONS

    for where, text in documentation.items():
        assert english_headings(text) == [], where
        if where.startswith("explain ") and "잡는 것:" in text:
            assert all(f"\n{s}:\n" in text for s in SECTIONS), where


def test_the_documentation_reads_well(documentation):
    bad = []
    for where, text in documentation.items():
        lines = _index_lines(text) if where.endswith(" explain") or re.fullmatch(r"verdicts explain \w+", where) else _doc_lines(text)
        for line in dict.fromkeys(lines):
            problems = style_problems(line)
            if problems:
                bad.append(f"{where}: {problems[0]} || {line}")
    assert not bad, "\n".join(bad[:30])


def test_the_documentation_passes_the_analyser(documentation):
    lines = list(dict.fromkeys(line for text in documentation.values() for line in _doc_lines(text)))
    found = kiwi_problems(lines)
    assert not found, "\n".join(f"{p} || {t}" for t, p in found[:20])


def test_messages_read_well(messages):
    assert all(messages[" ".join(argv)] for argv in WRONG_COMMANDS), [a for a in WRONG_COMMANDS if not messages[" ".join(a)]]
    for domain in ("robot", "mail", "extraction", "residue"):
        assert len(messages[f"broken {domain}"]) > 5, domain
    bad = []
    for where, texts in messages.items():
        for text in dict.fromkeys(texts):
            problems = style_problems(text)
            if problems:
                bad.append(f"{where}: {problems[0]} || {text}")
    assert not bad, "\n".join(bad[:30])


# ----------------------------------------------------------------------------- a caveat once a scene

#: the caveat that a scene's shadowing was not decided (why: no `available_flags`, a bad
#: condition, the budget …) — it names the scene's other branches, so once is enough
_UNDECIDED = "조건이 겹치는지는 따지지 않았"


def caveats_said_twice(cards: list[dict]) -> list[str]:
    """The scenes whose not-decided caveat stands on more than one branch card."""
    seen: dict[str, int] = {}
    for card in cards:
        if card.get("branch_id") and _UNDECIDED in (card.get("hedge") or ""):
            seen[card["scene_id"]] = seen.get(card["scene_id"], 0) + 1
    return sorted(s for s, n in seen.items() if n > 1)


def test_a_scene_caveat_is_said_once():
    old = [{"branch_id": b, "scene_id": "SC-09", "hedge": f"밀수선 갑판의 `available_flags`가 없어 분기 `{o}`와 {_UNDECIDED}습니다."}
           for b, o in (("BR-21", "BR-22"), ("BR-22", "BR-21"))]
    assert caveats_said_twice(old) == ["SC-09"]
    assert caveats_said_twice(old[:1] + [{**old[1], "hedge": None}]) == []
    said = 0
    for path in sorted(GOLDEN.glob("lint-*.json")):
        cards = _json(path.read_text(encoding="utf-8")).get("cards", [])
        assert caveats_said_twice(cards) == [], path.name
        said += sum(1 for c in cards if _UNDECIDED in (c.get("hedge") or ""))
    assert said > 0  # the examples hold such scenes (밀수선 갑판 of the lighthouse)


# ----------------------------------------------------------------------------- one caveat a hedge

#: hedges as the tools once wrote them: two caveats glued into one sentence by ``…고,``
#: (a gold scenario's branch and a robot task), each caveat now a sentence of its own
GLUED = [
    ("장면 `ST-16`이 지운 장면인지 아직 쓰지 않은 장면인지는 알 수 없어 장면을 만들지 분기를 옮길지는 창작자가 정하고, 앞 순번 "
     "분기 `SB-12`가 조건을 모두 덮어 이 분기는 실제로 나오지 않으므로 장면 `ST-16`으로 가는 이 길은 어떤 독자도 밟지 못하는 길입니다.",
     ["앞 순번 분기 `SB-12`가 조건을 모두 덮어 이 분기는 실제로 나오지 않으므로 장면 `ST-16`으로 가는 이 길은 어떤 독자도 밟지 못하는 길입니다.",
      "장면 `ST-16`이 지운 장면인지 아직 쓰지 않은 장면인지는 알 수 없어 장면을 만들지 분기를 옮길지는 창작자가 정합니다."]),
    ("실패 7회 가운데 1회는 `failure_reason` 값이 비어 어느 유형인지 세지 못했고, `dataset_index`의 `episode_count` 값이 비어 "
     "몇 회를 더 모아야 하는지는 세지 못했습니다.",
     ["실패 7회 가운데 1회는 `failure_reason` 값이 비어 어느 유형인지 세지 못했습니다.",
      "`dataset_index`의 `episode_count` 값이 비어 몇 회를 더 모아야 하는지는 세지 못했습니다."]),
]


def _cards(node):
    """Every card in a report's JSON (a dict with a ``summary`` and a ``hedge``)."""
    if isinstance(node, dict):
        if "summary" in node and "hedge" in node:
            yield node
        for v in node.values():
            yield from _cards(v)
    elif isinstance(node, list):
        for v in node:
            yield from _cards(v)


@pytest.fixture(scope="module")
def every_card() -> dict[str, list[dict]]:
    """The cards of every golden report and of the mail, extraction and residue examples."""
    cards = {p.name: list(_cards(_json(p.read_text(encoding="utf-8")))) for p in sorted(GOLDEN.glob("*.json"))}
    for domain in ("mail", "extraction", "residue"):
        out = _run("verdicts", "run", domain, f"examples/{domain}", "--format", "json", stdout_only=True)
        cards[f"{domain}.json"] = list(_cards(json.loads(out[:out.rindex("}") + 1])))
    return cards


def test_a_hedge_says_one_caveat(every_card):
    """A card's hedge is one caveat in one sentence (issue 30, item 6): the weightiest;
    the others follow in ``more_hedges``, each a sentence of its own, and none is
    glued to another with ``…고,``."""
    from verdicts.korean import is_polite_sentence

    for glued, caveats in GLUED:
        assert joins_caveats(glued) and style_problems(glued) == []  # the editor's complaint, not a pattern's
        assert not any(joins_caveats(c) for c in caveats) and all(is_polite_sentence(c) for c in caveats)
    bad, more = [], 0
    for name, cards in every_card.items():
        for card in cards:
            caveats = [card["hedge"]] if card["hedge"] else []
            caveats += card.get("more_hedges") or []
            more += len(card.get("more_hedges") or [])
            assert card["hedge"] or not card.get("more_hedges"), card
            bad += [f"{name}: {c}" for c in caveats if joins_caveats(c) or not is_polite_sentence(c)]
            assert len(set(caveats)) == len(caveats), card  # each caveat said once
    assert not bad, "\n".join(bad[:10])
    assert more >= len(GLUED)  # the examples hold cards with several caveats, every one kept


def test_the_weightiest_caveat_is_the_hedge(every_card):
    """What the verdict cannot know comes first, then what narrows it in real use, then
    what it leaves to a person: the cards of the two glued hedges above, as now written."""
    hedged = {c["hedge"]: c.get("more_hedges") for cards in every_card.values() for c in cards if c.get("more_hedges")}
    for _, caveats in GLUED:
        assert hedged.get(caveats[0]) == caveats[1:], caveats[0]


def test_every_output_shows_every_caveat():
    """No caveat is dropped: the text report, the JSON, SARIF (and the annotations made
    from it) and the report screen each show the hedge and every one of
    ``more_hedges``, each as a sentence of its own."""
    from verdicts.domain import get_domain
    from verdicts.report import render_json, render_text
    from verdicts.sarif import sarif_results
    from verdicts.screen import render_html, rich

    domain = get_domain("robot")
    report = domain.judge(ROOT / "examples" / "robot")
    card = next(c for c in report.cards if c.key == "fold-towel-C02")
    caveats = card.hedges
    assert caveats == GLUED[1][1] and card.hedge == caveats[0] and card.more_hedges == caveats[1:]
    text = render_text(report, domain)
    assert all(f"↳ {c}\n" in text for c in caveats), text
    assert [c.get("more_hedges") for c in json.loads(render_json(report, domain))["cards"]
            if c["task_id"] == "fold-towel-C02"] == [caveats[1:]]
    message = next(r["message"]["text"] for r in sarif_results(report, domain) if "fold-towel-C02" in r["message"]["text"])
    assert all(c in message for c in caveats) and not joins_caveats(message)
    page = render_html(report, domain)
    assert all(f"↳ {rich(c)}</span>" in page for c in caveats)


# ----------------------------------------------------------------------------- a story's author wrote no flag_spec

#: the bundled stories read by an importer (their authors declare variables in the story)
STORY_GOLDENS = ("lint-examples_twine", "lint-examples_ink", "lint-examples_yarn", "lint-examples_choicescript")


def test_a_story_author_is_not_told_about_flag_spec(emitted):
    """A story read by an importer has no `flag_spec` table: its cards say the story's
    declaration instead (the old wording named the table to Twine and Yarn authors)."""
    old = T.hedge_undecided(reason_code="type", scene_name="숲", siblings=["forest#2"], column=None, branch_ids=[],
                            flags=["`mood`"]).text
    assert "flag_spec" in old  # a table's author is told where the flag is declared
    new = T.hedge_undecided(reason_code="type", scene_name="숲", siblings=["forest#2"], column=None, branch_ids=[],
                            flags=["`mood`"], story=True).text
    assert new == "플래그 `mood`의 비교가 이야기에 선언된 형식과 맞지 않아 같은 장면의 분기 `forest#2`와 조건이 겹치는지는 따지지 않았습니다."
    for reason in ("undeclared", "bad_flag"):
        said = T.hedge_undecided(reason_code=reason, scene_name="숲", siblings=[], column=None, branch_ids=[], flags=["`mood`"],
                                 story=True).text
        assert "flag_spec" not in said and style_problems(said) == [], said
    stories = {name: texts for name, texts in emitted.items() if name.startswith(STORY_GOLDENS)}
    assert len(stories) >= 8
    told = [f"{name}: {t}" for name, texts in stories.items() for t in texts if "flag_spec" in t]
    assert not told, "\n".join(told[:10])


# ----------------------------------------------------------------------------- words a creator does not know

#: the documents a creator reads (decisions.md is the developers' record; the glossary
#: names the words it rejects; residue-metrics.md is a measurement whose 시드 is a random seed)
NOT_FOR_CREATORS = {"decisions.md", "glossary.md", "residue-metrics.md", "architecture.md"}


def test_user_documents_use_the_glossary():
    """README and the docs pages say 명세, not 시드; no 키트, no "결정 N"; one term a
    concept (docs/glossary.md)."""
    pages = [ROOT / "README.md"] + [p for p in sorted((ROOT / "docs").glob("*.md")) if p.name not in NOT_FOR_CREATORS]
    assert len(pages) > 8
    bad = []
    for page in pages:
        for line in _doc_lines(page.read_text(encoding="utf-8")):
            problems = [p for p in style_problems(line) if p.split(":")[0] in ("jargon", "rejected-term", "card-field-term")]
            if problems:
                bad.append(f"{page.name}: {problems[0]} || {line}")
    assert not bad, "\n".join(bad[:20])
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    for wrong, right in {"컬럼": "열", "사이클": "주기", "페이지": "쪽", "시드": "명세", "키트": "분야"}.items():
        assert re.search(rf"\| {right} \|[^\n]*{wrong}", glossary), wrong


# ----------------------------------------------------------------------------- Korean row headings

_CODE_HEADING = re.compile(r"(?m)^\s{2}([a-z]+(?:-[a-z]+)+) · ")


def test_text_report_rows_are_headed_in_korean():
    """A finding's row in the text report is headed by its kind's Korean name (범위 밖 비교),
    not its code (comparison-out-of-range), which stays for `explain` and `lint_ignore`."""
    assert _CODE_HEADING.search("  unused-flag · weather  플래그 날씨는 쓰이지 않습니다.\n")
    assert not _CODE_HEADING.search("  쓰이지 않는 플래그 · weather  플래그 날씨는 쓰이지 않습니다.\n")
    reports = sorted(GOLDEN.glob("lint-*.text"))
    assert len(reports) > 10
    headed = [f"{p.name}: {m.group(1)}" for p in reports for m in _CODE_HEADING.finditer(p.read_text(encoding="utf-8"))]
    assert not headed, headed[:10]
    assert any("  쓰이지 않는 플래그 · " in p.read_text(encoding="utf-8") for p in reports)
