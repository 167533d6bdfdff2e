# Source this on a machine without Open MPI and ScaLAPACK installed:
#   . examples/scalapack/use-mpi-deps.sh .devdeps/mpi
# Unpacks the .deb files that fetch-mpi-deps.sh put in DIR into DIR/root
# (never into /), relocates Open MPI there (OPAL_PREFIX, and PMIx's own
# variables: Debian's build looks for its plugins and help files under /usr),
# and points the compiler, linker, pkg-config and loader at it.  Source
# ../shared/device/use-deps.sh first for hwloc and OpenBLAS: ScaLAPACK's
# libblas.so.3 and liblapack.so.3 come from there.
_d=$(cd "${1:?usage: . use-mpi-deps.sh DIR}" && pwd)
_r="$_d/root"
_l="$_r/usr/lib/x86_64-linux-gnu"
if [ ! -d "$_r/usr" ]; then
  mkdir -p "$_r"
  for f in "$_d"/*.deb; do dpkg -x "$f" "$_r"; done
  # .pc files say /usr: make them point into the unpacked tree
  for pc in "$_l"/pkgconfig/*.pc "$_l"/openmpi/lib/pkgconfig/*.pc; do
    [ -f "$pc" ] && sed -i "s|=/usr|=$_r/usr|" "$pc"
  done
  # the names Debian's alternatives give: mpi.pc (which scalapack-openmpi.pc
  # requires), mpirun and mpicc
  ln -sf ../openmpi/lib/pkgconfig/ompi-c.pc "$_l/pkgconfig/mpi.pc"
  ln -sf orterun "$_r/usr/bin/mpirun"
  ln -sf opal_wrapper "$_r/usr/bin/mpicc"
fi
export PATH="$_r/usr/bin:$PATH"
export OPAL_PREFIX="$_r/usr"
export PMIX_INSTALL_PREFIX="$_l/pmix2"
export PMIX_MCA_mca_base_component_path="$_l/pmix2/lib/pmix"
export PKG_CONFIG_PATH="$_l/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export CPATH="$_l/openmpi/include${CPATH:+:$CPATH}"
export LIBRARY_PATH="$_l:$_l/openmpi/lib${LIBRARY_PATH:+:$LIBRARY_PATH}"
export LD_LIBRARY_PATH="$_l:$_l/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset _d _r _l
