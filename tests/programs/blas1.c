/* cuBLAS Level-1 the way NVIDIA's Level-1 samples use it: vectors copied
 * to the device, one call, result copied back; every routine for S, D, C
 * and Z (rotm/rotmg for S and D), the 64-bit-integer forms of some, a
 * negative stride, a result in device memory (device pointer mode), the
 * *Ex forms on the same data, and cuBLAS calls the stand-in cannot do
 * (their statuses printed: a half-precision AxpyEx, cublasSgelsBatched).
 *
 * Usage: blas1
 * Prints one line per result, "<routine> <type> <numbers...>" (%.17g; a
 * complex number as its two parts); tests/e2e/blas1_check.py recomputes
 * every line with numpy from the same inputs. */
#include "common.h"

enum { N = 7 };

static cublasHandle_t handle;

/* x and y inputs: tf_val, exact in every type (complex: re, im in turn). */
static double input(int vec, int i) { return tf_val((size_t)i, vec == 0 ? 3u : 5u); }

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

static void download(void *h, const void *d, size_t bytes)
{
    CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
}

static void print_reals(const char *what, const char *type, const double *v, int n)
{
    printf("%s %s", what, type);
    for (int i = 0; i < n; i++) printf(" %.17g", v[i]);
    printf("\n");
}

/* One type's run: T the element, R its real type, NP the number of R parts
 * of one element (1 or 2), P the cuBLAS letter (p in lower case, as the
 * index searches spell it), RP the letter of its real results (nrm2/asum:
 * S, D, Sc, Dz). */
#define RUN_TYPE(P, p, RP, T, R, NP)                                                                        \
    static void load_##P(T *h, int vec)                                                                  \
    {                                                                                                    \
        R *r = (R *)h;                                                                                   \
        for (int i = 0; i < N * NP; i++) r[i] = (R)input(vec, i);                                        \
    }                                                                                                    \
    static void show_##P(const char *what, const T *d, int n)                                            \
    {                                                                                                    \
        R h[N * 2];                                                                                      \
        double v[N * 2];                                                                                 \
        download(h, d, sizeof(T) * (size_t)n);                                                           \
        for (int i = 0; i < n * NP; i++) v[i] = h[i];                                                    \
        print_reals(what, #P, v, n * NP);                                                                \
    }                                                                                                    \
    static void fresh_##P(T *x, T *y)                                                                    \
    {                                                                                                    \
        T h[N];                                                                                          \
        load_##P(h, 0);                                                                                  \
        CK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));                                          \
        load_##P(h, 1);                                                                                  \
        CK(cudaMemcpy(y, h, sizeof h, cudaMemcpyHostToDevice));                                          \
    }                                                                                                    \
    static void run_##P(const T *alpha)                                                                  \
    {                                                                                                    \
        T h[N];                                                                                          \
        load_##P(h, 0);                                                                                  \
        T *x = (T *)upload(h, sizeof h), *y = (T *)upload(h, sizeof h);                                  \
        fresh_##P(x, y);                                                                                 \
        CKB(cublas##P##axpy(handle, N, alpha, x, 1, y, 1));                                              \
        show_##P("axpy", y, N);                                                                          \
        fresh_##P(x, y);                                                                                 \
        CKB(cublas##P##axpy_64(handle, N - 1, alpha, x, 1, y, -1));                                      \
        show_##P("axpy_64_neg", y, N);                                                                   \
        fresh_##P(x, y);                                                                                 \
        CKB(cublas##P##scal(handle, N, alpha, x, 1));                                                    \
        show_##P("scal", x, N);                                                                          \
        fresh_##P(x, y);                                                                                 \
        CKB(cublas##P##copy(handle, 3, x, 2, y, 1));                                                     \
        show_##P("copy_stride", y, N);                                                                   \
        fresh_##P(x, y);                                                                                 \
        CKB(cublas##P##swap(handle, N, x, 1, y, 1));                                                     \
        show_##P("swap_x", x, N);                                                                        \
        show_##P("swap_y", y, N);                                                                        \
        fresh_##P(x, y);                                                                                 \
        R nrm, asum;                                                                                     \
        CKB(cublas##RP##nrm2(handle, N, x, 1, &nrm));                                                    \
        CKB(cublas##RP##asum(handle, N, x, 1, &asum));                                                   \
        double nv[2] = {nrm, asum};                                                                      \
        print_reals("nrm2_asum", #P, nv, 2);                                                             \
        int imax, imin;                                                                                  \
        int64_t imax64;                                                                                  \
        CKB(cublasI##p##amax(handle, N, x, 1, &imax));                                                   \
        CKB(cublasI##p##amin(handle, N, x, 1, &imin));                                                   \
        CKB(cublasI##p##amax_64(handle, (N + 1) / 2, y, 2, &imax64));                                    \
        printf("iamax_iamin %s %d %d %lld\n", #P, imax, imin, (long long)imax64);                        \
        CK(cudaFree(x));                                                                                 \
        CK(cudaFree(y));                                                                                 \
    }

RUN_TYPE(S, s, S, float, float, 1)
RUN_TYPE(D, d, D, double, double, 1)
RUN_TYPE(C, c, Sc, cuComplex, float, 2)
RUN_TYPE(Z, z, Dz, cuDoubleComplex, double, 2)

/* Dot products: real, and complex unconjugated / conjugated; the double
 * complex one into device memory under the device pointer mode. */
static void dots(void)
{
    float hs[N], s;
    double hd[N], d;
    cuComplex hc[N], c[2];
    cuDoubleComplex hz[N], z[2];
    load_S(hs, 0); float *sx = upload(hs, sizeof hs); load_S(hs, 1); float *sy = upload(hs, sizeof hs);
    load_D(hd, 0); double *dx = upload(hd, sizeof hd); load_D(hd, 1); double *dy = upload(hd, sizeof hd);
    load_C(hc, 0); cuComplex *cx = upload(hc, sizeof hc); load_C(hc, 1); cuComplex *cy = upload(hc, sizeof hc);
    load_Z(hz, 0); cuDoubleComplex *zx = upload(hz, sizeof hz); load_Z(hz, 1); cuDoubleComplex *zy = upload(hz, sizeof hz);
    CKB(cublasSdot(handle, N, sx, 1, sy, 1, &s));
    CKB(cublasDdot_64(handle, N, dx, 1, dy, 1, &d));
    CKB(cublasCdotu(handle, N, cx, 1, cy, 1, &c[0]));
    CKB(cublasCdotc(handle, N, cx, 1, cy, 1, &c[1]));
    cuDoubleComplex *dz;
    CK(cudaMalloc((void **)&dz, 2 * sizeof *dz));
    CKB(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
    CKB(cublasZdotu(handle, N, zx, 1, zy, 1, &dz[0]));
    CKB(cublasZdotc(handle, N, zx, 1, zy, 1, &dz[1]));
    CKB(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
    CK(cudaDeviceSynchronize());
    download(z, dz, sizeof z);
    double v[4] = {s, d, 0, 0};
    print_reals("dot", "SD", v, 2);
    double cv[4] = {c[0].x, c[0].y, c[1].x, c[1].y}, zv[4] = {z[0].x, z[0].y, z[1].x, z[1].y};
    print_reals("dotu_dotc", "C", cv, 4);
    print_reals("dotu_dotc", "Z", zv, 4);
    void *all[] = {sx, sy, dx, dy, cx, cy, zx, zy, dz};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
}

/* Rotations: real ones, complex with real and complex sines, the
 * modified rotation and the generators (on host scalars). */
static void rotations(void)
{
    float hs[N], c = 0.6f, s = 0.8f;
    cuComplex hc[N], cs = {0.48f, 0.64f};
    double hd[N];
    load_S(hs, 0); float *sx = upload(hs, sizeof hs); load_S(hs, 1); float *sy = upload(hs, sizeof hs);
    CKB(cublasSrot(handle, N, sx, 1, sy, 1, &c, &s));
    show_S("rot_x", sx, N);
    show_S("rot_y", sy, N);
    load_C(hc, 0); cuComplex *cx = upload(hc, sizeof hc); load_C(hc, 1); cuComplex *cy = upload(hc, sizeof hc);
    CKB(cublasCrot(handle, N, cx, 1, cy, 1, &c, &cs));
    show_C("crot_x", cx, N);
    show_C("crot_y", cy, N);
    CKB(cublasCsrot(handle, N, cx, 1, cy, 1, &c, &s));
    show_C("csrot_x", cx, N);
    show_C("csrot_y", cy, N);
    double param[5] = {-1.0, 0.5, -0.25, 2.0, 1.5};
    load_D(hd, 0); double *dx = upload(hd, sizeof hd); load_D(hd, 1); double *dy = upload(hd, sizeof hd);
    CKB(cublasDrotm(handle, N, dx, 1, dy, 1, param));
    show_D("rotm_x", dx, N);
    show_D("rotm_y", dy, N);
    float a = 3.0f, b = 4.0f, gc, gs;
    CKB(cublasSrotg(handle, &a, &b, &gc, &gs));
    double rg[4] = {a, b, gc, gs};
    print_reals("rotg", "S", rg, 4);
    double d1 = 2.0, d2 = 3.0, x1 = 1.5, y1 = -0.5, mp[5] = {0};
    CKB(cublasDrotmg(handle, &d1, &d2, &x1, &y1, mp));
    double rm[8] = {d1, d2, x1, mp[0], mp[1], mp[2], mp[3], mp[4]};
    print_reals("rotmg", "D", rm, 8);
    void *all[] = {sx, sy, cx, cy, dx, dy};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
}

/* The *Ex forms, typed by cudaDataType, on the same inputs: printed under
 * the typed routine's line name with an "ex_" prefix. */
static void ex_forms(void)
{
    float hs[N], sa = 1.5f;
    double hd[N];
    cuComplex hc[N];
    cuDoubleComplex hz[N], zdot;
    load_S(hs, 0); float *sx = upload(hs, sizeof hs); load_S(hs, 1); float *sy = upload(hs, sizeof hs);
    load_D(hd, 0); double *dx = upload(hd, sizeof hd);
    load_C(hc, 0); cuComplex *cx = upload(hc, sizeof hc);
    load_Z(hz, 0); cuDoubleComplex *zx = upload(hz, sizeof hz); load_Z(hz, 1); cuDoubleComplex *zy = upload(hz, sizeof hz);
    CKB(cublasAxpyEx(handle, N, &sa, CUDA_R_32F, sx, CUDA_R_32F, 1, sy, CUDA_R_32F, 1, CUDA_R_32F));
    show_S("ex_axpy", sy, N);
    CKB(cublasScalEx(handle, N, &sa, CUDA_R_32F, cx, CUDA_C_32F, 1, CUDA_C_32F));
    show_C("ex_csscal", cx, N);
    load_C(hc, 0); cx = upload(hc, sizeof hc);
    float nrm;
    int64_t imax;
    CKB(cublasNrm2Ex(handle, N, cx, CUDA_C_32F, 1, &nrm, CUDA_R_32F, CUDA_R_32F));
    CKB(cublasIamaxEx_64(handle, N, dx, CUDA_R_64F, 1, &imax));
    CKB(cublasDotcEx(handle, N, zx, CUDA_C_64F, 1, zy, CUDA_C_64F, 1, &zdot, CUDA_C_64F, CUDA_C_64F));
    double v[5] = {nrm, (double)imax, zdot.x, zdot.y, 0};
    print_reals("ex_nrm2_iamax_dotc", "X", v, 4);
    STATUS(cublasAxpyEx(handle, N, &sa, CUDA_R_32F, sx, CUDA_R_16F, 1, sy, CUDA_R_16F, 1, CUDA_R_32F));
    void *all[] = {sx, sy, dx, cx, zx, zy};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
}

int main(void)
{
    CKB(cublasCreate(&handle));
    float sa = 1.5f;
    double da = -0.75;
    cuComplex ca = {1.5f, -0.5f};
    cuDoubleComplex za = {-0.25, 2.0};
    run_S(&sa);
    run_D(&da);
    run_C(&ca);
    run_Z(&za);
    dots();
    rotations();
    ex_forms();
    /* Not done by the stand-in: the status real cuBLAS gives for a case it
     * does not support, never a wrong value. */
    STATUS(cublasSgelsBatched(handle, CUBLAS_OP_N, 2, 2, 1, NULL, 2, NULL, 2, NULL, NULL, 1));
    CKB(cublasDestroy(handle));
    return 0;
}
