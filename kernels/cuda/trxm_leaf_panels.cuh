/* Panels of B's vectors through shared memory: read and written in coalesced
 * segments on either side (down B's columns on side left, along its rows on
 * side right), so that the multiplies and the side-right solve see each
 * vector as a column of the panel whatever the side. */
#ifndef KERN_CUDA_TRXM_LEAF_PANELS_CUH
#define KERN_CUDA_TRXM_LEAF_PANELS_CUH

#include "scalar.cuh"
#include "trxm_leaf_common.cuh"

namespace
{

/* Elements from one staged vector to the next in a panel of KB-element
 * vectors (a multiply's panel, a side-right solve's round of rows): one past
 * KB, so that side right's accesses across vectors, consecutive threads on
 * consecutive vectors, fall in different banks. */
template <int KB>
__host__ __device__ constexpr int panel_ld()
{
    return KB + 1;
}

/* Element idx of a staged panel of P vectors of KB elements: element i of
 * vector v, taken in the order that reads and writes B in coalesced
 * segments (down its columns on side left, along its rows on side right),
 * and where that element is in B for the panel starting at vector v0. */
template <int KB, int P, bool LEFT>
struct panel_elem {
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
__device__ __forceinline__ void store_panel(const leaf_args<T> &a, int64_t v0, int nv, const T *sx)
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
template <int KB, int P>
__host__ __device__ constexpr int panel_share()
{
    static_assert(P * KB % THREADS == 0, "a panel shared evenly among the threads");
    return P * KB / THREADS;
}

template <int KB, int P, bool LEFT>
__host__ __device__ constexpr int panel_step()
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
        const bool inside =
            LEFT ? pe.v + STEP * e < nv && pe.i < a.k : pe.v < nv && pe.i + STEP * e < a.k;
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

} // namespace

#endif
