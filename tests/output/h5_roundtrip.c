/* tests/output/h5_roundtrip.c -- writes a small run file through io/h5out with analytic values so
 * check_h5.py can verify layout, values, attributes and the XDMF sidecar.
 *
 *   h5_roundtrip OUT.h5            write (any number of ranks; snapshot blocks split along z)
 *   h5_roundtrip --error DIR       create DIR/missing/x.h5 and expect YEE_ERR_IO with a message
 *
 * Snapshot value at frame f, node (i,j,k): 1000 f + 100 k + 10 j + i + 0.25 c + 10000 m, with c the
 * component and m the monitor index; probe row r, column c: r + 0.5 c. check_h5.py mirrors this.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5out.h"

#define NFRAMES_WRITTEN 3

typedef struct mon {
    const char *name;
    int comps[2];
    int ncomp;
    int64_t shape[3];
    long nframes;
} mon;

static yee_real value(int m, int c, long f, int64_t i, int64_t j, int64_t k)
{
    return (yee_real)(1000.0 * f + 100.0 * k + 10.0 * j + i + 0.25 * c + 10000.0 * m);
}

static void fill_config(yee_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->name, sizeof cfg->name, "roundtrip");
    cfg->n[0] = 6, cfg->n[1] = 5, cfg->n[2] = 7;
    cfg->dx[0] = 0.1, cfg->dx[1] = 0.2, cfg->dx[2] = 0.25;
    cfg->origin[0] = -1.0, cfg->origin[1] = 0.0, cfg->origin[2] = 1.5;
    cfg->dt = 0.05;
    cfg->steps = 30;
}

static int run_error(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/missing/x.h5", dir);
    yee_config cfg;
    fill_config(&cfg);
    yee_err err = {{0}};
    yee_h5 *h = NULL;
    int rc = yee_h5_create(path, MPI_COMM_WORLD, &cfg, NULL, &h, &err);
    printf("rc=%d msg=%s\n", rc, err.msg);
    if (rc == YEE_ERR_IO && h == NULL && strstr(err.msg, "cannot create '")) {
        printf("PASS h5_error %s\n", err.msg);
        return 0;
    }
    printf("FAIL h5_error (rc=%d, expected %d)\n", rc, YEE_ERR_IO);
    yee_h5_close(h, &err);
    return 1;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != YEE_OK) {                                                                    \
            fprintf(stderr, "rank %d: %s failed: %s\n", rank, #call, err.msg);                    \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static int run_write(const char *path)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    yee_config cfg;
    fill_config(&cfg);
    const char *deck =
        "# roundtrip deck\nname = \"roundtrip\";\ngrid = { dx = 0.1; }; // \xc2\xb5m\n";
    yee_err err = {{0}};
    yee_h5 *h = NULL;
    CHECK(yee_h5_create(path, MPI_COMM_WORLD, &cfg, deck, &h, &err));

    /* vol: 3D box, 4 frames reserved, 3 written; plane: one z layer, so rank 1 of 2 owns nothing */
    mon mons[2] = {{"vol", {YEE_EX, YEE_HZ}, 2, {5, 4, 6}, 4},
                   {"plane", {YEE_EY, 0}, 1, {5, 4, 1}, NFRAMES_WRITTEN}};
    int ids[2][2];
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < mons[m].ncomp; c++) {
            int comp = mons[m].comps[c];
            /* staggered: each component half a cell off along its own axis (E) or the others (H) */
            double origin[3], spacing[3];
            for (int a = 0; a < 3; a++) {
                spacing[a] = cfg.dx[a];
                int half = comp < 3 ? (a == comp) : (a != comp - 3);
                origin[a] = cfg.origin[a] + (half ? 0.5 * cfg.dx[a] : 0.0) + 0.01 * m;
            }
            CHECK(yee_h5_snapshot_define(h, mons[m].name, comp, mons[m].shape, origin, spacing,
                                         NULL, mons[m].nframes, &ids[m][c], &err));
        }

    for (long f = 0; f < NFRAMES_WRITTEN; f++) {
        long step = 10 * (f + 1);
        for (int m = 0; m < 2; m++) {
            int64_t nz = mons[m].shape[2];
            int64_t z0 = nz / size * rank + (rank < nz % size ? rank : nz % size);
            int64_t cz = nz / size + (rank < nz % size);
            int64_t start[3] = {0, 0, z0}, count[3] = {mons[m].shape[0], mons[m].shape[1], cz};
            size_t n = (size_t)(count[0] * count[1] * (cz > 0 ? cz : 1));
            yee_real *buf = (yee_real *)malloc(n * sizeof *buf);
            for (int c = 0; c < mons[m].ncomp; c++) {
                int comp = mons[m].comps[c];
                size_t q = 0;
                for (int64_t k = z0; k < z0 + cz; k++)
                    for (int64_t j = 0; j < count[1]; j++)
                        for (int64_t i = 0; i < count[0]; i++)
                            buf[q++] = value(m, comp, f, i, j, k);
                CHECK(yee_h5_snapshot_write(h, ids[m][c], f, step, step * cfg.dt, start, count,
                                            cz > 0 ? buf : NULL, &err));
            }
            free(buf);
        }
    }

    /* probe owned by the last rank, so a non-root owner is exercised under MPI */
    enum { NSTEPS = 30, NC = 2 };
    int comps[NC] = {YEE_EX, YEE_EZ};
    double pos[NC * 3] = {0.1, 0.2, 0.3, 0.15, 0.2, 0.35};
    double t0[NC] = {0.0, 0.5 * cfg.dt};
    yee_real rows[NSTEPS * NC];
    for (int r = 0; r < NSTEPS; r++)
        for (int c = 0; c < NC; c++)
            rows[r * NC + c] = (yee_real)(r + 0.5 * c);
    CHECK(yee_h5_probe_write(h, "p1", NC, comps, pos, t0, cfg.dt, NSTEPS,
                             rank == size - 1 ? rows : NULL, &err));
    CHECK(yee_h5_close(h, &err));
    if (rank == 0)
        printf("wrote %s on %d rank(s)\n", path, size);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rc;
    if (argc == 3 && strcmp(argv[1], "--error") == 0)
        rc = run_error(argv[2]);
    else if (argc == 2)
        rc = run_write(argv[1]);
    else {
        fprintf(stderr, "usage: h5_roundtrip OUT.h5 | --error DIR\n");
        rc = 2;
    }
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
