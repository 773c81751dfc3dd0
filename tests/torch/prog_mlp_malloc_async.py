"""prog_mlp_sgd's training steps under PYTORCH_CUDA_ALLOC_CONF=
backend:cudaMallocAsync: every tensor and the 32 MiB cuBLAS workspace PyTorch
makes around each GEMM are stream-ordered pool allocations, and autograd
frees a weight-gradient GEMM's inputs (cudaFreeAsync) before
AccumulateGrad copies its output transposed into W.grad."""
import os
import runpy

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "prog_mlp_sgd.py"), run_name="__main__")
