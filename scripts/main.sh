#!/usr/bin/env bash
# Set up everything (idempotent) and run the main job: a comparison of MuJoCo and the acs solvers
# on a default scene, printed as a table. Extra arguments go to acs-bench (a model first, if any).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"

MODEL="$ROOT/test_models/incline_stick.xml"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  MODEL="$1"
  shift
fi
SOLVERS=mujoco,native,pgs,admm,raisim,lcp-pgs,ccp-pgs,ccp-admm,lagged,similar
exec "$ROOT/build/bin/acs-bench" "$MODEL" --solvers "$SOLVERS" --steps 2500 "$@"
