#!/usr/bin/env bash
# Builds libjdvmspawn.so into the class path (run by Maven at process-classes). Without gcc, or on
# another architecture than x86-64 Linux, it builds nothing and says so: jdvm then starts processes
# with posix_spawn (org.jdvm.host.os.NativeSpawn).
set -euo pipefail
src="$(dirname "$0")/jdvm_spawn.c"
out="$1/libjdvmspawn.so"
mkdir -p "$1"
if [ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]; then
  echo "jdvm_spawn: not built on $(uname -s)/$(uname -m); processes start with posix_spawn"
  exit 0
fi
if ! command -v gcc >/dev/null 2>&1; then
  echo "jdvm_spawn: not built, no gcc on PATH; processes start with posix_spawn"
  exit 0
fi
if [ -f "$out" ] && [ "$out" -nt "$src" ]; then
  exit 0
fi
gcc -O2 -Wall -Wextra -Werror -fPIC -shared -o "$out.tmp" "$src"
mv "$out.tmp" "$out"
