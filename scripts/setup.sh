#!/usr/bin/env bash
# Idempotent set-up for acs on Debian 12: system packages, a project-local Python virtual
# environment holding the pinned MuJoCo wheel (its C headers and libmujoco), and a CMake build.
# Sourced by scripts/main.sh and scripts/test.sh; can also be run on its own.
set -euo pipefail

ACS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MUJOCO_VERSION="3.12.0"            # exact pin: the headers and library the code is written against
BUILD_DIR="${ACS_BUILD_DIR:-$ACS_ROOT/build}"
BUILD_TYPE="${ACS_BUILD_TYPE:-Release}"

# Debian packages: compiler, CMake, Python venv, GLFW/OpenGL (viewer), Xvfb (viewer tests)
DEB_PACKAGES="build-essential cmake pkg-config python3 python3-venv python3-pip
  libglfw3-dev libgl-dev xvfb xauth"
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

# project-local virtual environment with the pinned MuJoCo wheel
VENV="$ACS_ROOT/.venv"
if [ ! -x "$VENV/bin/python" ]; then
  echo "acs setup: creating $VENV"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as md, sys
sys.exit(md.version('mujoco') != '$MUJOCO_VERSION')" 2>/dev/null; then
  echo "acs setup: installing mujoco==$MUJOCO_VERSION from PyPI"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "mujoco==$MUJOCO_VERSION"
fi
MUJOCO_DIR="${MUJOCO_DIR:-$("$VENV/bin/python" -c \
  'import importlib.util, os; print(os.path.dirname(importlib.util.find_spec("mujoco").origin))')}"
export MUJOCO_DIR

# configure and build (incremental after the first run)
cmake -S "$ACS_ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DMUJOCO_DIR="$MUJOCO_DIR" \
  ${ACS_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
