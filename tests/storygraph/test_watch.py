"""``storygraph watch`` for real: a subprocess follows a scenario, a save made as a
spreadsheet program makes it (a temporary file renamed over the original, then touched:
several events) gives one re-lint, which says what is fixed and what is new; a folder
scenario and the configuration are followed too; Ctrl+C ends it with 0."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import BIN, EXAMPLES

HEAD = "━━ storygraph watch"
WAITING = "저장하면 다시 검사합니다."


class Follower:
    def __init__(self, *args):
        self.proc = subprocess.Popen([str(BIN / "storygraph"), "watch", *map(str, args), "--debounce", "150"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)

    def round(self, timeout: float = 30.0) -> str:
        """The text of the next round (up to its closing line), then a short pause so
        that the next save is clearly a save of its own."""
        got, deadline = [], time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            got.append(line)
            if line.startswith(WAITING):
                time.sleep(0.3)
                return "".join(got)

    def quiet_for(self, seconds: float) -> bool:
        try:
            self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        return False

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def _spreadsheet_save(path: Path, text: str) -> None:
    temp = path.with_name(".~lock" + path.name + "#")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)
    os.utime(path)  # and a second event for the same save


@pytest.fixture
def follower():
    made = []
    yield lambda *args: made.append(Follower(*args)) or made[-1]
    for f in made:
        if f.proc.poll() is None:
            f.proc.kill()


def test_one_save_one_relint_with_what_changed(follower, tmp_path):
    scenario = tmp_path / "scenario.csv"
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", scenario)
    f = follower(scenario)
    first = f.round()
    assert first.startswith(HEAD) and "처음 검사한 결과입니다." in first and "없는 장면을 가리킴 · BR-42" in first
    text = scenario.read_text(encoding="utf-8")
    _spreadsheet_save(scenario, text.replace("SC-88", "SC-01", 1))
    second = f.round()
    assert "없는 장면을 가리킴 · BR-42" not in second.split("지난 저장")[0]
    assert "문제 1건을 고쳤습니다." in second and "  − 없는 장면을 가리킴 · BR-42" in second
    assert f.quiet_for(1.5), "one save must give one lint"
    _spreadsheet_save(scenario, text)  # put the defect back
    third = f.round()
    assert "새 문제가 1건 생겼습니다." in third and "  + 없는 장면을 가리킴 · BR-42" in third
    assert f.stop() == 0


def test_a_folder_scenario_and_its_configuration_are_followed(follower, tmp_path):
    folder = tmp_path / "story"
    shutil.copytree(EXAMPLES / "lighthouse-folder", folder)
    f = follower(folder)
    assert "처음 검사한 결과입니다." in f.round()
    branches = folder / "story_branches.csv"
    _spreadsheet_save(branches, branches.read_text(encoding="utf-8").replace("SC-88", "SC-01", 1))
    assert "문제 1건을 고쳤습니다." in f.round()
    (folder / "storygraph.toml").write_text('[[accept]]\ntarget = "SC-19"\nreason = "일부러 숨긴 장면입니다."\n', encoding="utf-8")
    after = f.round()
    assert "어디서도 안 닿음 · SC-19" not in after.split("지난 저장")[0] and "  − 어디서도 안 닿음 · SC-19" in after
    assert f.stop() == 0


def test_an_unreadable_save_is_said_and_the_watch_goes_on(follower, tmp_path):
    scenario = tmp_path / "scenario.json"
    scenario.write_text('{"scene_states": [{"scene_id": "A", "is_entry": true, "is_ending": true}], "story_branches": []}',
                        encoding="utf-8")
    f = follower(scenario)
    assert "문제가 없습니다." in f.round()
    _spreadsheet_save(scenario, "{ not json")
    broken = f.round()
    assert "읽지 못했습니다" in broken or "입력 문제" in broken
    assert f.stop() == 0
