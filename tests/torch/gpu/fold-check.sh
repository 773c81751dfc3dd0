#!/usr/bin/env bash
# On a real GPU: the PyTorch parts of scripts/gpu-check.sh, the seed at its
# full shapes and then the suite's programs in GPU mode (every mode against
# --without, output folding against TRANSFOLD_OUTPUT_FOLD=0). Arguments go
# to gpu-check.sh; PY=... names the Python with PyTorch.
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
[ -z "${PY:-}" ] || export GPU_CHECK_PY=$PY
bash "$ROOT/scripts/gpu-check.sh" --only seed-full "$@" || rc=1
bash "$ROOT/scripts/gpu-check.sh" --only torch "$@" || rc=1
exit "${rc:-0}"
