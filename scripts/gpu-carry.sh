#!/usr/bin/env bash
# What scripts/gpu-check.sh needs that a GPU machine without a network may
# lack, gathered into DIR (make gpu-carry: build/gpu-carry) to carry there:
# jq, its own libraries beside it (not the C library: the machine's is used,
# so it must be as new as this one's), and a bin/jq that runs it with them.
#   usage: gpu-carry.sh DIR
set -eu
DIR=${1:?usage: gpu-carry.sh DIR}
JQ=$(command -v jq) || { echo "gpu-carry: no jq here (apt-get install jq)" >&2; exit 1; }
rm -rf "$DIR"
mkdir -p "$DIR/bin" "$DIR/lib"
cp -L "$JQ" "$DIR/lib/jq"
# Its libraries other than glibc's (libjq, libonig, ...).
ldd "$JQ" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
  grep -Ev '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$DIR/lib/"; done
cat >"$DIR/bin/jq" <<'SH'
#!/bin/sh
# jq with the libraries carried beside it (scripts/gpu-carry.sh).
here=${0%/*}/../lib
LD_LIBRARY_PATH="$here${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/jq" "$@"
SH
chmod +x "$DIR/bin/jq"
"$DIR/bin/jq" -n 1 >/dev/null   # it runs
echo "gpu-carry: $DIR ($(du -sh "$DIR" | cut -f1)): bin/jq and lib/$(cd "$DIR/lib" && echo *)"
