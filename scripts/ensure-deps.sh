#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, only when missing.
set -u
need=()
[ -f /usr/include/uthash.h ] || need+=(uthash-dev)
[ -f /usr/include/cmocka.h ] || need+=(libcmocka-dev)
command -v jq >/dev/null || need+=(jq)
command -v valgrind >/dev/null || need+=(valgrind)
command -v gnuplot >/dev/null || need+=(gnuplot-nox)
# The stand-in's BLAS beyond GEMM (reference CBLAS) and the e2e checks of
# its results (numpy).
[ -n "$(ls /usr/include/cblas.h /usr/include/*/cblas.h 2>/dev/null)" ] || need+=(libblas-dev)
{ python3 -c 'import numpy' || /usr/bin/python3 -c 'import numpy'; } >/dev/null 2>&1 || need+=(python3-numpy)
if [ ${#need[@]} -gt 0 ]; then
  echo "transfold: installing ${need[*]}" >&2
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
  $sudo_ apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq "${need[@]}" >/dev/null \
    || { echo "transfold: could not install ${need[*]}" >&2; exit 1; }
fi
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$cuda/bin/nvcc" ] || { echo "transfold: no CUDA toolkit at $cuda (set CUDA_HOME)" >&2; exit 1; }
exit 0
