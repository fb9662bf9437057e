#!/usr/bin/env bash
# acs as C users take it: installed with cmake --install, then used through find_package(acs CONFIG)
# and through pkg-config; and built from source with add_subdirectory. Each consumer program
# steps a box on an incline with acs and checks it holds (tests/consumer/consumer.c).
#   check_consumer.sh BUILD_DIR SOURCE_DIR MUJOCO_DIR [C_FLAGS]
# C_FLAGS: what the consumers are compiled and linked with (a sanitizer build's -fsanitize=...)
set -euo pipefail
build="$(cd "$1" && pwd)"; src="$(cd "$2" && pwd)"; mujoco="$3"; cflags="${4:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
model="$src/test_models/incline_stick.xml"

echo "== cmake --install"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in include/acs/acs.h include/acs/acs_types.h include/acs/acs_version.h lib/libacs.a \
         lib/cmake/acs/acsConfig.cmake lib/cmake/acs/acsConfigVersion.cmake \
         lib/pkgconfig/acs.pc; do
  [ -e "$work/prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
soname=$(objdump -p "$work/prefix/lib/libacs.so" | awk '/SONAME/ {print $2}')
echo "SONAME $soname"
case "$soname" in libacs.so.[0-9]*) ;; *) echo "libacs.so has no versioned SONAME"; exit 1;; esac

echo "== find_package(acs CONFIG)"
cmake -S "$src/tests/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_C_FLAGS="$cflags" > /dev/null
cmake --build "$work/cmake" > /dev/null
"$work/cmake/consumer" "$model"

echo "== pkg-config"
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --modversion acs
cc -std=c11 $cflags "$src/tests/consumer/consumer.c" -o "$work/pc-consumer" \
  $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs acs) -lm
"$work/pc-consumer" "$model"

echo "== add_subdirectory"
cmake -S "$src/tests/consumer/subdirectory" -B "$work/sub" -DACS_SOURCE="$src" \
  -DMUJOCO_DIR="$mujoco" -DCMAKE_C_FLAGS="$cflags" > /dev/null
cmake --build "$work/sub" -j 2 > /dev/null
"$work/sub/consumer" "$model"
echo "consumers: ok"
