/* The TRSM/TRMM leaf kernels in double. */
#include "trxm_leaf_launch.cuh"

KERN_LEAF_INSTANCE(double)
