#!/bin/sh
# The stand-in driver must export exactly the symbols of its table (table.h)
# plus simcudaTraceAs, and each of them must exist in the real driver stub.
# Usage: check-exports.sh <built libcuda.so.1> [real stub libcuda.so]
set -eu
lib=$1
stub=${2:-${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^simcuda' | sort >"$tmp/exported"
grep -oE '^SIM_DRV\([^)]*\)' "$here/table.h" | sed 's/SIM_DRV(//;s/)//' |
    awk -F', *' '{print $2; print $3}' | sort -u >"$tmp/table"
diff -u "$tmp/table" "$tmp/exported"
if [ -f "$stub" ]; then
    nm -D --defined-only "$stub" | awk '{print $3}' | sort >"$tmp/real"
    missing=$(comm -23 "$tmp/table" "$tmp/real")
    [ -z "$missing" ] || { echo "not in the real driver: $missing"; exit 1; }
fi
echo "libcuda exports match table.h"
