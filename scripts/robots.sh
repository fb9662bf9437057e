#!/usr/bin/env bash
# Every solver on every MJCF scene shipped in the dm-control and gymnasium-robotics wheels, 300
# steps each (the test suite runs 100 steps, and 300 on a subset). Extra arguments go to
# tests/check_robots.py (e.g. --steps 1000, --scenes dog,adroit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
ACS_ROBOTS="${ACS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/acs}/robots"
exec "$ROOT/.venv/bin/python" "$ROOT/tests/check_robots.py" "$ROOT/build/bin/acs-bench" \
  "$ACS_ROBOTS" "$ROOT/tests/robot_scenes.txt" --steps 300 "$@"
