"""A domain outside ``src/`` plugs in through its entry point alone (issue 29, item 2).

``tests/plugin_domain/greenhouse`` is a small domain a third party could write: it ships
its own card schema in its package, its SARIF driver names its own distribution and
version, its checks read a typed context with no private attribute.  The tests register
it as an installed distribution would (a ``dist-info`` folder with its entry point) and
run it through the kit: the contract, every report format, ``explain``, ``docs``,
acceptances and several inputs in one run — with no file of its own in the kit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import BIN, ROOT

PLUGIN = ROOT / "tests" / "plugin_domain"
PLANTS = "plant_id,name,days_since_water,max_dry_days\nP1,고사리,5,3\nP2,선인장,1,30\nP3,바질,,2\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder on the path holding the domain's distribution metadata (what ``pip
    install`` would write): its name, version, documentation URL and entry point."""
    site = tmp_path_factory.mktemp("site")
    info = site / "greenhouse_domain-0.3.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: greenhouse-domain\nVersion: 0.3.0\n"
                                   "Project-URL: Documentation, https://example.org/greenhouse\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[verdicts.domains]\ngreenhouse = greenhouse.domain:DOMAIN\n", encoding="utf-8")
    return site


@pytest.fixture
def plants(tmp_path) -> Path:
    path = tmp_path / "plants.csv"
    path.write_text(PLANTS, encoding="utf-8")
    return path


def verdicts(site: Path, *args, cwd: Path | None = None, code: int | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGIN), str(site)])}
    proc = subprocess.run([str(BIN / "verdicts"), *map(str, args)], capture_output=True, text=True, env=env,
                          cwd=cwd or ROOT, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    if code is not None:
        assert proc.returncode == code, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    return proc


@pytest.fixture
def registered(site, monkeypatch):
    """The domain registered in this process too (for the contract, in-process)."""
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(PLUGIN))
    from verdicts.domain import get_domain

    return get_domain("greenhouse")


def test_the_domain_keeps_the_kit_contract_and_ships_its_own_schema(registered):
    from verdicts.schema import load_schema
    from verdicts.testing import contract_problems

    assert contract_problems(registered) == []
    import verdicts

    # the kit holds no schema of it: the one the kit validates with comes from the domain's package
    assert not (Path(verdicts.__file__).parent / "schemas" / "greenhouse.card.schema.json").exists()
    assert load_schema("greenhouse")["properties"]["verdict"]["enum"] == ["물 줘야 함", "괜찮음"]
    assert registered.distribution() == "greenhouse-domain" and registered.tool_version() == "0.3.0"


def test_every_format_of_a_run(site, plants):
    text = verdicts(site, "run", "greenhouse", plants, code=1).stdout
    assert "■ 물 줘야 함 (1)" in text and "고사리는 물을 준 지 5일이 지나" in text
    data = json.loads(verdicts(site, "run", "greenhouse", plants, "--format", "json", code=1).stdout)
    assert [c["verdict"] for c in data["cards"]] == ["물 줘야 함", "괜찮음"]
    assert all(c["passed"] for c in data["checks"]), data["checks"]
    sarif = json.loads(verdicts(site, "run", "greenhouse", plants, "--format", "sarif", code=1).stdout)
    driver = sarif["runs"][0]["tool"]["driver"]
    # the driver is the domain's own distribution, not storygraph's
    assert (driver["name"], driver["version"], driver["informationUri"]) == (
        "greenhouse", "0.3.0", "https://example.org/greenhouse")
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"thirsty"}
    github = verdicts(site, "run", "greenhouse", plants, "--format", "github", code=1).stdout
    assert "title=greenhouse thirsty" in github


def test_explain_docs_acceptances_and_several_inputs(site, plants, tmp_path):
    explained = verdicts(site, "explain", "greenhouse", "물", "줘야", "함", code=0).stdout
    assert explained.startswith("물 줘야 함 · thirsty") and "고치는 법:" in explained
    docs = verdicts(site, "docs", "greenhouse", code=0).stdout
    assert docs.startswith("# 온실: 판정과 자동 검증") and "## 판정 보류" in docs
    # an acceptance recorded in the kit's configuration file, under the domain's table, makes the run pass
    (tmp_path / "verdicts.toml").write_text('[[greenhouse.accept]]\ntarget = "P1"\nreason = "주말에 줍니다"\n',
                                            encoding="utf-8")
    accepted = verdicts(site, "run", "greenhouse", plants, cwd=tmp_path, code=0).stdout
    assert "[의도됨: 주말에 줍니다]" in accepted
    # several inputs in one run: one JSON object, as one input gives
    other = tmp_path / "more.csv"
    other.write_text("plant_id,name,days_since_water,max_dry_days\nQ1,토마토,0,2\n", encoding="utf-8")
    both = verdicts(site, "run", "greenhouse", plants, other, "--format", "json", cwd=tmp_path)
    assert both.returncode in (0, 1)
    assert "Q1" in both.stdout and "P2" in both.stdout
