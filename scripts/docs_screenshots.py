"""Regenerate the screenshots in docs/img/ (after `bash scripts/setup.sh --test`):

    .venv/bin/python scripts/docs_screenshots.py

Uses the real commands and Debian's headless Chromium, like the browser tests.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "img"
BIN = Path(sys.executable).parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def storygraph(*args: str | Path) -> None:
    subprocess.run([str(BIN / "storygraph"), *map(str, args)], check=False, capture_output=True)


def main() -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.html"
        broken = Path(tmp) / "broken.html"
        storygraph("lint", ROOT / "examples/lighthouse/scenario.csv", "--html", report)
        storygraph("lint", ROOT / "examples/lighthouse-broken/scenario.csv", "--html", broken)
        storygraph("render", ROOT / "examples/lighthouse/scenario.csv", "-o", IMG / "diagram.png")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1360, "height": 900})
            page.goto(report.as_uri())
            page.screenshot(path=str(IMG / "report.png"))
            card = page.locator('details.card[data-key="BR-13"]')
            card.locator("summary").click()
            card.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 150)")
            page.screenshot(path=str(IMG / "report-expanded.png"))
            page.goto(broken.as_uri())
            page.screenshot(path=str(IMG / "report-broken.png"))
            browser.close()
    for name in ("report.png", "report-expanded.png", "report-broken.png", "diagram.png"):
        print(IMG / name)


if __name__ == "__main__":
    main()
