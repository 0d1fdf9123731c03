/* app/child_env.h -- the environment yee hands to the programs it starts (sweep jobs, sbatch,
 * srun, mpirun).
 *
 * It is the environment yee was started with, less the variables of the MPI launch that started
 * it. Both halves matter: MPI_Init adds variables of its own to this process (an Open MPI
 * singleton sets PMIX_NAMESPACE, PMIX_SERVER_URI*, OMPI_MCA_ess=singleton, ...), and a child
 * that inherits them, or those of the mpirun that started yee, joins or impersonates that MPI
 * job. Through sbatch they reached every Slurm task: all took MPI job id 0 and one shared-memory
 * segment name, and concurrent two-rank tasks crashed in MPI_Comm_split_type.
 *
 * The user's own settings stay: OMPI_MCA_* parameters other than the launcher's (orte, ess,
 * pmix), OMPI_ALLOW_RUN_AS_ROOT*, and everything not of MPI. */
#ifndef YEE_APP_CHILD_ENV_H
#define YEE_APP_CHILD_ENV_H

#include <stddef.h>

/* Records the environment as it is now. Call first thing in main, before MPI_Init; without it
 * yee_child_env starts from the environment of the moment. */
void yee_child_env_capture(char **env);

/* 1 when NAME=VALUE belongs to an MPI launch (and is not handed on). */
int yee_child_env_is_launch_var(const char *entry);

/* The captured environment without the launch variables, with each of extra[0..nextra) (NAME=VALUE)
 * replacing any variable of that name: a calloc'd NULL-terminated array whose strings are
 * borrowed (the caller frees only the array); NULL when out of memory. */
char **yee_child_env(const char *const *extra, size_t nextra);

#endif
