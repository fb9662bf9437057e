#!/usr/bin/env bash
# Set up everything (idempotent) and run every test: against MuJoCo 4.0 (the default) the suite on
# the release build, the Python package's tests (pytest, on the package the set-up installed in
# .venv), the evidence suite in its quick form (acs-bench --suite --quick: the physics of each
# scene checked, for every solver), the memory checks under Valgrind, the suite built with
# AddressSanitizer and UndefinedBehaviorSanitizer, and every solver's simulations on separate
# threads built with ThreadSanitizer; then the same suite, Python tests and ASan/UBSan build
# against MuJoCo 3.12.
# Every phase runs; the exit status is non-zero if any failed.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="$(nproc)"
failed=""

# phase NAME COMMAND...: run it, remember a failure
phase() {
  local name="$1"
  shift
  echo "== $name"
  if ! "$@"; then
    failed="$failed
  - $name"
  fi
}

# suite MUJOCO BUILD_DIR BUILD_TYPE CMAKE_ARGS CTEST_ARGS...: set up that build, run its tests
suite() {
  local mujoco="$1" dir="$2" type="$3" cmake_args="$4"
  shift 4
  ACS_MUJOCO="$mujoco" ACS_BUILD_DIR="$dir" ACS_BUILD_TYPE="$type" ACS_CMAKE_ARGS="$cmake_args" \
    "$ROOT/scripts/setup.sh" &&
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$dir" --output-on-failure -j "$JOBS" "$@"
}

SAN="-DACS_SANITIZE=ON -DACS_BUILD_VIEWER=OFF"
phase "MuJoCo 4.0: tests" suite 4.0 "$ROOT/build" Release "" -LE valgrind
phase "MuJoCo 4.0: Python tests (pytest)" "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$ROOT/python/tests"
phase "MuJoCo 4.0: evidence suite (acs-bench --suite --quick)" \
  "$ROOT/build/bin/acs-bench" --suite --quick --out "$ROOT/build/results-quick"
phase "MuJoCo 4.0: memory checks under Valgrind" \
  ctest --test-dir "$ROOT/build" --output-on-failure -j "$JOBS" -L valgrind
phase "MuJoCo 4.0: tests under AddressSanitizer and UBSan" \
  suite 4.0 "$ROOT/build-sanitize" RelWithDebInfo "$SAN" -LE "valgrind|long"
phase "MuJoCo 4.0: simulations on threads under ThreadSanitizer" \
  suite 4.0 "$ROOT/build-tsan" RelWithDebInfo "-DACS_SANITIZE_THREAD=ON -DACS_BUILD_VIEWER=OFF" \
  -R "^bench_threads_"
phase "MuJoCo 3.12: tests" suite 3.12 "$ROOT/build-3.12" Release "" -LE valgrind
phase "MuJoCo 3.12: Python tests (pytest)" "$ROOT/.venv-3.12/bin/python" -m pytest -q \
  -p no:cacheprovider "$ROOT/python/tests"
phase "MuJoCo 3.12: tests under AddressSanitizer and UBSan" \
  suite 3.12 "$ROOT/build-3.12-sanitize" RelWithDebInfo "$SAN" -LE "valgrind|long"

if [ -n "$failed" ]; then
  echo "== FAILED:$failed"
  exit 1
fi
echo "== every test passed (MuJoCo 4.0 and 3.12, release, Python, Valgrind, ASan/UBSan, TSan)"
