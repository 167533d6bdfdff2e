/* The TRSM/TRMM leaf kernels in cuComplex. */
#include "trxm_leaf_launch.cuh"

KERN_LEAF_INSTANCE(cuComplex)
