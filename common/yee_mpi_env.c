/* common/yee_mpi_env.c -- Open MPI settings for a singleton (common/yee_mpi_env.h). */
#include "common/yee_mpi_env.h"

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { NAMES = 3, ISOLATED = 1, TMPDIR_BASE = 2 };
static const char *const names[NAMES] = {"OMPI_MCA_pml", "OMPI_MCA_ess_singleton_isolated",
                                         "OMPI_MCA_orte_tmpdir_base"};
static const char *const values[NAMES] = {"ob1", "1", NULL /* made per process */};

/* The private session directory base of this process (empty: none made). */
static char session_base[PATH_MAX];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* At exit, after MPI_Finalize (which removes Open MPI's own tree under the base when it can),
 * whatever is left: the directory is this process's alone. */
static void remove_session_base(void)
{
    if (session_base[0])
        nftw(session_base, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    session_base[0] = '\0';
}

/* A fresh directory for Open MPI's session files: an isolated singleton's are named by a job id
 * that is the same in every such process (jf.0/1), so without it two yee processes on one
 * machine share one directory, and the first to finish removes it under the other (its next
 * MPI_File_open fails: "unable to open file for mmap"). */
static const char *make_session_base(void)
{
    if (session_base[0])
        return session_base;
    const char *tmp = getenv("TMPDIR");
    snprintf(session_base, sizeof session_base, "%s/yee-mpi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(session_base)) {
        session_base[0] = '\0';
        return NULL;
    }
    atexit(remove_session_base);
    return session_base;
}

int yee_mpi_env_singleton_set(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK") ||
        getenv("PMI_SIZE"))
        return 0; /* a launcher started this process: its job decides */
    int set = 0;
    for (int q = 0; q < NAMES; q++) {
        if (getenv(names[q]))
            continue;
        if (q == TMPDIR_BASE && !(set & (1 << ISOLATED)))
            continue; /* a singleton with its daemon has a job id of its own */
        const char *value = q == TMPDIR_BASE ? make_session_base() : values[q];
        if (value && setenv(names[q], value, 0) == 0)
            set |= 1 << q;
    }
    return set;
}

void yee_mpi_env_singleton_restore(int set)
{
    for (int q = 0; q < NAMES; q++)
        if (set & (1 << q))
            unsetenv(names[q]);
}
