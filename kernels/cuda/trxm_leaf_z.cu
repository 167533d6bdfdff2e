/* The TRSM/TRMM leaf kernels in cuDoubleComplex. */
#include "trxm_leaf_impl.cuh"

KERN_LEAF_INSTANCE(cuDoubleComplex)
