# The PyTorch suite: tests/torch/prog_*.py under every transfold mode, held
# against --without and the CPU (run.sh), on the stand-in or a GPU.
# `make torch-env` makes TORCH_VENV with the pinned torch (ensure-env.sh:
# the first time downloads ~2.6 GB of wheels; pip's cache is kept);
# TORCH_PY names the interpreter the venv is made with.
TORCH_PY   ?= python3
TORCH_VENV ?= $(BUILD)/torch-venv

.PHONY: torch-env test-torch gpu-check-sim
torch-env:
	@bash tests/torch/ensure-env.sh $(TORCH_VENV) $(TORCH_PY)

test-torch: torch-env $(TRANSFOLD_SO) sim
	@BUILD=$(BUILD) TORCH_VENV=$(abspath $(TORCH_VENV)) bash tests/torch/run.sh
test: test-torch

# scripts/gpu-check.sh rehearsed on the stand-in (CI has no GPU), so the
# script a GPU machine runs cannot rot unseen: seed_full.py (at 1/16 of its
# shapes there) and the suite in GPU mode on one program (timings printed,
# never judged).
gpu-check-sim: torch-env $(TRANSFOLD_SO) sim programs
	@GPU_CHECK_SIM=1 GPU_CHECK_TORCH_PROGS=prog_fold_seed BUILD=$(BUILD) \
	  bash scripts/gpu-check.sh --only seed-full,torch
test: gpu-check-sim
