/* In-place triangular solve and multiply on a diagonal block of at most
 * kern_leaf_max<T>() rows, in sub-blocks of NB = kern_leaf_nb<T>().
 *
 * Side left works on the columns of B, side right on its rows: a row b of B
 * with b op(A) is the column op(A)^T b^T, so both sides become the same
 * problem, v := T^-1 v or v := T v for each vector v, with T = op(A) (left)
 * or op(A)^T (right).  T's NB x NB tiles pass through shared memory already
 * transposed and conjugated as needed, with zeros outside the triangle, so
 * the inner loops read them down columns (no bank conflicts) and never branch
 * on the case.  The grid holds just as many blocks as fit on the device at
 * one time, each looping over its share of vectors.  Elements past k are
 * padding (an identity when solving, zeros when multiplying) and are never
 * read from or written to B.
 *
 * Solve: one warp owns V vectors, kept in registers: lane l holds elements
 * l, l+32, ...; each step broadcasts an element to the warp through shared
 * memory (warp_bcast) and updates the others.  On side right the rows of B
 * pass through shared memory RT at a time, so that B is read and written in
 * coalesced column segments rather than one element per row.
 *
 * Where a solve with few vectors spends its time (DTRSM m = 16384 with 1024
 * right-hand sides on an H200, CUPTI and timers in the kernel, 2026-11-23,
 * fourth session): of 6.5 ms, 5.1 in the cuBLAS products, 1.3 in the 128
 * leaves (10.1 us each: 4.1 staging T, about 5 for the vectors, bound by
 * the multiprocessor's shared-memory reads and shuffles, not by the chain
 * of dependent steps), 0.2 between launches.  Taking the steps four at a
 * time (shorter chain, same reads) and rolling the step loops (less code)
 * changed nothing measurable and were dropped.
 *
 * Multiply has no chain of dependent steps, so it is a small product: panels
 * of vectors pass through shared memory, each warp computes T x for VM (8,
 * or 1 with few vectors) of them, lane l rows l, l+32, ..., reading each
 * element of T once for its VM vectors and the elements of x as broadcasts.
 * On an H200 the 128 leaves of DTRMM 16384^2 took 5.5 ms this way against
 * 7.9 ms with the solve's shuffles, and the whole call 83.0 against 88.2 ms
 * (probe of 2026-11-23, third session).
 *
 * The recursion's leaf was a block of one tile (NBLK = 1), each warp carrying
 * two vectors through the chain of dependent steps at once.  It is bound by
 * shared-memory reads and shuffles (about 32 us for 64 x 16384 on an H200,
 * against 4 us to move B).  A thread-per-vector leaf (T read as broadcasts,
 * no shuffles) lost everywhere but the side-right leaf: DTRSM m=16384,
 * n=64/256/1024 at 0.63x/0.68x/0.74x cuBLAS against 1.73x/1.55x/1.30x for
 * this one (H200, BENCHMARKS.md, sweep of 2026-11-23).
 *
 * With few vectors the recursion's bottom level is bound by launches, not by
 * the device: on an H200, DTRSM m = 16384 with 1024 right-hand sides spent
 * 1.9 ms in 224 cuBLAS products with k <= 256 (8.5 us of host time each, the
 * device idle in between) and 2.1 ms in 256 leaves.  A block of NBLK = 2
 * tiles finishes the bottom level in one launch: its three tiles stay in
 * shared memory, and for each sub-block c in dependency order, acc = T(c,b)
 * x_b for the sub-block b it depends on, then x_c := T(c,c)^-1 (x_c - acc).
 * Measured in one H200 run against leaves of one tile:
 * DTRSM m = 16384, n = 64 / 256 / 1024 at 1.80x / 1.66x / 1.35x cuBLAS
 * against 1.66x / 1.53x / 1.29x, 16384^2 unchanged (1.23x).  Four tiles,
 * restaged through shared memory per group of vectors (ten tiles do not fit),
 * ran at 0.85x-0.92x: the restaging, not the launches, became the cost. */
#ifndef KERN_CUDA_TRXM_LEAF_IMPL_CUH
#define KERN_CUDA_TRXM_LEAF_IMPL_CUH

#include <type_traits>

#include "check.cuh"
#include "scalar.cuh"
#include "trxm_leaf.cuh"

namespace {

constexpr int LEAF_WARPS = 8;
constexpr int THREADS = LEAF_WARPS * 32;

/* Which loop runs: forward or backward solve, lower or upper product. */
enum leaf_op { SOLVE_LOWER, SOLVE_UPPER, MUL_LOWER, MUL_UPPER };

template <leaf_op OP> __host__ __device__ constexpr bool op_lower() { return OP == SOLVE_LOWER || OP == MUL_LOWER; }
template <leaf_op OP> __host__ __device__ constexpr bool op_solve() { return OP == SOLVE_LOWER || OP == SOLVE_UPPER; }

/* V vectors a warp at a time in W of the block's warps, rows_per_round a
 * block (leaf_launch_v).  A multiply takes 8 vectors a warp, or 1 when 8
 * would leave multiprocessors without a block: with few vectors it wants the
 * blocks more than the reuse of T (DTRMM m = 16384 with 64 / 256 / 1024 took
 * 2.27 / 3.10 / 6.41 ms against 3.44 / 4.28 / 7.58 with 8 a warp, 16384^2
 * 84.0 against 83.9; H200, 2026-11-23, third session).
 *
 * A solve takes 4 vectors a warp in every warp when that leaves no
 * multiprocessor without a block, else 2, or 2 in half of the warps, so that
 * there are as many blocks as with one vector a warp.  A block is bound by
 * its multiprocessor's shared-memory traffic (each warp reads the whole
 * triangle of T for its vectors, and broadcasts each element as it is
 * solved), and more vectors a warp share the reads: with shuffles for the
 * broadcasts, the two-tile leaf over 16384 vectors took 49.9 us with 4 a
 * warp against 59.0 with 2 in one run (DTRSM L/L/N; 3 a warp, 57.0), but
 * over 1024 vectors 21.4 against 16.1 when 4 a warp left blocks out (H200,
 * 2026-11-23, sixth session, the leaf alone).  Side right passes the rows of
 * B through shared memory rows_per_round at a time. */
template <int V, int W = LEAF_WARPS> __host__ __device__ constexpr int rows_per_round()
{
    return W * V;
}

/* Tiles of a block of NBLK sub-blocks, its triangle of tiles, and where
 * tile (c, b) sits among them (b <= c when T is lower, b >= c when upper). */
template <int NBLK> __host__ __device__ constexpr int block_tiles() { return NBLK * (NBLK + 1) / 2; }
template <int NBLK, bool LOWER> __device__ __forceinline__ int tile_slot(int c, int b)
{
    if (!LOWER) {
        c = NBLK - 1 - c;
        b = NBLK - 1 - b;
    }
    return c * (c + 1) / 2 + b;
}

/* Is tile (c, b) in the triangle of tiles.  A block always has all NBLK
 * sub-blocks: the one-tile kernel takes k <= NB and the two-tile one
 * NB < k <= 2 NB (leaf_launch_case). */
template <bool LOWER> __host__ __device__ constexpr bool tile_in_block(int c, int b)
{
    return LOWER ? b <= c : b >= c;
}

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

/* Where this thread's elements of tile (c, b) of T (rows c NB.., columns
 * b NB..) come from in A and go to in sT, T(i,j) at sT[i + j (NB+1)]: it
 * reads A(ar + p, ac + q0 + QSTEP e) through one pointer and one stride,
 * which keeps the compiler from holding an address per element. */
template <class T, int NB> struct tile_map {
    static constexpr int LDS = NB + 1, STAGE = NB * NB / THREADS, QSTEP = THREADS / NB;
    bool tr;
    int ar, ac, p, q0;
    __device__ __forceinline__ tile_map(const leaf_args<T> &a, int c, int b)
        : tr(a.tr), ar(a.tr ? b * NB : c * NB), ac(a.tr ? c * NB : b * NB),
          p(threadIdx.x % NB), q0(threadIdx.x / NB)
    {
    }
    /* element e's row and column in the tile of T */
    __device__ __forceinline__ int row(int e) const { return tr ? q0 + QSTEP * e : p; }
    __device__ __forceinline__ int col(int e) const { return tr ? p : q0 + QSTEP * e; }
};

/* Issues this thread's reads of tile (c, b) of T into av, zeros outside
 * the matrix and, on a diagonal tile, outside the triangle and on a unit
 * diagonal or when solving. */
template <class T, int NB, leaf_op OP>
__device__ __forceinline__ void load_tile(const leaf_args<T> &a, int c, int b,
                                          T (&av)[tile_map<T, NB>::STAGE])
{
    using M = tile_map<T, NB>;
    constexpr bool LOWER = op_lower<OP>(), SOLVE = op_solve<OP>();
    const M t(a, c, b);
    const T *src = a.A + t.ar + t.p + (int64_t)(t.ac + t.q0) * a.lda;
    const int64_t src_step = (int64_t)M::QSTEP * a.lda;
#pragma unroll
    for (int e = 0; e < M::STAGE; e++) {
        const int i = t.row(e), j = t.col(e);
        const bool inside = t.ar + t.p < a.k && t.ac + t.q0 + M::QSTEP * e < a.k;
        /* a solve's diagonal comes from load_diagonal */
        const bool want =
            inside && (c != b || (i == j ? !a.unit && !SOLVE : LOWER ? i > j : i < j));
        av[e] = want ? src[e * src_step] : kzero<T>();
    }
}

/* When solving, 1 / T(i,i) for the block's rows i < NBLK NB into sdinv (1
 * on a unit diagonal and in the padding), read from A by the first threads
 * along with the tiles, so that staging waits for memory once. */
template <class T, int NB, int NBLK>
__device__ __forceinline__ void load_diagonal(const leaf_args<T> &a, T *sdinv)
{
    static_assert(NBLK * NB <= THREADS, "a thread for each diagonal element");
    const int i = threadIdx.x;
    if (i >= NBLK * NB)
        return;
    const T d = i < a.k && !a.unit ? a.A[i + (int64_t)i * a.lda] : kone<T>();
    sdinv[i] = kinv(a.cj ? kconj(d) : d);
}

/* The loaded tile (c, b) into shared memory, its element (i, j) at
 * dst[at(i, j)].  A diagonal tile keeps its triangle; when solving, its
 * columns are divided by their diagonal element (times sdinv, which must be
 * visible to this thread) and its diagonal is zero, for tile_vectors; when
 * multiplying, its padding diagonal is zero. */
template <class T, int NB, leaf_op OP, class At>
__device__ __forceinline__ void store_tile(const leaf_args<T> &a, int c, int b,
                                           const T (&av)[tile_map<T, NB>::STAGE], T *dst, At at,
                                           const T *sdinv)
{
    using M = tile_map<T, NB>;
    constexpr bool SOLVE = op_solve<OP>();
    const M t(a, c, b);
    const bool diag = c == b;
#pragma unroll
    for (int e = 0; e < M::STAGE; e++) {
        const int i = t.row(e), j = t.col(e);
        const T v = a.cj ? kconj(av[e]) : av[e];
        T out = v;
        if (diag && i == j) {
            const bool real = c * NB + i < a.k;
            out = SOLVE || !real ? kzero<T>() : a.unit ? kone<T>() : v;
        } else if (diag && SOLVE) {
            out = kmul(v, sdinv[c * NB + j]);
        }
        dst[at(i, j)] = out;
    }
}

/* out[v] = x[v] of lane src, for every lane of the warp, through the
 * warp's 2 V elements of shared memory sbc, half of them in turn (parity,
 * alternating from one call to the next): src stores its V elements and
 * every lane reads them.  A shuffle moves 4 bytes a lane, so that V doubles
 * take 2 V of them; this way V / 2 16-byte stores and as many reads.  The
 * two-tile DTRSM leaf over 16384 vectors (4 a warp) took 44.4 us this way
 * against 48.0 with shuffles, 53.4 against 59.1 on side right, and 8 vectors
 * a warp gained nothing more (44.5; with shuffles 44.9); the former leaf, 2 a
 * warp with shuffles, took 57.9 in that run (H200, 2026-11-23, sixth
 * session, the leaf alone, variants alternating in one process).  The
 * parity alternates safely because each caller's loop runs an even number
 * of steps (NB) from parity 0, so consecutive calls never share a slot. */
template <class T, int V>
__device__ __forceinline__ void warp_bcast(const T (&x)[V], int src, int lane, T *sbc,
                                           int parity, T (&out)[V])
{
    T *const slot = sbc + parity * V;
    if (lane == src) {
#pragma unroll
        for (int v = 0; v < V; v++)
            slot[v] = x[v];
    }
    __syncwarp();
#pragma unroll
    for (int v = 0; v < V; v++)
        out[v] = slot[v];
}

/* x[v] := T^-1 x[v] for one diagonal tile staged in sT with its columns
 * divided by their diagonal element (store_tile), the inverted
 * diagonal in sdinv; lane holds element lane + 32 r of vector v in x[v][r].
 * With y_j the running value of x_j, x_j = y_j / T(j,j) and the rows below
 * (lower) or above (upper) j take y_i -= (T(i,j) / T(j,j)) y_j, so that the
 * chain of dependent steps is a broadcast and a multiply-add; the division
 * comes at the end, off the chain.  Groups of 32 rows with nothing left to
 * update are skipped at compile time. */
template <class T, int NB, int V, leaf_op OP>
__device__ __forceinline__ void tile_vectors(T (&x)[V][NB / 32], const T *sT, const T *sdinv,
                                             int lane, T *sbc)
{
    constexpr int LDS = NB + 1, R = NB / 32;
    constexpr bool LOWER = op_lower<OP>();
    static_assert(NB % 2 == 0, "warp_bcast's parity starts at 0 each call");
#pragma unroll
    for (int s = 0; s < NB; s++) {
        const int j = LOWER ? s : NB - 1 - s;
        T own[V], yj[V];
#pragma unroll
        for (int v = 0; v < V; v++)
            own[v] = x[v][j / 32];
        warp_bcast<T, V>(own, j % 32, lane, sbc, s & 1, yj);
#pragma unroll
        for (int r = 0; r < R; r++)
            if (LOWER ? 32 * r + 31 > j : 32 * r < j) {
                const T t = sT[lane + 32 * r + j * LDS];
#pragma unroll
                for (int v = 0; v < V; v++)
                    x[v][r] = kfms(t, yj[v], x[v][r]);
            }
    }
#pragma unroll
    for (int v = 0; v < V; v++)
#pragma unroll
        for (int r = 0; r < R; r++)
            x[v][r] = kmul(x[v][r], sdinv[lane + 32 * r]);
}

/* acc[v] += T(c,b) x_b[v] for the off-diagonal tile at tile, x_b final in
 * x: each lane writes its elements of x_b to the warp's slots in sbc (32 V,
 * bcast_slots), 32 columns at a time, and every step reads its column's V
 * elements there as broadcasts.  Unlike warp_bcast's, these reads wait on
 * no store of their own step, so they can be issued ahead of the
 * multiply-adds.  On an H200 the two-tile DTRSM leaf over 16384 vectors
 * took 37.0 us on side left and 45.4 on side right against 39.8 and 48.6
 * with warp_bcast here, and DTRSM L/L/N 16384^2 88.16 against 88.48 ms (13
 * rounds of alternating processes, 2026-11-23, eleventh session). */
template <class T, int NB, int V>
__device__ __forceinline__ void offdiag_vectors(const T (&xb)[V][NB / 32], const T *tile,
                                                int lane, T *sbc, T (&acc)[V][NB / 32])
{
    constexpr int LDS = NB + 1, R = NB / 32;
#pragma unroll
    for (int h = 0; h < R; h++) {
        __syncwarp(); /* the warp is done reading sbc */
#pragma unroll
        for (int v = 0; v < V; v++)
            sbc[lane * V + v] = xb[v][h];
        __syncwarp();
#pragma unroll
        for (int jj = 0; jj < 32; jj++) {
            const int j = 32 * h + jj;
            T xj[V];
#pragma unroll
            for (int v = 0; v < V; v++)
                xj[v] = sbc[jj * V + v];
#pragma unroll
            for (int r = 0; r < R; r++) {
                const T t = tile[lane + 32 * r + j * LDS];
#pragma unroll
                for (int v = 0; v < V; v++)
                    acc[v][r] = kfma(t, xj[v], acc[v][r]);
            }
        }
    }
    __syncwarp(); /* before tile_vectors' broadcasts reuse sbc */
}

/* x[v] := T^-1 x[v] over the NBLK sub-blocks, their tiles in sT: a
 * lower T walks the sub-blocks forward, an upper one backward, so that
 * every x_b that sub-block c reads is final; x_c -= T(c,b) x_b for those,
 * then x_c := T(c,c)^-1 x_c. */
template <class T, int NB, int NBLK, leaf_op OP, int V>
__device__ __forceinline__ void block_vectors(T (&x)[V][NBLK * (NB / 32)],
                                              const T *sT, const T *sdinv, int lane, T *sbc)
{
    constexpr int LDS = NB + 1, R = NB / 32;
    constexpr bool LOWER = op_lower<OP>();
#pragma unroll
    for (int s = 0; s < NBLK; s++) {
        const int c = LOWER ? s : NBLK - 1 - s;
        T acc[V][R];
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                acc[v][r] = kzero<T>();
#pragma unroll
        for (int b = 0; b < NBLK; b++) {
            if (b == c || !tile_in_block<LOWER>(c, b))
                continue;
            T xb[V][R];
#pragma unroll
            for (int v = 0; v < V; v++)
#pragma unroll
                for (int r = 0; r < R; r++)
                    xb[v][r] = x[v][b * R + r];
            offdiag_vectors<T, NB, V>(xb, sT + tile_slot<NBLK, LOWER>(c, b) * NB * LDS, lane,
                                      sbc, acc);
        }
        T xc[V][R];
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                xc[v][r] = NBLK == 1 ? x[v][c * R + r]
                                     : kfms(kone<T>(), acc[v][r], x[v][c * R + r]);
        tile_vectors<T, NB, V, OP>(xc, sT + tile_slot<NBLK, LOWER>(c, c) * NB * LDS,
                                   sdinv + c * NB, lane, sbc);
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                x[v][c * R + r] = xc[v][r];
    }
}

/* Elements from one staged vector to the next in a panel of KB-element
 * vectors (a multiply's panel, a side-right solve's round of rows): one past
 * KB, so that side right's accesses across vectors, consecutive threads on
 * consecutive vectors, fall in different banks. */
template <int KB> __host__ __device__ constexpr int panel_ld() { return KB + 1; }

/* Elements of shared memory a solve's warp broadcasts through: warp_bcast's
 * 2 V, or with two sub-blocks a column of 32 vectors' worth for
 * offdiag_vectors, which reuses warp_bcast's slots. */
template <int NBLK, int V> __host__ __device__ constexpr int bcast_slots()
{
    return NBLK > 1 ? 32 * V : 2 * V;
}

/* ... and a block's solve. */
template <leaf_op OP, int NBLK, int V, int W> __host__ __device__ constexpr int bcast_elems()
{
    return op_solve<OP>() ? bcast_slots<NBLK, V>() * W : 0;
}

/* Bytes of shared memory: the block's tiles, their inverted diagonals, the
 * solve's broadcast slots, and a panel of vectors (multiply) or on side
 * right a round of rows of B (solve). */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
constexpr size_t leaf_smem()
{
    constexpr size_t staged = op_solve<OP>() && LEFT ? 0 : rows_per_round<V, W>();
    return sizeof(T) * ((size_t)block_tiles<NBLK>() * NB * (NB + 1) + NBLK * NB +
                        bcast_elems<OP, NBLK, V, W>() + staged * panel_ld<NB * NBLK>());
}

/* Multiply: acc[v][r] = (T x_v)(lane + 32 r) for this warp's VM vectors,
 * x_v at sx + v panel_ld.  Each T(i, j) is read from shared memory once for
 * the VM vectors and x_v(j) is a broadcast, so that the loop is bound by
 * the multiply-adds rather than, as the broadcasts of the solve, by moving
 * operands.  T's columns are taken 32 at a time, each with only the groups
 * of 32 rows on the nonzero side of the diagonal, known at compile time, so
 * that the loop has no branch per row group and column (it had, and ncu
 * sampled 31% of its stalls as fixed-latency waits, H200, 2026-11-23, sixth
 * session). */
template <class T, int NB, int NBLK, bool LOWER, int VM>
__device__ __forceinline__ void mul_panel(const T *sT, const T *sx, int lane,
                                          T (&acc)[VM][NBLK * (NB / 32)])
{
    constexpr int LDS = NB + 1, KB = NB * NBLK, XR = KB / 32, LDX = panel_ld<KB>(), RPT = NB / 32;
#pragma unroll
    for (int v = 0; v < VM; v++)
#pragma unroll
        for (int r = 0; r < XR; r++)
            acc[v][r] = kzero<T>();
#pragma unroll
    for (int jc = 0; jc < XR; jc++) {
        const int b = jc / RPT; /* T's tile column */
#pragma unroll 4
        for (int jj = 0; jj < 32; jj++) {
            const int j = 32 * jc + jj;
            T xj[VM];
#pragma unroll
            for (int v = 0; v < VM; v++)
                xj[v] = sx[v * LDX + j];
#pragma unroll
            for (int r = 0; r < XR; r++) {
                if (LOWER ? r < jc : r > jc)
                    continue;
                const int c = r / RPT;
                const T t = sT[tile_slot<NBLK, LOWER>(c, b) * NB * LDS + 32 * (r - c * RPT) +
                               lane + (j - b * NB) * LDS];
#pragma unroll
                for (int v = 0; v < VM; v++)
                    acc[v][r] = kfma(t, xj[v], acc[v][r]);
            }
        }
    }
}

/* Element idx of a staged panel of P vectors of KB elements: element i of
 * vector v, taken in the order that reads and writes B in coalesced
 * segments (down its columns on side left, along its rows on side right),
 * and where that element is in B for the panel starting at vector v0. */
template <int KB, int P, bool LEFT> struct panel_elem {
    int i, v;
    __device__ __forceinline__ explicit panel_elem(int idx)
        : i(LEFT ? idx % KB : idx / P), v(LEFT ? idx / KB : idx % P)
    {
    }
    template <class T>
    __device__ __forceinline__ int64_t at(const leaf_args<T> &a, int64_t v0) const
    {
        return LEFT ? (v0 + v) * a.ldb + i : v0 + v + (int64_t)i * a.ldb;
    }
};

/* Vectors v0 .. v0 + nv - 1 of B (nv <= P) into shared memory, element i of
 * vector v at sx[v panel_ld + i], zeros past k and past nv; and back. */
template <class T, int KB, int P, bool LEFT>
__device__ __forceinline__ void load_panel(const leaf_args<T> &a, int64_t v0, int nv, T *sx)
{
    for (int idx = threadIdx.x; idx < P * KB; idx += THREADS) {
        const panel_elem<KB, P, LEFT> e(idx);
        sx[e.v * panel_ld<KB>() + e.i] = e.v < nv && e.i < a.k ? a.B[e.at(a, v0)] : kzero<T>();
    }
}

template <class T, int KB, int P, bool LEFT, int LD = panel_ld<KB>()>
__device__ __forceinline__ void store_panel(const leaf_args<T> &a, int64_t v0, int nv,
                                            const T *sx)
{
    for (int idx = threadIdx.x; idx < P * KB; idx += THREADS) {
        const panel_elem<KB, P, LEFT> e(idx);
        if (e.v < nv && e.i < a.k)
            a.B[e.at(a, v0)] = sx[e.v * LD + e.i];
    }
}

/* A multiply's panel held in registers on its way to shared memory: this
 * thread's elements threadIdx.x + THREADS e of load_panel's order, e <
 * panel_share.  From one element to the next, the vector (side left) or the
 * element of the vector (side right) steps by panel_step, so that they are
 * read through one pointer and one stride. */
template <int KB, int P> __host__ __device__ constexpr int panel_share()
{
    static_assert(P * KB % THREADS == 0, "a panel shared evenly among the threads");
    return P * KB / THREADS;
}

template <int KB, int P, bool LEFT> __host__ __device__ constexpr int panel_step()
{
    static_assert(THREADS % (LEFT ? KB : P) == 0, "each thread on one row of the panel");
    return THREADS / (LEFT ? KB : P);
}

template <class T, int KB, int P, bool LEFT>
__device__ __forceinline__ void fetch_panel(const leaf_args<T> &a, int64_t v0,
                                            T (&pf)[panel_share<KB, P>()])
{
    constexpr int STEP = panel_step<KB, P, LEFT>();
    const panel_elem<KB, P, LEFT> pe(threadIdx.x);
    const int64_t nv = a.nvec - v0;
    const T *src = a.B + pe.at(a, v0);
    const int64_t src_step = STEP * a.ldb;
#pragma unroll
    for (int e = 0; e < panel_share<KB, P>(); e++) {
        const bool inside = LEFT ? pe.v + STEP * e < nv && pe.i < a.k
                                 : pe.v < nv && pe.i + STEP * e < a.k;
        pf[e] = inside ? src[e * src_step] : kzero<T>();
    }
}

template <class T, int KB, int P, bool LEFT, int LD = panel_ld<KB>()>
__device__ __forceinline__ void put_panel(const T (&pf)[panel_share<KB, P>()], T *sx)
{
    constexpr int STEP = panel_step<KB, P, LEFT>();
    const panel_elem<KB, P, LEFT> pe(threadIdx.x);
#pragma unroll
    for (int e = 0; e < panel_share<KB, P>(); e++)
        sx[pe.v * LD + pe.i + e * (LEFT ? STEP * LD : STEP)] = pf[e];
}

/* Multiply: the block's vectors in panels of PV = LEAF_WARPS VM, each
 * multiplied from shared memory (element i of vector v at sx[v panel_ld +
 * i], zeros past k and past the last vector) and written back over itself.
 * The block's next panel is read into registers, pf, while this one is
 * multiplied (pf comes in holding the first); on side left each warp writes
 * its vectors straight from its registers, down B's columns, and on side
 * right they pass through sx to be written along B's rows.  The former
 * kernel read, multiplied and wrote each panel in turn (2.6, 11.4 and 1.8 us
 * a panel by timers in the kernel, DTRMM 16384^2's leaf, H200, fifth
 * session); this one, with mul_panel's loop, takes that leaf in 32.2 us
 * against 41.8, results bit for bit the same (the leaf alone, H200,
 * 2026-11-23, sixth session), and DTRMM 16384^2 in 91.2 / 92.4 ms against
 * 94.3 / 94.1 (bench_kernels trxm, processes alternating). */
template <class T, int NB, int NBLK, bool LOWER, bool LEFT, int VM>
__device__ __forceinline__ void mul_vectors(const leaf_args<T> &a, const T *sT, T *sx,
                                            T (&pf)[panel_share<NB * NBLK, rows_per_round<VM>()>()])
{
    constexpr int PV = rows_per_round<VM>();
    constexpr int KB = NB * NBLK, XR = KB / 32, LDX = panel_ld<KB>();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t stride = (int64_t)gridDim.x * PV;
    for (int64_t v0 = (int64_t)blockIdx.x * PV; v0 < a.nvec; v0 += stride) {
        __syncthreads(); /* the last panel is done with sx; first, sT is complete */
        put_panel<T, KB, PV, LEFT>(pf, sx);
        __syncthreads();
        if (v0 + stride < a.nvec)
            fetch_panel<T, KB, PV, LEFT>(a, v0 + stride, pf);
        T acc[VM][XR];
        mul_panel<T, NB, NBLK, LOWER, VM>(sT, sx + warp * VM * LDX, lane, acc);
        const int nv = (int)kern_min64(PV, a.nvec - v0);
        if constexpr (LEFT) {
#pragma unroll
            for (int v = 0; v < VM; v++)
#pragma unroll
                for (int r = 0; r < XR; r++) {
                    const int i = 32 * r + lane, vec = warp * VM + v;
                    if (vec < nv && i < a.k)
                        a.B[(v0 + vec) * a.ldb + i] = kmul(a.alpha, acc[v][r]);
                }
        } else {
            __syncwarp(); /* the warp's vectors are read by it alone, and now done */
#pragma unroll
            for (int v = 0; v < VM; v++)
#pragma unroll
                for (int r = 0; r < XR; r++)
                    sx[(warp * VM + v) * LDX + 32 * r + lane] = kmul(a.alpha, acc[v][r]);
            __syncthreads();
            store_panel<T, KB, PV, LEFT>(a, v0, nv, sx);
        }
    }
}

/* Solve: one warp carries V vectors at a time in registers (element
 * lane + 32 r of vector v in x[v][r]), read and written in place on side
 * left; on side right rounds of RT rows of B pass through shared memory sB,
 * warp w taking rows w V..  Only the first W warps carry vectors, warp w
 * broadcasting through sbc + bcast_slots w. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
__device__ __forceinline__ void solve_vectors(const leaf_args<T> &a, const T *sT,
                                              const T *sdinv, T *sbc, T *sB)
{
    constexpr int KB = NB * NBLK, XR = KB / 32, LDB = panel_ld<KB>(), RT = rows_per_round<V, W>();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T *const wbc = sbc + bcast_slots<NBLK, V>() * warp;
    T x[V][XR];
    if constexpr (LEFT) {
        if (warp >= W)
            return;
        const int64_t stride = (int64_t)gridDim.x * W * V;
        for (int64_t v0 = ((int64_t)blockIdx.x * W + warp) * V; v0 < a.nvec; v0 += stride) {
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T *b = a.B + kern_min64(v0 + v, a.nvec - 1) * a.ldb;
#pragma unroll
                for (int r = 0; r < XR; r++) {
                    const int i = lane + 32 * r;
                    x[v][r] = i < a.k && v0 + v < a.nvec ? kmul(a.alpha, b[i]) : kzero<T>();
                }
            }
            block_vectors<T, NB, NBLK, OP, V>(x, sT, sdinv, lane, wbc);
#pragma unroll
            for (int v = 0; v < V; v++) {
                T *b = a.B + (v0 + v) * a.ldb;
#pragma unroll
                for (int r = 0; r < XR; r++) {
                    const int i = lane + 32 * r;
                    if (i < a.k && v0 + v < a.nvec)
                        b[i] = x[v][r];
                }
            }
        }
    } else {
        for (int64_t row0 = (int64_t)blockIdx.x * RT; row0 < a.nvec;
             row0 += (int64_t)gridDim.x * RT) {
            const int rows = (int)kern_min64(RT, a.nvec - row0);
            load_panel<T, KB, RT, false>(a, row0, rows, sB);
            __syncthreads();
            if (warp < W) {
#pragma unroll
                for (int v = 0; v < V; v++)
#pragma unroll
                    for (int r = 0; r < XR; r++) {
                        const int i = lane + 32 * r, rr = warp * V + v;
                        x[v][r] = i < a.k && rr < rows ? kmul(a.alpha, sB[rr * LDB + i])
                                                       : kzero<T>();
                    }
                block_vectors<T, NB, NBLK, OP, V>(x, sT, sdinv, lane, wbc);
#pragma unroll
                for (int v = 0; v < V; v++)
#pragma unroll
                    for (int r = 0; r < XR; r++) {
                        const int i = lane + 32 * r, rr = warp * V + v;
                        if (i < a.k && rr < rows)
                            sB[rr * LDB + i] = x[v][r];
                    }
            }
            __syncthreads();
            store_panel<T, KB, RT, false>(a, row0, rows, sB);
            __syncthreads(); /* sB is refilled next round */
        }
    }
}

/* Blocks a multiprocessor that a kernel's registers are capped for: two
 * where shared memory holds two (128 registers a thread), else one.  Holding
 * every element being staged took the two-tile kernels 130-136 registers,
 * one block a multiprocessor, until capped at 128 (a few bytes spilled): on
 * an H200 the single leaf of DTRSM m = 64, n = 16384 went from 2.70x cuBLAS
 * to 3.05x with the cap, the rest unchanged (2026-11-23, fourth session).
 * The two-tile multiply with 8 vectors a warp and the two-tile solves on
 * side right (in double and complex float) have the shared memory of one
 * block only, so the cap would buy nothing: the multiply takes the
 * registers it needs to hold its next panel.  The figures are Hopper's
 * (228 KB a multiprocessor, 1 KB of it reserved a block), the machine the
 * kernels are built for. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
constexpr int leaf_min_blocks()
{
    return 2 * (leaf_smem<T, NB, NBLK, OP, LEFT, V, W>() + 1024) <= 228 * 1024 ? 2 : 1;
}

/* f(c, b, slot) for each tile (c, b) of T that the block holds, slot its
 * place in av and in sT. */
template <int NBLK, bool LOWER, class F> __device__ __forceinline__ void for_each_tile(F &&f)
{
#pragma unroll
    for (int c = 0; c < NBLK; c++)
#pragma unroll
        for (int b = 0; b < NBLK; b++)
            if (tile_in_block<LOWER>(c, b))
                f(c, b, tile_slot<NBLK, LOWER>(c, b));
}

/* This thread's elements of T's tiles into av (load_tile). */
template <class T, int NB, int NBLK, leaf_op OP>
__device__ __forceinline__ void
load_tiles(const leaf_args<T> &a, T (&av)[block_tiles<NBLK>()][tile_map<T, NB>::STAGE])
{
    for_each_tile<NBLK, op_lower<OP>()>(
        [&](int c, int b, int slot) { load_tile<T, NB, OP>(a, c, b, av[slot]); });
}

/* T's tiles, loaded into av, into shared memory (store_tile). */
template <class T, int NB, int NBLK, leaf_op OP>
__device__ __forceinline__ void
stage_tiles(const leaf_args<T> &a, const T (&av)[block_tiles<NBLK>()][tile_map<T, NB>::STAGE],
            T *sT, const T *sdinv)
{
    for_each_tile<NBLK, op_lower<OP>()>([&](int c, int b, int slot) {
        store_tile<T, NB, OP>(a, c, b, av[slot], sT + slot * NB * (NB + 1),
                              [](int i, int j) { return i + j * (NB + 1); }, sdinv);
    });
}

/* Multiply in double on the tensor cores (FP64 mma.sync m16n8k8, sm_90),
 * for blocks with many vectors.  A panel of PV vectors is multiplied by 8
 * warps: 4 columns of warps take 16 vectors each (two n8 tiles), 2 rows of
 * warps take half of T's 16-row tiles each, tiles {0, 3, 4, 7} and {1, 2,
 * 5, 6} (of 8; {0, 3} and {1, 2} of 4), so that the two halves of a
 * triangle are the same work.  T sits in shared memory in the order of the
 * A fragments (dmma_a_slot), so that a warp reads a fragment in two
 * conflict-free 16-byte loads; the panel's vectors are KB + 4 apart, which
 * keeps the B fragments' loads (8 vectors x 4 elements a load) conflict-free.
 * On an H200 the two-tile leaf over 16384 vectors took 18.6 us on side left
 * (L/L/N) and 21.8 on side right (R/U/T) against 27.6 and 29.7 for the
 * FP64-unit kernel, and DTRMM L/L/N 16384^2 88.0 against 89.9 ms
 * (bench_kernels trmm, 7 rounds of alternating processes, 2026-11-23,
 * tenth session). */
template <int KB> struct dmma_leaf {
    static constexpr int MT = KB / 16; /* T's tiles of 16 rows */
    static constexpr int KS = KB / 8;  /* steps of 8 along T's columns */
    static constexpr int MR = MT / 2;  /* row tiles a warp */
    static constexpr int PV = rows_per_round<8>();
    static constexpr int LDX = KB + 4;
    static constexpr size_t smem() { return sizeof(double) * ((size_t)KB * KB + (size_t)PV * LDX); }
};

/* Where lane 4 g + t keeps its pair of a fragment's elements (rows g and
 * g + 8, column t of a half): permuted within each quarter warp, so that
 * staging, which stores rows 0..7 of one column at once, hits 8 banks
 * rather than 2 (the leaf 18.6 against 19.1 us, H200, the run above),
 * while each quarter warp still loads 8 different 16-byte words. */
__device__ __forceinline__ int dmma_a_pos(int g, int t) { return 4 * g + (t ^ (g / 2)); }

/* Where T(i, j) goes: fragment (i / 16, j / 8), its half j % 8 / 4 (a0 a1
 * or a2 a3), its lane's place (dmma_a_pos), and of that pair, the element of
 * row i % 16 / 8 (PTX's layout: a0 at row g, column t of the fragment, a1
 * at g + 8, a2 and a3 four columns right, lane = 4 g + t). */
template <int KB> __device__ __forceinline__ int dmma_a_slot(int i, int j)
{
    const int r = i % 16, kk = j % 8;
    const int half = ((i / 16) * dmma_leaf<KB>::KS + j / 8) * 2 + kk / 4;
    return (half * 32 + dmma_a_pos(r % 8, kk % 4)) * 2 + r / 8;
}

/* d += A B for the 16 x 8 fragment a (a01 = {a0, a1}, a23 = {a2, a3}) and
 * the 8 x 8 one b (b0 at row t, column g; b1 four rows down). */
__device__ __forceinline__ void dmma(double (&d)[4], double2 a01, double2 a23, double b0, double b1)
{
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a01.x), "d"(a01.y), "d"(a23.x), "d"(a23.y), "d"(b0), "d"(b1));
}

/* T's row tile i of a warp in row group rg. */
__host__ __device__ constexpr int dmma_row_tile(int rg, int i) { return 2 * i + ((i % 2) ^ rg); }

/* acc[i][nt] = (T x)'s rows of row tile dmma_row_tile(RG, i), vectors 8 nt..
 * of the warp's 16 at sxw, each step of 8 columns taken only by the row
 * tiles that have nonzeros there.  Unrolled whole, the two-tile instances of
 * a lower T spill 112-192 bytes; unrolled by two they spill none but took
 * the leaf 20.4 us against 18.6 (H200, the run above). */
template <int KB, bool LOWER, int RG>
__device__ __forceinline__ void dmma_panel(const double *sA, const double *sxw, int lane,
                                           double (&acc)[dmma_leaf<KB>::MR][2][4])
{
    using L = dmma_leaf<KB>;
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < L::MR; i++)
#pragma unroll
        for (int nt = 0; nt < 2; nt++)
#pragma unroll
            for (int q = 0; q < 4; q++)
                acc[i][nt][q] = 0.0;
    const double2 *const fa = reinterpret_cast<const double2 *>(sA) + dmma_a_pos(g, t);
#pragma unroll
    for (int ks = 0; ks < L::KS; ks++) {
        double bf[2][2];
#pragma unroll
        for (int nt = 0; nt < 2; nt++) {
            const double *x = sxw + (8 * nt + g) * L::LDX + 8 * ks + t;
            bf[nt][0] = x[0];
            bf[nt][1] = x[4];
        }
#pragma unroll
        for (int i = 0; i < L::MR; i++) {
            const int rt = dmma_row_tile(RG, i);
            if (LOWER ? ks > 2 * rt + 1 : ks < 2 * rt)
                continue;
            const double2 *f = fa + (rt * L::KS + ks) * 64;
            const double2 a01 = f[0], a23 = f[32];
#pragma unroll
            for (int nt = 0; nt < 2; nt++)
                dmma(acc[i][nt], a01, a23, bf[nt][0], bf[nt][1]);
        }
    }
}

/* The panel at v0 (nv vectors) multiplied and written back, alpha applied:
 * on side left from the fragments straight into B's columns (8 rows of a
 * vector, 64 bytes, a store), on side right through sx along B's rows. */
template <int KB, bool LOWER, bool LEFT>
__device__ __forceinline__ void dmma_panel_out(const leaf_args<double> &a, const double *sA,
                                               double *sx, int64_t v0, int nv)
{
    using L = dmma_leaf<KB>;
    const int lane = threadIdx.x % 32, vg = threadIdx.x / 32 % 4, rg = threadIdx.x / 128;
    const int g = lane / 4, t = lane % 4;
    double acc[L::MR][2][4];
    if (rg == 0)
        dmma_panel<KB, LOWER, 0>(sA, sx + 16 * vg * L::LDX, lane, acc);
    else
        dmma_panel<KB, LOWER, 1>(sA, sx + 16 * vg * L::LDX, lane, acc);
    if constexpr (!LEFT)
        __syncthreads(); /* every warp is done reading sx */
#pragma unroll
    for (int i = 0; i < L::MR; i++)
#pragma unroll
        for (int nt = 0; nt < 2; nt++)
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int row = 16 * dmma_row_tile(rg, i) + g + 8 * (q / 2);
                const int vec = 16 * vg + 8 * nt + 2 * t + q % 2;
                const double y = a.alpha * acc[i][nt][q];
                if constexpr (LEFT) {
                    if (vec < nv && row < a.k)
                        a.B[(v0 + vec) * a.ldb + row] = y;
                } else {
                    sx[vec * L::LDX + row] = y;
                }
            }
    if constexpr (!LEFT) {
        __syncthreads();
        store_panel<double, KB, L::PV, false, L::LDX>(a, v0, nv, sx);
    }
}

/* The tensor-core multiply: T staged once a block as in trxm_leaf_kernel,
 * then the block's panels, the next read into registers (pf) while the
 * current one is multiplied. */
template <int NB, int NBLK, leaf_op OP, bool LEFT>
__global__ void __launch_bounds__(THREADS, 1) trxm_leaf_dmma_kernel(leaf_args<double> a)
{
    constexpr int KB = NB * NBLK;
    constexpr bool LOWER = op_lower<OP>();
    using L = dmma_leaf<KB>;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    double *const sA = reinterpret_cast<double *>(smem_raw);
    double *const sx = sA + KB * KB;

    double av[block_tiles<NBLK>()][tile_map<double, NB>::STAGE];
    load_tiles<double, NB, NBLK, OP>(a, av);
    cudaGridDependencySynchronize(); /* as in trxm_leaf_kernel */
    double pf[panel_share<KB, L::PV>()];
    fetch_panel<double, KB, L::PV, LEFT>(a, (int64_t)blockIdx.x * L::PV, pf);
    for_each_tile<NBLK, LOWER>([&](int c, int b, int slot) {
        store_tile<double, NB, OP>(
            a, c, b, av[slot], sA,
            [c, b](int i, int j) { return dmma_a_slot<KB>(c * NB + i, b * NB + j); }, nullptr);
    });

    const int64_t stride = (int64_t)gridDim.x * L::PV;
    for (int64_t v0 = (int64_t)blockIdx.x * L::PV; v0 < a.nvec; v0 += stride) {
        __syncthreads(); /* the last panel is done with sx; first, sA is complete */
        put_panel<double, KB, L::PV, LEFT, L::LDX>(pf, sx);
        __syncthreads();
        if (v0 + stride < a.nvec)
            fetch_panel<double, KB, L::PV, LEFT>(a, v0 + stride, pf);
        const int nv = (int)kern_min64(L::PV, a.nvec - v0);
        dmma_panel_out<KB, LOWER, LEFT>(a, sA, sx, v0, nv);
    }
}

/* Element i of vector vec: B(i, vec) on side left, B(vec, i) on side right.
 * T's tiles are staged once per thread block, which then loops over its
 * share of vectors, V a warp at a time (in W warps when solving). */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
__global__ void __launch_bounds__(THREADS, (leaf_min_blocks<T, NB, NBLK, OP, LEFT, V, W>()))
    trxm_leaf_kernel(leaf_args<T> a)
{
    static_assert(op_solve<OP>() || W == LEAF_WARPS, "a multiply uses every warp");
    constexpr int LDS = NB + 1; /* keeps the transposed stores conflict-free */
    constexpr bool LOWER = op_lower<OP>();
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *const sT = reinterpret_cast<T *>(smem_raw);
    T *const sdinv = sT + block_tiles<NBLK>() * NB * LDS;
    T *const sbc = sdinv + NBLK * NB;
    T *const staged = sbc + bcast_elems<OP, NBLK, V, W>();

    /* every read of A is issued before the first store, so that staging
     * waits for memory once: on an H200, staging tile by tile and then
     * dividing the diagonal tiles' columns in a pass of their own took 5.9
     * of the 11.4 us of the DTRSM leaf with 1024 right-hand sides, this way
     * 4.1 of 9.7 us (timers in the kernel, 2026-11-23, fourth session) */
    T av[block_tiles<NBLK>()][tile_map<T, NB>::STAGE];
    load_tiles<T, NB, NBLK, OP>(a, av);
    if constexpr (op_solve<OP>()) {
        load_diagonal<T, NB, NBLK>(a, sdinv);
        __syncthreads();
        stage_tiles<T, NB, NBLK, OP>(a, av, sT, sdinv);
        /* Launched to overlap the kernel before it (programmatic dependent
         * launch), which may still be writing B, though never A; otherwise
         * a no-op. */
        cudaGridDependencySynchronize();
        __syncthreads();
        solve_vectors<T, NB, NBLK, OP, LEFT, V, W>(a, sT, sdinv, sbc, staged);
    } else {
        /* the first panel is read while the tiles are stored */
        cudaGridDependencySynchronize();
        constexpr int KB = NB * NBLK, PV = rows_per_round<V>();
        T pf[panel_share<KB, PV>()];
        fetch_panel<T, KB, PV, LEFT>(a, (int64_t)blockIdx.x * PV, pf);
        stage_tiles<T, NB, NBLK, OP>(a, av, sT, sdinv);
        mul_vectors<T, NB, NBLK, LOWER, LEFT, V>(a, sT, staged, pf);
    }
}

/* As many blocks as the device holds at once (never more than there is
 * work for); the shared-memory limit, a device's, is set and the occupancy
 * asked once per kernel and device. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
int leaf_launch(cudaStream_t s, const leaf_args<T> &a, const kern_device &dev, bool overlap)
{
    constexpr size_t smem = leaf_smem<T, NB, NBLK, OP, LEFT, V, W>();
    auto *const kernel = trxm_leaf_kernel<T, NB, NBLK, OP, LEFT, V, W>;
    static std::atomic<int> per_sm_of[TESS_MAX_DEVICES];
    int per_sm;
    const int err = kern_blocks_per_sm(kernel, THREADS, smem, dev.id, per_sm_of, &per_sm);
    if (err)
        return err;
    const int64_t per_block = rows_per_round<V, W>();
    const int64_t blocks = kern_min64((int64_t)per_sm * dev.nsm, kern_cdiv64(a.nvec, per_block));
    return kern_launch(kernel, dim3((unsigned)blocks), dim3(THREADS), smem, s,
                       overlap ? KERN_LAUNCH_OVERLAP : KERN_LAUNCH_PLAIN, a);
}

/* trxm_leaf_dmma_kernel's launch, as leaf_launch's. */
template <int NB, int NBLK, leaf_op OP, bool LEFT>
int dmma_leaf_launch(cudaStream_t s, const leaf_args<double> &a, const kern_device &dev,
                     bool overlap)
{
    using L = dmma_leaf<NB * NBLK>;
    auto *const kernel = trxm_leaf_dmma_kernel<NB, NBLK, OP, LEFT>;
    static std::atomic<int> per_sm_of[TESS_MAX_DEVICES];
    int per_sm;
    const int err = kern_blocks_per_sm(kernel, THREADS, L::smem(), dev.id, per_sm_of, &per_sm);
    if (err)
        return err;
    const int64_t blocks = kern_min64((int64_t)per_sm * dev.nsm, kern_cdiv64(a.nvec, L::PV));
    return kern_launch(kernel, dim3((unsigned)blocks), dim3(THREADS), L::smem(), s,
                       overlap ? KERN_LAUNCH_OVERLAP : KERN_LAUNCH_PLAIN, a);
}

/* Vectors a warp and warps that carry them (rows_per_round): fewer when
 * the most would leave multiprocessors without a block. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT>
int leaf_launch_v(cudaStream_t s, const leaf_args<T> &a, const kern_device &dev, bool overlap)
{
    if constexpr (op_solve<OP>()) {
        if (a.nvec >= (int64_t)rows_per_round<4>() * dev.nsm)
            return leaf_launch<T, NB, NBLK, OP, LEFT, 4, LEAF_WARPS>(s, a, dev, overlap);
        if (a.nvec >= (int64_t)rows_per_round<2>() * dev.nsm)
            return leaf_launch<T, NB, NBLK, OP, LEFT, 2, LEAF_WARPS>(s, a, dev, overlap);
        return leaf_launch<T, NB, NBLK, OP, LEFT, 2, LEAF_WARPS / 2>(s, a, dev, overlap);
    } else {
        if (a.nvec >= (int64_t)rows_per_round<8>() * dev.nsm) {
            if constexpr (std::is_same<T, double>::value)
                return dmma_leaf_launch<NB, NBLK, OP, LEFT>(s, a, dev, overlap);
            else
                return leaf_launch<T, NB, NBLK, OP, LEFT, 8, LEAF_WARPS>(s, a, dev, overlap);
        }
        return leaf_launch<T, NB, NBLK, OP, LEFT, 1, LEAF_WARPS>(s, a, dev, overlap);
    }
}

template <class T, leaf_op OP>
int leaf_launch_case(bool left, bool one_tile, cudaStream_t s, const leaf_args<T> &a,
                     bool overlap)
{
    constexpr int NB = kern_leaf_nb<T>(), NBLK = kern_leaf_max<T>() / NB;
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    if (one_tile)
        return left ? leaf_launch_v<T, NB, 1, OP, true>(s, a, dev, overlap)
                    : leaf_launch_v<T, NB, 1, OP, false>(s, a, dev, overlap);
    return left ? leaf_launch_v<T, NB, NBLK, OP, true>(s, a, dev, overlap)
                : leaf_launch_v<T, NB, NBLK, OP, false>(s, a, dev, overlap);
}

} // namespace

template <class T>
int kern_trxm_leaf(cudaStream_t s, bool solve, tess_side_t side, tess_uplo_t uplo,
                   tess_trans_t trans, tess_diag_t diag, int64_t k, int64_t nvec, T alpha,
                   const T *A, int64_t lda, T *B, int64_t ldb, bool overlap)
{
    if (k <= 0 || nvec <= 0)
        return 0;
    if (k > kern_leaf_max<T>())
        return TESS_EINTERNAL;
    const bool left = side == TessLeft, one_tile = k <= kern_leaf_nb<T>();
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
    if (solve)
        return lower ? leaf_launch_case<T, SOLVE_LOWER>(left, one_tile, s, a, overlap)
                     : leaf_launch_case<T, SOLVE_UPPER>(left, one_tile, s, a, overlap);
    return lower ? leaf_launch_case<T, MUL_LOWER>(left, one_tile, s, a, overlap)
                 : leaf_launch_case<T, MUL_UPPER>(left, one_tile, s, a, overlap);
}

/* One translation unit per precision (trxm_leaf_{s,d,c,z}.cu), so that the
 * four compile in parallel. */
#define KERN_LEAF_INSTANCE(T)                                                                      \
    template int kern_trxm_leaf<T>(cudaStream_t, bool, tess_side_t, tess_uplo_t, tess_trans_t,     \
                                   tess_diag_t, int64_t, int64_t, T, const T *, int64_t, T *,     \
                                   int64_t, bool);

#endif
