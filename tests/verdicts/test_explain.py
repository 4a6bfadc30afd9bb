"""``explain`` through the real command lines: the rule documentation in Korean (Korean
section headings, Korean content) for names of every domain, and the list of names
``explain`` prints without one."""

from __future__ import annotations

import re

import pytest

from verdicts.docs import SECTIONS
from verdicts.domain import domain_names, get_domain

#: (domain, name, words its documentation says) — a verdict label, a rule code, a finding
#: code and a check id of each domain
NAMES = [
    ("storygraph", "조건이 겹침", ["같은 장면의 바로 뒤 분기가 한 번도 걸리지 않습니다", "`overlapping_branch_id` 필드에 적힙니다",
                                 "앞 분기의 조건을 좁히세요(`trust >= 3 and not has_key`)"]),
    ("storygraph", "missing-scene", ["분기가 가리키는 도착 장면이 장면 목록에 없습니다", "빠진 장면을 더하세요"]),
    ("storygraph", "stuck-combination", ["어떤 독자에게는 분기가 하나도 걸리지 않습니다", "조건이 빈 분기(대비 분기)를 마지막에 더하거나"]),
    ("storygraph", "C06", ["조건이 겹침 카드마다", "SMT 솔버 z3"]),
    ("robot", "성공률 미달", ["반올림한 성공률이 목표 성공률(`target_success_rate`)보다 낮습니다", "같으면 미달이 아닙니다"]),
    ("robot", "skill-mismatch", ["모아 둔 데이터가 이 태스크에 필요한 능력을 가르치지 않습니다"]),
    ("robot", "C05", ["실패 유형 쏠림 판정을 내리고"]),
    ("mail", "같은 대화에 두 번 답장", ["받은 메일 하나에 두 번째로 답했습니다", "후속 답장은 새 메일이 올 때까지 기다립니다"]),
    ("mail", "late", ["종류별 회신 시간을 넘겨 답장이 나갔습니다", "`0.125` → `0.13`"]),
    ("extraction", "원문 값과 다름", ["값이 근거 문구가 말하는 값과 다릅니다", "NFKC 정규화"]),
    ("extraction", "7", ["원문 값(`source_value`)은 문구가 그 쪽에 있을 때"]),
    ("residue", "경계 밖 잔존", ["경계 밖에 템플릿의 흔적이 남았습니다", "경계 밖 노드의 데이터를 바꾸거나"]),
    ("residue", "R3", ["`잔존 후보 없음 ⇒ complete`"]),
]

ENGLISH = re.compile(r"What it flags|Why it matters|Example:|Instead:|\bthe\b|\bwhich\b")


def _explain(cli, domain: str, *name: str, code: int = 0):
    if domain == "storygraph" and name:
        # the same text from both command lines
        own = cli("storygraph", "explain", *name, check_code=code)
        kit = cli("verdicts", "explain", domain, *name, check_code=code)
        assert own.stdout == kit.stdout
        return own
    return cli("verdicts", "explain", domain, *name, check_code=code)


@pytest.mark.parametrize("domain,name,says", NAMES, ids=[f"{d}-{n}" for d, n, _ in NAMES])
def test_explain_speaks_korean(cli, domain, name, says):
    out = _explain(cli, domain, name).stdout
    for words in says:
        assert words in out, (words, out)
    assert not ENGLISH.search(out), out
    checks = {c.id for c in get_domain(domain).checks()}
    if name not in checks:
        # a rule or a finding: the four Korean sections, in order, each with Korean text
        at = [out.index(f"\n{s}:\n") for s in SECTIONS]
        assert at == sorted(at), out
        for section in SECTIONS:
            body = out.split(f"\n{section}:\n", 1)[1].split("\n", 1)[0]
            assert body.startswith("    ") and re.search(r"[가-힣]{2}", body) and re.search(r"(다|요)(\(.*\))?\.$", body.rstrip()), (section, body)


@pytest.mark.parametrize("domain", domain_names())
def test_explain_without_a_name_lists_the_names_with_their_headlines(cli, domain):
    proc = _explain(cli, domain)
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0] == f"`verdicts explain {domain} NAME`으로 설명을 볼 수 있는 이름입니다."
    plugin = get_domain(domain)
    groups = ["판정 (한국어 이름이나 코드)", "자동 검증"] + (["린트 발견"] if plugin.finding_kinds else [])
    assert all(g in lines for g in groups)
    entries = [line.strip() for line in lines if line.startswith("  ")]
    # (and the schema check and the withheld state every domain has, and the undone group where a domain has one)
    undone = 1 if plugin.undone_doc else 0
    assert len(entries) == len(plugin.rules()) + len(plugin.finding_kinds) + len(plugin.documented_checks()) + 2 + undone
    for rule in plugin.rules():
        # the label and code, then the headline after the dash of the docstring
        headline = rule.doc.strip().splitlines()[0].split(" — ", 1)[1]
        assert any(e.startswith(f"{rule.verdict}") and f"· {rule.code}" in e and e.endswith(headline) for e in entries), rule.code
    for check in plugin.checks():
        assert any(re.match(rf"{re.escape(check.id)} +{re.escape(check.description)}$", e) for e in entries), check.id
    assert any(e.startswith("SCHEMA ") for e in entries)
    # every name listed is one explain takes
    for name in plugin.explainable_names():
        assert any(name in e for e in entries), name


def test_storygraph_explain_without_a_name_lists_the_names(cli):
    proc = cli("storygraph", "explain", check_code=0)
    assert proc.stdout.startswith("`storygraph explain NAME`으로 설명을 볼 수 있는 이름입니다.\n")
    assert "조건이 겹침 · shadowed [분기 카드]" in proc.stdout and "같은 장면의 바로 뒤 분기가 한 번도 걸리지 않습니다." in proc.stdout
    assert "stuck-combination · 분기가 하나도 걸리지 않는 조합" in proc.stdout
    assert re.search(r"\n  C06 +조건이 겹침은 ", proc.stdout)


def test_an_unknown_name_is_one_korean_message_with_the_names(cli):
    proc = cli("storygraph", "explain", "조건이겹침", check_code=2)
    assert "`조건이겹침`이라는 이름은 알 수 없습니다. 혹시 `조건이 겹침`을 찾으셨나요?" in proc.stderr
    proc = cli("verdicts", "explain", "robot", "deplyo", check_code=2)
    assert "`deplyo`에 해당하는 판정, 발견 코드, 검증 번호가 없습니다." in proc.stderr and "`deploy`" in proc.stderr
    assert "'" not in proc.stderr


def test_a_name_of_several_words_needs_no_quotes(cli):
    """`storygraph explain 조건이 겹침` as the README writes it (issue 30, item 5), and the
    kit's withheld state by its name or code."""
    quoted = cli("storygraph", "explain", "조건이 겹침", check_code=0).stdout
    assert cli("storygraph", "explain", "조건이", "겹침", check_code=0).stdout == quoted
    assert cli("verdicts", "explain", "robot", "성공률", "미달", check_code=0).stdout == \
        cli("verdicts", "explain", "robot", "성공률 미달", check_code=0).stdout
    held = cli("storygraph", "explain", "판정", "보류", check_code=0).stdout
    assert held.startswith("판정 보류 · withheld") and "`fail_on`에 `withheld`" in held
    assert cli("verdicts", "explain", "mail", "withheld", check_code=0).stdout.startswith("판정 보류 · withheld")
