"""Shared fixtures: paths of the bundled examples and a runner for the real commands."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import browser, context, page  # noqa: F401 - the browser tests' fixtures, for every test folder

# A suite started in the background (`cmd &`, a CI runner's wrapper) inherits SIGINT
# ignored, and so would every command a test starts: `storygraph watch` would then never
# see the Ctrl+C its tests send.  Handling it here makes the commands the tests start get
# the default disposition (a handler is reset to it on exec; an ignored signal is not).
signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent

# Hypothesis.  The default run (``scripts/test.sh``, so CI) is bounded and reproducible:
# derandomized (the same examples on every run of a commit, so a clean clone passes or
# fails as this one does) and with no example database (nothing written into the clone,
# nothing replayed from an earlier run).  STORYGRAPH_DEEP=1 (``scripts/test.sh --deep``)
# explores freely: random examples, many more of them, and a database that keeps what
# failed for the next run.
settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=True, database=None, print_blob=True)
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# ``pytest --hypothesis-profile=explore``: the default run's sizes with fresh random
# examples, to look for inputs the fixed ones miss before they reach CI.
settings.register_profile("explore", settings.get_profile("default"), derandomize=False)
settings.load_profile("deep" if os.environ.get("STORYGRAPH_DEEP") else "default")

DEEP = bool(os.environ.get("STORYGRAPH_DEEP"))

#: the seed documents, beside the checkout (``../shared/seeds``; CI has them)
SEEDS = ROOT.parent / "shared" / "seeds"


def seeds_dir() -> Path:
    """``../shared/seeds``: skips a test only when the folder is truly absent outside CI;
    in CI (``CI`` set) a missing folder fails the test instead of skipping it silently."""
    if SEEDS.is_dir() and any(SEEDS.glob("*.txt")):
        return SEEDS
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the tests that read the seeds, but {SEEDS} is missing")
    pytest.skip(f"the seed documents are not beside this checkout ({SEEDS})")


@pytest.fixture
def seeds() -> Path:
    return seeds_dir()


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def run(command: str, *args: str | os.PathLike, cwd: Path | None = None, check_code: int | None = None) -> subprocess.CompletedProcess:
    """Run an installed console script (``storygraph``, ``verdicts``) for real."""
    exe = BIN / command
    proc = subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, cwd=cwd or ROOT, timeout=600)
    if check_code is not None:
        assert proc.returncode == check_code, f"exit {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture
def cli():
    return run
