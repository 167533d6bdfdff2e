/* The TRSM/TRMM leaf kernels in float. */
#include "trxm_leaf_launch.cuh"

KERN_LEAF_INSTANCE(float)
