#!/usr/bin/env bash
# Makes the pinned PyTorch the torch tests run: VENV (default build/torch-venv)
# with torch==$TORCH_VERSION, the default wheel of PyPI (CUDA 13). A VENV that
# already imports that version is left as it is (it may be a link to a venv
# made elsewhere). pip's cache is kept: the first install downloads torch and
# NVIDIA's CUDA 13 wheels, about 2.6 GB, which takes a few minutes.
#   usage: ensure-env.sh VENV [PYTHON]     (PYTHON: the interpreter, TORCH_PY)
set -u
VENV=${1:?usage: ensure-env.sh VENV [PYTHON]}
PY=${2:-python3}
TORCH_VERSION=2.15.0

has_torch() {
  [ -x "$VENV/bin/python" ] &&
    "$VENV/bin/python" -c "import sys, torch; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" \
      >/dev/null 2>&1
}

has_torch && exit 0
command -v "$PY" >/dev/null 2>&1 || { echo "torch-env: no interpreter '$PY' (set TORCH_PY)" >&2; exit 1; }
echo "torch-env: installing torch==$TORCH_VERSION into $VENV (first time: ~2.6 GB of wheels, a few minutes)" >&2
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV" || { echo "torch-env: '$PY -m venv $VENV' failed" >&2; exit 1; }
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
"$VENV/bin/python" -m pip install --quiet "torch==$TORCH_VERSION" ||
  { echo "torch-env: pip install torch==$TORCH_VERSION failed" >&2; exit 1; }
has_torch || { echo "torch-env: $VENV does not import torch $TORCH_VERSION after installing it" >&2; exit 1; }
