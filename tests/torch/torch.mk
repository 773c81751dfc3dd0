# The PyTorch suite: tests/torch/prog_*.py under every transfold mode, held
# against --without and the CPU (run.sh), on the stand-in or a GPU.
# `make torch-env` makes TORCH_VENV with the pinned torch (ensure-env.sh:
# the first time downloads ~2.6 GB of wheels; pip's cache is kept);
# TORCH_PY names the interpreter the venv is made with.
TORCH_PY   ?= python3
TORCH_VENV ?= $(BUILD)/torch-venv

.PHONY: torch-env test-torch
torch-env:
	@bash tests/torch/ensure-env.sh $(TORCH_VENV) $(TORCH_PY)

test-torch: torch-env $(TRANSFOLD_SO) sim
	@BUILD=$(BUILD) TORCH_VENV=$(abspath $(TORCH_VENV)) bash tests/torch/run.sh
test: test-torch
