/* The block directory: every tile view the runtime has seen, found exactly
 * by (pointer, shape, ld, element size) through a hash table, and by address
 * range through arrays sorted by start address, which is how views that
 * share memory without being the same tile are found.
 *
 * The range arrays are one per span class (blocks whose byte span has the
 * same bit length): a search for what reaches into an address looks back in
 * each class only as far as that class's blocks can reach.  One array with
 * the widest span ever seen as its reach made every lookup scan every block
 * within that width, for good, once a strided vector piece spanning a whole
 * matrix had been made. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

/* Span class c holds the blocks whose byte span is below 2^c and at least 2^(c-1). */
#define NCLASSES 65

typedef struct {
    rt_block_t **sorted; /* by ptr */
    size_t n, cap;
} span_class_t;

static struct {
    rt_block_t **hash;
    size_t nhash; /* power of two */
    size_t n;     /* blocks, in all classes */
    span_class_t cls[NCLASSES];
} dir;

size_t block_span_bytes(int64_t m, int64_t n, int64_t ld, size_t es)
{
    return ((size_t)(n - 1) * (size_t)ld + (size_t)m) * es;
}

bool block_view_fits(const void *p, int64_t m, int64_t n, int64_t ld, size_t es)
{
    if (m <= 0 || n <= 0)
        return true;
    uint64_t cols, elems, bytes;
    if (ld < m || __builtin_mul_overflow((uint64_t)(n - 1), (uint64_t)ld, &cols) ||
        __builtin_add_overflow(cols, (uint64_t)m, &elems) ||
        __builtin_mul_overflow(elems, (uint64_t)es, &bytes) || bytes > PTRDIFF_MAX)
        return false;
    return (uintptr_t)p <= UINTPTR_MAX - bytes;
}

static size_t hash_of(const char *p, int64_t m, int64_t n, int64_t ld)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)m * 31 + (uint64_t)n) * 0xC2B2AE3D27D4EB4Full + (uint64_t)ld;
    return (size_t)(h ^ (h >> 29));
}

int block_dir_init(void)
{
    memset(&dir, 0, sizeof dir);
    dir.nhash = 1024;
    dir.hash = calloc(dir.nhash, sizeof *dir.hash);
    return dir.hash ? 0 : TESS_ENOMEM;
}

void block_dir_clear(void)
{
    for (int c = 0; c < NCLASSES; c++)
        while (dir.cls[c].n)
            block_remove(dir.cls[c].sorted[dir.cls[c].n - 1]);
}

void block_dir_free(void)
{
    block_dir_clear();
    free(dir.hash);
    for (int c = 0; c < NCLASSES; c++)
        free(dir.cls[c].sorted);
    memset(&dir, 0, sizeof dir);
}

static void rehash(void)
{
    size_t nh = dir.nhash * 2;
    rt_block_t **h = calloc(nh, sizeof *h);
    if (!h)
        return; /* longer chains, still correct */
    for (size_t i = 0; i < dir.nhash; i++) {
        for (rt_block_t *b = dir.hash[i], *next; b; b = next) {
            next = b->hnext;
            size_t k = hash_of(b->ptr, b->m, b->n, b->ld) & (nh - 1);
            b->hnext = h[k];
            h[k] = b;
        }
    }
    free(dir.hash);
    dir.hash = h;
    dir.nhash = nh;
}

static int span_class(size_t span)
{
    return span ? 64 - __builtin_clzll((unsigned long long)span) : 0;
}

static span_class_t *class_of(const rt_block_t *b)
{
    return &dir.cls[span_class(block_span_bytes(b->m, b->n, b->ld, b->elsize))];
}

/* First index of class k whose block starts at or after address a. */
static size_t lower_bound(const span_class_t *k, uintptr_t a)
{
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((uintptr_t)k->sorted[mid]->ptr < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Exact test for two views of one element size and ld: rows and columns are
 * compared.  Otherwise only the address ranges are, which may order two
 * disjoint views but never misses a shared element. */
static bool block_views_overlap(const char *p1, int64_t m1, int64_t n1, int64_t ld1, size_t es1,
                                const char *p2, int64_t m2, int64_t n2, int64_t ld2, size_t es2)
{
    if (m1 <= 0 || n1 <= 0 || m2 <= 0 || n2 <= 0)
        return false;
    const char *e1 = p1 + block_span_bytes(m1, n1, ld1, es1);
    const char *e2 = p2 + block_span_bytes(m2, n2, ld2, es2);
    if (e1 <= p2 || e2 <= p1)
        return false;
    if (ld1 != ld2 || es1 != es2)
        return true;
    size_t es = es1;
    int64_t col = (int64_t)ld1 * (int64_t)es;
    int64_t d = p2 - p1;
    int64_t c0 = d >= 0 ? d / col : -((-d + col - 1) / col);
    int64_t r0 = d - c0 * col; /* byte row offset of view 2 in view 1, in [0, col) */
    int64_t rows1 = m1 * (int64_t)es, rows2 = m2 * (int64_t)es;
    /* view 2's columns sit at view-1 columns c0.. and rows [r0, r0 + rows2), which may
     * run past the column end into the next column, at rows [0, r0 + rows2 - col). */
    bool cols_a = c0 < n1 && c0 + n2 > 0;
    if (cols_a && r0 < rows1)
        return true;
    if (r0 + rows2 > col) {
        bool cols_b = c0 + 1 < n1 && c0 + 1 + n2 > 0;
        if (cols_b && r0 + rows2 - col > 0)
            return true;
    }
    return false;
}

static bool add_overlap(rt_block_t *a, rt_block_t *b)
{
    if (!rt_grow(&a->overlaps, &a->capoverlaps, a->noverlaps, sizeof *a->overlaps, 4))
        return false;
    a->overlaps[a->noverlaps++] = b;
    return true;
}

static void drop_overlap(rt_block_t *a, const rt_block_t *b)
{
    for (size_t i = 0; i < a->noverlaps; i++) {
        if (a->overlaps[i] == b) {
            a->overlaps[i] = a->overlaps[--a->noverlaps];
            return;
        }
    }
}

/* Calls fn on every block whose address range may meet [p, p + span) (a superset:
 * fn tests), until fn returns false; false then.  A block of class c spans less
 * than 2^c bytes, so in that class none starting 2^c or more before p does. */
static bool for_each_near(const char *p, size_t span, bool (*fn)(rt_block_t *, void *), void *arg)
{
    uintptr_t a = (uintptr_t)p;
    for (int c = 0; c < NCLASSES; c++) {
        const span_class_t *k = &dir.cls[c];
        if (!k->n)
            continue;
        uintptr_t reach = c < 64 ? ((uintptr_t)1 << c) - 1 : UINTPTR_MAX;
        for (size_t i = lower_bound(k, reach < a ? a - reach : 0);
             i < k->n && k->sorted[i]->ptr < p + span; i++)
            if (!fn(k->sorted[i], arg))
                return false;
    }
    return true;
}

static bool link_one(rt_block_t *b, void *arg)
{
    rt_block_t *nb = arg;
    if (b == nb || !block_views_overlap(nb->ptr, nb->m, nb->n, nb->ld, nb->elsize, b->ptr, b->m,
                                        b->n, b->ld, b->elsize))
        return true;
    if (!add_overlap(nb, b))
        return false;
    if (!add_overlap(b, nb)) {
        nb->noverlaps--;
        return false;
    }
    return true;
}

static bool link_overlaps(rt_block_t *nb)
{
    return for_each_near(nb->ptr, block_span_bytes(nb->m, nb->n, nb->ld, nb->elsize), link_one, nb);
}

static bool insert_sorted(rt_block_t *b)
{
    span_class_t *k = class_of(b);
    if (!rt_grow(&k->sorted, &k->cap, k->n, sizeof *k->sorted, 256))
        return false;
    size_t i = lower_bound(k, (uintptr_t)b->ptr);
    memmove(k->sorted + i + 1, k->sorted + i, (k->n - i) * sizeof *k->sorted);
    k->sorted[i] = b;
    k->n++;
    dir.n++;
    return true;
}

rt_block_t *block_find(const char *ptr, int64_t m, int64_t n, int64_t ld, size_t es)
{
    size_t k = hash_of(ptr, m, n, ld) & (dir.nhash - 1);
    for (rt_block_t *b = dir.hash[k]; b; b = b->hnext)
        if (b->ptr == ptr && b->m == m && b->n == n && b->ld == ld && b->elsize == es)
            return b;
    return NULL;
}

rt_block_t *block_get(char *ptr, int64_t m, int64_t n, int64_t ld, size_t es, int64_t ti,
                      int64_t tj)
{
    rt_block_t *b = block_find(ptr, m, n, ld, es);
    if (b)
        return b;
    b = calloc(1, sizeof *b + (size_t)rt.ndev * sizeof(rt_copy_t));
    if (!b)
        return NULL;
    *b = (rt_block_t){ .ptr = ptr,
                       .m = m,
                       .n = n,
                       .ld = ld,
                       .elsize = es,
                       .ti = ti,
                       .tj = tj,
                       .host_valid = true,
                       .host_rows = m };
    if (!link_overlaps(b) || !insert_sorted(b)) {
        for (size_t i = 0; i < b->noverlaps; i++)
            drop_overlap(b->overlaps[i], b);
        free(b->overlaps);
        free(b);
        return NULL;
    }
    size_t k = hash_of(ptr, m, n, ld) & (dir.nhash - 1);
    b->hnext = dir.hash[k];
    dir.hash[k] = b;
    if (dir.n > 2 * dir.nhash)
        rehash();
    return b;
}

/* Whether b lies on the region's element grid (same ld and element size, a whole number of
 * elements from p), so that its rows and columns are the region's: a block part of an element
 * off has bytes in one more region row than its rows say. */
static bool on_grid(const char *p, int64_t ld, size_t es, const rt_block_t *b)
{
    return b->ld == ld && b->elsize == es && (b->ptr - p) % (ptrdiff_t)es == 0;
}

/* Whether the part of the region [0,m) x [0,n) that view b covers meets the
 * requested triangle.  Off the region's grid the rows are unknown: say yes. */
static bool meets_part(tess_part_t part, const char *p, int64_t m, int64_t n, int64_t ld, size_t es,
                       const rt_block_t *b)
{
    if (part == TessAll || !on_grid(p, ld, es, b))
        return true;
    int64_t d = (b->ptr - p) / (int64_t)es;
    int64_t c0 = d >= 0 ? d / ld : -((-d + ld - 1) / ld), r0 = d - c0 * ld;
    if (r0 + b->m > ld)
        return true; /* its columns wrap into the next region column */
    int64_t ra = r0 > 0 ? r0 : 0, rb = r0 + b->m < m ? r0 + b->m : m;
    int64_t ca = c0 > 0 ? c0 : 0, cb = c0 + b->n < n ? c0 + b->n : n;
    if (ra >= rb || ca >= cb)
        return false;
    return part == TessUpperPart ? ra <= cb - 1 : rb - 1 >= ca;
}

static bool inside(const char *p, int64_t m, int64_t n, int64_t ld, size_t es, const rt_block_t *b)
{
    if (!on_grid(p, ld, es, b) || b->ptr < p)
        return false;
    int64_t d = (b->ptr - p) / (int64_t)es;
    int64_t c0 = d / ld, r0 = d - c0 * ld;
    return r0 + b->m <= m && c0 + b->n <= n;
}

/* block_foreach_in's region and the blocks found in it so far. */
typedef struct {
    tess_part_t part;
    const char *p;
    int64_t m, n, ld;
    size_t es;
    rt_block_t **hits;
    size_t cnt, cap;
} region_t;

static bool collect(rt_block_t *b, void *arg)
{
    region_t *r = arg;
    if (!block_views_overlap(r->p, r->m, r->n, r->ld, r->es, b->ptr, b->m, b->n, b->ld,
                             b->elsize) ||
        !meets_part(r->part, r->p, r->m, r->n, r->ld, r->es, b))
        return true;
    if (!rt_grow(&r->hits, &r->cap, r->cnt, sizeof *r->hits, 64))
        return false;
    r->hits[r->cnt++] = b;
    return true;
}

int block_foreach_in(tess_part_t part, const char *p, int64_t m, int64_t n, int64_t ld, size_t es,
                     void (*fn)(rt_block_t *, bool inside, void *), void *arg)
{
    if (m <= 0 || n <= 0)
        return 0;
    /* fn may remove the block it is given: collect first */
    region_t r = { part, p, m, n, ld, es, NULL, 0, 0 };
    if (!for_each_near(p, block_span_bytes(m, n, ld, es), collect, &r)) {
        free(r.hits);
        return TESS_ENOMEM;
    }
    for (size_t i = 0; i < r.cnt; i++)
        fn(r.hits[i], inside(p, m, n, ld, es, r.hits[i]), arg);
    free(r.hits);
    return 0;
}

void block_remove(rt_block_t *b)
{
    size_t k = hash_of(b->ptr, b->m, b->n, b->ld) & (dir.nhash - 1);
    for (rt_block_t **pp = &dir.hash[k]; *pp; pp = &(*pp)->hnext) {
        if (*pp == b) {
            *pp = b->hnext;
            break;
        }
    }
    span_class_t *c = class_of(b);
    for (size_t i = lower_bound(c, (uintptr_t)b->ptr); i < c->n && c->sorted[i]->ptr == b->ptr;
         i++) {
        if (c->sorted[i] == b) {
            memmove(c->sorted + i, c->sorted + i + 1, (c->n - i - 1) * sizeof *c->sorted);
            c->n--;
            dir.n--;
            break;
        }
    }
    for (size_t i = 0; i < b->noverlaps; i++)
        drop_overlap(b->overlaps[i], b);
    if (b->last_writer)
        task_unref(b->last_writer);
    if (b->flush)
        task_unref(b->flush);
    for (size_t i = 0; i < b->nreaders; i++)
        task_unref(b->readers[i]);
    cache_drop(b);
    free(b->readers);
    free(b->overlaps);
    free(b);
}
