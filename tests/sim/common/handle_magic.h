/* The tags the stand-in's cuBLAS and cuBLASLt handles start with. They are
 * shared because a cuBLAS handle is also a cuBLASLt handle: PyTorch passes
 * its cublasHandle_t to cublasLt* calls, and the real libraries accept it,
 * so the cuBLASLt stand-in must recognize a live cuBLAS handle by its tag. */
#ifndef SIM_HANDLE_MAGIC_H
#define SIM_HANDLE_MAGIC_H

#define SIMCUBLAS_HANDLE_MAGIC 0x43424c48u /* "CBLH" */
#define SIMLT_HANDLE_MAGIC 0x4c54484eu     /* "LTHN" */

#endif
