#!/usr/bin/env bash
# Install what storygraph needs, idempotently: Debian packages (graphviz's `dot`, a Korean
# font, and with --test headless Chromium for the browser tests) and a virtual
# environment in .venv with the project installed in editable mode.
# Usage: scripts/setup.sh [--test]
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

need=()
command -v dot >/dev/null 2>&1 || need+=(graphviz)
fc-list 2>/dev/null | grep -qi -e nanum -e "noto sans cjk" || need+=(fonts-nanum fontconfig)
if [[ $want_test == 1 ]]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if ((${#need[@]})); then
  if [[ $(id -u) == 0 ]]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: installing Debian packages: ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$PY" -m venv .venv
fi
extras="."
[[ $want_test == 1 ]] && extras=".[test]"
# quiet when everything is already there; pip only reinstalls what changed
.venv/bin/python -m pip install -q --disable-pip-version-check -e "$extras" 2>&1 | grep -v -e "^WARNING: Location" -e "is ignored: it is neither" || true
.venv/bin/python -c "import storygraph, verdicts" 
