"""What every browser test shares: Debian's headless Chromium driven by Playwright (never
Playwright's own browser download: ``scripts/setup.sh --test`` installs ``chromium``),
pages that record what they tried to fetch from outside, and the real servers and
commands that make the pages under test.

The fixtures ``browser`` (one Chromium per test module: Playwright keeps a thread while
it runs, and code that forks refuses to while other threads run), ``context`` and
``page`` are made available to every test by ``tests/conftest.py``.  Screenshots go to
``test-artifacts/`` (git-ignored): a test run never changes the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1400, "height": 1000}
#: what a page may load: itself, inline data and the test's own servers on loopback
LOCAL = ("file://", "data:", "about:", "http://127.0.0.1:")


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is missing: run `bash scripts/setup.sh --test`.")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_context(browser, **options):
    """A fresh browser context (its own cookies and storage), Korean, desktop-sized unless
    ``options`` say otherwise; every page opened in it is watched (:func:`watch`)."""
    context = browser.new_context(**{"viewport": VIEWPORT, "locale": "ko-KR", **options})
    context.on("page", watch)
    return context


def watch(page) -> None:
    """Record on ``page`` what a test asserts about afterwards: requests to anywhere
    but the page itself and loopback (aborted, in ``external_requests``), dialogs
    (dismissed, in ``dialogs``) and console errors (``console_errors``)."""
    page.external_requests, page.dialogs, page.console_errors = [], [], []

    def guard(route):
        if route.request.url.startswith(LOCAL):
            route.continue_()
        else:
            page.external_requests.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)


@pytest.fixture
def context(browser):
    ctx = new_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    return context.new_page()


@contextmanager
def started(argv: list[str], log_path: Path, *, env: dict[str, str] | None = None,
            ready: str = "http://127.0.0.1:") -> Iterator[tuple[subprocess.Popen, str]]:
    """Run a server for real (``argv``, which prints its URL as its first line); yield
    ``(process, URL)``, the URL without a final ``/``.  Its stderr goes to ``log_path``;
    on leaving it is stopped with SIGTERM (SIGKILL after 15 s)."""
    with open(log_path, "a") as log:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        try:
            deadline = time.monotonic() + 30
            line = ""
            while time.monotonic() < deadline and not line:
                line = proc.stdout.readline().strip()
                if not line and proc.poll() is not None:
                    raise RuntimeError(f"server exited: {log_path.read_text()}")
            assert line.startswith(ready), (line, log_path.read_text()[-2000:])
            yield proc, line.rstrip("/")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:  # pragma: no cover
                proc.kill()
                proc.wait()


def private_dirs(tmpdir: Path) -> dict[str, str]:
    """The environment for a server whose temporary files go to ``tmpdir`` and whose
    worker fork server's socket goes to a folder of its own beside it."""
    run_dir = tmpdir.parent / f"{tmpdir.name}-run"
    run_dir.mkdir(mode=0o700, exist_ok=True)
    return dict(os.environ, TMPDIR=str(tmpdir), XDG_RUNTIME_DIR=str(run_dir))


def verdicts_screen(domain: str, inputs: Path, out: Path, timeout: float = 300) -> Path:
    """The report screen as a user makes it: ``verdicts run DOMAIN INPUTS --html OUT``."""
    done = subprocess.run([sys.executable, "-m", "verdicts.cli", "run", domain, str(inputs), "--html", str(out), "-q"],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    assert done.returncode in (0, 1), done.stderr
    assert out.exists(), done.stderr
    return out
