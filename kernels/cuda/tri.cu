/* One triangle of a square tile updated in place, the other left as it was:
 * what a GEMMT leaf (a product computed whole into scratch, then merged) and
 * the scaling of SYRK/HERK/SYR2K/HER2K/GEMMT diagonal tiles need.  cuBLAS has
 * no kernel that writes one triangle of a general product. */
#include "check.cuh"
#include "scalar.cuh"

namespace {

constexpr int TRI_THREADS = 256;

/* C(i,j) = S(i,j) + beta C(i,j) over the uplo triangle (S NULL: beta C alone;
 * beta 0: C not read); real_diag zeroes the diagonal's imaginary parts. */
template <class T>
__global__ void tri_update(bool lower, int64_t n, const T *S, int64_t lds, T beta, T *C,
                           int64_t ldc, bool real_diag)
{
    for (int64_t j = blockIdx.y; j < n; j += gridDim.y) {
        const int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        for (int64_t i = i0 + blockIdx.x * TRI_THREADS + threadIdx.x; i < i1;
             i += (int64_t)gridDim.x * TRI_THREADS) {
            T v = S ? S[i + j * lds] : kzero<T>();
            if (!kis_zero(beta))
                v = kfma(beta, C[i + j * ldc], v);
            C[i + j * ldc] = real_diag && i == j ? kreal(v) : v;
        }
    }
}

template <class T>
int tri_typed(cudaStream_t s, bool real_diag, tess_uplo_t uplo, int64_t n, const void *S,
              int64_t lds, const void *beta, void *C, int64_t ldc)
{
    if (n == 0)
        return 0;
    /* a column per grid row (as many as a grid has); enough blocks across for the longest */
    const dim3 grid((unsigned)kern_cdiv64(n, TRI_THREADS), (unsigned)kern_min64(n, 65535));
    return kern_launch(tri_update<T>, grid, dim3(TRI_THREADS), 0, s, KERN_LAUNCH_PLAIN,
                       uplo == TessLower, n, static_cast<const T *>(S), lds,
                       *static_cast<const T *>(beta), static_cast<T *>(C), ldc, real_diag);
}

} // namespace

extern "C" int kern_cuda_tri_update(kern_type_t t, cudaStream_t s, bool real_diag,
                                    tess_uplo_t uplo, int64_t n, const void *S, int64_t lds,
                                    const void *beta, void *C, int64_t ldc)
{
    return kern_by_type(t, [&](auto z) {
        return tri_typed<decltype(z)>(s, real_diag, uplo, n, S, lds, beta, C, ldc);
    });
}
