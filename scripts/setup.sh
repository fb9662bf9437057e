#!/usr/bin/env bash
# Idempotent set-up for acs on Debian 12: system packages, a project-local Python virtual
# environment holding the pinned MuJoCo wheel (its C headers and libmujoco), the robot models of
# the tests, and a CMake build. Run by scripts/main.sh and scripts/test.sh; can also be run alone.
#
#   ACS_MUJOCO=3.12 scripts/setup.sh     the second supported MuJoCo: .venv-3.12/, build-3.12/
#   ACS_BUILD_DIR, ACS_BUILD_TYPE, ACS_CMAKE_ARGS   another build folder, type, CMake options
set -euo pipefail

ACS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# exact pins: the headers and library the code is written against (4.0 by default, 3.12 tested)
case "${ACS_MUJOCO:-4.0}" in
  4.0) MUJOCO_VERSION="4.0.0"; VENV="$ACS_ROOT/.venv"; DEFAULT_BUILD="$ACS_ROOT/build" ;;
  3.12) MUJOCO_VERSION="3.12.0"; VENV="$ACS_ROOT/.venv-3.12"; DEFAULT_BUILD="$ACS_ROOT/build-3.12" ;;
  *) echo "acs setup: ACS_MUJOCO must be 4.0 or 3.12, got '$ACS_MUJOCO'"; exit 2 ;;
esac
BUILD_DIR="${ACS_BUILD_DIR:-$DEFAULT_BUILD}"
BUILD_TYPE="${ACS_BUILD_TYPE:-Release}"

# Debian packages: compiler, CMake, Python venv and headers (the Python package), GLFW/OpenGL and
# libpng (viewer and its screenshots), Xvfb (viewer tests), Valgrind and gdb (memory checks,
# debugging)
DEB_PACKAGES="build-essential cmake pkg-config python3 python3-venv python3-pip python3-dev
  libglfw3-dev libgl-dev libpng-dev xvfb xauth valgrind gdb"
missing=""
for p in $DEB_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "acs setup: installing Debian packages:$missing"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi

# project-local virtual environment with the pinned MuJoCo wheel (4.0's C headers and library
# come in mujoco-core, which mujoco pulls in). Another MuJoCo in it is not upgraded in place
# (pip can drop files that moved between the mujoco and mujoco-core wheels): the venv is remade
if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c "import importlib.metadata as md, sys
sys.exit(md.version('mujoco') != '$MUJOCO_VERSION')" 2>/dev/null; then
  echo "acs setup: $VENV holds another MuJoCo: remaking it"
  rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
  echo "acs setup: creating $VENV with mujoco==$MUJOCO_VERSION from PyPI"
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "mujoco==$MUJOCO_VERSION"
fi
# the Python package's pinned dependencies and test tools (both venvs): numpy, Gymnasium (and
# imageio, which its MuJoCo environments import), pytest, scikit-build-core to build acs, and
# matplotlib for the plots of the evidence suite (acs-bench --suite)
PY_PACKAGES="numpy==2.4.6 gymnasium==1.4.0 imageio==2.38.1 pytest==9.2.0 scikit-build-core==1.1.2
  matplotlib==3.11.2"
if ! "$VENV/bin/python" - $PY_PACKAGES <<'PY' 2>/dev/null
import importlib.metadata as md, sys
sys.exit(any(md.version(p.split("==")[0]) != p.split("==")[1] for p in sys.argv[1:]))
PY
then
  echo "acs setup: installing $PY_PACKAGES into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check $PY_PACKAGES
fi
MUJOCO_DIR="${MUJOCO_DIR:-$("$VENV/bin/python" -c \
  'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("mujoco").origin))')}"
export MUJOCO_DIR

# real robot models that no one here wrote: the MJCF and meshes shipped in the dm-control and
# gymnasium-robotics wheels, downloaded (not installed: they would pull in another MuJoCo) into a
# cache folder outside the repository and extracted there
ACS_CACHE="${ACS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/acs}"
ROBOT_WHEELS="dm-control==1.0.50 gymnasium-robotics==1.4.2"
ACS_ROBOTS="$ACS_CACHE/robots"
if [ "$(cat "$ACS_ROBOTS/.wheels" 2>/dev/null)" != "$ROBOT_WHEELS" ]; then
  echo "acs setup: downloading $ROBOT_WHEELS into $ACS_CACHE"
  mkdir -p "$ACS_CACHE/wheels"
  "$VENV/bin/python" -m pip download -q --disable-pip-version-check --no-deps \
    -d "$ACS_CACHE/wheels" $ROBOT_WHEELS
  rm -rf "$ACS_ROBOTS"
  "$VENV/bin/python" - "$ACS_CACHE/wheels" "$ACS_ROBOTS" <<'PY'
import glob, os, sys, zipfile
wheels, out = sys.argv[1], sys.argv[2]
keep = ("dm_control/suite/", "dm_control/third_party/", "dm_control/locomotion/",
        "gymnasium_robotics/envs/")
for pattern in ("dm_control-1.0.50-*.whl", "gymnasium_robotics-1.4.2-*.whl"):
    with zipfile.ZipFile(glob.glob(os.path.join(wheels, pattern))[0]) as z:
        z.extractall(out, [n for n in z.namelist() if n.startswith(keep)])
PY
  echo "$ROBOT_WHEELS" > "$ACS_ROBOTS/.wheels"
fi
# Gymnasium-Robotics' Fetch tasks in the state their environments simulate (fetch/*_env.xml beside
# the originals: scripts/fetch_envs.py says why), rewritten when that script changes. The state
# comes from MuJoCo's own steps: the 4.0 set-up rewrites files another MuJoCo wrote, so that the
# test command (4.0 first) runs both versions from 4.0's state
FETCH_SUM="$(cksum < "$ACS_ROOT/scripts/fetch_envs.py")"
FETCH_WROTE="$(cat "$ACS_ROBOTS/.fetch_envs" 2>/dev/null || true)"
if [ "${FETCH_WROTE% *}" != "$FETCH_SUM" ] ||
   { [ "$MUJOCO_VERSION" = 4.0.0 ] && [ "${FETCH_WROTE##* }" != 4.0.0 ]; }; then
  "$VENV/bin/python" "$ACS_ROOT/scripts/fetch_envs.py" "$ACS_ROBOTS"
  echo "$FETCH_SUM $MUJOCO_VERSION" > "$ACS_ROBOTS/.fetch_envs"
fi
export ACS_ROBOTS

# configure and build (incremental after the first run)
cmake -S "$ACS_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DMUJOCO_DIR="$MUJOCO_DIR" \
  -DACS_ROBOTS_DIR="$ACS_ROBOTS" -DACS_PYTHON="$VENV/bin/python" ${ACS_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"

# the Python package `acs`, built by pip (scikit-build-core) from this checkout into the venv of
# the default build of each MuJoCo (not the sanitizer builds); its CMake build folder is kept in
# $BUILD_DIR/python, so that a re-run rebuilds only what changed
if [ "$BUILD_DIR" = "$DEFAULT_BUILD" ]; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
    --config-settings=build-dir="$BUILD_DIR/python" "$ACS_ROOT"
fi
