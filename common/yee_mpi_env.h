/* common/yee_mpi_env.h -- Open MPI settings for a process no launcher started (a singleton).
 *
 * Open MPI's singleton MPI_Init probes the network transports (UCX, OFI) and forks a helper
 * daemon: 0.33 s of every `yee` command here, more than a small 2-D run takes to step (MPI_Init
 * alone: 0.33 s, 0.02 s with the two settings below). A singleton talks only to itself, so the
 * ob1 point-to-point layer and no daemon (it never spawns) lose nothing. Set them just before
 * MPI_Init and restore just after, so that no program started later (a user's mpirun from the
 * Python module, a sweep's jobs) inherits them. Under mpirun or srun (their rank variables in the
 * environment) and where the user set them, nothing changes. Not MPI-specific code: only the
 * environment; MPI implementations other than Open MPI ignore these names.
 *
 * An isolated singleton's job id is the same in every such process, and so is its session
 * directory: concurrent runs (a sweep's jobs, ctest -j) would share it, and the first to finish
 * removes it under the others. So with the isolated setting goes a session directory base of
 * the process's own (mkdtemp under $TMPDIR or /tmp; removed at exit, after MPI_Finalize), unless
 * the user set OMPI_MCA_orte_tmpdir_base.
 */
#ifndef YEE_COMMON_MPI_ENV_H
#define YEE_COMMON_MPI_ENV_H

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the singleton's settings the user did not set; returns which (for the restore). */
int yee_mpi_env_singleton_set(void);

/* Removes again what yee_mpi_env_singleton_set(void) set (its return value). */
void yee_mpi_env_singleton_restore(int set);

#ifdef __cplusplus
}
#endif

#endif
