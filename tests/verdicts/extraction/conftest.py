"""The bundled sample runs, written out in each of the input forms."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "extraction"
TABLES = ("worker_outputs", "source_pages", "field_rules")


def read_example() -> dict[str, list[dict[str, str]]]:
    out = {}
    for name in TABLES:
        with open(EXAMPLE / f"{name}.csv", newline="", encoding="utf-8") as f:
            first = f.readline()
            f.seek(0)
            out[name] = list(csv.DictReader(f, delimiter="\t" if "\t" in first else ","))
    return out


def write_form(form: str, folder: Path) -> Path:
    """The example in ``form``: ``csv`` (the folder), ``xlsx``, ``json``, ``yaml`` or
    ``jsonl`` (the worker's rows as run events beside the two other CSVs)."""
    tables = read_example()
    if form == "csv":
        return EXAMPLE
    if form == "xlsx":
        from openpyxl import Workbook

        book = Workbook()
        book.remove(book.active)
        for name, rows in tables.items():
            sheet = book.create_sheet(name)
            sheet.append(list(rows[0]))
            for row in rows:
                sheet.append(list(row.values()))
        path = folder / "runs.xlsx"
        book.save(path)
        return path
    if form == "json":
        path = folder / "runs.json"
        path.write_text(json.dumps(tables, ensure_ascii=False, indent=1), encoding="utf-8")
        return path
    if form == "yaml":
        path = folder / "runs.yaml"
        path.write_text(yaml.safe_dump(tables, allow_unicode=True), encoding="utf-8")
        return path
    if form == "jsonl":
        for name in ("source_pages", "field_rules"):
            shutil.copy(EXAMPLE / f"{name}.csv", folder / f"{name}.csv")
        events = []
        for row in tables["worker_outputs"]:
            event = dict(row)
            event["evidence_page"] = int(event["evidence_page"]) if event["evidence_page"] else None
            event["evidence_text"] = event["evidence_text"] or None
            events.append(json.dumps(event, ensure_ascii=False))
        (folder / "worker_outputs.jsonl").write_text("\n".join(events) + "\n", encoding="utf-8")
        return folder
    raise ValueError(form)


@pytest.fixture
def example_in():
    return write_form
