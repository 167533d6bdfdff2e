/* Every other BLAS routine, served by the host BLAS (host.c) through the
 * trampolines (trampoline.S).  A 64-bit-integer
 * entry point (dgemm_64_) goes to the 64-bit host (TESS_BLAS64_LIB, else
 * libopenblas64_.so.0 or Debian's libopenblas64.so.0) when there is one, else
 * to the 32-bit host's routine: on the little-endian 64-bit machines these
 * trampolines exist for, a 32-bit routine reads the low half of each 64-bit
 * integer, which is the value when it fits in 32 bits.  Such a call keeps an
 * empty slot, so that it always passes through lg_fwd_resolve, which checks
 * its integer arguments first and refuses, through XERBLA, one that does not
 * fit. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "forward_list.h"
#include "legacy.h"

/* The slots trampoline.S defines, and the names they are filled from. */
#define LG_SLOT_DECL(sym) extern void *lg_slot_##sym __attribute__((visibility("hidden")));
#define LG_F77_SLOTS(name, sig) LG_SLOT_DECL(name##_) LG_SLOT_DECL(name##_64_)
#define LG_F77_SLOT32(name) LG_SLOT_DECL(name##_)
#define LG_CBLAS_SLOTS(name, sig) LG_SLOT_DECL(name) LG_SLOT_DECL(name##64_)
LG_F77_FORWARDED(LG_F77_SLOTS)
LG_F77_IAMAX(LG_F77_SLOT32)
LG_CBLAS_FORWARDED(LG_CBLAS_SLOTS)

typedef struct {
    void **slot;
    const char *name;   /* as exported, and as the host spells it */
    const char *name32; /* a 64-bit entry's 32-bit routine */
    const char *sig;    /* a 64-bit entry's argument classes (forward_list.h) */
    bool cblas;
} fwd_t;

#define LG_F77_FWD(n, sig)                                                                         \
    { &lg_slot_##n##_, #n "_", NULL, NULL, false },                                                \
        { &lg_slot_##n##_64_, #n "_64_", #n "_", sig, false },
#define LG_F77_FWD32(n) { &lg_slot_##n##_, #n "_", NULL, NULL, false },
#define LG_CBLAS_FWD(n, sig)                                                                       \
    { &lg_slot_##n, #n, NULL, NULL, true }, { &lg_slot_##n##64_, #n "64_", #n, sig, true },
static const fwd_t fwd[] = { LG_F77_FORWARDED(LG_F77_FWD) LG_F77_IAMAX(LG_F77_FWD32)
                                 LG_CBLAS_FORWARDED(LG_CBLAS_FWD) };
enum { NFWD = sizeof fwd / sizeof *fwd };
_Static_assert(NFWD <= UINT16_MAX, "by_slot holds 16-bit indices");

/* A 64-bit entry served by the 32-bit host: that routine, its slot left
 * empty.  by_slot lists the entries in the order of their slots' addresses,
 * for the search of each such call. */
static void *narrow[NFWD];
static uint16_t by_slot[NFWD];

static pthread_once_t fwd_once = PTHREAD_ONCE_INIT;

static int slot_order(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)fwd[*(const uint16_t *)a].slot;
    uintptr_t y = (uintptr_t)fwd[*(const uint16_t *)b].slot;
    return (x > y) - (x < y);
}

static void resolve_all(void)
{
    for (size_t i = 0; i < NFWD; i++) {
        const fwd_t *f = &fwd[i];
        void *p = lg_host_symbol(f->name, f->name32 != NULL);
        if (!p && f->name32)
            narrow[i] = lg_host_symbol(f->name32, false);
        __atomic_store_n(f->slot, p, __ATOMIC_RELEASE);
        by_slot[i] = (uint16_t)i;
    }
    qsort(by_slot, NFWD, sizeof *by_slot, slot_order);
}

static const fwd_t *find(void **slot)
{
    size_t lo = 0, hi = NFWD;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const fwd_t *f = &fwd[by_slot[mid]];
        if (f->slot == slot)
            return f;
        if ((uintptr_t)f->slot < (uintptr_t)slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* What a refused call runs instead: nothing, with a result of zero in the
 * return registers of a real or complex function, or of CBLAS's I?AMAX. */
static double _Complex refused(void)
{
    return 0;
}

static size_t refused_index(void)
{
    return 0;
}

/* The registers the two calling conventions pass integer and address
 * arguments in, before the stack; reals have 8 registers of their own. */
#if defined(__x86_64__)
enum { GPR_ARGS = 6 };
#else
enum { GPR_ARGS = 8 };
#endif
enum { FP_ARGS = 8 };

/* The position (from 1) of the first integer argument of a 64-bit call that
 * does not fit in 32 bits, or 0.  gpr holds the integer argument registers as
 * the caller left them, stack the caller's arguments past them (8 bytes
 * each).  Fortran passes every argument by address; CBLAS passes integers and
 * reals by value. */
static int wide_argument(const fwd_t *f, const uint64_t *gpr, const uint64_t *stack)
{
    int g = 0, fp = 0, st = 0;
    for (int k = 0; f->sig[k]; k++) {
        uint64_t v;
        if (f->sig[k] == 'f') {
            if (fp < FP_ARGS)
                fp++;
            else
                st++;
            continue;
        }
        v = g < GPR_ARGS ? gpr[g++] : stack[st++];
        if (f->sig[k] != 'i')
            continue;
        int64_t x = f->cblas ? (int64_t)v : *(const int64_t *)(uintptr_t)v;
        if (x != (int32_t)x)
            return k + 1;
    }
    return 0;
}

/* XERBLA's report of a refused call: Fortran's routine name in capitals,
 * blank-padded to 6 as reference BLAS writes it; CBLAS's without the 64.
 * The handler of the entry's own integer width is told. */
static void refuse(const fwd_t *f, int position)
{
    char name[32];
    const char *base = f->name32 ? f->name32 : f->name;
    bool wide = f->name32 != NULL;
    size_t len = strcspn(base, "_");
    if (f->cblas) {
        lg_cblas_xerbla(wide, position, base);
        return;
    }
    for (size_t i = 0; i < len && i < sizeof name; i++)
        name[i] = (char)toupper((unsigned char)base[i]);
    for (; len < 6; len++)
        name[len] = ' ';
    if (wide) {
        int64_t info = position;
        xerbla_64_(name, &info, len);
    } else {
        int32_t info = position;
        xerbla_(name, &info, len);
    }
}

static void *refused_call(const fwd_t *f)
{
    return lg_sym(strncmp(f->name, "cblas_i", 7) ? (lg_fn_t)refused : (lg_fn_t)refused_index);
}

/* Called by lg_fwd_slow with an empty slot, the caller's integer argument
 * registers and its stack arguments; returns where the call goes.  A routine
 * the host BLAS lacks cannot be served at all: the call is refused through
 * its error handler with position 0 (no argument is at fault), does
 * nothing and returns zero. */
__attribute__((visibility("hidden"))) void *lg_fwd_resolve(void **slot, const uint64_t *gpr,
                                                           const uint64_t *stack);

void *lg_fwd_resolve(void **slot, const uint64_t *gpr, const uint64_t *stack)
{
    pthread_once(&fwd_once, resolve_all);
    void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (p)
        return p;
    const fwd_t *f = find(slot);
    if (f && narrow[f - fwd]) {
        int position = wide_argument(f, gpr, stack);
        if (!position)
            return narrow[f - fwd];
        refuse(f, position);
        return refused_call(f);
    }
    lg_report("the host BLAS (TESS_BLAS_LIB%s) has no %s",
              f && f->name32 ? ", TESS_BLAS64_LIB" : "", f ? f->name : "?");
    if (!f) /* not a slot of this library: nothing to name */
        return lg_sym((lg_fn_t)refused);
    refuse(f, 0);
    return refused_call(f);
}

/* I?AMAX with 64-bit integers: the 64-bit host's, else the 32-bit host's on
 * narrowed arguments, refused like the trampolines' calls when one does not
 * fit, its INTEGER result widened (a 32-bit function leaves the upper half of
 * a 64-bit return register undefined). */
#define LG_IAMAX64(P, U, T)                                                                        \
    static int64_t (*P##amax64)(const int64_t *, const T *, const int64_t *);                      \
    static int32_t (*P##amax32)(const int32_t *, const T *, const int32_t *);                      \
    static pthread_once_t P##amax_once = PTHREAD_ONCE_INIT;                                        \
    static void P##amax_find(void)                                                                 \
    {                                                                                              \
        *(void **)&P##amax64 = lg_host_symbol("i" #P "amax_64_", true);                            \
        *(void **)&P##amax32 = lg_host_symbol("i" #P "amax_", false);                              \
    }                                                                                              \
    LG_EXPORT int64_t i##P##amax_64_(const int64_t *n, const T *x, const int64_t *incx)            \
    {                                                                                              \
        pthread_once(&P##amax_once, P##amax_find);                                                 \
        if (P##amax64)                                                                             \
            return P##amax64(n, x, incx);                                                          \
        if (*n <= 0 || *incx <= 0)                                                                 \
            return 0;                                                                              \
        if (!P##amax32) {                                                                          \
            int64_t info = 0;                                                                      \
            lg_report("the host BLAS (TESS_BLAS_LIB, TESS_BLAS64_LIB) has no i" #P "amax_64_");    \
            xerbla_64_("I" #U "AMAX", &info, 6);                                                   \
            return 0;                                                                              \
        }                                                                                          \
        if (*n > INT32_MAX || *incx > INT32_MAX) {                                                 \
            int64_t info = *n > INT32_MAX ? 1 : 3;                                                 \
            xerbla_64_("I" #U "AMAX", &info, 6);                                                   \
            return 0;                                                                              \
        }                                                                                          \
        int32_t n32 = (int32_t)*n, inc32 = (int32_t)*incx;                                         \
        return P##amax32(&n32, x, &inc32);                                                         \
    }

LG_IAMAX64(s, S, float)
LG_IAMAX64(d, D, double)
LG_IAMAX64(c, C, float _Complex)
LG_IAMAX64(z, Z, double _Complex)
