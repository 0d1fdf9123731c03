/* common/yee_mpi_env.c -- Open MPI settings for a singleton (common/yee_mpi_env.h). */
#include "common/yee_mpi_env.h"

#include <stdlib.h>

static const char *const names[2] = {"OMPI_MCA_pml", "OMPI_MCA_ess_singleton_isolated"};
static const char *const values[2] = {"ob1", "1"};

int yee_mpi_env_singleton_set(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK") ||
        getenv("PMI_SIZE"))
        return 0; /* a launcher started this process: its job decides */
    int set = 0;
    for (int q = 0; q < 2; q++)
        if (!getenv(names[q]) && setenv(names[q], values[q], 0) == 0)
            set |= 1 << q;
    return set;
}

void yee_mpi_env_singleton_restore(int set)
{
    for (int q = 0; q < 2; q++)
        if (set & (1 << q))
            unsetenv(names[q]);
}
