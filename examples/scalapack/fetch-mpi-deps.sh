#!/bin/sh
# Download, on a machine with Debian's package index, the .deb files of Open
# MPI and ScaLAPACK that the ScaLAPACK example and benchmark need, to carry to
# a GPU machine that has no package registry (with ../shared/device's
# fetch-deps.sh for hwloc, OpenBLAS and cmocka).  use-mpi-deps.sh unpacks them
# there.  Usage, in the project root:
#   sh examples/scalapack/fetch-mpi-deps.sh .devdeps/mpi
# (inside .devdeps, which travels with the working tree; about 9 MB)
set -eu
dir=${1:?usage: fetch-mpi-deps.sh DIR}
mkdir -p "$dir"
cd "$dir"
[ -n "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock | head -1)" ] || apt-get update >/dev/null
# Open MPI's programs, libraries, headers and pkg-config files, PMIx and
# libevent under them, and the libraries its network components load (they
# stay unused on one machine, but a component that cannot load is reported);
# ScaLAPACK (with BLACS and PBLAS) built for Open MPI.
apt-get download \
  openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libmunge2 \
  libevent-core-2.1-7 libevent-pthreads-2.1-7 \
  libucx0 libfabric1 libibverbs1 ibverbs-providers librdmacm1 libnl-3-200 libnl-route-3-200 \
  libpsm2-2 libpsm-infinipath1 \
  libscalapack-openmpi2.2 libscalapack-openmpi-dev >/dev/null
ls
