"""The reports made as shared tasks (``lint_to``, one process per core) are the same, byte
for byte, as the report of :func:`storygraph.domain.lint` written by the JSON, text,
SARIF or GitHub reporter, and the command's exit code does not depend on ``--jobs``."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from storygraph.config import Config
from storygraph.domain import failing, find_config, load_config
from storygraph.domain import DOMAIN, lint, lint_to
from storygraph.fuzz import generate
from verdicts.sarif import render_github, render_sarif
from verdicts.report import iter_json_bytes, render_text

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _serial(path: Path, config: Config, format: str = "json") -> tuple[bytes, bool]:
    report = lint(path, config)
    if format == "json":
        text = b"".join(iter_json_bytes(report, DOMAIN))
    else:
        text = {"text": render_text, "sarif": render_sarif, "github": render_github}[format](report, DOMAIN).encode("utf-8")
    return text, failing(report, config)


def _parts(path: Path, config: Config, jobs: int, format: str = "json") -> tuple[bytes, bool]:
    import threading

    # with another thread running, lint_to would stay in one process and test nothing
    assert threading.active_count() == 1, [t.name for t in threading.enumerate()]
    out = io.BytesIO()
    fails = lint_to(path, out, format, config, jobs=jobs)
    return out.getvalue(), fails


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gen")
    scenario, _ = generate(seed=7, scenes=300).write(out)
    return scenario


@pytest.mark.parametrize("format", ["json", "text", "sarif", "github"])
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_generated_scenario_same_bytes_in_parts(generated, jobs, format):
    config = load_config(find_config(generated))
    assert _parts(generated, config, jobs, format) == _serial(generated, config, format)


@pytest.mark.parametrize("format", ["json", "text", "sarif", "github"])
@pytest.mark.parametrize("example", ["lighthouse/scenario.csv", "lighthouse-broken/scenario.csv", "lighthouse-folder",
                                     "accepted/scenario.csv", "gold/palace.csv"])
def test_examples_same_bytes_in_parts(examples, example, format):
    path = examples / example
    config = load_config(find_config(path))
    assert _parts(path, config, 2, format) == _serial(path, config, format)


def test_fail_on_decides_the_same_in_parts(generated, tmp_path):
    copy = tmp_path / "scenario.csv"
    shutil.copy(generated, copy)
    for fail_on in (["끝에 못 감"], ["issues"], ["findings"], ["없는 장면을 가리킴"]):
        (tmp_path / "storygraph.toml").write_text(f"fail_on = {fail_on!r}\n".replace("'", '"'), encoding="utf-8")
        config = load_config(find_config(copy))
        assert _parts(copy, config, 2)[1] == _serial(copy, config)[1], fail_on


@pytest.mark.parametrize("format", ["json", "text"])
def test_cli_jobs_do_not_change_output_or_exit_code(cli, generated, format):
    one = cli("storygraph", "lint", generated, "--format", format, "--jobs", "1")
    two = cli("storygraph", "lint", generated, "--format", format, "--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert ('"cards": [' if format == "json" else "■ 끝까지 닿음 (") in one.stdout


def test_text_on_a_stream_that_is_not_utf8(cli, examples):
    """A console in CP949 gets the text report in CP949, not UTF-8 bytes, and a character
    CP949 lacks (the hedge's ↳) as ``?`` rather than a crash."""
    import subprocess
    import sys

    path = examples / "lighthouse/scenario.csv"
    exe = Path(sys.executable).parent / "storygraph"
    utf8 = subprocess.run([str(exe), "lint", str(path)], capture_output=True, timeout=120)
    cp949 = subprocess.run([str(exe), "lint", str(path)], capture_output=True, timeout=120,
                           env={**os.environ, "PYTHONIOENCODING": "cp949"})
    assert cp949.returncode == utf8.returncode == 1
    assert cp949.stdout != utf8.stdout  # other bytes …
    text = utf8.stdout.decode("utf-8")
    assert "↳" in text
    assert cp949.stdout.decode("cp949") == text.encode("cp949", errors="replace").decode("cp949")  # … for the same text
    assert "■ 어디서도 안 닿음 (" in cp949.stdout.decode("cp949")
    assert cp949.stderr == b""


def test_only_the_hedging_kinds_add_to_hedges(examples):
    """lint_to finds the other kinds while the cards are made; that is only right if
    they never add to a card's hedge.  The lighthouse example has every kind but the
    one that reads once-only choices, which the ink example has."""
    from storygraph.analysis import analyse
    from storygraph.findings import HEDGING_KINDS, KINDS, collect_findings
    from storygraph.loading import load_scenario

    a = analyse(load_scenario(examples / "lighthouse/scenario.csv"))
    ink = analyse(load_scenario(examples / "ink/lighthouse.ink"))
    # the kinds that read an imported story's reads and writes of each variable
    reads = analyse(load_scenario(examples.parent / "tests" / "data" / "storygraph" / "reads_and_writes.csv"))
    own = {"used-up-menu": ink, "write-only-flag": reads, "undeclared-variable": reads}
    for k in KINDS:
        findings, hedges = collect_findings(own.get(k.code, a), [k])
        assert findings, f"the example has no {k.code} finding"
        if k.code not in HEDGING_KINDS:
            assert hedges == {}, k.code
    assert any(collect_findings(a, [k])[1] for k in KINDS if k.code in HEDGING_KINDS)


def _facts(a):
    return (
        [(sid, [b.branch_id for b in st.ordered], st.undecided, st.shadowed) for sid, st in a.shadowing.items()],
        [i.to_json() for i in a.issues], list(a.overlap.items()), list(a.shadowed.items()),
        [(sid, s.count, s.total, s.scene_id) for sid, s in a.stuck.items()],
        None if a.live is None else (sorted(a.live.dead), sorted(a.live.reached), sorted(a.live.reaches_ending),
                                     a.live.reached_only_through, a.live.ending_only_through),
    )


@pytest.mark.parametrize("example", ["lighthouse/scenario.csv", "lighthouse-broken/scenario.csv", "gold/station.csv"])
def test_analysis_in_parts_is_the_same(examples, generated, example):
    from storygraph.analysis import analyse
    from storygraph.loading import load_scenario

    for path in (examples / example, generated):
        scenario = load_scenario(path)
        one = analyse(scenario)
        assert one.shadowing
        for jobs in (2, 3):
            assert _facts(analyse(scenario, jobs=jobs)) == _facts(one)


def test_small_batches_same_bytes(generated, monkeypatch):
    """Parts are made a batch at a time; the batch edges must not show in the output."""
    import verdicts.streaming as streaming

    config = load_config(find_config(generated))
    expected = _serial(generated, config)
    expected_text = _serial(generated, config, "text")
    for batch in (1, 7, 50):
        monkeypatch.setattr(streaming, "BATCH", batch)
        assert _parts(generated, config, 2) == expected, batch
        assert _parts(generated, config, 2, "text") == expected_text, batch
    expected_sarif = _serial(generated, config, "sarif")
    monkeypatch.setattr(streaming, "BATCH", 7)
    assert _parts(generated, config, 2, "sarif") == expected_sarif


@pytest.mark.parametrize("format", ["text", "json", "sarif", "github"])
def test_several_scenarios_same_report_from_two_processes(cli, examples, tmp_path, format):
    """Several scenarios are shared by the processes; the report, the messages and the
    exit code are those of linting them one after the other."""
    unreadable = tmp_path / "broken.xlsx"
    unreadable.write_bytes(b"not a workbook")
    paths = [examples / "gold", examples / "accepted/scenario.csv", unreadable, examples / "lighthouse-broken/scenario.csv"]
    one = cli("storygraph", "lint", *paths, "--format", format, "--jobs", "1")
    two = cli("storygraph", "lint", *paths, "--format", format, "--jobs", "2")
    assert one.returncode == two.returncode == 2  # the broken workbook cannot be read
    assert one.stdout == two.stdout
    assert one.stderr == two.stderr
    assert "broken.xlsx" in one.stderr
    if format in ("text", "json"):
        assert str(unreadable) in one.stdout and "palace.csv" in one.stdout


def test_a_check_of_the_input_tables_runs_once_per_run(tmp_path, examples, monkeypatch):
    """A check of the input tables (``inputs_only``) judges the tables, not the cards: a
    run of many batches runs it once (not once per batch), and its result is the whole
    lint's.  (storygraph's C03 read only the tables until issue 32 made it judge the
    조건이 겹침 cards; the check here is one of the tables, as a domain may declare.)"""
    import csv

    import verdicts.streaming as streaming
    from storygraph.checks import CHECKS
    from verdicts.checks import Check

    rows = list(csv.reader((examples / "lighthouse/scenario.csv").read_text(encoding="utf-8").splitlines()))
    branches = [r for r in rows[1:] if r[5]]
    branches[3][9] = "0"  # an order number below one
    path = tmp_path / "scenario.csv"
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    config = Config()
    calls = []

    def below_one(ctx):
        calls.append(len(ctx.cards))
        return [b.branch_id for b in ctx.scenario.branches if (b.raw.get("order_no") or "1").strip() == "0"]

    checks = [*CHECKS, Check("CX", "순번이 0인 분기가 없는지 확인합니다.", below_one, inputs_only=True)]
    monkeypatch.setattr(CHECKS, "_checks", checks)
    monkeypatch.setattr(streaming, "BATCH", 5)
    out = io.BytesIO()
    results: list = []
    lint_to(path, out, "json", config, jobs=1, check_results=results)
    assert calls == [0]  # once, over the tables (no cards)
    cx = next(r for r in results if r.id == "CX")
    assert not cx.passed and cx.failed_targets == [branches[3][5]]
    assert next(r for r in results if r.id == "C03").passed  # an input issue, not a doubt about our verdicts
    assert out.getvalue() == _serial(path, config)[0]
