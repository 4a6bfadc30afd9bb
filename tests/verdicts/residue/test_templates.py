"""Every answer has its sentence template, and every sentence is one polite sentence
with particles that fit the quoted text."""

from __future__ import annotations

from verdicts.korean import is_polite_sentence
from verdicts.residue import ANSWERS
from verdicts.residue import templates as T
from verdicts.residue.rules import RULES


def test_every_answer_has_a_template():
    assert set(T.SUMMARIES) == set(ANSWERS)
    assert {r.code for r in RULES} == set(ANSWERS) and all(r.templates[0] in T.SUMMARIES for r in RULES)


def test_sentences_are_polite_and_particles_fit():
    sentences = [
        T.template_left(["기본 타이틀"]), T.template_left(["Sample"]), T.template_left(["A", "B"]),
        T.body_blank("시장 조사", None, 1), T.body_blank("기획", "내용", 1), T.body_blank("기획", None, 3),
        T.outside_left("20XX년", "임시 문구", 1), T.outside_left("Lorem", "템플릿 원문 글", 2),
        T.satellite_only("제목 입력", 1), T.satellite_only("부제목", 2), T.complete(0), T.complete(4), T.complete(5, 1),
        T.hedge_unseen("상반기 성과", 1)[1], T.hedge_replaced_data("2024")[1], T.hedge_unboxed(2)[1],
    ]
    assert all(is_polite_sentence(s) for s in sentences), [s for s in sentences if not is_polite_sentence(s)]
    assert "(" not in "".join(sentences) and ";" not in "".join(sentences)
    assert "“Sample”이" in T.template_left(["Sample"]) and "“Data”가" in T.template_left(["Data"]) and "“기획”이" in T.body_blank("기획", "내용", 1)
    assert "“시장 조사”가" in T.body_blank("시장 조사", None, 1) and "“부제목” 등 2개는" in T.satellite_only("부제목", 2)
