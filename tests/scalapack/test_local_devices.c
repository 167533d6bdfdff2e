/* TESS_DEVICES=cuda:local: which of the GPUs a process sees it takes, from
 * the local rank its launcher gives it, and how many processes share each
 * (config_local_gpus, runtime/config_env.c, compiled in here: no GPU needed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>
#include "rt.h"

static const char *const launcher_vars[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK",
    "OMPI_COMM_WORLD_LOCAL_SIZE",
    "MPI_LOCALRANKID",
    "MPI_LOCALNRANKS",
    "SLURM_LOCALID",
    "SLURM_STEP_TASKS_PER_NODE",
    "SLURM_TASKS_PER_NODE",
    "SLURM_NODEID",
    "CUDA_VISIBLE_DEVICES",
};

static int clear_env(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof launcher_vars / sizeof *launcher_vars; i++)
        unsetenv(launcher_vars[i]);
    return 0;
}

static void ompi(int rank, int size)
{
    char r[16], s[16];
    snprintf(r, sizeof r, "%d", rank);
    snprintf(s, sizeof s, "%d", size);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", r, 1);
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", s, 1);
}

/* The GPUs config_local_gpus gives with count visible, as first..last. */
static void expect(int count, int first, int last, int share)
{
    rt_config_t c = { 0 };
    assert_int_equal(config_local_gpus(count, &c), 0);
    assert_true(c.cuda);
    assert_int_equal(c.ndev, last - first + 1);
    for (int i = 0; i < c.ndev; i++)
        assert_int_equal(c.cuda_ids[i], first + i);
    assert_int_equal(c.gpu_share, share);
}

static int local_error(int count)
{
    rt_config_t c = { 0 };
    return config_local_gpus(count, &c);
}

static void no_launcher_takes_every_gpu(void **state)
{
    (void)state;
    expect(4, 0, 3, 1);
    expect(1, 0, 0, 1);
}

static void gpus_split_evenly_among_ranks(void **state)
{
    (void)state;
    ompi(1, 4);
    expect(8, 2, 3, 1);
    ompi(0, 3);
    expect(8, 0, 1, 1);
    ompi(1, 3);
    expect(8, 2, 4, 1);
    ompi(2, 3);
    expect(8, 5, 7, 1);
    ompi(3, 4);
    expect(4, 3, 3, 1);
}

static void ranks_share_gpus_evenly(void **state)
{
    (void)state;
    for (int r = 0; r < 4; r++) {
        ompi(r, 4);
        expect(2, r / 2, r / 2, 2);
    }
    for (int r = 0; r < 8; r++) {
        ompi(r, 8);
        expect(1, 0, 0, 8);
    }
    /* three ranks on two GPUs: ranks 0 and 1 on GPU 0, rank 2 alone on GPU 1 */
    ompi(0, 3);
    expect(2, 0, 0, 2);
    ompi(1, 3);
    expect(2, 0, 0, 2);
    ompi(2, 3);
    expect(2, 1, 1, 1);
}

static void a_launcher_setting_cuda_visible_devices_per_rank_is_followed(void **state)
{
    (void)state;
    setenv("CUDA_VISIBLE_DEVICES", "3", 1);
    ompi(3, 4);
    expect(1, 0, 0, 1);
    setenv("CUDA_VISIBLE_DEVICES", "4,5", 1);
    ompi(2, 4);
    expect(2, 0, 1, 1);
    /* a list naming at least as many GPUs as ranks is the node's, split as usual */
    setenv("CUDA_VISIBLE_DEVICES", "0,1,2,3", 1);
    ompi(1, 2);
    expect(4, 2, 3, 1);
}

static void mpich_and_slurm_are_read(void **state)
{
    (void)state;
    setenv("MPI_LOCALRANKID", "1", 1);
    setenv("MPI_LOCALNRANKS", "2", 1);
    expect(4, 2, 3, 1);
    clear_env(NULL);
    setenv("SLURM_LOCALID", "3", 1);
    setenv("SLURM_NODEID", "3", 1);
    setenv("SLURM_TASKS_PER_NODE", "9", 1);
    setenv("SLURM_STEP_TASKS_PER_NODE", "2(x3),4", 1); /* the step's, on node 3: 4 */
    expect(2, 1, 1, 2);
    setenv("SLURM_NODEID", "1", 1); /* 2 tasks there: no rank 3 */
    assert_int_equal(local_error(2), TESS_ECONFIG);
    /* Open MPI under Slurm sets both; Open MPI's come first */
    ompi(0, 1);
    expect(2, 0, 1, 1);
}

static void ranks_of_unknown_number_take_one_gpu_each_in_turn(void **state)
{
    (void)state;
    setenv("SLURM_LOCALID", "5", 1);
    expect(4, 1, 1, 1);
    clear_env(NULL);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);
    expect(4, 2, 2, 1);
}

static void nonsense_is_refused(void **state)
{
    (void)state;
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "one", 1);
    assert_int_equal(local_error(2), TESS_ECONFIG);
    ompi(2, 2);
    assert_int_equal(local_error(2), TESS_ECONFIG);
    ompi(-1, 2);
    assert_int_equal(local_error(2), TESS_ECONFIG);
    clear_env(NULL);
    setenv("SLURM_LOCALID", "0", 1);
    const char *bad[] = { "2(x", "2(x0)", "0", "2,", "2(x3)x", "x" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("SLURM_TASKS_PER_NODE", bad[i], 1);
        assert_int_equal(local_error(2), TESS_ECONFIG);
    }
    clear_env(NULL);
    assert_int_equal(local_error(0), TESS_ENODEV);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(no_launcher_takes_every_gpu, clear_env),
        cmocka_unit_test_setup(gpus_split_evenly_among_ranks, clear_env),
        cmocka_unit_test_setup(ranks_share_gpus_evenly, clear_env),
        cmocka_unit_test_setup(a_launcher_setting_cuda_visible_devices_per_rank_is_followed,
                               clear_env),
        cmocka_unit_test_setup(mpich_and_slurm_are_read, clear_env),
        cmocka_unit_test_setup(ranks_of_unknown_number_take_one_gpu_each_in_turn, clear_env),
        cmocka_unit_test_setup(nonsense_is_refused, clear_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
