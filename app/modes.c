/* app/modes.c -- `yee modes` (app/modes.h): the command line, one mode solve, the printed table,
 * the HDF5 and CSV files. The options are described in app/commands.c.
 */
#include "app/modes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "common/yee_num.h"
#include "io/deck.h"
#include "io/h5out.h"
#include "model/components.h"
#include "model/config.h"
#include "model/nodes.h"
#include "solver/mode_solver.h"

typedef struct modes_cli {
    const char *deck, *out, *csv, *plane;
    const char **sets;
    int nsets, nmodes, quiet, axis;
    double position, wavelength, freq_thz; /* < 0: not given */
} modes_cli;

static int usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "yee modes: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
    return YEE_EXIT_USAGE;
}

static int parse_cli(int argc, char **argv, modes_cli *c)
{
    memset(c, 0, sizeof *c);
    c->nmodes = 2;
    c->axis = -1;
    c->wavelength = c->freq_thz = -1.0;
    c->sets = (const char **)calloc((size_t)argc + 1, sizeof *c->sets);
    if (!c->sets)
        return YEE_EXIT_ERROR;
    yee_err err;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        long v = 0;
        int bad = 0;
        if (strcmp(a, "--set") == 0 && more) {
            c->sets[c->nsets++] = argv[++i];
        } else if (strncmp(a, "--set=", 6) == 0) {
            c->sets[c->nsets++] = a + 6;
        } else if (strcmp(a, "--plane") == 0 && more) {
            c->plane = argv[++i];
            const char *p = c->plane;
            c->axis = (p[0] >= 'x' && p[0] <= 'z' && p[1] == '=') ? p[0] - 'x' : -1;
            if (c->axis < 0 || yee_parse_double("--plane", p + 2, -INFINITY, YEE_NUM_AT_LEAST,
                                                &c->position, &err) < 0)
                return usage("--plane wants AXIS=POSITION, e.g. x=1.5 (um) (got '%s')%s", c->plane,
                             "");
        } else if (strcmp(a, "--wavelength") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &c->wavelength, &err);
        } else if (strcmp(a, "--frequency") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &c->freq_thz, &err);
        } else if (strcmp(a, "--modes") == 0 && more) {
            bad = yee_parse_long(a, argv[++i], 1, 100, &v, &err);
            c->nmodes = (int)v;
        } else if (strcmp(a, "--out") == 0 && more) {
            c->out = argv[++i];
        } else if (strcmp(a, "--csv") == 0 && more) {
            c->csv = argv[++i];
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            c->quiet = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage("unknown or incomplete option '%s' (see yee modes --help)%s", a, "");
        } else if (!c->deck) {
            c->deck = a;
        } else {
            return usage("more than one deck given ('%s' and '%s')", c->deck, a);
        }
        if (bad)
            return usage("%s%s", err.msg, "");
    }
    if (!c->deck)
        return usage("no deck given (see yee modes --help)%s%s", "", "");
    if (!c->plane)
        return usage("no --plane given (see yee modes --help)%s%s", "", "");
    if ((c->wavelength > 0) == (c->freq_thz > 0))
        return usage("give exactly one of --wavelength and --frequency%s%s", "", "");
    return 0;
}

/* Mode names in the files: what the E energy says of its polarization. */
static const char *pol_name(const yee_mode *m, int axis)
{
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    if (m->energy_e[u] >= 0.5 && m->energy_e[u] >= m->energy_e[v])
        return u == 0 ? "Ex-like" : u == 1 ? "Ey-like" : "Ez-like";
    if (m->energy_e[v] >= 0.5)
        return v == 0 ? "Ex-like" : v == 1 ? "Ey-like" : "Ez-like";
    return "hybrid";
}

static int write_csv(const char *path, const yee_mode_set *s, double f, yee_err *err)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot create '%s': %s", path, strerror(errno));
    fprintf(fp, "mode,wavelength_um,freq_THz,neff,ng,beta_rad_um,guided,energy_ex,energy_ey,"
                "energy_ez,polarization\n");
    for (int i = 0; i < s->nmodes; i++) {
        const yee_mode *m = &s->modes[i];
        fprintf(fp, "%d,%.10g,%.10g,%.10g,%.10g,%.10g,%d,%.6g,%.6g,%.6g,%s\n", i + 1, 1.0 / f,
                f * YEE_C_UM_THZ, m->neff, m->ng, m->beta, m->guided,
                m->energy_e[0], m->energy_e[1], m->energy_e[2], pol_name(m, s->req.axis));
    }
    if (fclose(fp) != 0)
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    return YEE_OK;
}

static const char *const field_names[6] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

static int write_h5(const char *path, const modes_cli *c, const yee_config *cfg,
                    const yee_mode_set *s, yee_err *err)
{
    const yee_mode_request *r = &s->req;
    const int nm = s->nmodes;
    const int ncols = 7 + 18 + 6 * nm;
    yee_h5_column *cols = (yee_h5_column *)calloc((size_t)ncols, sizeof *cols);
    yee_h5_array *arrays = (yee_h5_array *)calloc(6 * (size_t)nm + 1, sizeof *arrays);
    double *scalars = (double *)calloc(7 * ((size_t)nm + 1), sizeof(double));
    double *coords =
        (double *)malloc(18 * (size_t)(cfg->n[0] + cfg->n[1] + cfg->n[2] + 3) * sizeof(double));
    char(*names)[64] = (char(*)[64])calloc((size_t)ncols, sizeof *names);
    int rc = YEE_OK;
    if (!cols || !arrays || !scalars || !coords || !names) {
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot hold the mode table");
        goto done;
    }
    int k = 0;
    const char *col_names[7] = {"neff",      "ng",        "beta",     "guided",
                                "energy_ex", "energy_ey", "energy_ez"};
    const char *col_units[7] = {NULL,
                                NULL,
                                "rad/um",
                                "1: neff^2 above the lowest eps on the "
                                "window's edge",
                                "share of the E energy",
                                "share of the E energy",
                                "share of the E energy"};
    for (int j = 0; j < 7; j++) {
        double *col = scalars + (size_t)j * (nm + 1);
        for (int i = 0; i < nm; i++) {
            const yee_mode *m = &s->modes[i];
            col[i] = j == 0   ? m->neff
                     : j == 1 ? m->ng
                     : j == 2 ? m->beta
                     : j == 3 ? (double)m->guided
                              : m->energy_e[j - 4];
        }
        snprintf(names[k], sizeof names[k], "/modes/%s", col_names[j]);
        cols[k] = (yee_h5_column){names[k], nm, col, col_units[j]};
        k++;
    }
    /* node coordinates of each component along each axis of the window */
    double *cp = coords;
    for (int f = 0; f < 6; f++)
        for (int a = 0; a < 3; a++) {
            for (int i = 0; i < r->count[a]; i++)
                cp[i] = yee_node_position(cfg, f, a, r->lo[a] + i);
            snprintf(names[k], sizeof names[k], "/coords/%s_%c", field_names[f], "xyz"[a]);
            cols[k] = (yee_h5_column){names[k], r->count[a], cp, "um"};
            k++;
            cp += r->count[a];
        }
    int na = 0;
    for (int i = 0; i < nm; i++)
        for (int f = 0; f < 6; f++, na++) {
            snprintf(names[k + na], sizeof names[k + na], "/mode%d/%s", i + 1, field_names[f]);
            const int longitudinal = f % 3 == r->axis;
            arrays[na] =
                (yee_h5_array){names[k + na],
                               s->modes[i].field[f],
                               longitudinal ? "imaginary part: the field is i * value" : NULL,
                               {r->count[0], r->count[1], r->count[2]}};
        }
    char freq[48], wl[48], plane[64], nmax[48];
    snprintf(freq, sizeof freq, "%.12g", r->freq);
    snprintf(wl, sizeof wl, "%.12g", 1.0 / r->freq);
    snprintf(plane, sizeof plane, "%c=%.12g", "xyz"[r->axis],
             yee_node_position(cfg, YEE_EX + (r->axis + 1) % 3, r->axis, r->lo[r->axis]));
    snprintf(nmax, sizeof nmax, "%.12g", s->n_max);
    const char *an[] = {"yee_file",      "deck",  "plane",         "freq_c_um",
                        "wavelength_um", "n_max", "normalization", "h_field"};
    const char *av[] = {"modes",
                        c->deck,
                        plane,
                        freq,
                        wl,
                        nmax,
                        "1/2 Int Re(E x h*) . n dA = 1 (per um of z in 2-D)",
                        "Hx, Hy, Hz hold h = eta0 H (V/m like E)"};
    rc = yee_h5_write_arrays(path, cols, k, arrays, na, an, av, 8, err);
done:
    free(cols);
    free(arrays);
    free(scalars);
    free(coords);
    free(names);
    return rc;
}

int yee_modes_main(int argc, char **argv)
{
    modes_cli c;
    int rc = parse_cli(argc, argv, &c);
    if (rc != 0) {
        free(c.sets);
        return rc;
    }
    yee_err err;
    yee_config cfg;
    memset(&cfg, 0, sizeof cfg);
    if (yee_deck_load(c.deck, c.sets, c.nsets, &cfg, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        free(c.sets);
        return YEE_EXIT_ERROR;
    }
    int status = YEE_EXIT_ERROR;
    yee_mode_set set;
    memset(&set, 0, sizeof set);
    const double lo = cfg.origin[c.axis], hi = yee_domain_end(&cfg, c.axis);
    if (yee_graded(&cfg)) {
        fprintf(stderr, "yee modes: %s has a graded mesh (grid.refine); the mode solver needs "
                        "one spacing per axis: run it on the deck without grid.refine\n", c.deck);
        goto done;
    }
    if (cfg.two_d && c.axis == 2) {
        fprintf(stderr, "yee modes: a 2-D run has no z plane: give --plane x=... or y=...\n");
        status = YEE_EXIT_USAGE;
        goto done;
    }
    if (c.position < lo || c.position > hi) {
        fprintf(stderr, "yee modes: --plane %s lies outside the grid (%c from %g to %g um)\n",
                c.plane, "xyz"[c.axis], lo, hi);
        status = YEE_EXIT_USAGE;
        goto done;
    }
    const double f = c.wavelength > 0 ? 1.0 / c.wavelength : c.freq_thz / YEE_C_UM_THZ;
    /* the whole plane of the transverse E nodes nearest the position; c.nmodes of the run's
     * polarization in 2-D (solver/mode_solver.h) */
    const int plane = yee_nearest_node(&cfg, YEE_EX + (c.axis + 1) % 3, c.axis, c.position);
    yee_mode_request req = yee_mode_request_grid(&cfg, c.axis, plane, f, c.nmodes);
    req.freq = f; /* the frequency itself, not the grid's: the guide's modes, as MPB's find-k */
    if (yee_modes_solve(&cfg, &req, &set, &err) < 0) {
        fprintf(stderr, "yee modes: %s\n", err.msg);
        goto done;
    }
    char out[YEE_PATH_LEN + YEE_NAME_LEN + 16], csv[YEE_PATH_LEN + YEE_NAME_LEN + 16];
    if (c.out)
        snprintf(out, sizeof out, "%s", c.out);
    else
        snprintf(out, sizeof out, "%s_modes.h5", cfg.name);
    if (c.csv)
        snprintf(csv, sizeof csv, "%s", c.csv);
    else
        snprintf(csv, sizeof csv, "%.*s.csv",
                 (int)(strlen(out) > 3 && strcmp(out + strlen(out) - 3, ".h5") == 0
                           ? strlen(out) - 3
                           : strlen(out)),
                 out);
    if (!c.quiet) {
        printf("modes of %s on %s at %.6g um (%.6g THz), %d x %d x %d nodes, n_max %.4f\n", c.deck,
               c.plane, 1.0 / f, f * YEE_C_UM_THZ, req.count[0], req.count[1], req.count[2],
               set.n_max);
        for (int i = 0; i < set.nmodes; i++) {
            const yee_mode *m = &set.modes[i];
            printf("mode %d: neff %.6f  ng %.5f  %s  E energy x %.3f y %.3f z %.3f%s\n", i + 1,
                   m->neff, m->ng, pol_name(m, req.axis), m->energy_e[0], m->energy_e[1],
                   m->energy_e[2], m->guided ? "" : "  (not guided)");
        }
        if (set.nmodes == 0)
            printf("no mode found\n");
    }
    if (write_h5(out, &c, &cfg, &set, &err) < 0 || write_csv(csv, &set, f, &err) < 0) {
        fprintf(stderr, "yee modes: %s\n", err.msg);
        goto done;
    }
    if (!c.quiet)
        printf("wrote %s and %s\n", out, csv);
    status = YEE_EXIT_OK;
done:
    yee_mode_set_free(&set);
    yee_config_free(&cfg);
    free(c.sets);
    return status;
}
