/* In-place triangular solve and multiply on a diagonal block of at most 64.
 *
 * Side left works on the columns of B, side right on its rows: a row b of B
 * with b op(A) is the column op(A)^T b^T, so both sides become the same
 * problem, v := T^-1 v or v := T v for each vector v, with T = op(A) (left)
 * or op(A)^T (right).  The block stages T once in shared memory, already
 * transposed and conjugated as needed, with zeros outside the triangle, so
 * the inner loops read it down columns (no bank conflicts) and never branch
 * on the case.  One warp owns a vector, kept in registers: lane l holds
 * elements l, l+32, ...; each step broadcasts the element just finished with a
 * shuffle and updates the others.  The solve is a chain of dependent steps,
 * so each warp carries two vectors through it at once, and the grid holds
 * just as many blocks as fit on the device at one time, each looping over
 * its share of vectors (T is staged once per block, not once per vector).
 * On side right the rows of B pass through shared memory 16 at a time, so
 * that B is read and written in coalesced column segments rather than one
 * element per row.  A block of size k < NB is padded to NB with an identity
 * (solve) or zeros (multiply); padded elements are never read from or
 * written to B.
 *
 * TESS_KVARIANT_TRXM=thread (kvariant.cuh) selects a second design, one
 * thread per vector (trxm_leaf_tpv_kernel): the warp design reads all of T
 * from shared memory once per pair of vectors and shuffles each finished
 * element, which makes it bound by shared-memory bandwidth and shuffles
 * (about 32 us for 64 x 16384 on an H200, against 4 us to move B); a thread
 * that holds its whole vector reads each element of T as a broadcast that
 * serves 32 vectors, and needs no shuffle. */
#include "check.cuh"
#include "kvariant.cuh"
#include "scalar.cuh"
#include "trxm_leaf.cuh"

namespace {

constexpr int LEAF_WARPS = 8;
constexpr int V = 2;                  /* vectors per warp at a time */
constexpr int RT = LEAF_WARPS * V;    /* rows of B per round, side right */
constexpr int TV_WARPS = 2;           /* thread-per-vector design: warps per block */
constexpr int TV_RP = 16;             /* rows of B per pass through shared memory */

/* Which loop runs: forward or backward solve, lower or upper product. */
enum leaf_op { SOLVE_LOWER, SOLVE_UPPER, MUL_LOWER, MUL_UPPER };

template <class T> struct leaf_args {
    const T *A;
    T *B;
    int64_t lda, ldb, nvec;
    T alpha;
    int k;
    bool tr;     /* T(i,j) = A(j,i) (else A(i,j)) */
    bool cj;     /* conjugate A's elements */
    bool unit;   /* unit diagonal: A's diagonal is not read */
};

/* x[v] := T^-1 x[v] (solve) or T x[v] for the V vectors of this warp; lane
 * holds element lane + 32 r of vector v in x[v][r]. */
template <class T, int NB, leaf_op OP>
__device__ __forceinline__ void leaf_vectors(T (&x)[V][NB / 32], const T *sT, const T *sdinv,
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
            const T d = sdinv[j];
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T xj = kmul(kshfl(x[v][j / 32], j % 32), d);
                if (lane == j % 32)
                    x[v][j / 32] = xj;
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (LOWER ? 32 * r + 31 > j : 32 * r < j)
                        x[v][r] = kfms(sT[lane + 32 * r + j * LDS], xj, x[v][r]);
            }
        }
    } else {
        T y[V][R];
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                y[v][r] = kzero<T>();
#pragma unroll
        for (int j = 0; j < NB; j++)
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T xj = kshfl(x[v][j / 32], j % 32);
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (LOWER ? 32 * r + 31 >= j : 32 * r <= j)
                        y[v][r] = kfma(sT[lane + 32 * r + j * LDS], xj, y[v][r]);
            }
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                x[v][r] = y[v][r];
    }
}

/* Stage T in shared memory, T(i,j) at sT[i + j*LDS], by NT threads: all of
 * a thread's reads of A in a batch (up to 16) are issued before the first
 * store; A is read down its columns. */
template <class T, int NB, int LDS, leaf_op OP, int NT>
__device__ __forceinline__ void stage_triangle(const leaf_args<T> &a, T *sT, T *sdinv)
{
    constexpr bool LOWER = OP == SOLVE_LOWER || OP == MUL_LOWER;
    constexpr bool SOLVE = OP == SOLVE_LOWER || OP == SOLVE_UPPER;
    constexpr int STAGE = NB * NB / NT; /* elements of A per thread */
    constexpr int BATCH = STAGE < 16 ? STAGE : 16;
    static_assert(NB * NB % NT == 0 && STAGE % BATCH == 0, "staging must divide evenly");
#pragma unroll
    for (int e0 = 0; e0 < STAGE; e0 += BATCH) {
        T av[BATCH];
#pragma unroll
        for (int e = 0; e < BATCH; e++) {
            const int idx = threadIdx.x + (e0 + e) * NT, p = idx % NB, q = idx / NB;
            const int i = a.tr ? q : p, j = a.tr ? p : q;
            const bool want = p < a.k && q < a.k && (i == j ? !a.unit : LOWER ? i > j : i < j);
            av[e] = want ? a.A[p + (int64_t)q * a.lda] : kzero<T>();
        }
#pragma unroll
        for (int e = 0; e < BATCH; e++) {
            const int idx = threadIdx.x + (e0 + e) * NT, p = idx % NB, q = idx / NB;
            const int i = a.tr ? q : p, j = a.tr ? p : q;
            const T v = a.cj ? kconj(av[e]) : av[e];
            if (i == j) {
                /* unit or padding: 1; the diagonal of T stays 0 in sT when solving */
                const T d = (p < a.k && !a.unit) ? v : kone<T>();
                if (SOLVE)
                    sdinv[i] = kinv(d);
                sT[i + j * LDS] = SOLVE || p >= a.k ? kzero<T>() : d;
            } else {
                sT[i + j * LDS] = v;
            }
        }
    }
}

/* Element i of vector vec: B(i, vec) on side left, B(vec, i) on side right. */
template <class T, int NB, leaf_op OP, bool LEFT>
__global__ void __launch_bounds__(LEAF_WARPS * 32) trxm_leaf_kernel(leaf_args<T> a)
{
    constexpr int LDS = NB + 1; /* keeps the transposed stores conflict-free */
    constexpr int R = NB / 32;  /* elements of a vector per lane */
    constexpr bool SOLVE = OP == SOLVE_LOWER || OP == SOLVE_UPPER;
    __shared__ T sT[NB * LDS];
    __shared__ T sdinv[NB];
    __shared__ T sB[LEFT ? 1 : RT * LDS];

    stage_triangle<T, NB, LDS, OP, LEAF_WARPS * 32>(a, sT, sdinv);
    __syncthreads();

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T x[V][R];
    if constexpr (LEFT) {
        /* warps take V columns of B at a time, read and written in place */
        const int64_t stride = (int64_t)gridDim.x * LEAF_WARPS * V;
        for (int64_t v0 = ((int64_t)blockIdx.x * LEAF_WARPS + warp) * V; v0 < a.nvec;
             v0 += stride) {
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T *b = a.B + kern_min64(v0 + v, a.nvec - 1) * a.ldb;
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r;
                    x[v][r] = i < a.k && v0 + v < a.nvec ? b[i] : kzero<T>();
                    if (SOLVE)
                        x[v][r] = kmul(a.alpha, x[v][r]);
                }
            }
            leaf_vectors<T, NB, OP>(x, sT, sdinv, lane);
#pragma unroll
            for (int v = 0; v < V; v++) {
                T *b = a.B + (v0 + v) * a.ldb;
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r;
                    if (i < a.k && v0 + v < a.nvec)
                        b[i] = SOLVE ? x[v][r] : kmul(a.alpha, x[v][r]);
                }
            }
        }
    } else {
        /* rounds of RT rows through shared memory; warp w takes rows wV.. */
        for (int64_t row0 = (int64_t)blockIdx.x * RT; row0 < a.nvec;
             row0 += (int64_t)gridDim.x * RT) {
            const int rows = (int)kern_min64(RT, a.nvec - row0);
            for (int idx = threadIdx.x; idx < RT * a.k; idx += blockDim.x) {
                const int rr = idx % RT, c = idx / RT;
                if (rr < rows)
                    sB[rr * LDS + c] = a.B[row0 + rr + (int64_t)c * a.ldb];
            }
            __syncthreads();
#pragma unroll
            for (int v = 0; v < V; v++)
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r, rr = warp * V + v;
                    x[v][r] = i < a.k && rr < rows ? sB[rr * LDS + i] : kzero<T>();
                    if (SOLVE)
                        x[v][r] = kmul(a.alpha, x[v][r]);
                }
            leaf_vectors<T, NB, OP>(x, sT, sdinv, lane);
#pragma unroll
            for (int v = 0; v < V; v++)
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r, rr = warp * V + v;
                    if (i < a.k && rr < rows)
                        sB[rr * LDS + i] = SOLVE ? x[v][r] : kmul(a.alpha, x[v][r]);
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

/* x := T^-1 x (solve) or T x for one vector held whole by this thread; every
 * element of T is read as a broadcast, so one read serves the warp's 32
 * vectors.  The products run in place: lower from the last row up, upper
 * from the first row down, so that each row reads elements not yet
 * overwritten. */
template <class T, int NB, leaf_op OP>
__device__ __forceinline__ void leaf_thread_vector(T (&x)[NB], const T *sT, const T *sdinv)
{
    if (OP == SOLVE_LOWER) {
#pragma unroll
        for (int j = 0; j < NB; j++) {
            x[j] = kmul(x[j], sdinv[j]);
#pragma unroll
            for (int i = j + 1; i < NB; i++)
                x[i] = kfms(sT[i + j * NB], x[j], x[i]);
        }
    } else if (OP == SOLVE_UPPER) {
#pragma unroll
        for (int j = NB - 1; j >= 0; j--) {
            x[j] = kmul(x[j], sdinv[j]);
#pragma unroll
            for (int i = 0; i < j; i++)
                x[i] = kfms(sT[i + j * NB], x[j], x[i]);
        }
    } else if (OP == MUL_LOWER) {
#pragma unroll
        for (int i = NB - 1; i >= 0; i--) {
            T acc = kzero<T>();
#pragma unroll
            for (int j = 0; j <= i; j++)
                acc = kfma(sT[i + j * NB], x[j], acc);
            x[i] = acc;
        }
    } else {
#pragma unroll
        for (int i = 0; i < NB; i++) {
            T acc = kzero<T>();
#pragma unroll
            for (int j = i; j < NB; j++)
                acc = kfma(sT[i + j * NB], x[j], acc);
            x[i] = acc;
        }
    }
}

/* One thread per vector, TV_WARPS warps per block, each warp taking 32
 * vectors at a time.  Side right: lane l holds row v0 + l of B, and the
 * warp's reads of a column of B are contiguous.  Side left: lane l holds
 * column v0 + l, so its elements pass through shared memory TV_RP rows at a
 * time, read and written by the warp in 128-byte column segments. */
template <class T, int NB, leaf_op OP, bool LEFT>
__global__ void __launch_bounds__(TV_WARPS * 32, 1) trxm_leaf_tpv_kernel(leaf_args<T> a)
{
    constexpr bool SOLVE = OP == SOLVE_LOWER || OP == SOLVE_UPPER;
    constexpr int LDB = TV_RP + 1; /* odd: conflict-free by lane in both directions */
    constexpr int CPI = 32 / TV_RP; /* columns a warp reads per instruction, side left */
    static_assert(NB % TV_RP == 0 && 32 % TV_RP == 0, "passes must divide the leaf");
    __shared__ __align__(16) T sT[NB * NB];
    __shared__ T sdinv[NB];
    __shared__ T sB[LEFT ? TV_WARPS * 32 * LDB : 1];

    stage_triangle<T, NB, NB, OP, TV_WARPS * 32>(a, sT, sdinv);
    __syncthreads();

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T *sw = sB + (LEFT ? warp * 32 * LDB : 0);
    const int64_t stride = (int64_t)gridDim.x * TV_WARPS * 32;
    for (int64_t v0 = ((int64_t)blockIdx.x * TV_WARPS + warp) * 32; v0 < a.nvec; v0 += stride) {
        /* keeps the compiler from hoisting T's shared-memory reads out of
         * the loop: NB^2/2 loop invariants would all spill */
        asm volatile("" ::: "memory");
        const int64_t vec = v0 + lane;
        T x[NB];
        if constexpr (LEFT) {
#pragma unroll
            for (int p = 0; p < NB / TV_RP; p++) {
#pragma unroll
                for (int c = 0; c < TV_RP; c++) {
                    const int cc = c * CPI + lane / TV_RP, r = lane % TV_RP;
                    const int i = p * TV_RP + r;
                    const int64_t col = v0 + cc;
                    sw[cc * LDB + r] = i < a.k && col < a.nvec ? a.B[i + col * a.ldb]
                                                               : kzero<T>();
                }
                __syncwarp();
#pragma unroll
                for (int r = 0; r < TV_RP; r++)
                    x[p * TV_RP + r] = sw[lane * LDB + r];
                __syncwarp(); /* sw is refilled by the next pass */
            }
        } else {
            /* a walking pointer: 64-bit addresses of all NB elements kept
             * for the stores would not leave registers for x */
            const T *b = a.B + kern_min64(vec, a.nvec - 1);
#pragma unroll
            for (int i = 0; i < NB; i++, b += a.ldb)
                x[i] = i < a.k && vec < a.nvec ? *b : kzero<T>();
        }
#pragma unroll
        for (int i = 0; i < NB; i++)
            if (SOLVE)
                x[i] = kmul(a.alpha, x[i]);
        leaf_thread_vector<T, NB, OP>(x, sT, sdinv);
#pragma unroll
        for (int i = 0; i < NB; i++)
            if (!SOLVE)
                x[i] = kmul(a.alpha, x[i]);
        if constexpr (LEFT) {
#pragma unroll
            for (int p = 0; p < NB / TV_RP; p++) {
#pragma unroll
                for (int r = 0; r < TV_RP; r++)
                    sw[lane * LDB + r] = x[p * TV_RP + r];
                __syncwarp();
#pragma unroll
                for (int c = 0; c < TV_RP; c++) {
                    const int cc = c * CPI + lane / TV_RP, r = lane % TV_RP;
                    const int i = p * TV_RP + r;
                    const int64_t col = v0 + cc;
                    if (i < a.k && col < a.nvec)
                        a.B[i + col * a.ldb] = sw[cc * LDB + r];
                }
                __syncwarp(); /* sw is refilled by the next pass */
            }
        } else if (vec < a.nvec) {
            T *b = a.B + vec;
#pragma unroll
            for (int i = 0; i < NB; i++, b += a.ldb)
                if (i < a.k)
                    *b = x[i];
        }
    }
}

/* As many blocks as the device holds at once (never more than there is
 * work for); the occupancy is asked once per kernel.  TPV: the
 * thread-per-vector kernel, else the warp one. */
template <class T, int NB, leaf_op OP, bool LEFT, bool TPV>
int leaf_launch(cudaStream_t s, const leaf_args<T> &a)
{
    constexpr int threads = TPV ? TV_WARPS * 32 : LEAF_WARPS * 32;
    constexpr int per_round = TPV ? TV_WARPS * 32 : RT; /* vectors a block takes at once */
    void (*const kernel)(leaf_args<T>) =
        TPV ? trxm_leaf_tpv_kernel<T, NB, OP, LEFT> : trxm_leaf_kernel<T, NB, OP, LEFT>;
    static const int per_sm = [kernel] {
        int o = 0;
        const bool ok =
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o, kernel, threads, 0) == cudaSuccess;
        return ok && o > 0 ? o : 1;
    }();
    int nsm;
    int err = kern_sm_count(&nsm);
    if (err)
        return err;
    const int64_t blocks = kern_min64((int64_t)per_sm * nsm, kern_cdiv64(a.nvec, per_round));
    kernel<<<(unsigned)blocks, threads, 0, s>>>(a);
    KERN_LAUNCH_CHECK();
    return 0;
}

template <class T, int NB, leaf_op OP>
int leaf_launch_side(bool left, bool tpv, cudaStream_t s, const leaf_args<T> &a)
{
    if (tpv)
        return left ? leaf_launch<T, NB, OP, true, true>(s, a)
                    : leaf_launch<T, NB, OP, false, true>(s, a);
    return left ? leaf_launch<T, NB, OP, true, false>(s, a)
                : leaf_launch<T, NB, OP, false, false>(s, a);
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
    const bool left = side == TessLeft;
    leaf_args<T> a;
    a.A = A;
    a.B = B;
    a.lda = lda;
    a.ldb = ldb;
    a.nvec = nvec;
    a.alpha = alpha;
    a.k = (int)k;
    a.tr = left ? trans != TessNoTrans : trans == TessNoTrans;
    a.cj = trans == TessConjTrans;
    a.unit = diag == TessUnit;
    const bool lower = (uplo == TessLower) != a.tr; /* is T lower triangular */
    static const char *const names[] = {"warp", "thread"};
    static const bool tpv = kern_variant("TESS_KVARIANT_TRXM", names) == 1;
    if (solve)
        return lower ? leaf_launch_side<T, NB, SOLVE_LOWER>(left, tpv, s, a)
                     : leaf_launch_side<T, NB, SOLVE_UPPER>(left, tpv, s, a);
    return lower ? leaf_launch_side<T, NB, MUL_LOWER>(left, tpv, s, a)
                 : leaf_launch_side<T, NB, MUL_UPPER>(left, tpv, s, a);
}

#define KERN_LEAF_INSTANCE(T)                                                                      \
    template int kern_trxm_leaf<T>(cudaStream_t, bool, tess_side_t, tess_uplo_t, tess_trans_t,     \
                                   tess_diag_t, int64_t, int64_t, T, const T *, int64_t, T *,     \
                                   int64_t);
KERN_LEAF_INSTANCE(float)
KERN_LEAF_INSTANCE(double)
KERN_LEAF_INSTANCE(cuComplex)
KERN_LEAF_INSTANCE(cuDoubleComplex)
