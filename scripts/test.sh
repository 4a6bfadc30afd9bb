#!/usr/bin/env bash
# Set up (idempotent, with test dependencies and Chromium), check src/ with ruff and
# mypy, and run the whole test suite.
# The default run is bounded (a few minutes); slow stress/fuzz/oracle tests run as a
# bounded slice.  `scripts/test.sh --deep` runs the slow tests at full depth.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
# lint and types first (configured in pyproject.toml); a finding or a type error fails the run
.venv/bin/ruff check src
.venv/bin/mypy src
if [[ "${1:-}" == "--deep" ]]; then
  shift
  exec env STORYGRAPH_DEEP=1 .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
