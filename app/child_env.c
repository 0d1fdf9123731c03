/* app/child_env.c -- the environment of the programs yee starts (app/child_env.h). */
#include "app/child_env.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

static char **captured; /* strdup'd copies, NULL-terminated; NULL: not captured */

void yee_child_env_capture(char **env)
{
    size_t n = 0;
    while (env && env[n])
        n++;
    char **copy = (char **)calloc(n + 1, sizeof *copy);
    if (!copy)
        return;
    for (size_t i = 0; i < n; i++)
        if (!(copy[i] = strdup(env[i]))) {
            for (size_t k = 0; k < i; k++)
                free(copy[k]);
            free(copy);
            return;
        }
    captured = copy; /* kept for the life of the process */
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int yee_child_env_is_launch_var(const char *e)
{
    if (starts(e, "OMPI_ALLOW_RUN_AS_ROOT"))
        return 0;
    if (starts(e, "OMPI_MCA_"))
        return starts(e, "OMPI_MCA_orte_") || starts(e, "OMPI_MCA_ess") ||
               starts(e, "OMPI_MCA_pmix") || starts(e, "OMPI_MCA_initial_wdir=");
    return starts(e, "OMPI_") || starts(e, "PMIX_") || starts(e, "PMI_") ||
           starts(e, "ORTE_") || starts(e, "HYDRA_") || starts(e, "MPI_LOCALRANKID=") ||
           starts(e, "MPI_LOCALNRANKS=");
}

/* "NAME=..." and "NAME=..." name the same variable */
static int same_name(const char *a, const char *b)
{
    const size_t n = strcspn(a, "=");
    return strncmp(a, b, n) == 0 && b[n] == '=';
}

char **yee_child_env(const char *const *extra, size_t nextra)
{
    char **base = captured ? captured : environ;
    size_t n = 0;
    while (base && base[n])
        n++;
    char **env = (char **)calloc(n + nextra + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int replaced = yee_child_env_is_launch_var(base[i]);
        for (size_t x = 0; x < nextra && !replaced; x++)
            replaced = same_name(extra[x], base[i]);
        if (!replaced)
            env[k++] = base[i];
    }
    for (size_t x = 0; x < nextra; x++)
        env[k++] = (char *)extra[x];
    env[k] = NULL;
    return env;
}
