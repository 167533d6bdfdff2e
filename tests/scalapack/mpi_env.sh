# Open MPI settings for running on one machine without a network, sourced by
# the scripts here: root may launch (CI and GPU machines run as root), more
# ranks than cores are allowed, and ranks talk over shared memory only, with
# no single-copy mechanism (containers often forbid the ptrace that CMA needs).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
# The TESS_* variables of the environment as mpirun arguments, which the
# scripts here pass on to every rank.
tess_env_args=$(env | sed -n 's/^\(TESS_[A-Z0-9_]*\)=.*/-x \1/p')
