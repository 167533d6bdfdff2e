/* One cuBLAS handle per host thread and device, for the stream-only public API.
 *
 * A cuBLAS handle belongs to the device that was current when it was made and
 * must not be used by two threads at once, so each thread keeps its own, one
 * per device, made on first use.  They are destroyed when the thread exits
 * (for the main thread, before static destructors and the CUDA runtime's own
 * teardown run). */
#include "check.cuh"

namespace
{

struct thread_handles {
    cublasHandle_t h[TESS_MAX_DEVICES] = {};
    ~thread_handles()
    {
        for (cublasHandle_t hd : h)
            if (hd)
                cublasDestroy(hd); /* nothing to report to at thread exit */
    }
};

thread_local thread_handles tl_handles;

} // namespace

extern "C" int kern_cuda_thread_handle(cublasHandle_t *h)
{
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    if (!tl_handles.h[dev.id])
        CUBLAS_TRY(cublasCreate(&tl_handles.h[dev.id]));
    *h = tl_handles.h[dev.id];
    return 0;
}
