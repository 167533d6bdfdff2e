/* The leaf's multiply in double on the tensor cores (FP64 mma.sync m16n8k8,
 * sm_90), for blocks with many vectors: its own kernel, since T is staged in
 * the order of the mma fragments rather than as plain tiles.
 *
 * A panel of PV vectors is multiplied by 8 warps: 4 columns of warps take 16
 * vectors each (two n8 tiles), 2 rows of warps take half of T's 16-row tiles
 * each, tiles {0, 3, 4, 7} and {1, 2, 5, 6} (of 8; {0, 3} and {1, 2} of 4),
 * so that the two halves of a triangle are the same work.  T sits in shared
 * memory in the order of the A fragments (dmma_a_slot), so that a warp reads
 * a fragment in two conflict-free 16-byte loads; the panel's vectors are
 * KB + 4 apart, which keeps the B fragments' loads (8 vectors x 4 elements a
 * load) conflict-free.  The two-tile leaf over 16384 vectors took about a
 * third less time on side left (L/L/N) and a quarter less on side right
 * (R/U/T) than the FP64-unit kernel, and DTRMM L/L/N 16384^2 about 2% less
 * (BENCHMARKS.md). */
#ifndef KERN_CUDA_TRXM_LEAF_DMMA_CUH
#define KERN_CUDA_TRXM_LEAF_DMMA_CUH

#include "check.cuh"
#include "trxm_leaf_common.cuh"
#include "trxm_leaf_panels.cuh"
#include "trxm_leaf_tiles.cuh"

namespace
{

template <int KB>
struct dmma_leaf {
    static constexpr int MT = KB / 16; /* T's tiles of 16 rows */
    static constexpr int KS = KB / 8;  /* steps of 8 along T's columns */
    static constexpr int MR = MT / 2;  /* row tiles a warp */
    static constexpr int PV = rows_per_round<8>();
    static constexpr int LDX = KB + 4;
    static constexpr size_t smem()
    {
        return sizeof(double) * ((size_t)KB * KB + (size_t)PV * LDX);
    }
};

/* Where lane 4 g + t keeps its pair of a fragment's elements (rows g and
 * g + 8, column t of a half): permuted within each quarter warp, so that
 * staging, which stores rows 0..7 of one column at once, hits 8 banks
 * rather than 2 (the leaf a few percent faster), while each quarter warp
 * still loads 8 different 16-byte words. */
__device__ __forceinline__ int dmma_a_pos(int g, int t)
{
    return 4 * g + (t ^ (g / 2));
}

/* Where T(i, j) goes: fragment (i / 16, j / 8), its half j % 8 / 4 (a0 a1
 * or a2 a3), its lane's place (dmma_a_pos), and of that pair, the element of
 * row i % 16 / 8 (PTX's layout: a0 at row g, column t of the fragment, a1
 * at g + 8, a2 and a3 four columns right, lane = 4 g + t). */
template <int KB>
__device__ __forceinline__ int dmma_a_slot(int i, int j)
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
__host__ __device__ constexpr int dmma_row_tile(int rg, int i)
{
    return 2 * i + ((i % 2) ^ rg);
}

/* acc[i][nt] = (T x)'s rows of row tile dmma_row_tile(RG, i), vectors 8 nt..
 * of the warp's 16 at sxw, each step of 8 columns taken only by the row
 * tiles that have nonzeros there.  Unrolled whole, the two-tile instances of
 * a lower T spill 112-192 bytes; unrolled by two they spill none but the
 * leaf ran about a tenth slower. */
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

} // namespace

#endif
