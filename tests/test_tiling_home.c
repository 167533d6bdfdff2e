/* Where the tiles of a call's grid are homed (tile/tiling.h): on the
 * devices' p x q block-cyclic map by their own coordinates, unless the grid
 * is narrower or shorter than the map, when they are dealt to every device
 * in turn.  Checked on every map of 1 to 8 devices and every grid up to 9 x
 * 9 tiles, against the map's own rule: the device of coordinates (ti, tj)
 * is (ti mod p) q + (tj mod q). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tiling.h"

enum { MAX_DEV = 8, MAX_TILES = 9 };

static int64_t device_of(int64_t i, int64_t j, int64_t mt, int64_t nt, int64_t p, int64_t q)
{
    int64_t ti, tj;
    tiling_home(i, j, mt, nt, p, q, &ti, &tj);
    return (ti % p) * q + tj % q;
}

/* Tiles per device of an mt x nt grid on a p x q map. */
static void count(int64_t mt, int64_t nt, int64_t p, int64_t q, int64_t per[MAX_DEV])
{
    for (int64_t d = 0; d < p * q; d++)
        per[d] = 0;
    for (int64_t j = 0; j < nt; j++)
        for (int64_t i = 0; i < mt; i++)
            per[device_of(i, j, mt, nt, p, q)]++;
}

/* The maps the runtime makes: p the largest divisor of the count up to its
 * square root (runtime/api.c). */
static void map_of(int64_t ndev, int64_t *p, int64_t *q)
{
    *p = 1;
    for (int64_t i = 1; i * i <= ndev; i++)
        if (ndev % i == 0)
            *p = i;
    *q = ndev / *p;
}

static void a_grid_as_wide_and_tall_as_the_map_keeps_its_own_coordinates(void **state)
{
    (void)state;
    for (int64_t ndev = 1; ndev <= MAX_DEV; ndev++) {
        int64_t p, q;
        map_of(ndev, &p, &q);
        for (int64_t mt = p; mt <= MAX_TILES; mt++)
            for (int64_t nt = q; nt <= MAX_TILES; nt++)
                for (int64_t j = 0; j < nt; j++)
                    for (int64_t i = 0; i < mt; i++)
                        assert_int_equal(device_of(i, j, mt, nt, p, q), (i % p) * q + j % q);
    }
}

/* A grid of fewer tile columns than the map has columns (one column of
 * tiles on two or four devices) or fewer rows than it has rows: every
 * device homes tiles as long as there are as many tiles as devices, and no
 * device homes two more than another. */
static void a_narrow_or_short_grid_is_dealt_to_every_device(void **state)
{
    (void)state;
    int64_t folded = 0;
    for (int64_t ndev = 1; ndev <= MAX_DEV; ndev++) {
        int64_t p, q;
        map_of(ndev, &p, &q);
        for (int64_t mt = 1; mt <= MAX_TILES; mt++)
            for (int64_t nt = 1; nt <= MAX_TILES; nt++) {
                if (nt >= q && mt >= p)
                    continue;
                folded++;
                int64_t per[MAX_DEV], least = mt * nt, most = 0;
                count(mt, nt, p, q, per);
                for (int64_t d = 0; d < ndev; d++) {
                    least = per[d] < least ? per[d] : least;
                    most = per[d] > most ? per[d] : most;
                }
                if (mt * nt >= ndev)
                    assert_true(least >= 1);
                assert_true(most - least <= 1);
            }
    }
    assert_true(folded > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_grid_as_wide_and_tall_as_the_map_keeps_its_own_coordinates),
        cmocka_unit_test(a_narrow_or_short_grid_is_dealt_to_every_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
