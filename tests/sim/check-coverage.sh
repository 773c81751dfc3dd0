#!/usr/bin/env bash
# Symbol coverage of the stand-in: every symbol the real libcudart.so.13,
# libcublas.so.13 and libcublasLt.so.13 export must be exported by the
# stand-in's library of the same soname, unless no public header declares
# it (an internal entry point) or coverage-exclusions lists it. And the
# stand-in exports no cuda*/cublas* name the real library lacks (a
# misspelt entry point would otherwise go unnoticed).
#
# Usage: check-coverage.sh <stand-in dir> [real lib dir] [include dir]
# Prints each missing symbol and a count per library; exits 1 if any.
set -u
sim=$1
real=${2:-${CUDA_HOME:-/usr/local/cuda}/lib64}
inc=${3:-${CUDA_HOME:-/usr/local/cuda}/include}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exports() { nm -D --defined-only "$1" | awk '{print $3}' | sed 's/@.*//' | sort -u; }

# Every identifier the public headers of the three libraries and their
# interop companions declare as a function (name followed by "(").
cat "$inc"/cuda_runtime_api.h "$inc"/cuda_profiler_api.h "$inc"/cuda_*_interop.h \
    "$inc"/cublas_api.h "$inc"/cublasXt.h "$inc"/cublasLt.h "$inc"/cublas.h 2>/dev/null |
    grep -oE '\b(cuda|cublas)[A-Za-z0-9_]*[[:space:]]*\(' | sed -E 's/[[:space:]]*\($//' | sort -u >"$tmp/declared"
# The legacy API: declared in cublas.h, not in the v2 header.
grep -ohE '\bcublas[A-Za-z0-9_]*[[:space:]]*\(' "$inc"/cublas.h | sed -E 's/[[:space:]]*\($//' | sort -u >"$tmp/legacy.h"
grep -ohE '\bcublas[A-Za-z0-9_]*[[:space:]]*\(' "$inc"/cublas_api.h | sed -E 's/[[:space:]]*\($//' | sort -u >"$tmp/v2.h"
comm -23 "$tmp/legacy.h" "$tmp/v2.h" >"$tmp/legacy"

excluded() { # name
    local glob reason
    while read -r glob reason; do
        case $glob in '' | '#'*) continue ;; esac
        if [ "$glob" = @legacy-cublas ]; then
            grep -qxF -- "$1" "$tmp/legacy" && return 0
        else
            # shellcheck disable=SC2053
            [[ $1 == $glob ]] && return 0
        fi
    done <"$here/coverage-exclusions"
    return 1
}

status=0
for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13; do
    [ -f "$real/$lib" ] || { echo "check-coverage: no $real/$lib"; exit 2; }
    [ -f "$sim/$lib" ] || { echo "check-coverage: no $sim/$lib"; exit 2; }
    exports "$real/$lib" >"$tmp/real"
    exports "$sim/$lib" >"$tmp/sim"
    n=0
    while read -r sym; do
        grep -qxF -- "$sym" "$tmp/declared" || continue
        excluded "$sym" && continue
        echo "missing in the stand-in's $lib: $sym"
        n=$((n + 1))
    done < <(comm -23 "$tmp/real" "$tmp/sim")
    while read -r sym; do
        echo "exported by the stand-in's $lib only: $sym"
        n=$((n + 1))
    done < <(comm -13 "$tmp/real" "$tmp/sim" | grep -E '^(cuda|cublas|__cuda)')
    echo "$lib: $(wc -l <"$tmp/real") real exports, $n missing or extra"
    [ "$n" -eq 0 ] || status=1
done
exit $status
