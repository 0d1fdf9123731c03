/* app/sweep.h -- `yee sweep DECK --out DIR`: a batch of runs from one deck (docs/sweeps.md).
 *
 * The deck's `sweep` section (io/params.h) expands into jobs; each job gets DIR/job-NNNN/deck.cfg
 * with its values resolved and is run by a child process `yee run job-NNNN/deck.cfg --out
 * job-NNNN` (a crash of one job is that job's failure, not the sweep's). Where jobs run:
 *   - locally, one after another or --jobs N at once sharing the cores (OMP_NUM_THREADS split);
 *   - under mpirun: rank 0 hands the next job to whichever worker rank (or group of
 *     --ranks-per-job ranks) is free, so a slow job idles nobody; children are MPI singletons
 *     (or a nested mpirun for a group) with the parent's MPI environment removed;
 *   - under Slurm: --slurm writes DIR/sweep.sbatch (one array task per job, app/slurm.h) and
 *     runs nothing, or hands it to sbatch with --submit; --collect builds the summary afterwards.
 * A job is finished when DIR/job-NNNN/DONE exists: written after the run exited 0, so its HDF5
 * file is closed. A rerun skips finished jobs whose resolved deck did not change, reruns failed
 * (FAILED marker) and partial (no marker) ones, and continues a job from its checkpoint when the
 * run left one (stopped by SIGTERM). Whoever runs a job (this sweep, a worker rank, a Slurm
 * task) holds the flock of DIR/job-NNNN/.lock for as long as the run lives; a job whose lock is
 * held elsewhere is left alone, and one found DONE once the lock is taken is not run again. DIR/summary.csv (job, parameters, status, wall_s,
 * results, message) is rewritten atomically (temp file, fsync, rename) after every job.
 * This module does no physics: it reads results back through io/h5read.h and
 * postproc/harminv_modes.h.
 */
#ifndef YEE_APP_SWEEP_H
#define YEE_APP_SWEEP_H

#ifdef __cplusplus
extern "C" {
#endif

/* The whole subcommand: argv[1] is "sweep", the deck and options follow (`yee sweep --help`,
 * whose text is in app/commands.c, and docs/sweeps.md; main answers -h and --help itself). MPI
 * must be initialized (main does it); under mpirun every rank calls this. Prints progress on
 * stdout and errors on stderr (rank 0 only). Returns the exit status: 0 every job ok, 1 a job failed (or is still pending after --collect, 0 then) or the
 * sweep could not start (deck error, unwritable DIR: reported before any job runs), 2 a bad
 * command line. */
int yee_sweep_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
