"""Reading rule docstrings into the sections the generated docs show.

A rule's docstring starts with a headline (``<verdict> — what it means``, one Korean
sentence) followed by the sections of :data:`SECTIONS` (*잡는 것 / 왜 문제인가 / 예시 /
고치는 법*, the ruff rule-doc shape in Korean: users read Korean only); every domain's docs
page, ``explain`` and SARIF's rule descriptions are generated from them, so the docs and
the code never drift apart.
"""

from __future__ import annotations

import textwrap

from .model import WITHHELD

__all__ = ["SECTIONS", "split_doc", "explain_text", "explainable_names", "explain_index", "render_explain_index",
           "render_domain_docs"]

#: the sections of a rule's documentation, in order: what it flags, why it matters, an
#: example, and what to do instead (``고치는 법``, the same words as a card's fix line)
SECTIONS = ("잡는 것", "왜 문제인가", "예시", "고치는 법")


def split_doc(doc: str) -> tuple[str, dict[str, str]]:
    """The headline and the sections of a rule's docstring, each on one line.

    >>> split_doc('''X — 무엇인지 적습니다.
    ...
    ...     잡는 것:
    ...         어떤 것을 잡습니다.
    ...     고치는 법:
    ...         고칠 것이 없습니다.
    ... ''')
    ('X — 무엇인지 적습니다.', {'잡는 것': '어떤 것을 잡습니다.', '고치는 법': '고칠 것이 없습니다.'})
    """
    lines = doc.strip().splitlines()
    headline = lines[0].strip() if lines else ""
    body = textwrap.dedent("\n".join(lines[1:]))
    sections: dict[str, str] = {}
    current = None
    for line in body.splitlines():
        stripped = line.strip()
        heading = stripped[:-1] if stripped.endswith(":") else None
        if heading in SECTIONS:
            current = heading
            sections[current] = ""
        elif current:
            sections[current] += stripped + " "
    return headline, {k: " ".join(v.split()) for k, v in sections.items()}


def _causes(domain, rule) -> list[str]:
    """The values a rule fixes in the fields that subdivide its verdict (robot's
    ``blocked_cause``)."""
    return [str(rule.stamp[f]) for f in dict.fromkeys(domain.subgroup_field.values()) if rule.stamp.get(f) is not None]


def _rule_title(domain, rule) -> str:
    cause = "".join(f" ({v})" for v in _causes(domain, rule))
    where = f" — {domain.kind_labels.get(rule.kind, rule.kind)}" if rule.kind else ""
    return f"{rule.verdict}{cause} · {rule.code}{where}"


def explainable_names(domain) -> list[str]:
    """Every name ``explain`` takes for ``domain``: verdict labels and rule codes,
    finding codes, check ids."""
    names: list[str] = []
    for rule in domain.rules():
        for n in (rule.verdict, rule.code):
            if n not in names:
                names.append(n)
    names += [k.code for k in domain.finding_kinds]
    names += [c.id for c in _checks(domain)] + [SCHEMA_ID, WITHHELD, WITHHELD_CODE]
    if getattr(domain, "undone_doc", None):
        names += [domain.undone_group, UNDONE_CODE]
    return names


#: the stable name of a domain's undone group (``explain undone``)
UNDONE_CODE = "undone"


#: the schema check every domain shows beside its own (its id, description and doc)
SCHEMA_ID = "SCHEMA"
SCHEMA_DESCRIPTION = "모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다."


def _schema_doc(domain) -> str:
    return (f"카드마다 명세의 출력 스키마로 검사합니다. 스키마는 데이터 파일 "
            f"`src/verdicts/schemas/{domain.name}.card.schema.json`에 그대로 둡니다.")


def _checks(domain) -> list:
    getter = getattr(domain, "documented_checks", None)
    return getter() if getter is not None else domain.checks()


#: the kit's withheld state, as ``explain`` and every docs page describe it
WITHHELD_CODE = "withheld"
WITHHELD_DOC = (
    "판정이 도구가 정확히 읽지 못한 부분(읽을 수 없는 값, 가져온 이야기에서 가는 곳을 알 수 없는 이동, 옮기지 못한 조건, "
    "값을 셈할 수 없는 변경)에 달려 있으면 판정을 내리지 않고 보류합니다. 보류한 카드에는 판정 이름이 없고(JSON의 "
    "`verdict`는 `null`), 문장이 무엇을 왜 읽지 못했는지와 그 자리를 밝히며, `withheld` 필드에 같은 내용(`reason`, "
    "`where`)이 있습니다. 문제도 통과도 아니라서 화면과 요약에서 따로 묶고, SARIF에서는 `kind`가 `open`인 결과로, "
    "GitHub 주석에서는 알림(`notice`)으로 냅니다. 설정의 `fail_on`에 `withheld`를 적었을 때만 실행을 실패로 "
    "끝냅니다.")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def explain_text(domain, name: str) -> str | None:
    """The documentation of a verdict (Korean label or stable code), a finding code or a
    check id of ``domain`` as plain text (from the same docstrings as its docs page);
    ``None`` when the name is unknown."""
    blocks: list[tuple[str, str]] = []
    for rule in domain.rules():
        if name in (rule.verdict, rule.code):
            blocks.append((_rule_title(domain, rule), rule.doc))
    for kind in domain.finding_kinds:
        if name == kind.code:
            blocks.append((f"{kind.code} · {kind.title}", kind.doc))
    out: list[str] = []
    for title, doc in blocks:
        headline, sections = split_doc(doc)
        out += [title, "=" * len(title), headline, ""]
        for section in SECTIONS:
            out += [f"{section}:", f"    {sections.get(section, '')}", ""]
    if not blocks:
        if name.upper() == SCHEMA_ID:
            title = f"{SCHEMA_ID} · {SCHEMA_DESCRIPTION}"
            return "\n".join([title, "=" * len(title), _schema_doc(domain), ""])
        if name in (WITHHELD, WITHHELD_CODE):
            title = f"{WITHHELD} · {WITHHELD_CODE}"
            return "\n".join([title, "=" * len(title), _one_line(WITHHELD_DOC), ""])
        if getattr(domain, "undone_doc", None) and name in (domain.undone_group, UNDONE_CODE):
            title = f"{domain.undone_group} · {UNDONE_CODE}"
            return "\n".join([title, "=" * len(title), _one_line(domain.undone_doc), ""])
        for check in _checks(domain):
            if check.id.lower() == name.lower():
                title = f"{check.id} · {check.description}"
                out += [title, "=" * len(title), _one_line(check.doc), ""]
    return "\n".join(out) if out else None


def explain_index(domain) -> list[tuple[str, list[tuple[str, str]]]]:
    """What ``explain`` can tell about ``domain``, for ``explain`` without a name: groups
    (판정, 린트 발견, 자동 검증) of ``(names, headline)`` — the names it takes for one
    entry (a verdict's Korean label with its code and, when the verdict has rules for
    several kinds of target, the kind) and the entry's one-line headline."""
    def gist(doc: str) -> str:
        headline = split_doc(doc)[0]
        return headline.split(" — ", 1)[1] if " — " in headline else headline

    verdicts = []
    for rule in domain.rules():
        cause = "".join(f" ({v})" for v in _causes(domain, rule))
        where = f" [{domain.kind_labels.get(rule.kind, rule.kind)}]" if rule.kind and len(domain.books) > 1 else ""
        verdicts.append((f"{rule.verdict}{cause} · {rule.code}{where}", gist(rule.doc)))
    verdicts.append((f"{WITHHELD} · {WITHHELD_CODE}", "판정이 읽지 못한 부분에 달려 있어 내리지 않은 카드와 발견입니다."))
    if getattr(domain, "undone_doc", None):
        verdicts.append((f"{domain.undone_group} · {UNDONE_CODE}", domain.undone_head))
    groups = [("판정 (한국어 이름이나 코드)", verdicts)]
    if domain.finding_kinds:
        groups.append(("린트 발견", [(f"{k.code} · {k.title}", gist(k.doc)) for k in domain.finding_kinds]))
    checks = [(c.id, c.description) for c in _checks(domain)] + [(SCHEMA_ID, SCHEMA_DESCRIPTION)]
    groups.append(("자동 검증", checks))
    return groups


def render_explain_index(domain, prog: str) -> str:
    """:func:`explain_index` as the text ``explain`` prints without a name: a lead line,
    then each group's entries, one a line (names, two spaces, headline)."""
    from .korean import code, josa

    out = [f"{josa(code(prog + ' NAME'), '으로/로')} 설명을 볼 수 있는 이름입니다.", ""]
    for title, entries in explain_index(domain):
        out.append(title)
        width = max(_width(names) for names, _ in entries)
        out += [f"  {names}{' ' * (width - _width(names))}  {gist}" for names, gist in entries]
        out.append("")
    return "\n".join(out)


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (Hangul and other wide characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def render_domain_docs(domain) -> str:
    """The docs page of ``domain`` (``domain.docs_page``), from the same docstrings as
    ``explain``: its rules in order (book by book), its lint findings, its checks and its
    verification notes.  ``verdicts docs NAME`` prints it; a test fails when the file is
    stale."""
    out = [
        f"# {domain.docs_title}",
        "",
        f"이 문서는 `{domain.name}` 도메인의 규칙과 검증에 달린 설명문(docstring)에서 "
        f"`verdicts docs {domain.name} > {domain.docs_page}`로 만듭니다. 손으로 고치지 마세요.",
        "",
        "규칙은 차례대로 따지며 처음 걸리는 규칙이 판정을 정합니다." + (f" {domain.docs_note}" if domain.docs_note else ""),
        "",
    ]
    several = len(domain.books) > 1
    for book in domain.books:
        level = "###" if several else "##"
        if several:
            kind = book.rules[0].kind
            out += [f"## {domain.kind_labels.get(kind, kind)}", ""]
        for number, rule in enumerate(book, start=1):
            headline, sections = split_doc(rule.doc)
            fixed = "".join(f" / `{v}`" for v in _causes(domain, rule))
            out += [f"{level} {number}. `{rule.verdict}`{fixed} · `{rule.code}`", "", headline, ""]
            for name in SECTIONS:
                out += [f"**{name}.** {sections.get(name, '')}", ""]
    out += [f"## {WITHHELD} · `{WITHHELD_CODE}`", "", _one_line(WITHHELD_DOC), ""]
    if getattr(domain, "undone_doc", None):
        out += [f"## {domain.undone_group} · `{UNDONE_CODE}`", "", _one_line(domain.undone_doc), ""]
    if domain.finding_kinds:
        out += ["## 린트 발견", "",
                f"판정과 따로 알리는 발견입니다. 발견마다 바뀌지 않는 코드가 있어 "
                f"`verdicts explain {domain.name} CODE`로 설명을 볼 수 있습니다.", ""]
        for kind in domain.finding_kinds:
            headline, sections = split_doc(kind.doc)
            out += [f"### `{kind.code}` · {kind.title}", "", headline, ""]
            for name in SECTIONS:
                out += [f"**{name}.** {sections.get(name, '')}", ""]
    out += ["## 자동 검증", "", "| 번호 | 검증 | 다시 계산하는 방법 |", "|---|---|---|"]
    for check in _checks(domain):
        out.append(f"| {check.id} | {check.description} | {_one_line(check.doc)} |")
    out.append(f"| {SCHEMA_ID} | {SCHEMA_DESCRIPTION} | {_schema_doc(domain)} |")
    out += ["", "## 검증 노트", ""]
    for part, sentences in domain.notes.items():
        out += [f"**{part}**", ""] + [f"- {s}" for s in sentences] + [""]
    return "\n".join(out).rstrip("\n") + "\n"
