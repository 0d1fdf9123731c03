/* tests/unit/mpi_env.c -- common/yee_mpi_env.c: a singleton gets Open MPI's ob1 layer and no
 * daemon for its MPI_Init, and loses them again afterwards; a process a launcher started (a
 * rank variable set) and a user's own choice are left alone. Then a real singleton MPI_Init
 * with the settings, as yee's main does (it must start and finish), whose session files go to a
 * directory of its own that is gone once the process has exited (two concurrent singletons
 * must not share one: the first to finish would remove it under the other). */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

static int is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether directory `dir` holds an entry whose name starts with `prefix`. */
static int holds(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        found = strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return found;
}

/* A child process sets the singleton's settings and exits: its session directory base must
 * have existed and be gone after it. */
static void check_base_removed_at_exit(void)
{
    int fd[2];
    if (pipe(fd) != 0)
        return;
    const pid_t child = fork();
    if (child == 0) {
        close(fd[0]);
        yee_mpi_env_singleton_set();
        const char *base = getenv("OMPI_MCA_orte_tmpdir_base");
        const char *sent = is_dir(base) ? base : "";
        if (write(fd[1], sent, strlen(sent) + 1) < 0)
            _exit(2);
        exit(0); /* atexit handlers run */
    }
    close(fd[1]);
    char base[4096] = "";
    const ssize_t got = read(fd[0], base, sizeof base - 1);
    close(fd[0]);
    int status = 0;
    waitpid(child, &status, 0);
    expect(got > 1 && base[0] == '/', "child: a session directory base made");
    expect(!is_dir(base), "child: its session directory base removed at exit");
}

int main(int argc, char **argv)
{
    const char *launch[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
    for (int q = 0; q < 4; q++)
        unsetenv(launch[q]);
    unsetenv("OMPI_MCA_pml");
    unsetenv("OMPI_MCA_ess_singleton_isolated");
    unsetenv("OMPI_MCA_orte_tmpdir_base");
    check_base_removed_at_exit();

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
    char base[4096] = "";
    const char *b = getenv("OMPI_MCA_orte_tmpdir_base");
    snprintf(base, sizeof base, "%s", b ? b : "");
    expect(is_dir(base) && strstr(base, "/yee-mpi-") != NULL,
           "singleton: a session directory base of its own");
    expect(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init with the settings");
    yee_mpi_env_singleton_restore(set);
    expect(is("OMPI_MCA_pml", NULL) && is("OMPI_MCA_ess_singleton_isolated", NULL) &&
               is("OMPI_MCA_orte_tmpdir_base", NULL),
           "singleton: restored after MPI_Init");
    expect(holds(base, "ompi."), "singleton: Open MPI's session files under the base");
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    expect(size == 1, "one rank");
    MPI_Finalize();
    printf("%s unit_mpi_env\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
