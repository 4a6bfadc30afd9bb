"""Wrong kind of input (issue 18, item 6): a domain given another domain's tables says
so — naming the domain whose tables they look like — and exits 2, instead of printing an
empty report whose checks all pass."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES
from verdicts.domain import get_domain
from verdicts.korean import is_polite_sentence
from verdicts.recognise import foreign_input_message, input_shape

#: every domain's bundled input
INPUTS = {
    "storygraph": EXAMPLES / "lighthouse" / "scenario.csv",
    "robot": EXAMPLES / "robot",
    "mail": EXAMPLES / "mail",
    "extraction": EXAMPLES / "extraction",
    "residue": EXAMPLES / "residue",
}
ALSO_STORYGRAPH = [EXAMPLES / "lighthouse-folder", EXAMPLES / "ink", EXAMPLES / "twine", EXAMPLES / "yarn", EXAMPLES / "choicescript"]


def _sentences(message: str) -> list[str]:
    body = message.split(": ", 1)[1]
    return [s + "." for s in body.rstrip(".").split(". ")]


@pytest.mark.parametrize("own", sorted(INPUTS))
@pytest.mark.parametrize("other", sorted(INPUTS))
def test_each_domain_names_the_domain_an_input_belongs_to(own, other):
    message = foreign_input_message(get_domain(own), INPUTS[other])
    if own == other:
        assert message is None
        return
    assert message is not None, f"{own} took {other}'s input"
    assert f"verdicts run {other} 명령으로" in message and f"{other} 도메인의" in message, message
    assert all(is_polite_sentence(s) for s in _sentences(message)), message


@pytest.mark.parametrize("path", ALSO_STORYGRAPH, ids=lambda p: p.name)
def test_scenarios_in_every_form_are_still_scenarios(path):
    for item in sorted(path.iterdir()) if path.is_dir() and path.name != "lighthouse-folder" else [path]:
        assert foreign_input_message(get_domain("storygraph"), item) is None, item


def test_a_table_with_no_known_column_is_refused_plainly(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    message = foreign_input_message(get_domain("storygraph"), path)
    assert message.endswith("시나리오 표에 꼭 있어야 할 열(scene_id, branch_id, from_scene, to_scene, flag) 가운데 하나도 없습니다.")


def test_what_cannot_be_seen_is_left_to_the_loader(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    assert not input_shape(empty) and foreign_input_message(get_domain("storygraph"), empty) is None
    assert foreign_input_message(get_domain("storygraph"), tmp_path / "missing.csv") is None


def test_storygraph_lint_of_the_robot_folder(cli):
    proc = cli("storygraph", "lint", EXAMPLES / "robot")
    assert proc.returncode == 2
    assert "통과" not in proc.stdout and "■ 끝까지 닿음" not in proc.stdout
    for name in ("dataset_index", "evaluation_run", "task_spec"):
        assert f"{name}.csv: 시나리오 표가 아닙니다." in proc.stderr
        assert f"robot 도메인의 {name} 표입니다. verdicts run robot 명령으로 검사해 보세요." in proc.stderr
    assert "Traceback" not in proc.stderr


def test_verdicts_run_robot_on_a_scenario(cli):
    proc = cli("verdicts", "run", "robot", EXAMPLES / "lighthouse-folder", "-q")
    assert proc.returncode == 2
    assert "robot 도메인의 입력이 아닙니다. 파일 이름(flag_spec, scene_states, story_branches)으로 보아 storygraph 도메인의 시나리오 표입니다." in proc.stderr


def test_render_refuses_too(cli, tmp_path):
    proc = cli("storygraph", "render", EXAMPLES / "mail" / "agent_action.csv", "-o", tmp_path / "x.svg")
    assert proc.returncode == 2 and "mail 도메인의 agent_action 표입니다" in proc.stderr
    assert not (tmp_path / "x.svg").exists()
