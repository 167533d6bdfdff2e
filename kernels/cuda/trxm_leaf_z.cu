/* The TRSM/TRMM leaf kernels in cuDoubleComplex. */
#include "trxm_leaf_launch.cuh"

KERN_LEAF_INSTANCE(cuDoubleComplex)
