/* Arithmetic on the four element types, so that each kernel is written once.
 *
 * float and double are themselves; complex numbers are cuComplex (float2) and
 * cuDoubleComplex (double2), whose layout is C's float/double _Complex.  Each
 * operation is an overload; conj() is the identity on real types, so a kernel
 * that conjugates for ^H also serves ^T of a real matrix. */
#ifndef KERN_CUDA_SCALAR_CUH
#define KERN_CUDA_SCALAR_CUH

#include <cuComplex.h>
#include <cuda_runtime.h>
#include "kern_cuda.h"

#define KERN_HD __host__ __device__ __forceinline__

template <class T>
KERN_HD T kzero();
template <>
KERN_HD float kzero<float>()
{
    return 0.0f;
}
template <>
KERN_HD double kzero<double>()
{
    return 0.0;
}
template <>
KERN_HD cuComplex kzero<cuComplex>()
{
    return make_cuComplex(0.0f, 0.0f);
}
template <>
KERN_HD cuDoubleComplex kzero<cuDoubleComplex>()
{
    return make_cuDoubleComplex(0.0, 0.0);
}

template <class T>
KERN_HD T kone();
template <>
KERN_HD float kone<float>()
{
    return 1.0f;
}
template <>
KERN_HD double kone<double>()
{
    return 1.0;
}
template <>
KERN_HD cuComplex kone<cuComplex>()
{
    return make_cuComplex(1.0f, 0.0f);
}
template <>
KERN_HD cuDoubleComplex kone<cuDoubleComplex>()
{
    return make_cuDoubleComplex(1.0, 0.0);
}

/* a * b + c */
KERN_HD float kfma(float a, float b, float c)
{
    return fmaf(a, b, c);
}
KERN_HD double kfma(double a, double b, double c)
{
    return fma(a, b, c);
}
KERN_HD cuComplex kfma(cuComplex a, cuComplex b, cuComplex c)
{
    c.x = fmaf(a.x, b.x, fmaf(-a.y, b.y, c.x));
    c.y = fmaf(a.x, b.y, fmaf(a.y, b.x, c.y));
    return c;
}
KERN_HD cuDoubleComplex kfma(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c)
{
    c.x = fma(a.x, b.x, fma(-a.y, b.y, c.x));
    c.y = fma(a.x, b.y, fma(a.y, b.x, c.y));
    return c;
}

/* c - a * b */
KERN_HD float kfms(float a, float b, float c)
{
    return fmaf(-a, b, c);
}
KERN_HD double kfms(double a, double b, double c)
{
    return fma(-a, b, c);
}
KERN_HD cuComplex kfms(cuComplex a, cuComplex b, cuComplex c)
{
    c.x = fmaf(-a.x, b.x, fmaf(a.y, b.y, c.x));
    c.y = fmaf(-a.x, b.y, fmaf(-a.y, b.x, c.y));
    return c;
}
KERN_HD cuDoubleComplex kfms(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c)
{
    c.x = fma(-a.x, b.x, fma(a.y, b.y, c.x));
    c.y = fma(-a.x, b.y, fma(-a.y, b.x, c.y));
    return c;
}

template <class T>
KERN_HD T kmul(T a, T b)
{
    return kfma(a, b, kzero<T>());
}

KERN_HD float kadd(float a, float b)
{
    return a + b;
}
KERN_HD double kadd(double a, double b)
{
    return a + b;
}
KERN_HD cuComplex kadd(cuComplex a, cuComplex b)
{
    return make_cuComplex(a.x + b.x, a.y + b.y);
}
KERN_HD cuDoubleComplex kadd(cuDoubleComplex a, cuDoubleComplex b)
{
    return make_cuDoubleComplex(a.x + b.x, a.y + b.y);
}

KERN_HD float kconj(float a)
{
    return a;
}
KERN_HD double kconj(double a)
{
    return a;
}
KERN_HD cuComplex kconj(cuComplex a)
{
    return make_cuComplex(a.x, -a.y);
}
KERN_HD cuDoubleComplex kconj(cuDoubleComplex a)
{
    return make_cuDoubleComplex(a.x, -a.y);
}

/* The real part as an element: a Hermitian diagonal ignores its imaginary part. */
KERN_HD float kreal(float a)
{
    return a;
}
KERN_HD double kreal(double a)
{
    return a;
}
KERN_HD cuComplex kreal(cuComplex a)
{
    return make_cuComplex(a.x, 0.0f);
}
KERN_HD cuDoubleComplex kreal(cuDoubleComplex a)
{
    return make_cuDoubleComplex(a.x, 0.0);
}

/* 1 / a, with the scaling cuCdiv uses so that no intermediate overflows. */
KERN_HD float kinv(float a)
{
    return 1.0f / a;
}
KERN_HD double kinv(double a)
{
    return 1.0 / a;
}
KERN_HD cuComplex kinv(cuComplex a)
{
    return cuCdivf(kone<cuComplex>(), a);
}
KERN_HD cuDoubleComplex kinv(cuDoubleComplex a)
{
    return cuCdiv(kone<cuDoubleComplex>(), a);
}

KERN_HD bool kis_zero(float a)
{
    return a == 0.0f;
}
KERN_HD bool kis_zero(double a)
{
    return a == 0.0;
}
KERN_HD bool kis_zero(cuComplex a)
{
    return a.x == 0.0f && a.y == 0.0f;
}
KERN_HD bool kis_zero(cuDoubleComplex a)
{
    return a.x == 0.0 && a.y == 0.0;
}

KERN_HD bool kis_one(float a)
{
    return a == 1.0f;
}
KERN_HD bool kis_one(double a)
{
    return a == 1.0;
}
KERN_HD bool kis_one(cuComplex a)
{
    return a.x == 1.0f && a.y == 0.0f;
}
KERN_HD bool kis_one(cuDoubleComplex a)
{
    return a.x == 1.0 && a.y == 0.0;
}

#ifdef __CUDACC__
/* Butterfly sum over the 32 lanes of a warp; every lane gets the total. */
__device__ __forceinline__ float kshfl_xor(float v, int m)
{
    return __shfl_xor_sync(0xffffffffu, v, m);
}
__device__ __forceinline__ double kshfl_xor(double v, int m)
{
    return __shfl_xor_sync(0xffffffffu, v, m);
}
__device__ __forceinline__ cuComplex kshfl_xor(cuComplex v, int m)
{
    return make_cuComplex(__shfl_xor_sync(0xffffffffu, v.x, m),
                          __shfl_xor_sync(0xffffffffu, v.y, m));
}
__device__ __forceinline__ cuDoubleComplex kshfl_xor(cuDoubleComplex v, int m)
{
    return make_cuDoubleComplex(__shfl_xor_sync(0xffffffffu, v.x, m),
                                __shfl_xor_sync(0xffffffffu, v.y, m));
}
template <class T>
__device__ __forceinline__ T kwarp_sum(T v)
{
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v = kadd(v, kshfl_xor(v, m));
    return v;
}

/* Complex atomics add the two parts separately: each part is exact-once, and
 * the order of additions is unspecified anyway. */
__device__ __forceinline__ void katomic_add(float *p, float v)
{
    atomicAdd(p, v);
}
__device__ __forceinline__ void katomic_add(double *p, double v)
{
    atomicAdd(p, v);
}
__device__ __forceinline__ void katomic_add(cuComplex *p, cuComplex v)
{
    atomicAdd(&p->x, v.x);
    atomicAdd(&p->y, v.y);
}
__device__ __forceinline__ void katomic_add(cuDoubleComplex *p, cuDoubleComplex v)
{
    atomicAdd(&p->x, v.x);
    atomicAdd(&p->y, v.y);
}
#endif

/* f(z) with z a value of t's element type (float, double, cuComplex,
 * cuDoubleComplex), so that an entry point taking untyped pointers reaches
 * the one template written for all four; TESS_EINTERNAL for another t. */
template <class F>
int kern_by_type(kern_type_t t, F &&f)
{
    switch (t) {
    case KERN_S: return f(float{});
    case KERN_D: return f(double{});
    case KERN_C: return f(cuComplex{});
    case KERN_Z: return f(cuDoubleComplex{});
    default: return TESS_EINTERNAL;
    }
}

#endif
