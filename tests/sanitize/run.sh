#!/usr/bin/env bash
# make sanitize (see sanitize.mk):
#   BUILD=build bash tests/sanitize/run.sh
#   SAN_KINDS="asan tsan"   which builds (default both)
#   SAN_FUZZ_SEEDS=n        fuzzer seeds per build (default 30)
# A sanitizer report fails the run it happens in: ASan and UBSan abort
# (exit status differs from base), TSan exits 66 at the end.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=${BUILD:-build}
CC=${CC:-cc}
KINDS=${SAN_KINDS:-asan tsan}
failed=0

flags() {
    case $1 in
    asan) echo "-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" ;;
    tsan) echo "-O1 -g -fsanitize=thread" ;;
    esac
}
runtimes() {
    case $1 in
    asan) echo "$($CC -print-file-name=libasan.so):$($CC -print-file-name=libubsan.so)" ;;
    tsan) $CC -print-file-name=libtsan.so ;;
    esac
}

for kind in $KINDS; do
    mkdir -p "$BUILD/san-$kind"
    dir=$(cd "$BUILD/san-$kind" && pwd)
    echo "== sanitize $kind: build ($dir)"
    # the stand-in, the programs and the fuzzer are the main build's
    for shared in sim programs fuzz; do
        rm -rf "${dir:?}/$shared"
        ln -s "$(cd "$BUILD" && pwd)/$shared" "$dir/$shared"
    done
    touch "$dir/.deps"
    unit=""
    for t in tests/unit/test_*.c; do unit+=" $dir/unit/$(basename "$t" .c)"; done
    # CFLAGS from the environment: the Makefile appends its own to it
    # shellcheck disable=SC2086
    if ! CFLAGS="$(flags "$kind")" make --no-print-directory -j2 BUILD="$dir" \
        "$dir/libtransfold.so" "$dir/inject/libtransfold.so" $unit >"$dir/build.log" 2>&1; then
        tail -20 "$dir/build.log"
        failed=1
        continue
    fi
    export SAN_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS
    SAN_PRELOAD=$(runtimes "$kind")
    # the host programs' own leaks (buffers kept on purpose) are not ours
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    TSAN_OPTIONS=halt_on_error=0:exitcode=66
    echo "== sanitize $kind: unit tests"
    for t in $unit; do
        # the unit tests link the runtime themselves; their leaks are ours
        if ! env -u SAN_PRELOAD ASAN_OPTIONS=detect_leaks=1 "$t" >"$t.out" 2>&1; then
            tail -30 "$t.out"
            failed=1
        fi
    done
    echo "== sanitize $kind: e2e"
    if ! BUILD=$dir E2E_OUT=$dir/e2e E2E_JOBS=${E2E_JOBS:-2} bash tests/e2e/run.sh >"$dir/e2e.txt" 2>&1; then
        grep '^FAIL' "$dir/e2e.txt" | head -20
        failed=1
    fi
    tail -1 "$dir/e2e.txt"
    echo "== sanitize $kind: fuzz"
    if ! BUILD=$dir FUZZ_OUT=$dir/fuzz-runs FUZZ_SEEDS=${SAN_FUZZ_SEEDS:-30} FUZZ_JOBS=${FUZZ_JOBS:-2} \
        bash tests/fuzz/run.sh >"$dir/fuzz.txt" 2>&1; then
        grep -v '^ok' "$dir/fuzz.txt" | head -20
        failed=1
    fi
    tail -1 "$dir/fuzz.txt"
    unset SAN_PRELOAD
done
[ "$failed" = 0 ] && echo "sanitize: clean" || echo "sanitize: FAILED"
exit "$failed"
