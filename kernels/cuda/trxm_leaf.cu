/* In-place triangular solve and multiply on a diagonal block of at most 64.
 *
 * Side left works on the columns of B, side right on its rows: a row b of B
 * with b op(A) is the column op(A)^T b^T, so both sides become the same
 * problem, v := T^-1 v or v := T v for each vector v, with T = op(A) (left)
 * or op(A)^T (right).  The block stages T once in shared memory, already
 * transposed and conjugated as needed, with zeros outside the triangle, so
 * the inner loops read it down columns (no bank conflicts) and never branch
 * on the case.  One warp owns one vector, kept in registers: lane l holds
 * elements l, l+32, ...; each step broadcasts the element just finished with a
 * shuffle and updates the others.  On side right the rows of B pass through
 * shared memory a few at a time, so that B is read and written in coalesced
 * column segments rather than one element per row.  A block of size k < NB
 * is padded to NB with an identity (solve) or zeros (multiply); padded
 * elements are never read from or written to B. */
#include "check.cuh"
#include "scalar.cuh"
#include "trxm_leaf.cuh"

namespace {

constexpr int LEAF_WARPS = 8;

/* Which loop runs: forward or backward solve, lower or upper product. */
enum leaf_op { SOLVE_LOWER, SOLVE_UPPER, MUL_LOWER, MUL_UPPER };

template <class T> struct leaf_args {
    const T *A;
    T *B;
    int64_t lda, ldb, nvec;
    T alpha;
    int k;
    int vec_per_warp;
    bool left;   /* vectors are columns of B (else rows) */
    bool tr;     /* T(i,j) = A(j,i) (else A(i,j)) */
    bool cj;     /* conjugate A's elements */
    bool unit;   /* unit diagonal: A's diagonal is not read */
};

/* v := T^-1 v (solve) or v := T v, for the vector whose element lane + 32 r
 * this lane holds in x[r]; T staged in sT, its inverse diagonal in sdinv. */
template <class T, int NB, leaf_op OP>
__device__ __forceinline__ void leaf_vector(T (&x)[NB / 32], const T *sT, const T *sdinv,
                                            int lane)
{
    constexpr int LDS = NB + 1, R = NB / 32;
    constexpr bool LOWER = OP == SOLVE_LOWER || OP == MUL_LOWER;
    if (OP == SOLVE_LOWER || OP == SOLVE_UPPER) {
        /* x_j = x_j / T(j,j), then x_i -= T(i,j) x_j below (lower) or above
         * (upper) j; groups of 32 rows with nothing left to update are
         * skipped at compile time. */
#pragma unroll
        for (int s = 0; s < NB; s++) {
            const int j = LOWER ? s : NB - 1 - s;
            const T xj = kmul(kshfl(x[j / 32], j % 32), sdinv[j]);
            if (lane == j % 32)
                x[j / 32] = xj;
#pragma unroll
            for (int r = 0; r < R; r++)
                if (LOWER ? 32 * r + 31 > j : 32 * r < j)
                    x[r] = kfms(sT[lane + 32 * r + j * LDS], xj, x[r]);
        }
    } else {
        T y[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            y[r] = kzero<T>();
#pragma unroll
        for (int j = 0; j < NB; j++) {
            const T xj = kshfl(x[j / 32], j % 32);
#pragma unroll
            for (int r = 0; r < R; r++)
                if (LOWER ? 32 * r + 31 >= j : 32 * r <= j)
                    y[r] = kfma(sT[lane + 32 * r + j * LDS], xj, y[r]);
        }
#pragma unroll
        for (int r = 0; r < R; r++)
            x[r] = y[r];
    }
}

/* Rows of B staged per round on side right (one 128-byte line of a column
 * for double), so that B is read and written down its columns. */
template <class T> __host__ __device__ constexpr int leaf_rows()
{
    return 128 / (int)sizeof(T);
}

template <class T, int NB, leaf_op OP, bool LEFT>
__global__ void __launch_bounds__(LEAF_WARPS * 32) trxm_leaf_kernel(leaf_args<T> a)
{
    constexpr int LDS = NB + 1; /* keeps the transposed stores conflict-free */
    constexpr int R = NB / 32;  /* elements of a vector per lane */
    constexpr int RT = LEFT ? 1 : leaf_rows<T>();
    constexpr bool LOWER = OP == SOLVE_LOWER || OP == MUL_LOWER;
    constexpr bool SOLVE = OP == SOLVE_LOWER || OP == SOLVE_UPPER;
    __shared__ T sT[NB * LDS];
    __shared__ T sdinv[NB];
    __shared__ T sB[RT * LDS]; /* side right: RT rows of B */

    /* Stage T: read A coalesced down its columns, store T(i,j) at sT[i + j*LDS]. */
    for (int idx = threadIdx.x; idx < NB * NB; idx += blockDim.x) {
        const int p = idx % NB, q = idx / NB; /* A(p, q) */
        const int i = a.tr ? q : p, j = a.tr ? p : q;
        const bool inside = p < a.k && q < a.k;
        T v = kzero<T>();
        if (i == j) {
            T d = (inside && !a.unit) ? a.A[p + (int64_t)q * a.lda] : kone<T>();
            if (a.cj)
                d = kconj(d);
            if (SOLVE)
                sdinv[i] = kinv(d); /* the diagonal of T stays 0 in sT */
            else if (inside)
                v = d;
        } else if (inside && (LOWER ? i > j : i < j)) {
            v = a.A[p + (int64_t)q * a.lda];
            if (a.cj)
                v = kconj(v);
        }
        sT[i + j * LDS] = v;
    }
    __syncthreads();

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t first = (int64_t)blockIdx.x * LEAF_WARPS * a.vec_per_warp;
    const int64_t last = kern_min64(a.nvec, first + (int64_t)LEAF_WARPS * a.vec_per_warp);
    T x[R];
    if constexpr (LEFT) {
        /* one warp per column of B, read and written in place */
        for (int64_t vec = first + warp; vec < last; vec += LEAF_WARPS) {
            T *b = a.B + vec * a.ldb;
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int i = lane + 32 * r;
                x[r] = i < a.k ? b[i] : kzero<T>();
                if (SOLVE)
                    x[r] = kmul(a.alpha, x[r]);
            }
            leaf_vector<T, NB, OP>(x, sT, sdinv, lane);
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int i = lane + 32 * r;
                if (i < a.k)
                    b[i] = SOLVE ? x[r] : kmul(a.alpha, x[r]);
            }
        }
    } else {
        /* one warp per row of B: RT rows at a time go through shared memory, so
         * that global memory is read and written down the columns */
        for (int64_t row0 = first; row0 < last; row0 += RT) {
            const int rows = (int)kern_min64(RT, last - row0);
            for (int idx = threadIdx.x; idx < RT * a.k; idx += blockDim.x) {
                const int rr = idx % RT, c = idx / RT;
                if (rr < rows)
                    sB[rr * LDS + c] = a.B[row0 + rr + (int64_t)c * a.ldb];
            }
            __syncthreads();
            for (int rr = warp; rr < rows; rr += LEAF_WARPS) {
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r;
                    x[r] = i < a.k ? sB[rr * LDS + i] : kzero<T>();
                    if (SOLVE)
                        x[r] = kmul(a.alpha, x[r]);
                }
                leaf_vector<T, NB, OP>(x, sT, sdinv, lane);
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r;
                    if (i < a.k)
                        sB[rr * LDS + i] = SOLVE ? x[r] : kmul(a.alpha, x[r]);
                }
            }
            __syncthreads();
            for (int idx = threadIdx.x; idx < RT * a.k; idx += blockDim.x) {
                const int rr = idx % RT, c = idx / RT;
                if (rr < rows)
                    a.B[row0 + rr + (int64_t)c * a.ldb] = sB[rr * LDS + c];
            }
            __syncthreads(); /* sB is refilled next round */
        }
    }
}

template <class T, int NB, leaf_op OP>
void leaf_launch(dim3 grid, cudaStream_t s, const leaf_args<T> &a)
{
    if (a.left)
        trxm_leaf_kernel<T, NB, OP, true><<<grid, LEAF_WARPS * 32, 0, s>>>(a);
    else
        trxm_leaf_kernel<T, NB, OP, false><<<grid, LEAF_WARPS * 32, 0, s>>>(a);
}

} // namespace

template <class T>
int kern_trxm_leaf(cudaStream_t s, bool solve, tess_side_t side, tess_uplo_t uplo,
                   tess_trans_t trans, tess_diag_t diag, int64_t k, int64_t nvec, T alpha,
                   const T *A, int64_t lda, T *B, int64_t ldb)
{
    constexpr int NB = kern_leaf_nb<T>();
    if (k <= 0 || nvec <= 0)
        return 0;
    leaf_args<T> a;
    a.A = A;
    a.B = B;
    a.lda = lda;
    a.ldb = ldb;
    a.nvec = nvec;
    a.alpha = alpha;
    a.k = (int)k;
    a.left = side == TessLeft;
    a.tr = a.left ? trans != TessNoTrans : trans == TessNoTrans;
    a.cj = trans == TessConjTrans;
    a.unit = diag == TessUnit;
    const bool lower = (uplo == TessLower) != a.tr; /* is T lower triangular */

    /* Several vectors per warp amortise staging T, as long as about four
     * blocks per multiprocessor remain to hide the latency of the solve. */
    int nsm;
    int err = kern_sm_count(&nsm);
    if (err)
        return err;
    a.vec_per_warp = (int)kern_max64(1, kern_min64(8, nvec / ((int64_t)LEAF_WARPS * 4 * nsm)));
    /* side right works in rounds of leaf_rows<T>() rows: keep blocks whole rounds */
    if (!a.left)
        a.vec_per_warp = (int)kern_cdiv64((int64_t)a.vec_per_warp * LEAF_WARPS, leaf_rows<T>()) *
                         leaf_rows<T>() / LEAF_WARPS;
    const int64_t per_block = (int64_t)LEAF_WARPS * a.vec_per_warp;
    const dim3 grid((unsigned)kern_cdiv64(nvec, per_block));

    if (solve && lower)
        leaf_launch<T, NB, SOLVE_LOWER>(grid, s, a);
    else if (solve)
        leaf_launch<T, NB, SOLVE_UPPER>(grid, s, a);
    else if (lower)
        leaf_launch<T, NB, MUL_LOWER>(grid, s, a);
    else
        leaf_launch<T, NB, MUL_UPPER>(grid, s, a);
    KERN_LAUNCH_CHECK();
    return 0;
}

#define KERN_LEAF_INSTANCE(T)                                                                      \
    template int kern_trxm_leaf<T>(cudaStream_t, bool, tess_side_t, tess_uplo_t, tess_trans_t,     \
                                   tess_diag_t, int64_t, int64_t, T, const T *, int64_t, T *,     \
                                   int64_t);
KERN_LEAF_INSTANCE(float)
KERN_LEAF_INSTANCE(double)
KERN_LEAF_INSTANCE(cuComplex)
KERN_LEAF_INSTANCE(cuDoubleComplex)
