"""The import checks itself: every construct line of the source (each choice, link,
jump, option, divert; each knot, stitch, passage, label, node) must have become a
branch or a scene of the tables, an input issue naming that line, or a line the
importer accounted for on purpose (an external link) — never nothing.

The construct lines come from each format's own scanner (``scan_constructs`` of the
importer's module), which reads the source line by line with regular expressions,
apart from the importer; so a construct the importer drops, or a passage it merges
into another, fails the check (``[실패]``, exit 3, like the other automatic checks).
"""

from __future__ import annotations

import os

from verdicts.model import CheckResult

from .common import ImportedStory

__all__ = ["IMPORT_CHECK", "import_check"]

IMPORT_CHECK = "C11"
DESCRIPTION = ("이야기 원문을 따로 훑어 찾은 선택지·링크·이동과 장면이 모두 표의 분기나 장면, 또는 그 줄을 가리키는 "
               "입력 문제로 옮겨졌는지 대조합니다.")


def _norm(file: str | None) -> str:
    return os.path.normpath(file) if file else ""


def import_check(story: ImportedStory) -> CheckResult | None:
    """이야기를 가져올 때마다 형식마다 따로 둔 줄 단위 훑기(가져오기 코드와 별개)로 원문의 선택지, 링크, 이동,
    분기를 찾고, 그 줄마다 표의 분기나 장면, 그 줄을 가리키는 입력 문제, 일부러 분기로 만들지 않은 줄(바깥 주소
    링크 같은 것) 가운데 하나가 있어야 합니다. 이름이 있는 장면(knot, 패시지, 라벨, 노드)은 저마다 같은 이름의
    장면으로 남아야 합니다. 표에서 읽은 시나리오에는 이 검증이 없습니다."""
    if not story.constructs:
        return None
    lines: set[tuple[str, int]] = set()
    for b in story.branches:
        if b.source_line is not None:
            file = _norm(b.source_file)
            lines.add((file, b.source_line))
            lines.update((file, n) for n in b.via_lines)
    for s in story.scenes:
        if s.source_line is not None:
            lines.add((_norm(s.source_file), s.source_line))
    issue_lines = {(_norm(i.file), i.line) for i in story.issues if i.line is not None}
    accounted = {(_norm(f), n) for f, n in story.accounted}
    scene_ids = {s.scene_id for s in story.scenes}
    failed: list[str] = []
    for c in story.constructs:
        where = (_norm(c.file), c.line)
        if where in issue_lines or where in accounted:
            continue
        if c.kind == "scene":
            if c.name is not None and c.name in scene_ids:
                continue
            if c.name is None and where in lines:
                continue
        elif where in lines:
            continue
        failed.append(f"{c.file}:{c.line}")
    return CheckResult(id=IMPORT_CHECK, description=DESCRIPTION, passed=not failed, failed_targets=failed,
                       note=f"원문에서 찾은 구문 {len(story.constructs):,}개" if not failed else
                       f"원문에서 찾은 구문 {len(story.constructs):,}개 가운데 {len(failed):,}개가 표에도 입력 문제에도 없습니다")
