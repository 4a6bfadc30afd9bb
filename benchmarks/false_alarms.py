"""The effective false-alarm rate of storygraph on the corpus of real stories (issue 28).

For every story of ``corpus/<format>/<story>/`` the story is linted as a creator would
(``storygraph lint`` on the story itself), and each **red result** — a card whose
verdict is a problem, a lint finding — is labelled:

* by the engine's own facts in ``truth.json`` (ground truth that does not come from
  storygraph: the ink compiler's random play on the ink runtime, ChoiceScript's
  randomtest coverage, a Yarn runner's random play): a scene called ``어디서도 안 닿음``
  that random play visited is a false alarm; a scene called ``끝에 못 감`` from which a
  run reached an end is a false alarm;
* else by a person, in ``labels.yaml`` beside the story (``true``, ``false`` or
  ``debatable``, each with why, read from the engine's documented rules);
* else it is **unlabelled**, and counted as false until someone labels it (a red result
  nobody can defend is a false alarm).

The **effective false-alarm rate** is the share of red results that are false (or
unlabelled).  ``labels.yaml`` also lists the story's known **true problems**: each must
still be among the red results (found), or it is missed.

    python benchmarks/false_alarms.py                 # the table, per story and per format
    python benchmarks/false_alarms.py --list          # every red result with its label
    python benchmarks/false_alarms.py --json          # the figures as JSON

Withheld results (``판정 보류``) are neither problems nor passes: they are counted apart.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
FORMATS = ("ink", "twine", "choicescript", "yarn")
#: the bar the issue sets: at most this share of red results may be false
BAR = 0.10

UNREACHED = "어디서도 안 닿음"
NO_ENDING = "끝에 못 감"


@dataclass
class Red:
    """One red result: a card with a problem verdict, or a lint finding."""

    kind: str  # "card" | "finding"
    target: str
    what: str  # the verdict label of a card, the code of a finding
    file: str | None
    line: int | None
    message: str
    label: str = "unlabelled"  # true | false | debatable | unlabelled
    why: str = ""
    by: str = ""  # "truth" (the engine's facts) | "person" (labels.yaml)

    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.target, self.what)


@dataclass
class StoryResult:
    format: str
    story: str
    red: list[Red] = field(default_factory=list)
    withheld: int = 0
    problems: list[dict[str, Any]] = field(default_factory=list)
    missed: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def count(self, label: str) -> int:
        return sum(1 for r in self.red if r.label == label)

    @property
    def false_alarms(self) -> int:
        return self.count("false") + self.count("unlabelled")


def story_dirs(corpus: Path = CORPUS) -> list[Path]:
    return [d for fmt in FORMATS for d in sorted((corpus / fmt).iterdir()) if d.is_dir()] if corpus.is_dir() else []


def entry_of(folder: Path) -> Path:
    """The story to lint in a corpus folder (the folder itself for ChoiceScript and for
    several Twee or Yarn files, else its one story file)."""
    from storygraph.stories import story_entries

    found = story_entries(folder)
    if len(found) != 1:
        raise RuntimeError(f"{folder}: {len(found)} stories found, expected one ({', '.join(p.name for p in found)})")
    return found[0]


def _load_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def red_results(report) -> tuple[list[Red], int]:
    """The red results of a report, and how many results were withheld."""
    from storygraph.domain import DOMAIN

    passing = DOMAIN.passing_verdicts
    red: list[Red] = []
    withheld = 0
    for card in report.cards:
        if card.withheld is not None:
            withheld += 1
            continue
        if card.verdict in passing or card.accepted:
            continue
        place = DOMAIN.card_place(card.to_json()) or (None, None)
        red.append(Red("card", card.key, card.verdict, place[0], place[1], card.summary))
    for f in report.findings:
        if f.withheld is not None:
            withheld += 1
            continue
        if f.accepted:
            continue
        red.append(Red("finding", f.target, f.code, f.file, f.line, f.message))
    return red, withheld


# ----------------------------------------------------------------------------- the engines' facts


class Truth:
    """What the engine's own run says of the story's places: which were reached by some
    random play, and from which some run went on to an end (by file name and line, and
    by name)."""

    def __init__(self, data: dict[str, Any], folder: Path):
        self.data = data
        self.reached: set[tuple[str, int]] = set()
        self.ended: set[tuple[str, int]] = set()
        self.reached_names: set[str] = set()
        self.ended_names: set[str] = set()
        fmt = data.get("format")
        if fmt == "ink":
            for c in data.get("containers", []):
                where = (os.path.basename(c.get("file") or ""), c.get("line"))
                if c.get("visited"):
                    self.reached.add(where)
                    self.reached_names.add(c["path"])
                if c.get("visited") and c.get("reaches_end"):
                    self.ended.add(where)
                    self.ended_names.add(c["path"])
        elif fmt == "choicescript":
            for scene, facts in (data.get("scenes") or {}).items():
                counts = facts.get("line_counts") or []
                for i, n in enumerate(counts, 1):
                    # (randomtest counts line 1 of every file it loads, run or not)
                    if n and i > 1:
                        self.reached.add((f"{scene}.txt", i))
                if facts.get("reached"):
                    self.reached_names.add(scene)
                for label in facts.get("labels", []):
                    if label.get("reached_by"):
                        self.reached_names.add(f"{scene}.{label['label']}")
        elif fmt == "yarn":
            for node in (data.get("random_play") or {}).get("node_titles", []) or []:
                if node.get("visited"):
                    self.reached_names.add(node["title"])
                if node.get("reaches_end"):
                    self.ended_names.add(node["title"])
        # (Twine: no engine run is recorded; its red results are labelled by a person)

    def label(self, red: Red, scenes: dict[str, Any], branches: dict[str, Any]) -> tuple[str, str] | None:
        """``(label, why)`` from the engine's facts, or ``None`` when they say nothing."""
        if red.kind != "card" or red.what not in (UNREACHED, NO_ENDING):
            return None
        if red.target in scenes:
            scene_id = red.target
        elif red.target in branches:
            b = branches[red.target]
            scene_id = b["from_scene"] if red.what == UNREACHED else b["to_scene"]
        else:
            return None
        row = scenes.get(scene_id)
        where = (os.path.basename(row["source_file"]), int(row["source_line"])) if row and row.get("source_line") else None
        if red.what == UNREACHED and (scene_id in self.reached_names or (where is not None and where in self.reached)):
            return "false", f"the engine's random play reached {scene_id}"
        if red.what == NO_ENDING and (scene_id in self.ended_names or (where is not None and where in self.ended)):
            return "false", f"a random play through {scene_id} reached an end"
        return None


# ----------------------------------------------------------------------------- one story


def _rows(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The imported story's scenes and branches (as union-CSV rows), by id."""
    from storygraph.importers import import_story

    story = import_story(path)
    return ({s.scene_id: s.to_row() for s in story.scenes}, {b.branch_id: b.to_row() for b in story.branches})


def _matches(entry: dict[str, Any], red: Red) -> bool:
    kind = "card" if "card" in entry else "finding"
    target = entry.get("card", entry.get("finding"))
    what = entry.get("verdict") if kind == "card" else entry.get("code")
    return (kind, target, what) == red.key()


def measure(folder: Path) -> StoryResult:
    from storygraph.domain import lint

    fmt = folder.parent.name
    result = StoryResult(fmt, folder.name)
    try:
        entry = entry_of(folder)
        report = lint(entry)
        scenes, branches = _rows(entry)
    except Exception as exc:  # a story that cannot be linted is reported, not skipped
        result.error = f"{type(exc).__name__}: {exc}"
        return result
    result.red, result.withheld = red_results(report)
    truth_path = folder / "truth.json"
    truth = Truth(json.loads(truth_path.read_text(encoding="utf-8")), folder) if truth_path.is_file() else None
    labels = _load_yaml(folder / "labels.yaml")
    hand = labels.get("results") or []
    for red in result.red:
        entry_ = next((e for e in hand if _matches(e, red)), None)
        if entry_ is not None:
            red.label, red.why, red.by = str(entry_["label"]).lower(), entry_.get("why", ""), "person"
            continue
        got = truth.label(red, scenes, branches) if truth is not None else None
        if got is not None:
            red.label, red.why = got
            red.by = "truth"
    result.problems = list(labels.get("problems") or [])
    keys = {r.key() for r in result.red}
    for p in result.problems:
        kind = "card" if "card" in p else "finding"
        key = (kind, p.get("card", p.get("finding")), p.get("verdict") if kind == "card" else p.get("code"))
        if key not in keys:
            result.missed.append(p)
    return result


# ----------------------------------------------------------------------------- the table


def rate(false: int, total: int) -> float:
    return false / total if total else 0.0


def summarise(results: list[StoryResult]) -> dict[str, Any]:
    def block(rs: list[StoryResult]) -> dict[str, Any]:
        red = sum(len(r.red) for r in rs)
        false = sum(r.false_alarms for r in rs)
        return {
            "stories": len(rs), "red": red,
            "red_cards": sum(1 for r in rs for x in r.red if x.kind == "card"),
            "red_findings": sum(1 for r in rs for x in r.red if x.kind == "finding"),
            "true": sum(r.count("true") for r in rs), "false": sum(r.count("false") for r in rs),
            "debatable": sum(r.count("debatable") for r in rs), "unlabelled": sum(r.count("unlabelled") for r in rs),
            "withheld": sum(r.withheld for r in rs),
            "problems": sum(len(r.problems) for r in rs), "missed": sum(len(r.missed) for r in rs),
            "rate": rate(false, red), "errors": sum(1 for r in rs if r.error),
            # the same share if every debatable result counted as false (how much of the
            # screen is arguable, not wrong)
            "rate_with_debatable": rate(false + sum(r.count("debatable") for r in rs), red),
        }

    out = {"overall": block(results), "formats": {}, "stories": {}}
    for fmt in FORMATS:
        rs = [r for r in results if r.format == fmt]
        if rs:
            out["formats"][fmt] = block(rs)
    for r in results:
        out["stories"][f"{r.format}/{r.story}"] = block([r]) | ({"error": r.error} if r.error else {})
    return out


def table(summary: dict[str, Any]) -> str:
    head = (f"{'story':<40} {'red':>5} {'cards':>6} {'finds':>6} {'true':>5} {'false':>6} {'debat':>6} {'unlab':>6} {'rate':>7}"
            f" {'+debat':>7} {'held':>5} {'found':>7}")
    lines = [head, "-" * len(head)]

    def row(name: str, b: dict[str, Any]) -> str:
        found = f"{b['problems'] - b['missed']}/{b['problems']}"
        text = (f"{name:<40} {b['red']:>5} {b['red_cards']:>6} {b['red_findings']:>6} {b['true']:>5} {b['false']:>6} "
                f"{b['debatable']:>6} {b['unlabelled']:>6} {b['rate']:>6.1%} {b['rate_with_debatable']:>6.1%} {b['withheld']:>5}"
                f" {found:>7}")
        return text + (f"  ERROR {b['error']}" if b.get("error") else "")

    for name, b in summary["stories"].items():
        lines.append(row(name, b))
    lines.append("-" * len(head))
    for fmt, b in summary["formats"].items():
        lines.append(row(f"[{fmt}]", b))
    lines.append(row("[overall]", summary["overall"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--list", action="store_true", help="every red result with its label")
    parser.add_argument("stories", nargs="*", help="only these stories (format/name)")
    args = parser.parse_args(argv)
    folders = [d for d in story_dirs(args.corpus) if not args.stories or f"{d.parent.name}/{d.name}" in args.stories]
    results = [measure(d) for d in folders]
    summary = summarise(results)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        print(table(summary))
    if args.list:
        for r in results:
            for x in r.red:
                where = f"{x.file}:{x.line}" if x.file else ""
                print(f"{r.format}/{r.story}\t{x.label}\t{x.kind}\t{x.target}\t{x.what}\t{where}\t{x.why or x.message}")
            for p in r.missed:
                print(f"{r.format}/{r.story}\tMISSED\t{p}")
    overall = summary["overall"]
    return 0 if overall["rate"] <= BAR and overall["missed"] == 0 and overall["errors"] == 0 else 1


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    sys.exit(main())
