/* The TRSM/TRMM leaf kernels in cuComplex. */
#include "trxm_leaf_impl.cuh"

KERN_LEAF_INSTANCE(cuComplex)
