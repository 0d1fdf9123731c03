/* tests/unit/mpi_env.c -- common/yee_mpi_env.c: a singleton gets Open MPI's ob1 layer and no
 * daemon for its MPI_Init, and loses them again afterwards; a process a launcher started (a
 * rank variable set) and a user's own choice are left alone. Then a real singleton MPI_Init
 * with the settings, as yee's main does (it must start and finish). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/yee_mpi_env.h"

static int failures;

static void expect(int cond, const char *what)
{
    if (!cond) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

static int is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return value ? v && strcmp(v, value) == 0 : v == NULL;
}

int main(int argc, char **argv)
{
    const char *launch[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
    for (int q = 0; q < 4; q++)
        unsetenv(launch[q]);
    unsetenv("OMPI_MCA_pml");
    unsetenv("OMPI_MCA_ess_singleton_isolated");

    /* launched: nothing set */
    for (int q = 0; q < 4; q++) {
        setenv(launch[q], "0", 1);
        const int set = yee_mpi_env_singleton_set();
        expect(set == 0 && is("OMPI_MCA_pml", NULL), launch[q]);
        unsetenv(launch[q]);
    }
    /* the user's choice stays, and is not removed by the restore */
    setenv("OMPI_MCA_pml", "ucx", 1);
    int set = yee_mpi_env_singleton_set();
    expect(is("OMPI_MCA_pml", "ucx") && is("OMPI_MCA_ess_singleton_isolated", "1"),
           "user's pml kept, isolated set");
    yee_mpi_env_singleton_restore(set);
    expect(is("OMPI_MCA_pml", "ucx") && is("OMPI_MCA_ess_singleton_isolated", NULL),
           "restore removes only what it set");
    unsetenv("OMPI_MCA_pml");

    /* a singleton: both set for MPI_Init, both gone after */
    set = yee_mpi_env_singleton_set();
    expect(is("OMPI_MCA_pml", "ob1") && is("OMPI_MCA_ess_singleton_isolated", "1"),
           "singleton: ob1 and isolated");
    expect(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init with the settings");
    yee_mpi_env_singleton_restore(set);
    expect(is("OMPI_MCA_pml", NULL) && is("OMPI_MCA_ess_singleton_isolated", NULL),
           "singleton: restored after MPI_Init");
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    expect(size == 1, "one rank");
    MPI_Finalize();
    printf("%s unit_mpi_env\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
