#!/bin/sh
# Runs PROGRAM on NP ranks of this machine, each rank bound to a core (two
# ranks to a core when there are more ranks than cores), with the TESS_*
# variables of the environment.  Exit status 77 (skipped) when mpirun or the
# program is missing (no Open MPI at build time).
#
#   run_mpi.sh NP PROGRAM [ARG...]
set -u
np=$1 program=$2
shift 2
if ! command -v mpirun > /dev/null 2>&1 || [ ! -x "$program" ]; then
    echo "run_mpi.sh: mpirun or $program is missing (openmpi-bin, libopenmpi-dev)"
    exit 77
fi
. "$(cd "$(dirname "$0")" && pwd)/mpi_env.sh"
# shellcheck disable=SC2086
exec mpirun -np "$np" --bind-to core:overload-allowed $tess_env_args "$program" "$@"
