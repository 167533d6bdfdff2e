/* kern.h's transpose on a GPU: B = A^H through shared memory, so that both
 * A's reads and B's writes are coalesced (a 32 x 32 block per thread block,
 * read by columns of A and written by columns of B). */
#include "check.cuh"
#include "scalar.cuh"

namespace
{

constexpr int TR_TILE = 32, TR_ROWS = 8;

/* Each thread block moves the TR_TILE x TR_TILE blocks of A at (bi, bj) for
 * bi = blockIdx.x, bj = blockIdx.y + k gridDim.y (grids have at most 65535
 * rows); a thread handles TR_TILE / TR_ROWS elements of a block. */
template <class T>
__global__ void conj_transpose(int64_t m, int64_t n, const T *A, int64_t lda, T *B, int64_t ldb)
{
    __shared__ T tile[TR_TILE][TR_TILE + 1];
    const int64_t i0 = (int64_t)blockIdx.x * TR_TILE;
    for (int64_t j0 = (int64_t)blockIdx.y * TR_TILE; j0 < n; j0 += (int64_t)gridDim.y * TR_TILE) {
        for (int r = threadIdx.y; r < TR_TILE; r += TR_ROWS) {
            const int64_t i = i0 + threadIdx.x, j = j0 + r;
            if (i < m && j < n)
                tile[r][threadIdx.x] = kconj(A[i + j * lda]);
        }
        __syncthreads();
        for (int r = threadIdx.y; r < TR_TILE; r += TR_ROWS) {
            const int64_t j = j0 + threadIdx.x, i = i0 + r;
            if (i < m && j < n)
                B[j + i * ldb] = tile[threadIdx.x][r];
        }
        __syncthreads();
    }
}

} // namespace

extern "C" int kern_cuda_transpose(kern_type_t t, cudaStream_t s, int64_t m, int64_t n,
                                   const void *A, int64_t lda, void *B, int64_t ldb)
{
    if (m == 0 || n == 0)
        return 0;
    return kern_by_type(t, [&](auto z) -> int {
        using T = decltype(z);
        const dim3 grid((unsigned)kern_cdiv64(m, TR_TILE),
                        (unsigned)kern_min64(kern_cdiv64(n, TR_TILE), 65535));
        return kern_launch(conj_transpose<T>, grid, dim3(TR_TILE, TR_ROWS), 0, s, KERN_LAUNCH_PLAIN,
                           m, n, static_cast<const T *>(A), lda, static_cast<T *>(B), ldb);
    });
}
