#!/usr/bin/env bash
# Soak: every solver 100 000 steps on the shared humanoid and 20 000 on 22_humanoids (not part of
# the test suite: about 20 minutes on two cores). Each run must stay finite throughout, with no
# diverged step. Writes the bench's JSON and a summary into OUT (default soak/).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
OUT="${1:-$ROOT/soak}"
mkdir -p "$OUT"
SHARED="${ACS_SHARED_MODELS:-$ROOT/../shared/models/mujoco}"
SOLVERS=mujoco,native,pgs,admm,raisim,lcp-pgs,ccp-pgs,ccp-admm,lagged,similar
status=0
for spec in humanoid:100000 22_humanoids:20000; do
  model="${spec%%:*}"
  steps="${spec##*:}"
  echo "== $model: $steps steps, every solver"
  "$ROOT/build/bin/acs-bench" "$SHARED/$model.xml" --solvers "$SOLVERS" --steps "$steps" \
    --json "$OUT/$model.json" | tee "$OUT/$model.txt" || true
  "$ROOT/.venv/bin/python" - "$OUT/$model.json" <<'PY' || status=1
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bad = [r["solver"] for r in runs if r["status"] != "ok" or r.get("nonfinite")]
for r in runs:
    print("%-9s %-8s diverged steps %s" % (r["solver"], r["status"], r.get("diverged_steps")))
print("soak:", "FAILED: " + ", ".join(bad) if bad else "every run finite, no diverged step")
sys.exit(1 if bad else 0)
PY
done
exit $status
