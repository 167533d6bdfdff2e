/* The TRSM/TRMM leaf kernels in float. */
#include "trxm_leaf_impl.cuh"

KERN_LEAF_INSTANCE(float)
