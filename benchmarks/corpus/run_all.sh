#!/usr/bin/env bash
# Re-make every corpus/*/*/truth.json from the formats' own tools.
# One-time set-up: see benchmarks/corpus/README.md (npm ci here; ChoiceScript
# unpacked outside the repository, CHOICESCRIPT_DIR pointing at it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
for d in corpus/ink/*/; do
  d="${d%/}"
  if [ "$(basename "$d")" = ink-roguelike ]; then
    node "$here/ink_truth.js" "$d" --skip "random play not done: 3 runs of at most 50 choices did not finish in 120 s (timeout 120 node benchmarks/corpus/ink_truth.js corpus/ink/ink-roguelike --runs 3 --max-choices 50); a run appears to loop inside one Continue, which inkjs cannot interrupt"
  else
    node "$here/ink_truth.js" "$d"
  fi
done
for d in corpus/choicescript/*/; do node "$here/choicescript_truth.js" "${d%/}"; done
for d in corpus/yarn/*/; do node "$here/yarn_truth.js" "${d%/}"; done
for d in corpus/twine/*/; do node "$here/twine_truth.js" "${d%/}"; done
