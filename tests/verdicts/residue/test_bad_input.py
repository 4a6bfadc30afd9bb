"""A bad component file is an issue naming the file, the key and the reason; the other
components are still judged."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from verdicts.errors import InputError
from verdicts.residue import judge_components

GOOD = {"component_id": "OK", "page_yaml": [{"label": "기획"}], "binding": [], "frame_tree": [], "outside_nodes": [],
        "placeholder_table": ["제목"], "visible_texts": [{"text": "기획"}]}


def write(folder: Path, name: str, data) -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def judge_with(tmp_path: Path, bad: dict | str, name: str = "bad.yaml"):
    write(tmp_path, "ok.yaml", GOOD)
    bad_file = write(tmp_path, name, bad)
    report = judge_components(tmp_path)
    assert [c.component_id for c in report.cards] == ["OK"]
    assert all(i.file == str(bad_file) for i in report.issues)
    return report.issues


def test_a_missing_key_is_named(tmp_path):
    bad = {k: v for k, v in GOOD.items() if k != "binding"} | {"component_id": "BAD"}
    issues = judge_with(tmp_path, bad)
    assert [(i.column, i.reason) for i in issues] == [("binding", "필요한 키가 없습니다.")]


def test_a_box_outside_the_picture_is_named(tmp_path):
    bad = GOOD | {"component_id": "BAD", "frame_tree": [{"node_id": "n", "box": [1800, 0, 200, 100], "slot_kind": "unit_field"}]}
    issues = judge_with(tmp_path, bad)
    assert [i.column for i in issues] == ["frame_tree[0].box"] and "1920x1080" in issues[0].reason


def test_a_parent_cycle_is_named(tmp_path):
    bad = GOOD | {"component_id": "BAD", "frame_tree": [
        {"node_id": "a", "parent": "b", "slot_kind": "unit_field"}, {"node_id": "b", "parent": "a", "slot_kind": "unit_field"}]}
    issues = judge_with(tmp_path, bad)
    assert [i.column for i in issues] == ["frame_tree.parent"] and "a → b → a" in issues[0].reason


def test_a_wrong_slot_kind_names_its_key(tmp_path):
    bad = GOOD | {"component_id": "BAD", "binding": [{"node_id": "n", "slot_kind": "title"}]}
    issues = judge_with(tmp_path, bad)
    assert [i.column for i in issues] == ["binding[0].slot_kind"]


def test_unreadable_yaml_and_json(tmp_path):
    issues = judge_with(tmp_path, "component_id: [unclosed", "broken.yaml")
    assert issues[0].column is None and "YAML" in issues[0].reason


def test_a_repeated_component_id(tmp_path):
    issues = judge_with(tmp_path, GOOD, "zz.yaml")
    assert [i.column for i in issues] == ["component_id"] and "이미 읽었습니다" in issues[0].reason


def test_json_components_are_read(tmp_path):
    import json

    (tmp_path / "a.json").write_text(json.dumps(GOOD, ensure_ascii=False), encoding="utf-8")
    assert [c.answer for c in judge_components(tmp_path).cards] == ["complete"]


def test_no_component_at_all_is_an_input_error(tmp_path):
    with pytest.raises(InputError):
        judge_components(tmp_path)
    with pytest.raises(InputError):
        judge_components(tmp_path / "nope")


def test_no_visible_texts_and_no_reader_is_an_issue(tmp_path):
    data = {k: v for k, v in GOOD.items() if k != "visible_texts"}
    write(tmp_path, "c.yaml", data)
    report = judge_components(tmp_path)
    assert report.cards == [] and [i.column for i in report.issues] == ["visible_texts"]


def test_a_reader_is_pluggable(tmp_path):
    from verdicts.residue.model import VisibleText

    data = {k: v for k, v in GOOD.items() if k != "visible_texts"}
    write(tmp_path, "c.yaml", data)
    report = judge_components(tmp_path, reader=lambda component, folder: [VisibleText(text="기본 타이틀")])
    assert [c.answer for c in report.cards] == ["template_left"]


# ---------------------------------------------------------------------------- unreadable pictures
def _png(width: int, height: int) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "white").save(buffer, format="PNG")
    return buffer.getvalue()


def _bomb() -> bytes:
    """A PNG whose header claims 30000×30000 pixels (900 million) over a tiny body."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00" * 100)) + chunk(b"IEND", b"")


PICTURES = {
    "missing": (None, "없습니다"),
    "not an image": (b"this is no picture\n", "알아볼 수 없는"),
    "wrong size": (_png(800, 600), "1920x1080이어야 하는데 800x600입니다"),
    "truncated": (_png(1920, 1080)[:200], "잘려"),
    "decompression bomb": (_bomb(), "압축 폭탄"),
}


@pytest.mark.parametrize("case", sorted(PICTURES))
def test_an_unreadable_picture_is_an_issue_and_the_rest_is_judged(tmp_path, case):
    content, reason = PICTURES[case]
    if content is not None:
        (tmp_path / "bad.png").write_bytes(content)
    data = {k: v for k, v in GOOD.items() if k != "visible_texts"} | {"component_id": "BAD", "result_thumb": "bad.png"}
    issues = judge_with(tmp_path, data)
    assert [i.column for i in issues] == ["result_thumb"]
    assert issues[0].reason.startswith("bad.png: ") and reason in issues[0].reason
    assert issues[0].reason.endswith("이 컴포넌트는 판정하지 않았습니다.")


def test_issue_sentences_take_the_particle_their_last_word_asks_for(tmp_path):
    box = GOOD | {"component_id": "BAD", "frame_tree": [{"node_id": "n", "box": [1800, 0, 200, 100], "slot_kind": "unit_field"}]}
    assert judge_with(tmp_path, box)[0].reason.startswith("상자 [1800, 0, 200, 100]이 ")
    loop = GOOD | {"component_id": "BAD", "frame_tree": [
        {"node_id": "n3", "parent": "n1", "slot_kind": "unit_field"}, {"node_id": "n1", "parent": "n3", "slot_kind": "unit_field"}]}
    assert "n3 → n1 → n3으로 돌아" in judge_with(tmp_path, loop)[0].reason  # 삼 takes 으로 (일 would take 로)


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_picture_that_is_no_regular_file_is_never_opened(tmp_path, kind):
    import os

    if kind == "folder":
        (tmp_path / "bad.png").mkdir()
    else:
        os.mkfifo(tmp_path / "bad.png")  # opening it for reading would wait for a writer
    data = {k: v for k, v in GOOD.items() if k != "visible_texts"} | {"component_id": "BAD", "result_thumb": "bad.png"}
    issues = judge_with(tmp_path, data)
    assert [i.column for i in issues] == ["result_thumb"] and "bad.png" in issues[0].reason
    assert ("폴더라서" if kind == "folder" else "일반 파일이 아니라 FIFO") in issues[0].reason
