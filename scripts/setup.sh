#!/usr/bin/env bash
# Install what storygraph needs, idempotently: Debian packages (graphviz's `dot`, a Korean
# font, Tesseract with Korean data, and with --test headless Chromium for the browser tests and dovecot
# for the IMAP tests) and a virtual
# environment in .venv with the project installed in editable mode.
# Usage: scripts/setup.sh [--test]
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

need=()
command -v dot >/dev/null 2>&1 || need+=(graphviz)
fc-list 2>/dev/null | grep -i -e nanum -e "noto sans cjk" >/dev/null || need+=(fonts-nanum fontconfig)  # not grep -q: with pipefail, SIGPIPE on fc-list would count as "missing"
# residue's OCR reader: Tesseract with its Korean data (not grep -q, as above)
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
tesseract --list-langs 2>/dev/null | grep -x kor >/dev/null || need+=(tesseract-ocr-kor)
if [[ $want_test == 1 ]]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  # the mail importer's IMAP tests start their own dovecot on loopback (never the system service)
  [[ -x /usr/sbin/dovecot && -e /usr/lib/dovecot/imap ]] || need+=(dovecot-imapd)
fi
if ((${#need[@]})); then
  if [[ $(id -u) == 0 ]]; then SUDO=""; else SUDO="sudo"; fi
  echo "setup: 데비안 패키지를 설치합니다: ${need[*]}" >&2
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

# ink stories are read by ink's own compiler: inkjs (pinned in the bridge's package.json and
# package-lock.json) on Node.js.  Node.js and npm come from Debian when `node` is missing;
# `npm ci` runs only when the pinned packages are missing or the lock file changed (the
# lock's checksum is kept beside them).  node_modules stays in the checkout, gitignored.
INK_BRIDGE=src/storygraph/importers/ink_bridge
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [[ $(id -u) == 0 ]]; then SUDO=""; else SUDO="sudo"; fi
  ink_need=(npm)
  command -v node >/dev/null 2>&1 || ink_need=(nodejs npm)
  echo "setup: ink 컴파일러(inkjs)를 돌릴 데비안 패키지를 설치합니다: ${ink_need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${ink_need[@]}" >/dev/null \
    || echo "setup: ${ink_need[*]}을 설치하지 못해 ink 이야기는 읽을 수 없습니다." >&2
fi
ink_lock_sum=$(sha256sum "$INK_BRIDGE/package-lock.json" | cut -d' ' -f1)
if command -v npm >/dev/null 2>&1 && { [[ ! -f $INK_BRIDGE/node_modules/inkjs/package.json ]] \
    || [[ "$(cat "$INK_BRIDGE/node_modules/.storygraph-lock.sha256" 2>/dev/null)" != "$ink_lock_sum" ]]; }; then
  echo "setup: ink 컴파일러(inkjs)를 잠금 파일대로 설치합니다 (npm ci)." >&2
  if (cd "$INK_BRIDGE" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null); then
    echo "$ink_lock_sum" > "$INK_BRIDGE/node_modules/.storygraph-lock.sha256"
  else
    echo "setup: npm ci로 inkjs를 설치하지 못해 ink 이야기는 읽을 수 없습니다." >&2
  fi
fi

# --test: Mermaid's browser bundle, to check in Chromium that `storygraph render --format
# mermaid` output really renders.  Only the one file is kept (inside .venv); without npm
# (or without the npm registry) that test is skipped with a message.
MERMAID_VERSION=11.17.2
if [[ $want_test == 1 && ! -f .venv/share/mermaid/mermaid.min.js ]] && command -v npm >/dev/null 2>&1; then
  tmp=$(mktemp -d)
  if (cd "$tmp" && npm pack "mermaid@$MERMAID_VERSION" --silent >/dev/null 2>&1 \
      && tar xzf mermaid-*.tgz package/dist/mermaid.min.js); then
    mkdir -p .venv/share/mermaid && mv "$tmp/package/dist/mermaid.min.js" .venv/share/mermaid/
  else
    echo "setup: npm으로 mermaid $MERMAID_VERSION 파일을 받지 못해 Mermaid 그림 테스트는 건너뜁니다." >&2
  fi
  rm -rf "$tmp"
fi

