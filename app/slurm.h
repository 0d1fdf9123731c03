/* app/slurm.h -- the Slurm side of `yee sweep --slurm`: the array script, the MPI plugin it
 * launches with, and its submission (docs/sweeps.md "With Slurm", docs/cluster.md).
 *
 * The script is a bash array job, one task per unfinished job of the sweep. A task:
 *   - exits at once when its job directory holds DONE, or when another runner (a local
 *     `yee sweep`, another task) holds the directory's lock (job-NNNN/.lock, flock);
 *   - runs `srun --mpi=P yee run job-NNNN/deck.cfg --out job-NNNN`, continuing from the
 *     checkpoint in the job directory when there is one;
 *   - asks Slurm for SIGTERM margin seconds before its time limit (--signal=B:TERM@margin,
 *     --requeue): the batch shell passes it to the run's tasks, the run writes a checkpoint and
 *     exits 3, and the task requeues itself; a task cancelled by scancel keeps the checkpoint
 *     for the next submission and does not requeue;
 *   - writes DONE or FAILED in the format app/sweep.c reads.
 * Every path written into the script is single-quoted for the shell; a path with a control
 * character (or, for the #SBATCH --output line, a '"', '\' or '%') is refused, as are names that
 * would break an #SBATCH line. Nothing here reads the environment except through the programs it
 * runs (srun --mpi=list, sbatch).
 */
#ifndef YEE_APP_SLURM_H
#define YEE_APP_SLURM_H

#include <stddef.h>

#include "common/yee_err.h"
#include "io/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What goes into one script. Paths may be relative: they are made absolute (realpath). */
typedef struct yee_slurm_script {
    yee_slurm_spec res;   /* resources with the command-line flags applied */
    const char *exe;      /* the yee program each task runs */
    const char *deck;     /* the sweep deck (for the comments: how to collect) */
    const char *dir;      /* the sweep directory: job-NNNN/ and the script live there */
    const long *todo;     /* 0-based jobs of the array, ascending */
    long ntodo;
    int ranks_per_job;    /* srun --ntasks */
    int open_mpi;         /* the MPI library is Open MPI (prefers pmix), else pmi2 first */
} yee_slurm_script;

/* The srun --mpi plugin for this MPI library from the output of `srun --mpi=list`: Open MPI
 * pmix (or a pmix_vN), else pmi2; other libraries pmi2, else pmix. 0 and the name in out, or -1
 * when the list offers none of them. */
int yee_slurm_pick_mpi(const char *mpi_list, int open_mpi, char *out, size_t cap);

/* Writes DIR/sweep.sbatch (mode 0755, atomically); path gets its name. The MPI plugin is
 * res.mpi, else picked from `srun --mpi=list` run here; when srun cannot answer, pmix (Open
 * MPI) or pmi2 with a warning on stderr. Errors: a path or name that cannot go into the script
 * (what and why), no usable plugin, I/O. */
int yee_slurm_write_script(const yee_slurm_script *s, char *path, size_t cap, yee_err *err);

/* Submits a script with `sbatch --parsable SCRIPT`; job_id gets the array's job id. Errors
 * carry sbatch's own message. */
int yee_slurm_submit(const char *script, char *job_id, size_t cap, yee_err *err);

#ifdef __cplusplus
}
#endif

#endif
