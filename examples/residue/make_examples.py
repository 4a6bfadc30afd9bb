"""Write the labelled example set of the residue domain (one YAML file per component)
and its gold answers (gold.csv).

Each example is built from one situation of card E3 (the spec's steps, its answers, and
the traps its v8 changelog lists), and its gold answer is decided by reasoning from the
spec when it is written, not by running the judge.  Run from the repository:

    .venv/bin/python examples/residue/make_examples.py
"""

from __future__ import annotations

import csv
from pathlib import Path

import yaml

HERE = Path(__file__).parent
LABELS = {"template_left": "템플릿 글 남음", "body_blank": "본문 자리 비어 있음", "outside_left": "경계 밖 잔존",
          "satellite_only": "위성 자리만 비어 있음", "complete": "완성"}
PLACEHOLDERS = ["제목을 입력해주세요.", "제목 입력", "제목", "부제목 입력", "설명을 입력해주세요.", "설명", "내용", "텍스트를 입력하세요",
                "사진을 넣어 주세요"]

EXAMPLES: list[tuple[str, str, str, dict]] = []  # (id, gold answer, how it was made, component)


def box(row: int, col: int = 0) -> list[int]:
    """The place of a cell in a 4-column grid of 400x120 cells below a 120-high header."""
    return [40 + col * 440, 140 + row * 140, 400, 120]


def inner(b: list[int]) -> list[int]:
    return [b[0] + 10, b[1] + 10, min(300, b[2] - 20), 40]


def cards(items: list[dict], *, shown: dict[int, dict[str, str | None]] | None = None, title: str | None = "제목",
          title_shows: str | None = None, title_kind: str = "satellite", bound: bool = True, extra_rows: int = 0,
          extra_shows: str | None = None) -> dict:
    """A card grid: one column per item, a label cell (row 0) and a desc cell (row 1),
    an optional component title on top.  ``shown`` overrides what a cell shows
    (``None`` = empty)."""
    frame, binding, visible = [], [], []
    if title is not None:
        frame.append({"node_id": "title", "text": title, "box": [40, 20, 1200, 100], "slot_kind": title_kind})
        if title_shows:
            visible.append({"text": title_shows, "box": [50, 30, 400, 50]})
    for i in range(len(items) + extra_rows):
        for r, field in enumerate(("label", "desc")):
            node = f"c{i}{field[0]}"
            b = box(r, i)
            frame.append({"node_id": node, "text": "텍스트", "box": b, "slot_kind": "unit_field"})
            if i >= len(items):
                if extra_shows and r == 0:
                    visible.append({"text": extra_shows, "box": inner(b)})
                continue
            value = items[i].get(field)
            if bound and value:
                binding.append({"node_id": node, "sheet_id": f"s{i}", "text": value, "slot_kind": "unit_field"})
            show = (shown or {}).get(i, {}).get(field, value) if (shown and field in shown.get(i, {})) else value
            if show:
                visible.append({"text": show, "box": inner(b)})
    return {"page_yaml": items, "binding": binding, "frame_tree": frame, "outside_nodes": [], "visible_texts": visible}


def add(cid: str, answer: str, how: str, component: dict, plants: list[str] | None = None) -> None:
    """One example: its gold answer, how it was made, the component, and what was
    planted in it (``kind:text``; for the first themes, from ``PLANTS`` below)."""
    EXAMPLES.append((cid, answer, how, {"component_id": cid, "placeholder_table": PLACEHOLDERS, **component}))
    if plants is not None:
        PLANTS[cid] = plants


#: what each example plants (``kind:text``), checked against its gold answer and its
#: data by ``tests/verdicts/residue/test_example.py`` (without the judge).  Kinds that
#: decide an answer: template, misfit (template_left); blank, placeholder_blank
#: (body_blank); outside (outside_left); satellite (satellite_only).  Kinds that
#: decide nothing: token (a fitting marker or label), variant (user text shown another
#: way) with shown_as (the page value it shows), replaced (template text of an outside
#: chart whose cells were replaced), not_blank (a page value not shown whose place shows
#: something else or is a satellite place).  A binding text or a non-null ``now`` on the
#: picture is user text and needs no plant.
PLANTS: dict[str, list[str]] = {
    "DO-0002": ["token:01", "token:02"], "DO-0003": ["token:A", "token:B", "token:C"],
    "DO-0005": ["variant:파일럿 운…", "shown_as:파일럿 운영"], "DO-0006": ["variant:label: 기획", "shown_as:기획"],
    "DO-0012": ["token:Q", "token:A"],
    "DO-0101": ["satellite:제목을 입력해주세요."], "DO-0102": ["satellite:부제목 입력"], "DO-0103": ["satellite:제목 입력"],
    "DO-0104": ["satellite:내용"], "DO-0105": ["satellite:사진을 넣어 주세요"], "DO-0106": ["satellite:제목 입력", "not_blank:상반기 성과"],
    "DO-0201": ["placeholder_blank:설명을 입력해주세요.", "blank:파일럿 운영"], "DO-0202": ["blank:성과 지표 확인"],
    "DO-0203": ["placeholder_blank:내용", "blank:기획"], "DO-0204": ["placeholder_blank:설명", "blank:시장 조사와 목표 설정"],
    "DO-0205": ["outside:20XX년", "blank:파일럿 운영"],
    "DO-0206": ["satellite:제목 입력", "placeholder_blank:텍스트를 입력하세요", "blank:시장 조사와 목표 설정"],
    "DO-0301": ["outside:20XX년"], "DO-0302": ["outside:100"], "DO-0303": ["outside:A항목"], "DO-0304": ["outside:Sample Text"],
    "DO-0305": ["outside:내용"], "DO-0306": ["outside:단계명"], "DO-0307": ["outside:20XX년", "satellite:제목 입력"],
    "DO-0401": ["template:이곳에 내용을 입력해 보세요"], "DO-0402": ["misfit:A", "misfit:B", "misfit:C"],
    "DO-0403": ["misfit:F", "misfit:A", "misfit:Q"], "DO-0404": ["template:フェーズ1"],
    "DO-0405": ["template:기본 타이틀", "not_blank:실행"], "DO-0406": ["template:Lorem ipsum dolor"],
    "DO-0407": ["template:샘플 이미지입니다", "blank:시장 조사와 목표 설정"],
    "DO-0502": ["token:STEP 1", "token:STEP 2", "token:STEP 3"], "DO-0503": ["token:A", "token:B", "token:C", "token:D"],
    "DO-0504": ["variant:OKR 분기…", "shown_as:OKR 분기 점검"], "DO-0506": ["satellite:제목 입력"],
    "DO-0507": ["satellite:텍스트를 입력하세요"], "DO-0508": ["placeholder_blank:설명", "blank:OKR 분기 점검"],
    "DO-0509": ["blank:온보딩"], "DO-0510": ["outside:20XX년"], "DO-0511": ["outside:기본 항목"],
    "DO-0512": ["misfit:A", "misfit:B"], "DO-0513": ["template:Click to add text"], "DO-0514": ["misfit:VS"],
    "DO-0601": ["token:VS"], "DO-0602": ["token:O", "token:X"], "DO-0603": ["misfit:O"],
    "DO-0604": ["token:Q", "token:A", "token:Q", "token:A"], "DO-0605": ["token:Q", "token:A", "token:Q", "token:A", "blank:사흘 걸립니다"],
    "DO-0607": ["replaced:20XX년"], "DO-0608": ["outside:계열 1"], "DO-0609": ["satellite:부제목 입력"],
    "DO-0610": ["outside:설명을 입력해주세요."], "DO-0611": ["satellite:제목을 입력해…"],
    "DO-0612": ["variant:초기 비용…", "shown_as:초기 비용 2억"], "DO-0613": ["template:1 steps"], "DO-0614": ["blank:월 1,200만원"],
}
#: the answer each deciding kind leads to, in the card's order of precedence
DECIDES = {"template": "template_left", "misfit": "template_left", "blank": "body_blank", "placeholder_blank": "body_blank",
           "outside": "outside_left", "satellite": "satellite_only"}
ORDER = ("template_left", "body_blank", "outside_left", "satellite_only", "complete")


def answer_of(plants: list[str]) -> str:
    """The first answer, in the card's order, that a plant leads to (complete if none)."""
    led = {DECIDES[p.split(":", 1)[0]] for p in plants if p.split(":", 1)[0] in DECIDES}
    return next(a for a in ORDER if a in led or a == "complete")


#: components drawn as pictures (result_thumb, beside their visible_texts): for the
#: screen's boxes and for the OCR stability of `verdicts card measure`
PICTURED = ("DO-0701", "DO-0703", "DO-0704", "DO-0706", "DO-0710", "DO-0711", "DO-0713", "DO-0714",
            "DO-0801", "DO-0802", "DO-0806", "DO-0810")


STEPS = [{"label": "기획", "desc": "시장 조사와 목표 설정"}, {"label": "실행", "desc": "파일럿 운영"}, {"label": "점검", "desc": "성과 지표 확인"}]
TWO = STEPS[:2]

# ------------------------------------------------------------------------------ complete
add("DO-0001", "complete", "three steps, every label and description visible", cards(STEPS, title=None))
c = cards(TWO, title=None)
c["visible_texts"] += [{"text": "01", "box": [1000, 900, 60, 40]}, {"text": "02", "box": [1100, 900, 60, 40]}]
add("DO-0002", "complete", "ordinal markers 01 and 02 beside two items", c)
c = cards(STEPS, title=None)
c["visible_texts"] += [{"text": t, "box": [1300 + 100 * k, 900, 40, 40]} for k, t in enumerate("ABC")]
add("DO-0003", "complete", "short labels A, B, C that fit three items", c)
c = cards([{"label": "Market Research", "desc": "市場調査"}, {"label": "Launch", "desc": "ローンチ"}], title=None)
add("DO-0004", "complete", "English and Japanese user text", c)
c = cards(TWO, title=None)
c["visible_texts"][1]["text"] = "시장 조사와\n목표 설정"
c["visible_texts"][3]["text"] = "파일럿 운…"
add("DO-0005", "complete", "user text broken over lines and truncated", c)
c = cards(TWO, title=None)
c["visible_texts"][0]["text"] = "label: 기획"
add("DO-0006", "complete", "a 'label:' prefix before user text", c)
c = {"page_yaml": [{"분기": "1분기", "매출": "120억"}, {"분기": "2분기", "매출": "135억"}],
     "binding": [{"node_id": "tbl", "sheet_id": "s1", "text": None, "slot_kind": "unit_field"}],
     "frame_tree": [{"node_id": "tbl", "text": None, "box": [40, 140, 880, 560], "slot_kind": "unit_field"}]
     + [{"node_id": f"h{k}", "parent": "tbl", "text": t, "box": box(0, k), "slot_kind": "unit_field"} for k, t in enumerate(["A열", "B열"])]
     + [{"node_id": f"r{r}{k}", "parent": "tbl", "text": "텍스트", "box": box(r, k), "slot_kind": "unit_field"} for r in (1, 2) for k in (0, 1)],
     "outside_nodes": [],
     "visible_texts": [{"text": t, "box": inner(box(r, k))} for (r, k), t in
                       {(1, 0): "1분기", (1, 1): "120억", (2, 0): "2분기", (2, 1): "135억"}.items()]}
add("DO-0007", "complete", "children of a bound table keep their template text only in the data (A열, 텍스트)", c)
c = cards([{"label": "기획", "desc": "시장 조사와 목표 설정"}, {"label": "실행"}], title=None)
add("DO-0008", "complete", "a label-only item's description place is empty", c)
c = cards(TWO, title=None, extra_rows=2)
add("DO-0009", "complete", "surplus columns left empty when every item is visible", c)
c = cards(TWO, title=None)
c["outside_nodes"] = [{"node_id": "o1", "template_text": "20XX년", "now": None, "element": "chart", "cells_replaced": True,
                       "satellite": False, "slot_kind": "unbound_core", "box": [1340, 140, 540, 700]}]
c["page_yaml"] = TWO + [{"label": "2025년"}]
c["visible_texts"] += [{"text": "2025년", "box": [1400, 780, 120, 40]}]
add("DO-0010", "complete", "a chart legend outside, cells replaced, shows the page's year", c)
c = cards(TWO, title=None)
c["outside_nodes"] = [{"node_id": "o1", "template_text": "기본 타이틀", "now": "2026 사업 계획", "element": "text",
                       "satellite": False, "slot_kind": "unbound_core", "box": [1340, 20, 540, 100]}]
c["visible_texts"] += [{"text": "2026 사업 계획", "box": [1350, 30, 300, 50]}]
add("DO-0011", "complete", "an outside node replaced (now not null) shows its new text", c)
c = cards([{"question": "환불이 되나요", "answer": "7일 안에 됩니다"}], title=None)
c["page_yaml"] = [{"question": "환불이 되나요", "answer": "7일 안에 됩니다"}]
c["frame_tree"], c["binding"] = [], []
c["visible_texts"] = [{"text": "Q"}, {"text": "환불이 되나요"}, {"text": "A"}, {"text": "7일 안에 됩니다"}]
add("DO-0012", "complete", "Q and A on a one-question FAQ (texts given without boxes)", c)

# ------------------------------------------------------------------------------ satellite_only
add("DO-0101", "satellite_only", "the component title (satellite) still shows its placeholder",
    cards(STEPS, title_shows="제목을 입력해주세요."))
add("DO-0102", "satellite_only", "an unbound_satellite group title shows 부제목 입력",
    cards(TWO, title_kind="unbound_satellite", title_shows="부제목 입력"))
c = cards(TWO, title=None)
c["outside_nodes"] = [{"node_id": "o1", "template_text": "제목 입력", "now": None, "element": "text", "satellite": True,
                       "slot_kind": "satellite", "box": [1340, 20, 540, 100]}]
c["visible_texts"] += [{"text": "제목 입력", "box": [1350, 30, 200, 50]}]
add("DO-0103", "satellite_only", "a satellite placeholder outside the bound area", c)
add("DO-0104", "satellite_only", "a surplus column shows a placeholder when every item is visible",
    cards(TWO, title=None, extra_rows=1, extra_shows="내용"))
c = cards(TWO, title=None)
c["frame_tree"].append({"node_id": "photo", "text": "사진을 넣어 주세요", "box": [1340, 140, 540, 600], "slot_kind": "unbound_core", "role": "photo"})
c["visible_texts"].append({"text": "사진을 넣어 주세요", "box": [1400, 400, 300, 50]})
add("DO-0105", "satellite_only", "a photo-insert hint on the picture place", c)
c = cards([{"title": "상반기 성과", "label": "매출", "desc": "20% 증가"}], title_shows="제목 입력")
add("DO-0106", "satellite_only", "the satellite title place shows a placeholder although page_yaml has a title (never blank)", c)

# ------------------------------------------------------------------------------ body_blank
add("DO-0201", "body_blank", "a description place shows its placeholder while the description is nowhere",
    cards(STEPS, title=None, shown={1: {"desc": "설명을 입력해주세요."}}))
add("DO-0202", "body_blank", "a description place shows empty while the description is nowhere",
    cards(STEPS, title=None, shown={2: {"desc": None}}))
add("DO-0203", "body_blank", "a label place shows 내용 while the label is nowhere",
    cards(TWO, title=None, shown={0: {"label": "내용"}}))
c = cards(STEPS, title=None, shown={0: {"desc": "설명"}})
c["frame_tree"][0]["slot_kind"] = "unbound_core"
add("DO-0204", "body_blank", "an unbound_core place that looks like a heading shows a placeholder", c)
c = cards(TWO, title=None, shown={1: {"desc": None}})
c["outside_nodes"] = [{"node_id": "o1", "template_text": "20XX년", "now": None, "element": "chart", "cells_replaced": False,
                       "satellite": False, "slot_kind": "unbound_core", "box": [1340, 140, 540, 700]}]
c["visible_texts"] += [{"text": "20XX년", "box": [1400, 780, 120, 40]}]
add("DO-0205", "body_blank", "a blank body place and template data outside: the blank comes first", c)
add("DO-0206", "body_blank", "a blank body place beside a satellite placeholder",
    cards(TWO, title_shows="제목 입력", shown={0: {"desc": "텍스트를 입력하세요"}}))

# ------------------------------------------------------------------------------ outside_left
def outside(element: str, template: str, shows: str, *, replaced: bool = False, satellite: bool = False,
            kind: str = "unbound_core", items: list[dict] = TWO) -> dict:
    c = cards(items, title=None)
    c["outside_nodes"] = [{"node_id": "o1", "template_text": template, "now": None, "element": element, "cells_replaced": replaced,
                           "satellite": satellite, "slot_kind": kind, "box": [1340, 140, 540, 700]}]
    c["visible_texts"] += [{"text": shows, "box": [1400, 780, 160, 40]}]
    return c


add("DO-0301", "outside_left", "a chart legend outside, cells not replaced", outside("chart", "20XX년", "20XX년"))
add("DO-0302", "outside_left", "an axis value of a chart outside, cells not replaced", outside("chart", "100", "100"))
add("DO-0303", "outside_left", "a template table cell outside, cells not replaced", outside("table", "A항목", "A항목"))
add("DO-0304", "outside_left", "an outside text node never replaced (now null) shows its original", outside("text", "Sample Text", "Sample Text"))
add("DO-0305", "outside_left", "a placeholder outside on a place that is no satellite", outside("text", "내용", "내용"))
add("DO-0306", "outside_left", "a diagram label outside, cells not replaced", outside("diagram", "단계명", "단계명"))
c = outside("chart", "20XX년", "20XX년")
c["frame_tree"][0:0] = [{"node_id": "title", "text": "제목", "box": [40, 20, 1200, 100], "slot_kind": "satellite"}]
c["visible_texts"].append({"text": "제목 입력", "box": [50, 30, 300, 50]})
add("DO-0307", "outside_left", "template data outside beside a satellite placeholder: outside comes first", c)

# ------------------------------------------------------------------------------ template_left
c = cards(STEPS, title=None)
c["visible_texts"].append({"text": "이곳에 내용을 입력해 보세요", "box": [1340, 500, 500, 40]})
add("DO-0401", "template_left", "a template guide inside", c)
c = cards(TWO, title=None)
c["visible_texts"] += [{"text": t, "box": [1300 + 100 * k, 900, 40, 40]} for k, t in enumerate("ABC")]
add("DO-0402", "template_left", "A, B, C on two items do not fit", c)
c = cards(STEPS, title=None)
c["visible_texts"] += [{"text": t, "box": [1300 + 100 * k, 900, 40, 40]} for k, t in enumerate("FAQ")]
add("DO-0403", "template_left", "F, A, Q on content that is no FAQ", c)
c = cards(TWO, title=None)
c["visible_texts"] += [{"text": "フェーズ1", "box": [1300, 900, 140, 40]}]
add("DO-0404", "template_left", "a marker in another language than the page", c)
c = cards(TWO, title=None, shown={1: {"label": "기본 타이틀"}})
add("DO-0405", "template_left", "a template title left in a label place (and the label is nowhere)", c)
c = cards(STEPS, title=None)
c["visible_texts"].append({"text": "Lorem ipsum dolor", "box": [1340, 700, 400, 40]})
add("DO-0406", "template_left", "an English template text inside", c)
c = cards(TWO, title=None, shown={0: {"desc": None}})
c["visible_texts"].append({"text": "샘플 이미지입니다", "box": [1340, 700, 300, 40]})
add("DO-0407", "template_left", "template text inside beside a blank place: template text comes first", c)


# ------------------------------------------------------------------------------ second theme
# The same situations on other content (an HR plan, four items with numbers and English),
# so that no answer depends on the first theme's words.
HR = [{"label": "채용", "desc": "개발자 5명 충원"}, {"label": "온보딩", "desc": "2주 멘토링"},
      {"label": "평가", "desc": "OKR 분기 점검"}, {"label": "보상", "desc": "성과급 10%"}]
HR3 = HR[:3]
add("DO-0501", "complete", "four HR items with numbers and English, all visible", cards(HR, title=None))
c = cards(HR3, title=None)
c["visible_texts"] += [{"text": t, "box": [1340 + 100 * k, 900, 60, 40]} for k, t in enumerate(["STEP 1", "STEP 2", "STEP 3"])]
add("DO-0502", "complete", "STEP markers beside three items", c)
c = cards(HR, title=None)
c["visible_texts"] += [{"text": t, "box": [1340 + 100 * k, 900, 40, 40]} for k, t in enumerate("ABCD")]
add("DO-0503", "complete", "A to D on four items fit", c)
c = cards(HR3, title=None)
c["visible_texts"][5]["text"] = "OKR 분기…"
add("DO-0504", "complete", "a description truncated with an ellipsis", c)
add("DO-0505", "complete", "a surplus fourth column left empty", cards(HR3, title=None, extra_rows=1))
add("DO-0506", "satellite_only", "the component title (satellite) shows 제목 입력", cards(HR, title_shows="제목 입력"))
add("DO-0507", "satellite_only", "a surplus column shows 텍스트를 입력하세요", cards(HR3, title=None, extra_rows=1, extra_shows="텍스트를 입력하세요"))
add("DO-0508", "body_blank", "the third item's description place shows 설명", cards(HR3, title=None, shown={2: {"desc": "설명"}}))
add("DO-0509", "body_blank", "the second label place is empty", cards(HR, title=None, shown={1: {"label": None}}))
c = outside("chart", "20XX년", "20XX년", items=HR3)
add("DO-0510", "outside_left", "a chart legend outside beside HR items, cells not replaced", c)
c = outside("table", "기본 항목", "기본 항목", items=HR3)
add("DO-0511", "outside_left", "a template table cell outside beside HR items", c)
c = cards(HR3, title=None)
c["visible_texts"] += [{"text": t, "box": [1340 + 100 * k, 900, 40, 40]} for k, t in enumerate("AB")]
add("DO-0512", "template_left", "A and B on three items do not fit", c)
c = cards(HR, title=None)
c["visible_texts"].append({"text": "Click to add text", "box": [1340, 700, 400, 40]})
add("DO-0513", "template_left", "an English guide text inside", c)
c = cards(HR3, title=None)
c["visible_texts"].append({"text": "VS", "box": [900, 500, 60, 40]})
add("DO-0514", "template_left", "VS between three items does not fit", c)


# ------------------------------------------------------------------------------ third theme
# A comparison of two offers and an FAQ: VS, Q/A and O/X tokens, and charts outside.
OFFERS = [{"label": "자체 개발", "desc": "초기 비용 2억"}, {"label": "외주", "desc": "월 1,200만원"}]
c = cards(OFFERS, title=None)
c["visible_texts"].append({"text": "VS", "box": [460, 400, 60, 40]})
add("DO-0601", "complete", "VS between two offers fits", c)
c = cards(OFFERS, title=None)
c["visible_texts"] += [{"text": "O", "box": [300, 100, 40, 40]}, {"text": "X", "box": [740, 100, 40, 40]}]
add("DO-0602", "complete", "O and X, one per offer", c)
c = cards(OFFERS, title=None)
c["visible_texts"] += [{"text": "O", "box": [300, 100, 40, 40]}]
add("DO-0603", "template_left", "a lone O on two offers does not fit", c)
FAQ = [{"question": "환불이 되나요", "answer": "7일 안에 됩니다"}, {"question": "배송은 얼마나 걸리나요", "answer": "사흘 걸립니다"}]
c = {"page_yaml": FAQ, "binding": [], "outside_nodes": [],
     "frame_tree": [{"node_id": f"f{i}{k}", "text": "텍스트", "box": box(r, i), "slot_kind": "unit_field"}
                    for i in range(2) for r, k in enumerate(("q", "a"))],
     "visible_texts": [v for i, item in enumerate(FAQ) for v in (
         {"text": "Q", "box": [box(0, i)[0] + 10, box(0, i)[1] + 70, 30, 30]}, {"text": item["question"], "box": inner(box(0, i))},
         {"text": "A", "box": [box(1, i)[0] + 10, box(1, i)[1] + 70, 30, 30]}, {"text": item["answer"], "box": inner(box(1, i))})]}
add("DO-0604", "complete", "Q and A on a two-question FAQ", c)
c = {**c, "visible_texts": [v for v in c["visible_texts"] if v["text"] != "사흘 걸립니다"]}
add("DO-0605", "body_blank", "the FAQ's second answer place is empty", c)
c = outside("chart", "20XX년", "2분기", replaced=True, items=OFFERS)
c["page_yaml"] = OFFERS + [{"label": "2분기", "desc": "비용 비교"}]
c["visible_texts"] += [{"text": "비용 비교", "box": [1400, 200, 200, 40]}]
add("DO-0606", "complete", "a chart outside, cells replaced, its legend and title from this page", c)
c = outside("chart", "20XX년", "20XX년", replaced=True, items=OFFERS)
add("DO-0607", "complete", "a chart outside, cells replaced, still shows 20XX년 in a legend (not counted, hedged)", c)
c = outside("chart", "계열 1", "계열 1", items=OFFERS)
add("DO-0608", "outside_left", "a chart outside whose cells were not replaced shows 계열 1", c)
c = outside("text", "부제목 입력", "부제목 입력", satellite=True, kind="satellite", items=OFFERS)
add("DO-0609", "satellite_only", "a satellite subtitle outside shows its placeholder", c)
c = outside("text", "설명을 입력해주세요.", "설명을 입력해주세요.", items=OFFERS)
add("DO-0610", "outside_left", "a description outside (no satellite) shows its placeholder", c)
c = cards(OFFERS, title_shows="제목을 입력해…")
add("DO-0611", "satellite_only", "a truncated title placeholder on the satellite place", c)
c = cards(OFFERS, title=None, shown={0: {"desc": "초기 비용…"}})
add("DO-0612", "complete", "a description shown cut short is visible, not blank", c)
c = cards(OFFERS, title=None)
c["visible_texts"].append({"text": "1 steps", "box": [1340, 900, 120, 40]})
add("DO-0613", "template_left", "an English marker word on a Korean page", c)
c = cards(OFFERS, title=None, shown={1: {"desc": None}})
c["outside_nodes"] = [{"node_id": "o1", "template_text": None, "now": None, "element": "diagram", "cells_replaced": False,
                       "satellite": False, "slot_kind": "unbound_core", "box": [1340, 140, 540, 700]}]
add("DO-0614", "body_blank", "the second offer's price is nowhere and its place is empty; the outside diagram shows nothing", c)


# ------------------------------------------------------------------------------ fourth theme
# A sales table bound as a whole: the table node is bound (sheet_id) and its cells are its
# children by `parent`, so their template texts (「A열」, 「텍스트」) are only in the data.
# Headers are bound texts; rows beyond the page's items are surplus.
REGIONS = [{"지역": "서울", "목표": "매출 20% 증가"}, {"지역": "부산", "목표": "신규 고객 확보"},
           {"지역": "대구", "목표": "재구매율 개선"}, {"지역": "광주", "목표": "매장 두 곳 추가"}]
COLUMNS = ("지역", "목표")


def cell(row: int, col: int) -> list[int]:
    return [40 + col * 620, 300 + row * 120, 600, 110]


def table(items: list[dict] = REGIONS, *, shown: dict | None = None, surplus: int = 0, surplus_shows: str | None = None) -> dict:
    """A bound table: a header row and one row per item (``shown[(row, column)]``
    overrides what a cell shows, ``None`` = empty), plus ``surplus`` empty rows."""
    frame = [{"node_id": "tbl", "text": None, "box": [20, 180, 1280, 880], "slot_kind": "unit_field"}]
    binding = [{"node_id": "tbl", "sheet_id": "t1", "text": None, "slot_kind": "unit_field"}]
    visible = []
    for k, name in enumerate(COLUMNS):
        b = [40 + k * 620, 190, 600, 100]
        frame.append({"node_id": f"h{k}", "parent": "tbl", "text": f"{'AB'[k]}열", "box": b, "slot_kind": "unit_field"})
        binding.append({"node_id": f"h{k}", "sheet_id": "t1", "text": name, "slot_kind": "unit_field"})
        visible.append({"text": name, "box": [b[0] + 20, b[1] + 20, 400, 60]})
    for r in range(len(items) + surplus):
        for k, name in enumerate(COLUMNS):
            b = cell(r, k)
            frame.append({"node_id": f"r{r}{k}", "parent": "tbl", "text": "텍스트", "box": b, "slot_kind": "unit_field"})
            if r >= len(items):
                if surplus_shows and k == 1 and r == len(items):
                    visible.append({"text": surplus_shows, "box": [b[0] + 20, b[1] + 25, 400, 60]})
                continue
            show = (shown or {}).get((r, name), items[r][name])
            if show:
                visible.append({"text": show, "box": [b[0] + 20, b[1] + 25, 500, 60]})
    return {"page_yaml": items, "binding": binding, "frame_tree": frame, "outside_nodes": [], "visible_texts": visible}


def beside(c: dict, texts: list[str]) -> dict:
    """``texts`` (markers, labels) drawn one per row left of the table, inside the bound area."""
    c["frame_tree"].append({"node_id": "side", "text": None, "box": [1320, 280, 120, 520], "slot_kind": "unbound_core"})
    c["visible_texts"] += [{"text": t, "box": [1330, 320 + 120 * k, 100, 60]} for k, t in enumerate(texts)]
    return c


def chart(c: dict, template: str, shows: str | None, *, element: str = "chart", replaced: bool = False, now: str | None = None,
          satellite: bool = False) -> dict:
    """An outside node right of the table, showing ``shows``."""
    c["outside_nodes"].append({"node_id": "o1", "template_text": template, "now": now, "element": element, "cells_replaced": replaced,
                               "satellite": satellite, "slot_kind": "satellite" if satellite else "unbound_core",
                               "box": [1460, 180, 440, 880]})
    if shows:
        c["visible_texts"].append({"text": shows, "box": [1480, 900, 400, 60]})
    return c


add("DO-0701", "complete", "a bound table: headers and every cell shown, the cells' template texts only in the data", table(), [])
add("DO-0702", "complete", "two surplus rows of the table left empty", table(surplus=2), [])
add("DO-0703", "satellite_only", "a surplus row of the table shows 내용", table(surplus=1, surplus_shows="내용"), ["satellite:내용"])
add("DO-0704", "body_blank", "the second row's goal cell is empty and the goal is nowhere",
    table(shown={(1, "목표"): None}), ["blank:신규 고객 확보"])
add("DO-0705", "body_blank", "the third row's goal cell shows 설명", table(shown={(2, "목표"): "설명"}),
    ["placeholder_blank:설명", "blank:재구매율 개선"])
add("DO-0706", "template_left", "a cell of the bound table shows its template text A열 instead of 광주",
    table(shown={(3, "지역"): "A열"}), ["template:A열", "not_blank:광주"])
add("DO-0707", "complete", "ordinal markers 01 to 04 beside the four rows", beside(table(), ["01", "02", "03", "04"]),
    ["token:01", "token:02", "token:03", "token:04"])
add("DO-0708", "template_left", "labels A and B beside four rows do not fit", beside(table(), ["A", "B"]), ["misfit:A", "misfit:B"])
add("DO-0709", "complete", "labels A to D beside four rows fit", beside(table(), ["A", "B", "C", "D"]),
    ["token:A", "token:B", "token:C", "token:D"])
add("DO-0710", "outside_left", "a chart outside, cells not replaced, shows its legend 계열 1", chart(table(), "계열 1", "계열 1"),
    ["outside:계열 1"])
add("DO-0711", "complete", "a chart outside, cells replaced, still shows its legend 계열 1 (not counted, hedged)",
    chart(table(), "계열 1", "계열 1", replaced=True), ["replaced:계열 1"])
add("DO-0712", "complete", "a chart outside, cells replaced, its legend shows the page's 서울",
    chart(table(), "계열 1", "서울", replaced=True), [])
add("DO-0713", "satellite_only", "a satellite subtitle outside shows 부제목 입력",
    chart(table(), "부제목 입력", "부제목 입력", element="text", satellite=True), ["satellite:부제목 입력"])
add("DO-0714", "outside_left", "an outside text node never replaced shows Sample Text",
    chart(table(), "Sample Text", "Sample Text", element="text"), ["outside:Sample Text"])
add("DO-0715", "complete", "an outside text node replaced (now) shows its new text",
    chart(table(), "Sample Text", "2027 영업 계획", element="text", now="2027 영업 계획"), [])
add("DO-0716", "outside_left", "an outside node that is no satellite shows 제목 입력",
    chart(table(), "제목 입력", "제목 입력", element="text"), ["outside:제목 입력"])
c = table(shown={(3, "목표"): None})
c["frame_tree"].append({"node_id": "note", "text": None, "box": [1320, 900, 120, 120], "slot_kind": "unbound_core"})
c["visible_texts"].append({"text": "Lorem ipsum", "box": [1320, 920, 120, 60]})
add("DO-0717", "template_left", "template text inside and an empty goal cell: template text comes first", c,
    ["template:Lorem ipsum", "blank:매장 두 곳 추가"])
add("DO-0718", "body_blank", "an empty region cell and a chart outside with its legend: the blank comes first",
    chart(table(shown={(1, "지역"): None}), "계열 1", "계열 1"), ["blank:부산", "outside:계열 1"])
c = chart(table(), "계열 1", "계열 1")
c["frame_tree"].insert(0, {"node_id": "title", "text": "제목", "box": [20, 20, 1280, 140], "slot_kind": "unbound_satellite"})
c["visible_texts"].insert(0, {"text": "제목 입력", "box": [40, 50, 400, 60]})
add("DO-0719", "outside_left", "a chart legend outside and a component title placeholder: outside comes first", c,
    ["outside:계열 1", "satellite:제목 입력"])
add("DO-0720", "complete", "English user text in a table cell",
    table([*REGIONS[:3], {"지역": "Seoul HQ", "목표": "Global sales"}]), [])


# ------------------------------------------------------------------------------ fifth theme
# A timeline in rows: a label place and a description place per phase, a satellite
# title on top and a photo place on the right; the template has five rows.
PHASES = [{"label": "1분기", "desc": "시장 분석"}, {"label": "2분기", "desc": "시제품 제작"}, {"label": "3분기", "desc": "정식 출시"}]


def timeline(items: list[dict] = PHASES, *, shown: dict | None = None, title_shows: str | None = None,
             photo_shows: str | None = None, rows: int = 3) -> dict:
    frame = [{"node_id": "title", "text": "제목", "box": [40, 20, 1200, 140], "slot_kind": "satellite"},
             {"node_id": "photo", "text": None, "box": [1540, 200, 340, 560], "slot_kind": "unbound_core", "role": "photo"}]
    binding, visible = [], []
    if title_shows:
        visible.append({"text": title_shows, "box": [60, 60, 600, 60]})
    if photo_shows:
        visible.append({"text": photo_shows, "box": [1550, 450, 320, 60]})
    for i in range(max(rows, len(items))):
        for k, field in enumerate(("label", "desc")):
            node = f"p{i}{field[0]}"
            b = [40, 200 + i * 170, 400, 150] if k == 0 else [480, 200 + i * 170, 1000, 150]
            frame.append({"node_id": node, "text": "텍스트", "box": b, "slot_kind": "unit_field"})
            if i >= len(items):
                continue
            value = items[i].get(field)
            if value:
                binding.append({"node_id": node, "sheet_id": f"s{i}", "text": value, "slot_kind": "unit_field"})
            show = (shown or {}).get((i, field), value)
            if show:
                visible.append({"text": show, "box": [b[0] + 20, b[1] + 45, b[2] - 40, 60]})
    return {"page_yaml": items, "binding": binding, "frame_tree": frame, "outside_nodes": [], "visible_texts": visible}


def markers(c: dict, texts: list[str]) -> dict:
    c["frame_tree"].append({"node_id": "marks", "text": None, "box": [1500, 800, 400, 260], "slot_kind": "unbound_core"})
    c["visible_texts"] += [{"text": t, "box": [1520, 820 + 70 * k, 300, 60]} for k, t in enumerate(texts)]
    return c


LABEL_ONLY = [*PHASES[:2], {"label": "3분기"}]
add("DO-0801", "complete", "three phases shown, the satellite title place and the photo place empty", timeline(), [])
add("DO-0802", "satellite_only", "the satellite title shows 제목을 입력해주세요.", timeline(title_shows="제목을 입력해주세요."),
    ["satellite:제목을 입력해주세요."])
add("DO-0803", "satellite_only", "the photo place shows its insert hint", timeline(photo_shows="사진을 넣어 주세요"),
    ["satellite:사진을 넣어 주세요"])
add("DO-0804", "complete", "a label-only phase: its description place is empty", timeline(LABEL_ONLY), [])
add("DO-0805", "satellite_only", "a label-only phase's description place shows 설명 (surplus, never blank)",
    timeline(LABEL_ONLY, shown={(2, "desc"): "설명"}), ["satellite:설명"])
add("DO-0806", "body_blank", "the second phase's description place shows 설명을 입력해주세요.",
    timeline(shown={(1, "desc"): "설명을 입력해주세요."}), ["placeholder_blank:설명을 입력해주세요.", "blank:시제품 제작"])
add("DO-0807", "body_blank", "the first phase's label place is empty", timeline(shown={(0, "label"): None}), ["blank:1분기"])
add("DO-0808", "complete", "a description cut short with an ellipsis", timeline(shown={(2, "desc"): "정식 출…"}),
    ["variant:정식 출…", "shown_as:정식 출시"])
add("DO-0809", "complete", "STEP 1 to STEP 3 beside three phases", markers(timeline(), ["STEP 1", "STEP 2", "STEP 3"]),
    ["token:STEP 1", "token:STEP 2", "token:STEP 3"])
add("DO-0810", "template_left", "an English marker word on a Korean page", markers(timeline(), ["Phase 1"]), ["template:Phase 1"])
add("DO-0811", "template_left", "a template guide beside the phases", markers(timeline(), ["여기에 내용을 입력하세요"]),
    ["template:여기에 내용을 입력하세요"])
add("DO-0812", "complete", "the template's fourth and fifth rows belong to another page and are empty", timeline(rows=5), [])
add("DO-0813", "complete", "a 'desc:' prefix before a description", timeline(shown={(0, "desc"): "desc: 시장 분석"}),
    ["variant:desc: 시장 분석", "shown_as:시장 분석"])
add("DO-0814", "template_left", "VS beside three phases does not fit", markers(timeline(), ["VS"]), ["misfit:VS"])
add("DO-0815", "complete", "a description broken over two lines", timeline(shown={(1, "desc"): "시제품\n제작"}), [])
add("DO-0816", "body_blank", "the first phase's description is nowhere while a label-only phase's description place is empty too",
    timeline(LABEL_ONLY, shown={(0, "desc"): None}), ["blank:시장 분석"])


def main() -> None:
    import sys

    sys.path.insert(0, str(HERE.parents[1] / "src"))
    from verdicts.residue.model import VisibleText
    from verdicts.residue.render import render_picture

    for cid, answer, _, _ in EXAMPLES:
        wanted = answer_of(PLANTS.get(cid, []))
        if wanted != answer:
            raise SystemExit(f"{cid}: gold {answer}, but its plants lead to {wanted}")
    for old in [*HERE.glob("DO-*.yaml"), *(HERE / "pictures").glob("DO-*.png")]:
        old.unlink()
    for cid, answer, how, component in EXAMPLES:
        if cid in PICTURED:
            render_picture([VisibleText(**v) for v in component["visible_texts"]], HERE / "pictures" / f"{cid}.png")
            component = {**component, "result_thumb": f"pictures/{cid}.png"}
        (HERE / f"{cid}.yaml").write_text(f"# {how} (gold: {answer})\n" + yaml.safe_dump(component, allow_unicode=True, sort_keys=False),
                                          encoding="utf-8")
    with open(HERE / "gold.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["component_id", "verdict", "answer", "how", "plants"])
        for cid, answer, how, _ in EXAMPLES:
            w.writerow([cid, LABELS[answer], answer, how, " | ".join(" ".join(p.split()) for p in PLANTS.get(cid, []))])


if __name__ == "__main__":
    main()
