"""Write 40 runs of five fields (200 cells) and their gold verdicts, each cell built from
one case of the spec (``extraction.md``) so that its verdict follows from the case, not
from this tool: ``python examples/extraction/gold/make_gold.py [FOLDER]`` (default: here).

Each run has three pages (사업자등록증, 시공능력평가 확인서, 신용평가등급 확인서).  A cell's case
decides what the worker wrote and quoted; the gold verdict is the case's, by the rules'
order (empty → format → evidence → value → match).  The ``note`` column names the case.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIELDS = [  # field_name, label, value_type, required, pattern, page
    ("company_name", "상호", "text", "true", "", 1),
    ("ceo_name", "대표자명", "text", "true", "", 1),
    ("biz_reg_no", "사업자등록번호", "biz_no", "true", r"^\d{3}-\d{2}-\d{5}$", 1),
    ("construction_capacity_krw", "시공능력평가액", "amount_krw", "false", r"^\d+$", 2),
    ("credit_grade", "신용평가등급", "grade", "false", r"^(AAA|AA|A|BBB|BB|B|CCC|CC|C|D)[+0-]?$", 3),
]
KEYS = {"company_name": "상호", "ceo_name": "대표자", "biz_reg_no": "등록번호", "construction_capacity_krw": "시공능력평가액",
        "credit_grade": "신용등급"}
CASES = {  # case -> gold verdict
    "same": "원문과 맞음",
    "normalised": "원문과 맞음",
    "differs": "원문 값과 다름",
    "other_page": "근거 문구가 원문에 없음",
    "nowhere": "근거 문구가 원문에 없음",
    "no_evidence": "근거 문구가 원문에 없음",
    "bad_format": "형식이 규칙과 다름",
    "empty_value": "필수 칸이 빔",
    "no_row": "필수 칸이 빔",
}
NAMES = ["한빛건설", "바른토건", "새솔산업", "푸른길개발", "동녘이앤씨", "가온종합건설", "누리건설", "다온토건"]
PEOPLE = ["홍길동", "김민준", "이서연", "박지호", "최하늘", "정우진", "강예린", "윤도현"]
GRADES = ["AAA", "AA+", "A-", "BBB0", "BBB+", "BB-", "B+", "CCC"]


def main(out: Path = HERE) -> None:
    rng = random.Random(15)
    outputs, pages, gold = [], [], []
    for n in range(40):
        run = f"G-{30001 + n}"
        truth = {
            "company_name": f"(주){rng.choice(NAMES)}",
            "ceo_name": rng.choice(PEOPLE),
            "biz_reg_no": f"{rng.randint(100, 999)}-{rng.randint(10, 99)}-{rng.randint(10000, 99999)}",
            "construction_capacity_krw": f"{rng.randint(1, 99):,}{rng.randint(0, 999):03d}{rng.randint(0, 999):03d}000",
            "credit_grade": rng.choice(GRADES),
        }
        truth["construction_capacity_krw"] = f"{int(truth['construction_capacity_krw'].replace(',', '')):,}"
        lines = {1: ["사업자등록증"], 2: ["시공능력평가 확인서"], 3: ["기업신용평가등급 확인서"]}
        for field, *_rest, page in FIELDS:
            shown = truth[field] + ("원" if field == "construction_capacity_krw" else "")
            lines[page].append(f"{KEYS[field]} : {shown}")
        lines[3].append("유효기간 : 2027-06-30")
        for page, body in lines.items():
            pages.append([run, page, body[0], "\n".join(body)])
        for field, label, kind, required, pattern, page in FIELDS:
            cases = [c for c in CASES if required == "true" or c not in ("empty_value", "no_row")]
            if kind == "text" and field == "ceo_name":
                cases = [c for c in cases if c not in ("normalised", "bad_format")]
            if field == "company_name":
                cases = [c for c in cases if c != "bad_format"]
            case = rng.choice(cases)
            value = truth[field].replace(",", "")
            phrase = f"{KEYS[field]} : {truth[field]}" + ("원" if field == "construction_capacity_krw" else "")
            cited = page
            if case == "normalised":
                value = {"company_name": truth[field].replace("(주)", "㈜"), "biz_reg_no": truth[field].replace("-", ""),
                         "construction_capacity_krw": value, "credit_grade": truth[field].replace("+", "＋").replace("-", "－")}[field]
                if field == "biz_reg_no":
                    value = truth[field]  # the pattern wants the dashes: keep them and quote the same text
            elif case == "differs":
                value = {"company_name": "(주)다른상호", "ceo_name": "홍길순", "biz_reg_no": "000-00-00000",
                         "construction_capacity_krw": "1", "credit_grade": "D"}[field]
            elif case == "other_page":
                cited = page % 3 + 1
            elif case == "nowhere":
                phrase = f"{KEYS[field]} : 없는 문구"
            elif case == "bad_format":
                value = {"biz_reg_no": "123456", "construction_capacity_krw": "약 10억", "credit_grade": "좋음"}[field]
            if case == "no_row":
                gold.append([f"{run}:{field}", CASES[case], case])
                continue
            if case == "empty_value":
                value = ""
            evidence_page, evidence_text = str(cited), phrase
            if case == "no_evidence":
                evidence_page, evidence_text = "", ""
            outputs.append([run, field, value, evidence_page, evidence_text])
            verdict, note = CASES[case], case
            if case == "normalised" and field == "credit_grade" and value != truth[field]:
                # NFKC would make it equal, but the format rule comes first and its pattern is ASCII
                verdict, note = "형식이 규칙과 다름", "normalised, but the full-width value breaks the ASCII pattern first"
            gold.append([f"{run}:{field}", verdict, note])
    with open(out / "worker_outputs.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["run_id", "field_name", "value", "evidence_page", "evidence_text"])
        w.writerows(outputs)
    with open(out / "source_pages.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(["run_id", "page", "doc_name", "text"])
        w.writerows(pages)
    with open(out / "field_rules.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["field_name", "label", "value_type", "required", "pattern"])
        w.writerows([row[:5] for row in FIELDS])
    with open(out / "gold.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item_key", "verdict", "note"])
        w.writerows(gold)


if __name__ == "__main__":
    import sys

    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
