#!/usr/bin/env bash
# Cross-check of acs's lagged and similar against Drake's kLagged and kSimilar, run by hand (not
# part of the tests; scripts/peer_drake.py says what it compares). Sets acs up (scripts/setup.sh:
# the project's .venv with the acs package built from this checkout), installs the pinned Drake
# wheel into a virtual environment of its own outside the repository, and runs
# scripts/peer_drake.py with it; the arguments go to peer_drake.py (--out FILE: the table as
# JSON; --cases LIST: some of the cases).
#
#   ACS_DRAKE_VENV     the Drake environment (default $ACS_CACHE/drake-venv, ACS_CACHE defaulting
#                      to ${XDG_CACHE_HOME:-$HOME/.cache}/acs as in setup.sh)
#   ACS_DRAKE_PYTHON   the Python that makes it (default python3: Debian 12's 3.11, whose wheel
#                      is drake-1.51.1-cp311-cp311-manylinux_2_34_x86_64)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"

# drake 1.51.1: the newest on PyPI with DiscreteContactApproximation.kLagged and kSimilar for
# CPython 3.11; numpy pinned as in setup.sh
DRAKE_PACKAGES="drake==1.51.1 numpy==2.4.6"
ACS_CACHE="${ACS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/acs}"
VENV="${ACS_DRAKE_VENV:-$ACS_CACHE/drake-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "peer_drake: creating $VENV"
  "${ACS_DRAKE_PYTHON:-python3}" -m venv "$VENV"
fi
if ! "$VENV/bin/python" - $DRAKE_PACKAGES <<'PY' 2>/dev/null
import importlib.metadata as md, sys
sys.exit(any(md.version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
PY
then
  echo "peer_drake: installing $DRAKE_PACKAGES into $VENV (a few minutes)"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check $DRAKE_PACKAGES
fi
exec "$VENV/bin/python" "$ROOT/scripts/peer_drake.py" --acs-python "$ROOT/.venv/bin/python" "$@"
