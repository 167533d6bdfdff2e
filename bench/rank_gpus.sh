#!/bin/sh
# Usage (under mpirun): rank_gpus.sh GPUS PRELOAD PROGRAM [ARG ...]
# Runs PROGRAM with LD_PRELOAD=PRELOAD and CUDA_VISIBLE_DEVICES set to this
# rank's share of the node's GPUS GPUs, by the rule of TESS_DEVICES=cuda:local
# (docs/scalapack.md): of g GPUs and l ranks, rank r sees GPUs r g / l up
# to (r + 1) g / l, and at least one.  For a library that takes every GPU it
# sees (NVBLAS), so that its ranks divide the GPUs as Tessera's do.  The
# preload is set here, not by mpirun, so that this shell runs without it.
set -eu
g=$1 preload=$2
shift 2
r=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-${SLURM_LOCALID:-0}}}
l=${OMPI_COMM_WORLD_LOCAL_SIZE:-${MPI_LOCALNRANKS:-1}}
first=$(( r * g / l ))
last=$(( (r + 1) * g / l ))
[ "$last" -gt "$first" ] || last=$(( first + 1 ))
CUDA_VISIBLE_DEVICES=$(seq -s, "$first" $(( last - 1 ))) LD_PRELOAD=$preload exec "$@"
