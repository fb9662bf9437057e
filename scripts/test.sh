#!/usr/bin/env bash
# Set up everything (idempotent) and run the whole test suite: the release build, the memory
# checks under Valgrind, then the suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
ctest --test-dir "$ROOT/build" --output-on-failure -j "$(nproc)" -LE valgrind

echo "== memory checks under Valgrind (memcheck)"
ctest --test-dir "$ROOT/build" --output-on-failure -j "$(nproc)" -L valgrind

echo "== tests under AddressSanitizer and UndefinedBehaviorSanitizer"
ACS_BUILD_DIR="$ROOT/build-sanitize" ACS_BUILD_TYPE=RelWithDebInfo \
  ACS_CMAKE_ARGS="-DACS_SANITIZE=ON -DACS_BUILD_VIEWER=OFF" "$ROOT/scripts/setup.sh"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$ROOT/build-sanitize" --output-on-failure -j "$(nproc)" -LE valgrind
