"""Issue 31, item 6: every sample card printed in the seeds, read from the seed documents
themselves (nothing copied into this repository), runs through its domain's automatic
checks against the bundled input the samples describe.  The samples pass wherever the
seed itself is right; each exception names its cards and the seed's own sentence that
makes it one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, seeds_dir

ROBOT_ROUND = Path(__file__).resolve().parents[1] / "data" / "robot" / "seed_samples"

#: which domain a sample card belongs to, by its key field
KEYS = {"action_no": "mail", "item_key": "extraction", "task_id": "robot", "target_no": "storygraph"}

#: (domain, check id) → (the sample cards it names, the seed's sentence that says why)
EXCEPTIONS: dict[tuple[str, str], tuple[list[str], str]] = {
    # the seed's nine samples are a selection of the three runs' cells: check 4 asks for a card
    # for every required cell of every run, and five of them are not printed
    ("extraction", "4"): (["R-20931:company_name", "R-20935:biz_reg_no", "R-20935:company_name", "R-20940:biz_reg_no",
                           "R-20940:ceo_name"],
                          "field_rules.required 가 참인 field_name 이 그 run_id 의 worker_outputs 에 없거나 value 가 빈 "
                          "문자열이면 verdict 는 필수 칸이 빔입니다"),
    # the sample cites `evaluation_run.grasp_slip_count`, a column no table has: the seed's
    # own check 12 calls exactly that an invented sentence
    ("robot", "C12"): (["insert-conn-B"], "없는 이름을 인용하면 요약이 지어낸 문장이라는 뜻이라"),
}

#: (domain, check id) → (the sample cards it names, why): what our checks ask beyond the
#: seed's and the samples do not meet
STRICTER: dict[tuple[str, str], tuple[list[str], str]] = {
    # one caveat a hedge (issue 30, item 6): these samples glue two with “…고,” (“사유 칸이
    # 비어 있고, 실패가 3회에 못 미쳐 …”); our cards say each in a sentence of its own
    ("robot", "C14"): (["door-open-J", "screw-M4-C"], "issue 30, item 6"),
}


def seed_cards() -> dict[str, tuple[Path, list[dict]]]:
    """Every JSON array of sample cards in the seed documents, by domain."""
    found: dict[str, tuple[Path, list[dict]]] = {}
    decoder = json.JSONDecoder()
    for seed in sorted(seeds_dir().glob("*.txt")):
        text = seed.read_text(encoding="utf-8")
        at = text.find("\n[")
        while at != -1:
            try:
                value, _ = decoder.raw_decode(text, at + 1)
            except json.JSONDecodeError:
                value = None
            if isinstance(value, list) and value and all(isinstance(c, dict) and "verdict" in c for c in value):
                domain = next(KEYS[k] for k in KEYS if k in value[0])
                assert domain not in found, (domain, seed)
                found[domain] = (seed, value)
            at = text.find("\n[", at + 1)
    return found


def _results(domain: str, cards: list[dict]) -> dict:
    if domain == "mail":
        from verdicts.mail.checks import CHECKS as MAIL, CheckContext as MailContext
        from verdicts.mail.loading import load_mailbox

        mailbox = load_mailbox(EXAMPLES / "mail")
        assert mailbox.issues == []
        return {r.id: r for r in MAIL.run(MailContext(mailbox.tables, cards))}
    if domain == "extraction":
        from verdicts.extraction.checks import CHECKS as EXTRACTION, CheckContext as ExtractionContext
        from verdicts.extraction.loading import load_batch

        batch = load_batch(EXAMPLES / "extraction")
        assert batch.issues == []
        return {r.id: r for r in EXTRACTION.run(ExtractionContext(batch.tables, cards))}
    if domain == "robot":
        from verdicts.robot.checks import CHECKS as ROBOT, CheckContext as RobotContext
        from verdicts.robot.loading import load_round

        rnd = load_round(ROBOT_ROUND)
        assert rnd.issues == []
        return {r.id: r for r in ROBOT.run(RobotContext(rnd.tables, cards))}
    from storygraph import lint
    from storygraph.checks import CHECKS as STORY, CheckContext as StoryContext

    scenario = lint(EXAMPLES / "lighthouse" / "scenario.csv").scenario
    return {r.id: r for r in STORY.run(StoryContext(scenario, cards))}


def test_every_seed_that_prints_sample_cards_is_read():
    assert sorted(seed_cards()) == ["extraction", "mail", "robot", "storygraph"]
    assert {d: len(cards) for d, (_, cards) in seed_cards().items()} == {"extraction": 9, "mail": 8, "robot": 7,
                                                                          "storygraph": 6}


@pytest.mark.parametrize("domain", ["mail", "extraction", "robot", "storygraph"])
def test_the_seed_sample_cards_pass_the_checks_but_for_the_exceptions_the_seed_justifies(domain):
    seed, cards = seed_cards()[domain]
    results = _results(domain, cards)
    failing = {check: r.failed_targets for check, r in results.items() if not r.passed}
    expected = {check: keys for (d, check), (keys, _) in (*EXCEPTIONS.items(), *STRICTER.items()) if d == domain}
    assert failing == expected
    text = " ".join(seed.read_text(encoding="utf-8").split())
    for (d, check), (_, line) in EXCEPTIONS.items():
        if d == domain:
            assert line in text, (domain, check, line)


def test_a_polite_ending_is_what_mail_check_8_and_extraction_check_11_ask():
    # the seeds ask only “존댓말로 끝나는지”: hedges of two polite sentences pass, an
    # impolite ending still fails
    for domain, check, key_field in (("mail", "C08", "action_no"), ("extraction", "11", "item_key")):
        _, cards = seed_cards()[domain]
        two = [c for c in cards if c.get("hedge") and c["hedge"].count("니다.") == 2]
        assert two, domain
        assert _results(domain, cards)[check].passed
        broken = json.loads(json.dumps(cards))
        broken[0]["summary"] = broken[0]["summary"].removesuffix("니다.") + "니다. 그렇다."
        assert _results(domain, broken)[check].failed_targets == [broken[0][key_field]]
