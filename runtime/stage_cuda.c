/* Staged copies between pageable host memory and a GPU.
 *
 * CUDA copies pageable memory through a small pinned buffer of its own, one
 * thread, at 6.6-10 GB/s on an H100 host where pinned memory moves at 53-55
 * GB/s; page-locking the memory first (cudaHostRegister) runs at 18 GB/s,
 * and must be undone before the memory may be freed.  Here each GPU has a
 * ring of pinned slots per direction: a tile is cut into slots of whole
 * columns, each filled (or emptied) by several host threads while the
 * previous slot's DMA runs, which moved 28.7 GB/s with 8 threads on that
 * host.  A slot is reused once the event after its DMA has completed.  The
 * rings are made when the device opens: page-locking memory orders the
 * device's streams, which it would do in the middle of a task on first use. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"
#define KERN_CUDA_SAY rt.cfg.verbose
#include "cuda_check.h"
#include "stage_cuda.h"

#define SLOTS 4
#define SLOT_BYTES ((size_t)32 << 20)
#define MAX_THREADS 8
/* Copies smaller than this stay on the calling thread. */
#define SPLIT_MIN ((size_t)4 << 20)

typedef struct {
    char *dst;
    const char *src;
    size_t dld, sld, row;
    int64_t c0, c1;
} part_t;

/* A ring's copying threads: each round, thread i copies part i + 1 (if there
 * is one) while the caller copies part 0. */
typedef struct ring ring_t;
typedef struct {
    ring_t *r;
    int i;
} helper_t;

struct ring {
    pthread_mutex_t lock;    /* one copy at a time */
    char *buf;               /* SLOTS x SLOT_BYTES, pinned */
    cudaEvent_t done[SLOTS]; /* after the last DMA from or into the slot */
    int next;
    bool failed; /* no pinned memory: copy directly */
    pthread_mutex_t pool_lock;
    pthread_cond_t go, finished;
    unsigned round;
    int pending, nparts, nhelpers;
    bool stop;
    part_t part[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    helper_t helper[MAX_THREADS];
};

static ring_t rings[TESS_MAX_DEVICES][2]; /* [runtime device][0: to the device, 1: from it] */
static pthread_once_t rings_once = PTHREAD_ONCE_INIT;

static void rings_init(void)
{
    for (int i = 0; i < TESS_MAX_DEVICES; i++)
        for (int d = 0; d < 2; d++) {
            ring_t *r = &rings[i][d];
            pthread_mutex_init(&r->lock, NULL);
            pthread_mutex_init(&r->pool_lock, NULL);
            pthread_cond_init(&r->go, NULL);
            pthread_cond_init(&r->finished, NULL);
        }
}

static void copy_part(const part_t *p)
{
    for (int64_t c = p->c0; c < p->c1; c++)
        memcpy(p->dst + (size_t)c * p->dld, p->src + (size_t)c * p->sld, p->row);
}

static void *helper_main(void *arg)
{
    const helper_t *h = arg;
    ring_t *r = h->r;
    unsigned seen = 0;
    pthread_mutex_lock(&r->pool_lock);
    for (;;) {
        while (r->round == seen && !r->stop)
            pthread_cond_wait(&r->go, &r->pool_lock);
        if (r->stop)
            break;
        seen = r->round;
        if (h->i + 1 < r->nparts) {
            part_t p = r->part[h->i + 1];
            pthread_mutex_unlock(&r->pool_lock);
            copy_part(&p);
            pthread_mutex_lock(&r->pool_lock);
        }
        if (--r->pending == 0)
            pthread_cond_signal(&r->finished);
    }
    pthread_mutex_unlock(&r->pool_lock);
    return NULL;
}

/* Helpers: the device's share of the cores, less the calling thread, at
 * most MAX_THREADS - 1; they inherit the caller's binding near its GPU. */
static void start_helpers(ring_t *r)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long want = cores / (rt.ndev > 0 ? rt.ndev : 1) - 1;
    want = want < 0 ? 0 : want > MAX_THREADS - 1 ? MAX_THREADS - 1 : want;
    r->stop = false;
    r->round = 0;
    for (r->nhelpers = 0; r->nhelpers < want; r->nhelpers++) {
        helper_t *h = &r->helper[r->nhelpers];
        *h = (helper_t){ r, r->nhelpers };
        if (pthread_create(&r->th[r->nhelpers], NULL, helper_main, h))
            break;
    }
}

static void stop_helpers(ring_t *r)
{
    pthread_mutex_lock(&r->pool_lock);
    r->stop = true;
    pthread_cond_broadcast(&r->go);
    pthread_mutex_unlock(&r->pool_lock);
    for (int i = 0; i < r->nhelpers; i++)
        pthread_join(r->th[i], NULL);
    r->nhelpers = 0;
}

static bool enabled;
static pthread_once_t enabled_once = PTHREAD_ONCE_INIT;

static void read_enabled(void)
{
    const char *s = getenv("TESS_STAGING");
    enabled = !s || strcmp(s, "0");
}

bool stage_enabled(void)
{
    pthread_once(&enabled_once, read_enabled);
    return enabled;
}

static bool pageable(const void *p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return a.type == cudaMemoryTypeUnregistered;
}

bool stage_wanted(const rt_block_t *b)
{
    const char *last = b->ptr + ((size_t)(b->n - 1) * (size_t)b->ld + (size_t)b->m) * b->elsize - 1;
    return stage_enabled() && (pageable(b->ptr) || pageable(last));
}

/* Under r->lock: its buffers and threads, unless made or failed already. */
static void ring_make(ring_t *r)
{
    if (r->buf || r->failed)
        return;
    bool ok = !CUDA_OK(cudaHostAlloc((void **)&r->buf, SLOTS * SLOT_BYTES, cudaHostAllocPortable));
    for (int i = 0; i < SLOTS && ok; i++)
        ok = !CUDA_OK(cudaEventCreateWithFlags(&r->done[i], cudaEventDisableTiming));
    if (!ok) {
        cudaGetLastError();
        for (int i = 0; i < SLOTS; i++)
            if (r->done[i])
                cudaEventDestroy(r->done[i]);
        cudaFreeHost(r->buf);
        memset(r->done, 0, sizeof r->done);
        r->buf = NULL;
        r->failed = true;
    } else {
        start_helpers(r);
    }
}

void stage_prepare(int dev)
{
    if (dev < 0 || dev >= TESS_MAX_DEVICES)
        return;
    pthread_once(&rings_once, rings_init);
    for (int dir = 0; dir < 2; dir++) {
        ring_t *r = &rings[dev][dir];
        pthread_mutex_lock(&r->lock);
        ring_make(r);
        pthread_mutex_unlock(&r->lock);
    }
}

/* The ring, locked and with its buffers made, or NULL (nothing held).  They
 * are made here only where the device's open did not make them
 * (TESS_STAGING=0, whose copies over the edge of a locked range are staged
 * all the same). */
static ring_t *ring_take(int dev, int dir)
{
    if (dev < 0 || dev >= TESS_MAX_DEVICES)
        return NULL;
    pthread_once(&rings_once, rings_init);
    ring_t *r = &rings[dev][dir];
    pthread_mutex_lock(&r->lock);
    ring_make(r);
    if (!r->buf) {
        pthread_mutex_unlock(&r->lock);
        return NULL;
    }
    return r;
}

void stage_release(int dev)
{
    if (dev < 0 || dev >= TESS_MAX_DEVICES)
        return;
    pthread_once(&rings_once, rings_init);
    for (int d = 0; d < 2; d++) {
        ring_t *r = &rings[dev][d];
        pthread_mutex_lock(&r->lock);
        if (r->buf) {
            stop_helpers(r);
            for (int i = 0; i < SLOTS; i++)
                cudaEventDestroy(r->done[i]);
            cudaFreeHost(r->buf);
        }
        memset(r->done, 0, sizeof r->done);
        r->buf = NULL;
        r->failed = false;
        r->next = 0;
        pthread_mutex_unlock(&r->lock);
    }
}

/* ---- copies of column ranges on several threads ---------------------------- */

static void copy_cols(ring_t *r, char *dst, size_t dld, const char *src, size_t sld, size_t row,
                      int64_t cols)
{
    int nt = row * (size_t)cols < SPLIT_MIN ? 1 : r->nhelpers + 1;
    if (nt > cols)
        nt = (int)cols;
    if (nt <= 1) {
        copy_part(&(part_t){ dst, src, dld, sld, row, 0, cols });
        return;
    }
    pthread_mutex_lock(&r->pool_lock);
    for (int i = 0; i < nt; i++)
        r->part[i] = (part_t){ dst, src, dld, sld, row, cols * i / nt, cols * (i + 1) / nt };
    r->nparts = nt;
    r->pending = r->nhelpers;
    r->round++;
    pthread_cond_broadcast(&r->go);
    pthread_mutex_unlock(&r->pool_lock);
    copy_part(&r->part[0]);
    pthread_mutex_lock(&r->pool_lock);
    while (r->pending)
        pthread_cond_wait(&r->finished, &r->pool_lock);
    pthread_mutex_unlock(&r->pool_lock);
}

/* ---- the two directions ---------------------------------------------------- */

int stage_h2d(int dev, cudaStream_t s, void *dst, const rt_block_t *b)
{
    size_t row = (size_t)b->m * b->elsize, sld = (size_t)b->ld * b->elsize;
    if (row > SLOT_BYTES)
        return -1;
    ring_t *r = ring_take(dev, 0);
    if (!r)
        return -1;
    int64_t per = (int64_t)(SLOT_BYTES / row);
    int err = 0;
    for (int64_t c0 = 0; c0 < b->n && !err; c0 += per) {
        int64_t nc = b->n - c0 < per ? b->n - c0 : per;
        int i = r->next;
        r->next = (i + 1) % SLOTS;
        char *slot = r->buf + (size_t)i * SLOT_BYTES;
        if ((err = CUDA_OK(cudaEventSynchronize(r->done[i]))))
            break;
        copy_cols(r, slot, row, b->ptr + (size_t)c0 * sld, sld, row, nc);
        err = CUDA_OK(cudaMemcpyAsync((char *)dst + (size_t)c0 * row, slot, (size_t)nc * row,
                                      cudaMemcpyHostToDevice, s));
        if (!err)
            err = CUDA_OK(cudaEventRecord(r->done[i], s));
    }
    pthread_mutex_unlock(&r->lock);
    return err;
}

/* Each slot's DMA is queued before the previous slot is emptied, so that the
 * two overlap. */
int stage_d2h(int dev, cudaStream_t s, const rt_block_t *b, const void *src, int64_t r0, int64_t r1)
{
    size_t row = (size_t)(r1 - r0) * b->elsize, dld = (size_t)b->ld * b->elsize;
    size_t sld = (size_t)b->m * b->elsize, off = (size_t)r0 * b->elsize;
    if (row > SLOT_BYTES)
        return -1;
    ring_t *r = ring_take(dev, 1);
    if (!r)
        return -1;
    int64_t per = (int64_t)(SLOT_BYTES / row), prev_c0 = 0, prev_nc = 0;
    int err = 0, prev = -1;
    for (int64_t c0 = 0;; c0 += per) {
        int64_t nc = c0 >= b->n ? 0 : b->n - c0 < per ? b->n - c0 : per;
        int i = r->next;
        if (nc > 0) {
            r->next = (i + 1) % SLOTS;
            err = CUDA_OK(cudaMemcpy2DAsync(r->buf + (size_t)i * SLOT_BYTES, row,
                                            (const char *)src + off + (size_t)c0 * sld, sld, row,
                                            (size_t)nc, cudaMemcpyDeviceToHost, s));
            if (!err)
                err = CUDA_OK(cudaEventRecord(r->done[i], s));
        }
        if (prev >= 0 && !err) {
            if (!(err = CUDA_OK(cudaEventSynchronize(r->done[prev]))))
                copy_cols(r, b->ptr + off + (size_t)prev_c0 * dld, dld,
                          r->buf + (size_t)prev * SLOT_BYTES, row, row, prev_nc);
        }
        if (nc == 0 || err)
            break;
        prev = i;
        prev_c0 = c0;
        prev_nc = nc;
    }
    pthread_mutex_unlock(&r->lock);
    return err;
}
