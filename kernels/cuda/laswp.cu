/* LASWP on a GPU: LAPACK's row interchanges, applied a chunk of them at a time as one
 * permutation.  Applied one after the other, each column's interchanges are a chain of
 * dependent loads and stores that one thread must walk, so a panel of a few thousand columns
 * keeps a few thousand threads waiting on memory.  Instead, each block first follows a chunk's
 * interchanges on row numbers in shared memory (which original row ends in which place), then
 * gathers every moved row of its columns at once, many loads in flight per thread. */
#include <cstdint>
#include "check.cuh"
#include "scalar.cuh"

namespace
{

constexpr int SWAP_CHUNK = 512;            /* interchanges per permutation */
constexpr int SWAP_SLOTS = 2 * SWAP_CHUNK; /* rows a chunk can touch */
constexpr int SWAP_HASH = 2 * SWAP_SLOTS;  /* open addressing, at most half full */
constexpr int SWAP_THREADS = 256;          /* a block's threads */
constexpr int SWAP_COLS = 32;              /* columns a block moves */
constexpr int SWAP_PASS = 4;               /* columns read before any is written */
constexpr int SWAP_ITEMS = SWAP_SLOTS / SWAP_THREADS * SWAP_PASS; /* loads in flight a thread */

/* Row numbers in a chunk: slot s holds row[s]; cur[s] is the slot whose original row is in
 * row[s] now. */
struct swap_plan {
    int64_t key[SWAP_HASH]; /* a row number, or 0 for an empty entry */
    int slot_of[SWAP_HASH];
    int64_t row[SWAP_SLOTS];
    int cur[SWAP_SLOTS];
    int moved[SWAP_SLOTS]; /* the slots whose row changes */
    int nslots, nmoved;
};

__device__ int slot(swap_plan &p, int64_t r)
{
    unsigned h = (unsigned)((uint64_t)r * 0x9E3779B97F4A7C15ull >> 40) & (SWAP_HASH - 1);
    while (p.key[h] != 0 && p.key[h] != r)
        h = (h + 1) & (SWAP_HASH - 1);
    if (p.key[h] == 0) {
        const int s = p.nslots++;
        p.key[h] = r;
        p.slot_of[h] = s;
        p.row[s] = r;
        p.cur[s] = s;
    }
    return p.slot_of[h];
}

/* Interchanges s0 .. s1 - 1 of the call (in application order) into the plan, by its first
 * thread; the same as swap_rows would apply them: a pivot outside 1..m is skipped. */
__device__ void plan_chunk(swap_plan &p, int64_t m, int64_t k1, int64_t k2, const int64_t *ipiv,
                           bool forward, int64_t s0, int64_t s1)
{
    for (int h = threadIdx.x; h < SWAP_HASH; h += blockDim.x)
        p.key[h] = 0;
    if (threadIdx.x == 0)
        p.nslots = p.nmoved = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int64_t s = s0; s < s1; s++) {
            const int64_t i = forward ? k1 + s : k2 - s, r = ipiv[i - k1];
            if (r == i || r < 1 || r > m)
                continue;
            const int a = slot(p, i), b = slot(p, r), t = p.cur[a];
            p.cur[a] = p.cur[b];
            p.cur[b] = t;
        }
        for (int s = 0; s < p.nslots; s++)
            if (p.cur[s] != s)
                p.moved[p.nmoved++] = s;
    }
    __syncthreads();
}

template <class T>
__global__ void permute_rows(int64_t m, int64_t n, T *A, int64_t lda, int64_t k1, int64_t k2,
                             const int64_t *ipiv, bool forward)
{
    __shared__ swap_plan p;
    const int64_t j0 = blockIdx.x * (int64_t)SWAP_COLS;
    const int64_t j1 = j0 + SWAP_COLS < n ? j0 + SWAP_COLS : n;
    for (int64_t s0 = 0; s0 <= k2 - k1; s0 += SWAP_CHUNK) {
        const int64_t s1 = s0 + SWAP_CHUNK < k2 - k1 + 1 ? s0 + SWAP_CHUNK : k2 - k1 + 1;
        plan_chunk(p, m, k1, k2, ipiv, forward, s0, s1);
        /* item e: moved row e % nm of column e / nm, so that neighbouring threads read
         * neighbouring rows of one column */
        const int nm = p.nmoved, nitems = nm * SWAP_PASS;
        if (nm == 0)
            continue;
        for (int64_t j = j0; j < j1; j += SWAP_PASS) {
            T v[SWAP_ITEMS];
            /* every thread's loads of these columns before any store */
            for (int k = 0; k < SWAP_ITEMS; k++) {
                const int e = threadIdx.x + k * SWAP_THREADS, c = e / nm;
                if (e < nitems && j + c < j1)
                    v[k] = A[p.row[p.cur[p.moved[e % nm]]] - 1 + (j + c) * lda];
            }
            __syncthreads();
            for (int k = 0; k < SWAP_ITEMS; k++) {
                const int e = threadIdx.x + k * SWAP_THREADS, c = e / nm;
                if (e < nitems && j + c < j1)
                    A[p.row[p.moved[e % nm]] - 1 + (j + c) * lda] = v[k];
            }
        }
        __syncthreads(); /* the plan is rebuilt for the next chunk */
    }
}

} // namespace

extern "C" int kern_cuda_laswp(kern_type_t t, cudaStream_t s, int64_t m, int64_t n, void *A,
                               int64_t lda, int64_t k1, int64_t k2, const int64_t *ipiv,
                               bool forward)
{
    if (n == 0 || k2 < k1)
        return 0;
    return kern_by_type(t, [&](auto z) -> int {
        using T = decltype(z);
        permute_rows<T><<<(unsigned)((n + SWAP_COLS - 1) / SWAP_COLS), SWAP_THREADS, 0, s>>>(
            m, n, static_cast<T *>(A), lda, k1, k2, ipiv, forward);
        KERN_LAUNCH_CHECK();
        return 0;
    });
}
