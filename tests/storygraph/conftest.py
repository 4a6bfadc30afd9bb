"""Fixtures of the storygraph screen's browser tests: the report a user writes with
``storygraph lint --html`` and a running ``storygraph serve``."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES, run
from tests.storygraph.screen_server import served


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser") / "report.html"
    run("storygraph", "lint", EXAMPLES / "lighthouse" / "scenario.csv", "--html", out, check_code=1)
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmpdir = tmp_path_factory.mktemp("browser-server-tmp")
    with served(tmpdir) as url:
        yield url, tmpdir
