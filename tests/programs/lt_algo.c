/* cuBLASLt algorithms the way NVIDIA's LtSgemm auto-tuning and algo-config
 * samples use them: ids from cublasLtMatmulAlgoGetIds (f32, and FP8 with an
 * FP8 D), each initialised, its capabilities read (tiles, split-K,
 * reductions), a configuration set within them, checked and run; the
 * heuristic's candidates run too; a configuration outside the capabilities
 * is refused; an emulation descriptor is initialised, set and read back;
 * an FP8 matmul with MXFP8 block scales (VEC32_UE8M0) is answered as an
 * H100/H200 answers it, NOT_SUPPORTED by the heuristic and the matmul.
 *
 * Usage: lt_algo
 * Prints statuses, ids, capabilities and each run's D (4 x 3, f32, exact:
 * inputs are small multiples of 0.5); tests/e2e/lt_algo_check.py checks
 * every D against numpy and the statuses against cuBLASLt's contract. */
#include <cublasLt.h>

#include "common.h"

enum { M = 4, N = 3, K = 5, MAX_IDS = 16 };

static cublasLtHandle_t lt;
static cublasLtMatmulDesc_t desc;
static cublasLtMatrixLayout_t la, lb, ld;
static float *da, *db, *dd;

static void setup(void)
{
    float ha[M * K], hb[K * N];
    for (int i = 0; i < M * K; i++) ha[i] = tf_val((size_t)i, 7);
    for (int i = 0; i < K * N; i++) hb[i] = tf_val((size_t)i, 11);
    CK(cudaMalloc((void **)&da, sizeof ha));
    CK(cudaMalloc((void **)&db, sizeof hb));
    CK(cudaMalloc((void **)&dd, sizeof(float) * M * N));
    CK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CKB(cublasLtCreate(&lt));
    CKB(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    CKB(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, M, K, M));
    CKB(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, K, N, K));
    CKB(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, M, N, M));
}

/* D = A B with `algo`; prints D under `label`, or the status. */
static void run(const char *label, const cublasLtMatmulAlgo_t *algo)
{
    float alpha = 1.0f, beta = 0.0f, h[M * N];
    CK(cudaMemset(dd, 0, sizeof h));
    cublasStatus_t st = cublasLtMatmul(lt, desc, &alpha, da, la, db, lb, &beta, dd, ld, dd, ld, algo, NULL, 0, 0);
    if (st != CUBLAS_STATUS_SUCCESS) {
        printf("%s status %d\n", label, (int)st);
        return;
    }
    CK(cudaMemcpy(h, dd, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s D", label);
    for (int i = 0; i < M * N; i++) printf(" %.9g", h[i]);
    printf("\n");
}

/* One id: capabilities, a configuration within them, check, run. */
static void try_id(int id)
{
    cublasLtMatmulAlgo_t algo;
    CKB(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, id,
                               &algo));
    size_t size = 0;
    CKB(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, NULL, 0, &size));
    uint32_t tiles[CUBLASLT_MATMUL_TILE_END];
    int ntiles = (int)(size / sizeof tiles[0]);
    CKB(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_TILE_IDS, tiles, sizeof tiles, &size));
    int32_t splitk_support = 0;
    uint32_t reductions = 0;
    CKB(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_SPLITK_SUPPORT, &splitk_support,
                                          sizeof splitk_support, NULL));
    CKB(cublasLtMatmulAlgoCapGetAttribute(&algo, CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK, &reductions,
                                          sizeof reductions, NULL));
    printf("id %d tiles %d splitk %d reductions %u\n", id, ntiles, (int)splitk_support, reductions);
    uint32_t tile = tiles[id % ntiles], scheme = CUBLASLT_REDUCTION_SCHEME_INPLACE;
    int32_t splitk = splitk_support ? 2 : 1, read_id = -1;
    CKB(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile));
    CKB(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk));
    if (reductions & scheme)
        CKB(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &scheme, sizeof scheme));
    CKB(cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &read_id, sizeof read_id, NULL));
    cublasLtMatmulHeuristicResult_t check;
    CKB(cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &algo, &check));
    char label[32];
    snprintf(label, sizeof label, "run id=%d", read_id);
    run(label, &algo);
}

/* Outside the capabilities: split-K of 0, and the read-only ID. */
static void refused(void)
{
    cublasLtMatmulAlgo_t algo;
    CKB(cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, 0,
                               &algo));
    int32_t zero = 0, id = 1;
    STATUS(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id));
    CKB(cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &zero, sizeof zero));
    cublasLtMatmulHeuristicResult_t check;
    STATUS(cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &algo, &check));
    run("splitk0", &algo);
}

/* FP8 (TN, E4M3 A and B, BF16 C and D) with MXFP8 block scales. */
static void block_scales(void)
{
    enum { S = 32 };
    cublasLtMatmulDesc_t d8;
    cublasLtMatrixLayout_t a8, b8, c16;
    CKB(cublasLtMatmulDescCreate(&d8, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    int32_t t = CUBLAS_OP_T, mode = CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0;
    CKB(cublasLtMatmulDescSetAttribute(d8, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
    CKB(cublasLtMatmulDescSetAttribute(d8, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode, sizeof mode));
    CKB(cublasLtMatmulDescSetAttribute(d8, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode, sizeof mode));
    CKB(cublasLtMatrixLayoutCreate(&a8, CUDA_R_8F_E4M3, S, S, S));
    CKB(cublasLtMatrixLayoutCreate(&b8, CUDA_R_8F_E4M3, S, S, S));
    CKB(cublasLtMatrixLayoutCreate(&c16, CUDA_R_16BF, S, S, S));
    cublasLtMatmulPreference_t pref;
    CKB(cublasLtMatmulPreferenceCreate(&pref));
    cublasLtMatmulHeuristicResult_t res;
    int found = -1;
    cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(lt, d8, a8, b8, c16, c16, pref, 1, &res, &found);
    printf("block scales heuristic %d %d\n", (int)st, found);
    void *a, *b, *c;
    unsigned char scales[S * S / 32 * 2] = {0};
    CK(cudaMalloc(&a, S * S));
    CK(cudaMalloc(&b, S * S));
    CK(cudaMalloc(&c, S * S * 2));
    void *sa = NULL, *sb = NULL;
    CK(cudaMalloc(&sa, sizeof scales));
    CK(cudaMalloc(&sb, sizeof scales));
    CK(cudaMemcpy(sa, scales, sizeof scales, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(sb, scales, sizeof scales, cudaMemcpyHostToDevice));
    CKB(cublasLtMatmulDescSetAttribute(d8, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa, sizeof sa));
    CKB(cublasLtMatmulDescSetAttribute(d8, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb, sizeof sb));
    float alpha = 1.0f, beta = 0.0f;
    STATUS(cublasLtMatmul(lt, d8, &alpha, a, a8, b, b8, &beta, c, c16, c, c16, NULL, NULL, 0, 0));
    void *all[] = {a, b, c, sa, sb};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
    CKB(cublasLtMatmulPreferenceDestroy(pref));
    CKB(cublasLtMatrixLayoutDestroy(a8));
    CKB(cublasLtMatrixLayoutDestroy(b8));
    CKB(cublasLtMatrixLayoutDestroy(c16));
    CKB(cublasLtMatmulDescDestroy(d8));
}

static void emulation(void)
{
    cublasLtEmulationDescOpaque_t e;
    int32_t strategy = -1, special = -1, set = 1;
    CKB(cublasLtEmulationDescInit(&e));
    CKB(cublasLtEmulationDescGetAttribute(&e, CUBLASLT_EMULATION_DESC_STRATEGY, &strategy, sizeof strategy, NULL));
    CKB(cublasLtEmulationDescGetAttribute(&e, CUBLASLT_EMULATION_DESC_SPECIAL_VALUES_SUPPORT, &special,
                                          sizeof special, NULL));
    printf("emulation defaults strategy %d special 0x%x\n", (int)strategy, (unsigned)special);
    CKB(cublasLtEmulationDescSetAttribute(&e, CUBLASLT_EMULATION_DESC_STRATEGY, &set, sizeof set));
    CKB(cublasLtEmulationDescGetAttribute(&e, CUBLASLT_EMULATION_DESC_STRATEGY, &strategy, sizeof strategy, NULL));
    printf("emulation strategy set %d\n", (int)strategy);
}

int main(void)
{
    setup();
    int ids[MAX_IDS], n = 0, n8 = 0;
    CKB(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F,
                                 MAX_IDS, ids, &n));
    int ids8[MAX_IDS];
    CKB(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF,
                                 CUDA_R_8F_E4M3, MAX_IDS, ids8, &n8));
    printf("ids f32 %d fp8 %d\n", n, n8);
    for (int i = 0; i < n; i++) try_id(ids[i]);
    cublasLtMatmulPreference_t pref;
    CKB(cublasLtMatmulPreferenceCreate(&pref));
    cublasLtMatmulHeuristicResult_t res[8];
    int found = 0;
    CKB(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 8, res, &found));
    printf("heuristic %d\n", found);
    for (int i = 0; i < found; i++) run("heuristic", &res[i].algo);
    refused();
    emulation();
    block_scales();
    CKB(cublasLtMatmulPreferenceDestroy(pref));
    CKB(cublasLtDestroy(lt));
    return 0;
}
