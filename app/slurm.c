/* app/slurm.c -- the Slurm array script of `yee sweep --slurm`, its MPI plugin and its
 * submission (app/slurm.h). */
#include "app/slurm.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/child_env.h"
#include "common/yee_file.h"

/* Default of sweep.slurm.checkpoint_margin: enough to write the checkpoint of a few GB. */
enum { DEFAULT_CHECKPOINT_MARGIN_S = 120 };

/* ---------------------------------------------------------------------------------------------
 * Running a helper program and reading what it prints
 * ------------------------------------------------------------------------------------------- */

/* Runs argv (found on PATH) with stdin from /dev/null and stdout and stderr into one malloc'd
 * string (*out, NUL-terminated). Returns the exit status, or -1 when it could not start
 * (errno-like reason in *start_errno) or did not exit normally. */
static int capture(const char *const argv[], char **out, int *start_errno)
{
    *out = NULL;
    *start_errno = 0;
    int fds[2];
    if (pipe(fds) < 0) {
        *start_errno = errno;
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    pid_t pid;
    char **env = yee_child_env(NULL, 0);
    int rc = env ? posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, env) : ENOMEM;
    free(env);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        *start_errno = rc;
        return -1;
    }
    size_t len = 0, cap = 4096;
    char *buf = (char *)malloc(cap);
    for (;;) {
        if (buf && len + 1024 > cap) {
            char *bigger = (char *)realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            } else {
                buf = bigger;
                cap *= 2;
            }
        }
        char scratch[1024];
        ssize_t n = read(fds[0], buf ? buf + len : scratch, 1023);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (buf)
            len += (size_t)n;
    }
    close(fds[0]);
    if (buf)
        buf[len] = '\0';
    *out = buf;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (!*start_errno)
        *start_errno = EINTR;
    return -1;
}

/* ---------------------------------------------------------------------------------------------
 * The MPI plugin
 * ------------------------------------------------------------------------------------------- */

/* The plugin names in the output of `srun --mpi=list`, which changed between Slurm versions:
 *   "srun: MPI types are...\nsrun: none\nsrun: pmix_v3\n"                        (<= 21.08)
 *   "MPI plugin types are...\n\tnone\n\tpmix\nspecific pmix plugin versions available:
 *    pmix_v4\n"                                                                    (22.05)
 * A name is a line that is one word after an optional "srun: ", or a word after the colon of
 * the "versions available" line. 1 when `want` is one of them: the exact name, or for a want
 * ending in "_v" the first name that starts with it (copied into out). */
static int offers(const char *list, const char *want, char *out, size_t cap)
{
    const size_t wn = strlen(want);
    const int prefix = wn >= 2 && strcmp(want + wn - 2, "_v") == 0;
    for (const char *line = list; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        for (size_t k = strlen(buf); k > 0 && isspace((unsigned char)buf[k - 1]);)
            buf[--k] = '\0';
        char *p = buf;
        if (strncmp(p, "srun: ", 6) == 0)
            p += 6;
        line = end ? end + 1 : NULL;
        char *colon = strstr(p, "available:");
        if (colon)
            p = colon + 10;
        else if (strpbrk(p + strspn(p, " \t"), " \t"))
            continue; /* a sentence, not a name */
        for (char *w = strtok(p, " \t,"); w; w = strtok(NULL, " \t,")) {
            if (strcmp(w, want) == 0 || (prefix && strncmp(w, want, wn) == 0 &&
                                         isdigit((unsigned char)w[wn]))) {
                snprintf(out, cap, "%s", w);
                return 1;
            }
        }
    }
    return 0;
}

int yee_slurm_pick_mpi(const char *mpi_list, int open_mpi, char *out, size_t cap)
{
    /* Open MPI 4/5 talk PMIx; Debian's is built without Slurm's PMI-1/PMI-2 */
    static const char *const ompi_order[] = {"pmix", "pmix_v", "pmi2"};
    static const char *const other_order[] = {"pmi2", "pmix", "pmix_v"};
    const char *const *order = open_mpi ? ompi_order : other_order;
    for (int k = 0; k < 3; k++)
        if (offers(mpi_list, order[k], out, cap))
            return 0;
    return -1;
}

static int choose_mpi(const yee_slurm_script *s, char *mpi, size_t cap, char *why, size_t wcap,
                      yee_err *err)
{
    if (s->res.mpi[0]) {
        snprintf(mpi, cap, "%s", s->res.mpi);
        snprintf(why, wcap, "from sweep.slurm.mpi or --mpi");
        return YEE_OK;
    }
    const char *const argv[] = {"srun", "--mpi=list", NULL};
    char *text = NULL;
    int start_errno = 0;
    const int rc = capture(argv, &text, &start_errno);
    const char *fallback = s->open_mpi ? "pmix" : "pmi2";
    if (rc != 0 || !text) {
        char first[200] = "";
        if (text)
            snprintf(first, sizeof first, "%.*s", (int)strcspn(text, "\n"), text);
        fprintf(stderr, "yee sweep: warning: `srun --mpi=list` %s%s%s; the script uses "
                        "--mpi=%s (set sweep.slurm.mpi or --mpi to choose)\n",
                rc < 0 ? "could not run: " : "failed: ",
                rc < 0 ? strerror(start_errno) : first, "", fallback);
        snprintf(mpi, cap, "%s", fallback);
        snprintf(why, wcap, "assumed: srun --mpi=list did not answer where the script was "
                            "written");
        free(text);
        return YEE_OK;
    }
    int picked = yee_slurm_pick_mpi(text, s->open_mpi, mpi, cap);
    if (picked < 0) {
        for (char *p = text; *p; p++)
            if (*p == '\n' || *p == '\t')
                *p = ' ';
        int r = yee_fail(err, YEE_ERR_IO, "`srun --mpi=list` offers no plugin for %s (pmix or "
                         "pmi2; got: %.300s); set sweep.slurm.mpi or --mpi",
                         s->open_mpi ? "Open MPI" : "this MPI library", text);
        free(text);
        return r;
    }
    free(text);
    snprintf(why, wcap, "picked from `srun --mpi=list` for %s",
             s->open_mpi ? "Open MPI" : "this MPI library");
    return YEE_OK;
}

/* ---------------------------------------------------------------------------------------------
 * What may go into a script
 * ------------------------------------------------------------------------------------------- */

/* NULL when s can be written into the script, else what is wrong with it. `sbatch_line`: it
 * also goes into an #SBATCH line in double quotes. */
static const char *unsafe_path(const char *s, int sbatch_line)
{
    for (const char *p = s; *p; p++) {
        const unsigned char c = (unsigned char)*p;
        if (c == '\n')
            return "a newline";
        if (c < 32 || c == 127)
            return "a control character";
        if (sbatch_line && (c == '"' || c == '\\'))
            return "a quote or backslash (it goes into an #SBATCH line)";
        if (sbatch_line && c == '%')
            return "a '%' (Slurm reads it as a file name pattern)";
    }
    return NULL;
}

static void shell_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    }
    fputc('\'', f);
}

/* "1-3,5,7-9" of the 1-based job numbers in todo (ascending). */
static void array_spec(const long *todo, long n, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (long i = 0; i < n && used < cap;) {
        long k = i;
        while (k + 1 < n && todo[k + 1] == todo[k] + 1)
            k++;
        int w = k > i ? snprintf(out + used, cap - used, "%s%ld-%ld", used ? "," : "",
                                 todo[i] + 1, todo[k] + 1)
                      : snprintf(out + used, cap - used, "%s%ld", used ? "," : "", todo[i] + 1);
        if (w > 0)
            used += (size_t)w;
        i = k + 1;
    }
}

/* ---------------------------------------------------------------------------------------------
 * The script
 * ------------------------------------------------------------------------------------------- */

static void write_task_body(FILE *f, const yee_slurm_script *s, const char *mpi, int margin)
{
    const int rpj = s->ranks_per_job > 0 ? s->ranks_per_job : 1;
    fprintf(f, "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}\n");
    fprintf(f, "export SRUN_CPUS_PER_TASK=${SLURM_CPUS_PER_TASK:-1}\n");
    fprintf(f,
            "dir=\"$sweep\"/job-$(printf '%%04d' \"$SLURM_ARRAY_TASK_ID\")\n"
            "[ -f \"$dir/DONE\" ] && { echo \"$dir is finished already\"; exit 0; }\n"
            "# one runner per job directory; a local yee sweep takes the same lock\n"
            "exec 9>>\"$dir/.lock\"\n"
            "flock -n 9 || { echo \"$dir is being run by another runner; this task leaves "
            "it\"; exit 0; }\n"
            "# finished by another runner between the test above and the lock\n"
            "[ -f \"$dir/DONE\" ] && { echo \"$dir is finished already\"; exit 0; }\n"
            "rm -f \"$dir/FAILED\"\n"
            "restart=()\n"
            "for ckpt in \"$dir\"/*.ckpt; do [ -f \"$ckpt\" ] && restart=(--restart "
            "\"$ckpt\"); done\n"
            "if [ ${#restart[@]} -gt 0 ]; then\n"
            "  echo \"continuing from the checkpoint ${restart[1]}${SLURM_RESTART_COUNT:+ "
            "(requeued $SLURM_RESTART_COUNT time(s))}\"\n"
            "else\n"
            "  rm -f \"$dir/.wall_before\"\n"
            "  : > \"$dir/run.log\"\n"
            "fi\n");
    if (margin > 0)
        fprintf(f,
                "# Slurm's warning (--signal=B:TERM) reaches this shell only: pass it to the "
                "run's\n"
                "# tasks (a SIGTERM to srun would kill them without a checkpoint)\n"
                "warned=0\n"
                "trap 'warned=1; scancel --signal=TERM \"$SLURM_JOB_ID\" 2>/dev/null' TERM\n");
    fprintf(f, "start=$(date +%%s.%%N)\n");
    fprintf(f,
            "srun --mpi=%s --ntasks=%d \"$yee\" run \"$dir/deck.cfg\" --out \"$dir\" "
            "\"${restart[@]}\" >> \"$dir/run.log\" 2>&1 &\n"
            "pid=$!\n"
            "wait \"$pid\"; rc=$?\n"
            "# a trap interrupts wait: wait again for the run's own status\n"
            "while kill -0 \"$pid\" 2>/dev/null; do wait \"$pid\"; rc=$?; done\n",
            mpi, rpj);
    fprintf(f,
            "before=$(cat \"$dir/.wall_before\" 2>/dev/null || echo 0)\n"
            "wall=$(awk -v a=\"$start\" -v b=\"$(date +%%s.%%N)\" -v c=\"$before\" "
            "'BEGIN { printf \"%%.3f\", c + b - a }')\n"
            "if [ $rc -eq 0 ]; then\n"
            "  printf 'status\\tok\\nwall_s\\t%%s\\n' \"$wall\" > \"$dir/DONE.tmp\" && "
            "mv \"$dir/DONE.tmp\" \"$dir/DONE\"\n"
            "  rm -f \"$dir/.wall_before\"\n"
            "elif [ $rc -eq 3 ]; then\n"
            "  # stopped after writing a checkpoint: neither finished nor failed\n"
            "  echo \"$wall\" > \"$dir/.wall_before\"\n");
    if (margin > 0)
        fprintf(f,
                "  state=$(squeue -h -j \"$SLURM_JOB_ID\" -o %%T 2>/dev/null)\n"
                "  if [ \"$warned\" = 1 ] && [ \"$state\" = RUNNING ]; then\n"
                "    echo \"warned (time limit in %d s, or preemption): checkpoint written, "
                "requeueing "
                "${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\"\n"
                "    scontrol requeue \"$SLURM_JOB_ID\"\n"
                "    exit 3\n"
                "  fi\n",
                margin);
    fprintf(f,
            "  echo \"stopped after writing a checkpoint; a new submission continues from "
            "it\"\n"
            "else\n"
            "  why=$(grep -m1 -i error \"$dir/run.log\" || tail -n1 \"$dir/run.log\")\n"
            "  printf 'status\\tfailed\\nwall_s\\t%%s\\nmessage\\texit status %%d: %%s\\n' "
            "\"$wall\" \"$rc\" \"$(printf '%%s' \"$why\" | tr '\\t\\r' '  ')\" > "
            "\"$dir/FAILED\"\n"
            "fi\n"
            "exit $rc\n");
}

int yee_slurm_write_script(const yee_slurm_script *s, char *path, size_t cap, yee_err *err)
{
    const yee_slurm_spec *sl = &s->res;
    char absdir[PATH_MAX], absdeck[PATH_MAX];
    if (!realpath(s->dir, absdir))
        return yee_fail(err, YEE_ERR_IO, "cannot resolve '%s': %s", s->dir, strerror(errno));
    if (!realpath(s->deck, absdeck))
        return yee_fail(err, YEE_ERR_IO, "cannot resolve '%s': %s", s->deck, strerror(errno));
    const char *why;
    if ((why = unsafe_path(absdir, 1)) != NULL)
        return yee_fail(err, YEE_ERR_IO, "the sweep directory '%s' has %s: it cannot go into a "
                        "Slurm script; choose another --out", absdir, why);
    if ((why = unsafe_path(absdeck, 0)) != NULL)
        return yee_fail(err, YEE_ERR_IO, "the deck path '%s' has %s: it cannot go into a Slurm "
                        "script; rename the deck", absdeck, why);
    if ((why = unsafe_path(s->exe, 0)) != NULL)
        return yee_fail(err, YEE_ERR_IO, "the program path '%s' has %s: it cannot go into a "
                        "Slurm script", s->exe, why);
    char mpi[64], mpi_why[160];
    YEE_TRY(choose_mpi(s, mpi, sizeof mpi, mpi_why, sizeof mpi_why, err));
    for (const char *p = mpi; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-'))
            return yee_fail(err, YEE_ERR_IO, "MPI plugin '%s' is not one word", mpi);
    const int margin = sl->checkpoint_margin >= 0 ? sl->checkpoint_margin
                                                  : DEFAULT_CHECKPOINT_MARGIN_S;
    const int rpj = s->ranks_per_job > 0 ? s->ranks_per_job : 1;
    char array[4096];
    array_spec(s->todo, s->ntodo, array, sizeof array);
    const char *stem = strrchr(absdeck, '/') + 1;
    /* the job name: the deck's stem in characters every Slurm tool shows as they are */
    char name[48];
    size_t nl = 0;
    for (const char *p = stem; *p && *p != '.' && nl + 1 < sizeof name; p++)
        name[nl++] = isalnum((unsigned char)*p) || *p == '_' || *p == '-' ? *p : '_';
    name[nl] = '\0';

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot build the Slurm script");
    fprintf(f, "#!/bin/bash\n");
    char script_path[PATH_MAX + 16];
    snprintf(script_path, sizeof script_path, "%s/sweep.sbatch", absdir);
    fprintf(f, "# Written by `yee sweep --slurm` for the deck ");
    shell_quote(f, absdeck);
    fprintf(f, ": one array task per job.\n# Submit:  sbatch ");
    shell_quote(f, script_path);
    fprintf(f, "   (or: yee sweep ... --slurm --submit)\n# Then:    yee sweep ");
    shell_quote(f, absdeck);
    fprintf(f, " --out ");
    shell_quote(f, absdir);
    fprintf(f, " --collect   (writes summary.csv)\n");
    fprintf(f, "# A task whose job is DONE exits at once, so resubmitting is safe.\n");
    if (margin > 0)
        fprintf(f, "# %d s before the time limit Slurm sends this shell SIGTERM: the run writes "
                   "a\n# checkpoint, the task requeues itself and continues from it.\n", margin);
    fprintf(f, "#SBATCH --job-name=yee-%s\n", name);
    fprintf(f, "#SBATCH --array=%s\n", array);
    fprintf(f, "#SBATCH --ntasks=%d\n", rpj);
    fprintf(f, "#SBATCH --cpus-per-task=%d\n", sl->cpus > 0 ? sl->cpus : 1);
    if (sl->gpus > 0)
        fprintf(f, "#SBATCH --gres=gpu:%d\n", sl->gpus);
    if (sl->time[0])
        fprintf(f, "#SBATCH --time=%s\n", sl->time);
    if (sl->partition[0])
        fprintf(f, "#SBATCH --partition=%s\n", sl->partition);
    if (sl->account[0])
        fprintf(f, "#SBATCH --account=%s\n", sl->account);
    if (sl->memory[0])
        fprintf(f, "#SBATCH --mem=%s\n", sl->memory);
    if (margin > 0) {
        fprintf(f, "#SBATCH --signal=B:TERM@%d\n", margin);
        fprintf(f, "#SBATCH --requeue\n");
    }
    fprintf(f, "#SBATCH --open-mode=append\n");
    fprintf(f, "#SBATCH --output=\"%s/slurm-%%A_%%a.out\"\n", absdir);
    fprintf(f, "set -u\n");
    if (sl->setup[0])
        fprintf(f, "%s\n", sl->setup);
    fprintf(f, "yee=");
    shell_quote(f, s->exe);
    fprintf(f, "\nsweep=");
    shell_quote(f, absdir);
    fprintf(f, "\n# --mpi=%s: %s\n", mpi, mpi_why);
    write_task_body(f, s, mpi, margin);
    fclose(f);
    snprintf(path, cap, "%s/sweep.sbatch", s->dir);
    int rc = buf ? yee_write_file_atomic(path, buf, len, err)
                 : YEE_FAIL(err, YEE_ERR_NOMEM, "cannot build the Slurm script");
    free(buf);
    if (rc == YEE_OK)
        chmod(path, 0755);
    return rc;
}

int yee_slurm_submit(const char *script, char *job_id, size_t cap, yee_err *err)
{
    const char *const argv[] = {"sbatch", "--parsable", script, NULL};
    char *text = NULL;
    int start_errno = 0;
    const int rc = capture(argv, &text, &start_errno);
    job_id[0] = '\0';
    if (rc < 0) {
        free(text);
        return yee_fail(err, YEE_ERR_IO, "cannot run sbatch: %s (is Slurm's client installed?)",
                        strerror(start_errno));
    }
    /* --parsable: "ID" or "ID;CLUSTER" on its last line; warnings may come before it */
    const char *last = text ? text : "";
    for (const char *p = last; text && *p; p++)
        if (p[0] == '\n' && p[1] != '\0')
            last = p + 1;
    const size_t idlen = strspn(last, "0123456789");
    if (rc != 0 || idlen == 0) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", text ? text : "");
        for (char *p = msg; *p; p++)
            if (*p == '\n')
                *p = ' ';
        free(text);
        return yee_fail(err, YEE_ERR_IO, "sbatch %s failed (exit status %d): %s", script, rc,
                        msg);
    }
    snprintf(job_id, cap, "%.*s", (int)idlen, last);
    free(text);
    return YEE_OK;
}
