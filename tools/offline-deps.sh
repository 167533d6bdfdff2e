#!/bin/sh
# The Debian packages Tessera builds, tests and benchmarks with, for a GPU
# machine that has no package registry.  Two steps:
#
#   tools/offline-deps.sh fetch DIR [mpi]
#       on a machine with Debian's package index: download the .deb files of
#       hwloc, OpenBLAS, cmocka, pkgconf, the gfortran runtime, and LAPACK's
#       and netlib's testers with the reference libraries they run on
#       (tests/legacy/gpu_testers.sh) into DIR (about 19 MB), and with "mpi"
#       those of Open MPI and ScaLAPACK (built
#       for Open MPI) into DIR/mpi (about 9 MB), for the ScaLAPACK example,
#       its tests and bench/scalapack_gpu.sh.  Carry DIR to the GPU machine
#       (.devdeps in the repository root is git-ignored for that).
#
#   . tools/offline-deps.sh use DIR
#       on the GPU machine, sourced (bash, or any shell that passes arguments
#       to "."): unpack DIR's .deb files into DIR/root and DIR/mpi's into
#       DIR/mpi/root, never into /, and point PATH, PKG_CONFIG_PATH, CPATH,
#       LIBRARY_PATH and LD_LIBRARY_PATH there (Open MPI's own variables too),
#       so that meson, the compilers and the programs find them.  Unpacked
#       once; later calls only set the variables.

offline_deps_fetch() (
    set -eu
    dir=${1:?usage: tools/offline-deps.sh fetch DIR [mpi]}
    mkdir -p "$dir"
    [ -n "$(ls /var/lib/apt/lists/ 2>/dev/null | grep -v lock | head -1)" ] || apt-get update >/dev/null
    cd "$dir"
    apt-get download \
        libopenblas0-pthread libopenblas-pthread-dev libopenblas-dev libgfortran5 \
        libhwloc15 libhwloc-dev libnuma1 libnuma-dev libltdl7 libltdl-dev \
        libcmocka0 libcmocka-dev pkgconf pkgconf-bin libpkgconf3 \
        liblapack-test liblapack3 libblas-test libblas3 >/dev/null
    if [ "${2:-}" = mpi ]; then
        mkdir -p mpi
        cd mpi
        # Open MPI's programs, libraries, headers and pkg-config files, PMIx
        # and libevent under them, and the libraries its network components
        # load (unused on one machine, but a component that cannot load is
        # reported); ScaLAPACK (with BLACS and PBLAS) built for Open MPI.
        apt-get download \
            openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libmunge2 \
            libevent-core-2.1-7 libevent-pthreads-2.1-7 \
            libucx0 libfabric1 libibverbs1 ibverbs-providers librdmacm1 libnl-3-200 \
            libnl-route-3-200 libpsm2-2 libpsm-infinipath1 \
            libscalapack-openmpi2.2 libscalapack-openmpi-dev >/dev/null
    fi
    ls -R "$PWD"
)

# DIR's .deb files into DIR/root, once.
offline_deps_unpack() {
    [ -d "$1/root/usr" ] && return 0
    mkdir -p "$1/root"
    for f in "$1"/*.deb; do
        dpkg -x "$f" "$1/root" || return 1
    done
}

offline_deps_use() {
    [ -n "${1:-}" ] || {
        echo "usage: . tools/offline-deps.sh use DIR" >&2
        return 2
    }
    _od_d=$(cd "$1" && pwd) || return 1
    _od_r=$_od_d/root _od_l=$_od_d/root/usr/lib/x86_64-linux-gnu
    if [ ! -d "$_od_r/usr" ]; then
        offline_deps_unpack "$_od_d" || return 1
        # .pc files say prefix=/usr: point them into the unpacked tree
        for pc in "$_od_l"/pkgconfig/*.pc "$_od_r"/usr/share/pkgconfig/*.pc; do
            [ -f "$pc" ] && sed -i "s|^prefix=/usr|prefix=$_od_r/usr|" "$pc"
        done
        # Debian gives OpenBLAS its usual names through alternatives
        for n in libblas.so.3 libblas.so liblapack.so.3 liblapack.so libopenblas.so.0 \
            libopenblas.so; do
            [ -e "$_od_l/openblas-pthread/$n" ] && ln -sf "$_od_l/openblas-pthread/$n" "$_od_l/$n"
        done
    fi
    export PATH="$_od_r/usr/bin:$PATH"
    export PKG_CONFIG_PATH="$_od_l/pkgconfig:$_od_r/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    export CPATH="$_od_r/usr/include:$_od_r/usr/include/x86_64-linux-gnu${CPATH:+:$CPATH}"
    export LIBRARY_PATH="$_od_l:$_od_l/openblas-pthread${LIBRARY_PATH:+:$LIBRARY_PATH}"
    export LD_LIBRARY_PATH="$_od_l:$_od_l/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    if ls "$_od_d"/mpi/*.deb >/dev/null 2>&1; then
        offline_deps_use_mpi "$_od_d/mpi" || return 1
    fi
    unset _od_d _od_r _od_l
}

# Open MPI relocated to DIR/mpi/root: OPAL_PREFIX, and PMIx's own variables
# (Debian's build looks for its plugins and help files under /usr); the names
# Debian's alternatives give (mpi.pc, which scalapack-openmpi.pc requires,
# mpirun and mpicc).  ScaLAPACK's BLAS and LAPACK are the OpenBLAS above.
offline_deps_use_mpi() {
    _od_m=$1/root _od_ml=$1/root/usr/lib/x86_64-linux-gnu
    if [ ! -d "$_od_m/usr" ]; then
        offline_deps_unpack "$1" || return 1
        for pc in "$_od_ml"/pkgconfig/*.pc "$_od_ml"/openmpi/lib/pkgconfig/*.pc; do
            [ -f "$pc" ] && sed -i "s|=/usr|=$_od_m/usr|" "$pc"
        done
        ln -sf ../openmpi/lib/pkgconfig/ompi-c.pc "$_od_ml/pkgconfig/mpi.pc"
        ln -sf orterun "$_od_m/usr/bin/mpirun"
        ln -sf opal_wrapper "$_od_m/usr/bin/mpicc"
    fi
    export PATH="$_od_m/usr/bin:$PATH"
    export OPAL_PREFIX="$_od_m/usr"
    export PMIX_INSTALL_PREFIX="$_od_ml/pmix2"
    export PMIX_MCA_mca_base_component_path="$_od_ml/pmix2/lib/pmix"
    export PKG_CONFIG_PATH="$_od_ml/pkgconfig:$PKG_CONFIG_PATH"
    export CPATH="$_od_ml/openmpi/include:$CPATH"
    export LIBRARY_PATH="$_od_ml:$_od_ml/openmpi/lib:$LIBRARY_PATH"
    export LD_LIBRARY_PATH="$_od_ml:$_od_ml/openmpi/lib:$LD_LIBRARY_PATH"
    unset _od_m _od_ml
}

case "${1:-}" in
fetch)
    shift
    offline_deps_fetch "$@"
    ;;
use)
    shift
    offline_deps_use "$@"
    ;;
*)
    echo "usage: tools/offline-deps.sh fetch DIR [mpi]   or   . tools/offline-deps.sh use DIR" >&2
    false
    ;;
esac
