/* solver/dft.c -- flux and DFT-field monitors (see solver/dft.h): which nodes each monitor sums,
 * the per-step phasors, and the spectra at the end. The sums themselves live in the backend. */
#include "solver/dft.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5read.h"
#include "solver/mode_monitor.h"
#include "solver/structure.h"

/* One summed component over a box of nodes: global placement and this rank's part. */
typedef struct region {
    int comp;
    int avg_axis;
    double avg_hi;          /* with avg_axis: the weight of the H node above the plane */
    int glo[3], gcount[3];  /* global nodes */
    int lo[3], count[3];    /* local part (count 0 on some axis: none here) */
    int start[3];           /* offset of the local part inside the global box */
    int id;                 /* backend region, -1 when this rank has none */
    int64_t nodes;          /* local nodes */
    double *weight;         /* flux E regions: area weight of each local node (see node_weight) */
} region;

/* A face of a flux monitor: regions E_q, H_r, E_r, H_q (in that order) and its outward sign. */
typedef struct face {
    int axis;
    double sign;
    region reg[4];
} face;

typedef struct monitor {
    const yee_monitor_cfg *cfg;
    int nfreq;
    double *freq;           /* c/um */
    double *ph_e, *ph_h;    /* this step's phasors */
    int nfaces;             /* flux */
    face faces[6];
    int nregions;           /* dft: one per component */
    region regs[YEE_NCOMP];
    double *alpha, *neff;   /* mode monitors: solver/mode_monitor.h's layout, after the run */
} monitor;

struct yee_dft_set {
    const yee_config *cfg;
    const yee_backend_ops *be;
    void *ctx;
    int n_local[3], offset[3];
    int nmon;
    monitor *mon;
    int every;              /* steps between samples (decimation, see sample_every) */
};

/* Steps between DFT samples. A linear system's fields carry only the frequencies its sources
 * emit, |f| <= fsrc: up to exp(-18) of a Gaussian's peak (f + 6 fwidth), a CW carrier with its
 * turn-on's spread, a Ricker's 4 f (1.8e-6 of its peak). Sampled every k steps they alias to
 * f + m / (k dt), m != 0, at least 1 / (k dt) - fsrc from zero: above the monitors' top frequency
 * fmon when 1 / (k dt) > fsrc + fmon, and then the sums at the monitors' frequencies are those
 * of every step (Meep's rule, meep/src/dft.cpp add_dft, with its own source margin). A tabulated
 * profile has no known bandwidth: every step. */
static int sample_every(const yee_config *cfg, double fmon)
{
    double fsrc = 0.0;
    for (int q = 0; q < cfg->nsources; q++) {
        const yee_profile *p = &cfg->sources[q].profile;
        double f = 0.0;
        switch (p->kind) {
        case YEE_PROFILE_GAUSSIAN: f = p->frequency + 6.0 * p->fwidth; break;
        case YEE_PROFILE_CW: f = p->frequency + 10.0 / p->ramp; break;
        case YEE_PROFILE_RICKER: f = 4.0 * p->frequency; break;
        case YEE_PROFILE_TABLE: return 1;
        }
        if (f > fsrc)
            fsrc = f;
    }
    if (!(fsrc + fmon > 0.0))
        return 1;
    const double k = floor(1.0 / ((fsrc + fmon) * cfg->dt));
    return k < 1.0 ? 1 : (k > 64.0 ? 64 : (int)k);
}

/* ---- setup ---- */

static void place_region(const yee_dft_set *d, region *r)
{
    r->id = -1;
    r->nodes = 1;
    for (int a = 0; a < 3; a++) {
        const int o = d->offset[a], n = d->n_local[a];
        const int l = r->glo[a] > o ? r->glo[a] : o;
        const int h = r->glo[a] + r->gcount[a] < o + n ? r->glo[a] + r->gcount[a] : o + n;
        r->lo[a] = l - o;
        r->count[a] = h > l ? h - l : 0;
        r->start[a] = l - r->glo[a];
        r->nodes *= r->count[a];
    }
    if (r->nodes == 0) /* none here: an empty block at 0, as the collective writes expect */
        for (int a = 0; a < 3; a++)
            r->start[a] = r->count[a] = 0;
}

static int register_region(yee_dft_set *d, region *r, int nfreq, yee_err *err)
{
    place_region(d, r);
    if (r->nodes == 0)
        return YEE_OK;
    yee_dft_region br;
    br.comp = r->comp;
    br.avg_axis = r->avg_axis;
    br.avg_hi = r->avg_hi;
    br.nfreq = nfreq;
    for (int a = 0; a < 3; a++) {
        br.lo[a] = r->lo[a];
        br.count[a] = r->count[a];
    }
    return d->be->dft_create(d->ctx, &br, &r->id, err);
}

/* Global nodes of component c inside the monitor box, the face axis p pinned to node P. */
static void face_nodes(const yee_config *cfg, const yee_monitor_cfg *mc, int c, int p, int P,
                       region *r)
{
    for (int a = 0; a < 3; a++) {
        if (a == p) {
            r->glo[a] = P;
            r->gcount[a] = 1;
        } else {
            yee_node_range(cfg, c, a, mc->box_min[a], mc->box_max[a], &r->glo[a],
                           &r->gcount[a]);
        }
    }
}

/* 1 if monitor mc reaches across the whole of axis a and a is periodic. */
static int spans_period(const yee_config *cfg, const yee_monitor_cfg *mc, int a)
{
    const double lo = cfg->origin[a], hi = yee_domain_end(cfg, a);
    return cfg->boundary[a][0] == YEE_BC_PERIODIC && mc->box_min[a] <= lo + 1e-9 * cfg->dx[a] &&
           mc->box_max[a] >= hi - 1e-9 * cfg->dx[a];
}

/* The part of the cell of node g (component c) along tangential axis a that lies inside the
 * monitor, in units of the axis's base spacing dx[a]: on a uniform axis the trapezoid rule's
 * 1/2 for a node on the box edge, 1 inside; on a graded axis the node's cell width / dx[a], so
 * that the face's area element stays dx dy times the weight (the flux sums and the near-to-far
 * transform, postproc/farfield.c). A monitor spanning a periodic axis has no edges there, nor z
 * in 2-D (a monitor is as deep as the run: 1 um). */
static double node_weight(const yee_config *cfg, const yee_monitor_cfg *mc, int c, int a, int g)
{
    if (a == 2 && cfg->two_d)
        return 1.0;
    double cl, ch;
    yee_node_cell(cfg, c, a, g, &cl, &ch);
    if (spans_period(cfg, mc, a))
        return (ch - cl) / cfg->dx[a];
    const double l = fmax(cl, mc->box_min[a]);
    const double h = fmin(ch, mc->box_max[a]);
    return h > l ? (h - l) / cfg->dx[a] : 0.0;
}

/* Global node of local entry n of region r (x fastest, as the backend stores the sums). */
static void region_node(const region *r, int64_t n, int g[3])
{
    const int64_t i = n % r->count[0], j = (n / r->count[0]) % r->count[1],
                  k = n / ((int64_t)r->count[0] * r->count[1]);
    g[0] = r->glo[0] + r->start[0] + (int)i;
    g[1] = r->glo[1] + r->start[1] + (int)j;
    g[2] = r->glo[2] + r->start[2] + (int)k;
}

/* The area weights of an E region of face axis p on this rank. */
static int region_weights(const yee_dft_set *d, const yee_monitor_cfg *mc, region *r, int p)
{
    if (r->nodes == 0)
        return 1;
    r->weight = (double *)malloc((size_t)r->nodes * sizeof(double));
    if (!r->weight)
        return 0;
    for (int64_t n = 0; n < r->nodes; n++) {
        int g[3];
        region_node(r, n, g);
        double w = 1.0;
        for (int a = 0; a < 3; a++)
            if (a != p)
                w *= node_weight(d->cfg, mc, r->comp, a, g[a]);
        r->weight[n] = w;
    }
    return 1;
}

static int setup_flux(yee_dft_set *d, monitor *m, yee_err *err)
{
    const yee_config *cfg = d->cfg;
    /* 2-D: the z extent is the run's (no z faces; a plane is a line in x-y, a box a
     * rectangle) */
    const int naxes = cfg->two_d ? 2 : 3;
    int flat = -1, nflat = 0;
    for (int a = 0; a < naxes; a++)
        if (m->cfg->box_max[a] - m->cfg->box_min[a] < 0.5 * yee_min_width(cfg, a))
            flat = a, nflat++;
    /* A closed box's faces lie on the mesh lines nearest its edges; on a graded axis those are
     * rarely the deck's numbers, and the faces' tangential extent must end on the same lines or
     * the box is not closed (its faces' weights covered 96 % of a graded box: the near-to-far
     * power 2.6 % low). Uniform axes keep the deck's box, byte for byte as before. */
    yee_monitor_cfg snapped = *m->cfg;
    const yee_monitor_cfg *mc = &snapped;
    for (int a = 0; a < naxes && nflat == 0; a++) {
        if (!cfg->mesh[a])
            continue;
        const int c = (a + 1) % 3; /* an E component on the lines of axis a */
        snapped.box_min[a] = yee_node_position(cfg, c, a, yee_nearest_node(cfg, c, a, mc->box_min[a]));
        snapped.box_max[a] = yee_node_position(cfg, c, a, yee_nearest_node(cfg, c, a, mc->box_max[a]));
    }
    for (int a = 0; a < naxes; a++)
        for (int side = 0; side < 2; side++) {
            if (nflat == 1 && (a != flat || side == 1))
                continue;
            /* a box across a whole periodic axis: its two faces there carry the same power
             * out and in, so they are left out (the box is closed through the period) */
            if (nflat == 0 && spans_period(cfg, mc, a))
                continue;
            const int q = (a + 1) % 3, r = (a + 2) % 3;
            const double x = side ? mc->box_max[a] : mc->box_min[a];
            const int P = yee_nearest_node(cfg, q, a, x); /* E_q sits on integer nodes of a */
            /* No power crosses a PEC or PMC wall (tangential E, or H, is zero on it): a face on
             * one, e.g. a mirror plane cutting a box in two, adds nothing and is left out. */
            if (P < 1 && side == 0 && nflat != 1 &&
                (cfg->boundary[a][0] == YEE_BC_PEC || cfg->boundary[a][0] == YEE_BC_PMC))
                continue;
            face *f = &m->faces[m->nfaces++];
            if (P < 1)
                return yee_fail(err, YEE_ERR_DECK,
                                "%s:%d: flux monitor '%s': a face on the domain boundary (%c = "
                                "%g); move it inside the domain", cfg->deck_path, mc->line,
                                mc->name, "xyz"[a], x);
            f->axis = a;
            f->sign = nflat == 1 ? 1.0 : (side ? 1.0 : -1.0);
            const int comps[4] = {q, 3 + r, r, 3 + q};
            const int node_of[4] = {q, q, r, r}; /* H_r shares E_q's nodes, H_q E_r's */
            for (int k = 0; k < 4; k++) {
                region *g = &f->reg[k];
                g->comp = comps[k];
                g->avg_axis = k % 2 ? a : -1;
                /* the E plane x_P between the H nodes at the middles of cells P-1 and P: the
                 * upper one weighs w_{P-1} / (w_{P-1} + w_P), 1/2 on a uniform axis */
                g->avg_hi = yee_cell_width(cfg, a, P - 1) /
                            (yee_cell_width(cfg, a, P - 1) + yee_cell_width(cfg, a, P));
                face_nodes(cfg, mc, node_of[k], a, P, g);
                YEE_TRY(register_region(d, g, m->nfreq, err));
                if (k % 2 == 0 && !region_weights(d, mc, g, a))
                    return YEE_FAIL(err, YEE_ERR_NOMEM, "flux monitor '%s'", mc->name);
            }
        }
    return YEE_OK;
}

static int setup_dft(yee_dft_set *d, monitor *m, yee_err *err)
{
    const yee_config *cfg = d->cfg;
    const yee_monitor_cfg *mc = m->cfg;
    for (int c = 0; c < YEE_NCOMP; c++) {
        if (!(mc->components & (1u << c)))
            continue;
        region *g = &m->regs[m->nregions++];
        g->comp = c;
        g->avg_axis = -1;
        for (int a = 0; a < 3; a++)
            yee_node_range(cfg, c, a, mc->box_min[a], mc->box_max[a], &g->glo[a], &g->gcount[a]);
        YEE_TRY(register_region(d, g, m->nfreq, err));
    }
    return YEE_OK;
}

int yee_dft_set_create(const yee_config *cfg, const yee_backend_ops *be, void *ctx,
                       const int n_local[3], const int offset[3], int every, yee_dft_set **out,
                       yee_err *err)
{
    *out = NULL;
    yee_dft_set *d = (yee_dft_set *)calloc(1, sizeof *d);
    if (!d)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "DFT monitors");
    d->cfg = cfg;
    d->be = be;
    d->ctx = ctx;
    for (int a = 0; a < 3; a++) {
        d->n_local[a] = n_local[a];
        d->offset[a] = offset[a];
    }
    d->mon = (monitor *)calloc((size_t)cfg->nmonitors + 1, sizeof *d->mon);
    int rc = d->mon ? YEE_OK : YEE_FAIL(err, YEE_ERR_NOMEM, "DFT monitors");
    for (int q = 0; q < cfg->nmonitors && rc == YEE_OK; q++) {
        const yee_monitor_cfg *mc = &cfg->monitors[q];
        if (mc->kind != YEE_MON_FLUX && mc->kind != YEE_MON_DFT)
            continue;
        monitor *m = &d->mon[d->nmon++];
        m->cfg = mc;
        m->nfreq = mc->nfreq;
        m->freq = (double *)malloc((size_t)m->nfreq * sizeof(double));
        m->ph_e = (double *)malloc(2 * (size_t)m->nfreq * sizeof(double));
        m->ph_h = (double *)malloc(2 * (size_t)m->nfreq * sizeof(double));
        if (!m->freq || !m->ph_e || !m->ph_h) {
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "DFT monitor '%s'", mc->name);
            break;
        }
        for (int f = 0; f < m->nfreq; f++)
            m->freq[f] = m->nfreq == 1 ? mc->fmin
                                       : mc->fmin + (mc->fmax - mc->fmin) * f / (m->nfreq - 1);
        rc = mc->kind == YEE_MON_FLUX ? setup_flux(d, m, err) : setup_dft(d, m, err);
    }
    if (rc != YEE_OK) {
        yee_dft_set_destroy(d);
        return rc;
    }
    double fmon = 0.0;
    for (int q = 0; q < d->nmon; q++)
        fmon = fmax(fmon, d->mon[q].cfg->fmax);
    d->every = sample_every(cfg, fmon);
    /* every >= 1 forces the sampling interval (tests compare 1 with the automatic k) */
    if (every >= 1)
        d->every = every;
    *out = d;
    return YEE_OK;
}

/* ---- per step ---- */

static void phasors(const monitor *m, double t, double dt, double *ph)
{
    for (int f = 0; f < m->nfreq; f++) {
        const double w = 2.0 * M_PI * m->freq[f] * t;
        ph[2 * f] = cos(w) * dt;
        ph[2 * f + 1] = sin(w) * dt;
    }
}

static int accumulate_region(yee_dft_set *d, const monitor *m, const region *r, yee_err *err)
{
    if (r->id < 0)
        return YEE_OK;
    return d->be->dft_accumulate(d->ctx, r->id, r->comp < 3 ? m->ph_e : m->ph_h, err);
}

int yee_dft_set_due(const yee_dft_set *d, long s)
{
    return d->nmon > 0 && s % d->every == 0;
}

int yee_dft_set_accumulate(yee_dft_set *d, long s, yee_err *err)
{
    if (!yee_dft_set_due(d, s))
        return YEE_OK;
    const double dt = d->cfg->dt;
    for (int q = 0; q < d->nmon; q++) {
        monitor *m = &d->mon[q];
        phasors(m, s * dt, d->every * dt, m->ph_e);
        phasors(m, (s - 0.5) * dt, d->every * dt, m->ph_h);
        for (int f = 0; f < m->nfaces; f++)
            for (int k = 0; k < 4; k++)
                YEE_TRY(accumulate_region(d, m, &m->faces[f].reg[k], err));
        for (int k = 0; k < m->nregions; k++)
            YEE_TRY(accumulate_region(d, m, &m->regs[k], err));
    }
    return YEE_OK;
}

/* ---- output ---- */

/* The sums of a region on this rank (re then im, nfreq x nodes each), or NULL with none. */
static int fetch(yee_dft_set *d, const monitor *m, const region *r, double **out, yee_err *err)
{
    *out = NULL;
    if (r->id < 0)
        return YEE_OK;
    const size_t n = (size_t)r->nodes * (size_t)m->nfreq;
    double *buf = (double *)malloc(2 * n * sizeof(double));
    if (!buf)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "DFT download of '%s'", m->cfg->name);
    int rc = d->be->dft_transfer(d->ctx, r->id, buf, buf + n, 0, err);
    if (rc != YEE_OK) {
        free(buf);
        return rc;
    }
    *out = buf;
    return YEE_OK;
}

static const char *comp_name(int c)
{
    return yee_component_name(c);
}

/* Subtract the reference run's saved DFT fields of this region (same node block). */
static int subtract_reference(const yee_dft_set *d, const monitor *m, int fi, const region *r,
                              double *buf, yee_err *err)
{
    const yee_monitor_cfg *mc = m->cfg;
    const char *ref_mon = mc->name; /* the fields of this same monitor in the reference run */
    const int64_t shape[3] = {r->gcount[0], r->gcount[1], r->gcount[2]};
    const int64_t start[3] = {r->start[0], r->start[1], r->start[2]};
    const int64_t count[3] = {r->count[0], r->count[1], r->count[2]};
    const size_t n = (size_t)r->nodes * (size_t)m->nfreq;
    double *ref = (double *)malloc(n * sizeof(double));
    if (!ref)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "reference fields of '%s'", mc->name);
    int rc = YEE_OK;
    for (int part = 0; part < 2 && rc == YEE_OK; part++) {
        char path[4 * YEE_NAME_LEN];
        snprintf(path, sizeof path, "/flux/%s/face%d/%s_%s", ref_mon, fi, comp_name(r->comp),
                 part ? "im" : "re");
        rc = yee_h5_read_block(mc->reference, path, m->nfreq, shape, start, count, ref, err);
        if (rc != YEE_OK) {
            char why[YEE_ERR_MSG_LEN]; /* err->msg cannot be both format argument and target */
            snprintf(why, sizeof why, "%s", err->msg);
            yee_fail(err, rc, "%s:%d: flux monitor '%s': subtract_reference: %s (the reference "
                              "run needs the same grid and monitor, with save_fields = true)",
                     d->cfg->deck_path, mc->line, mc->name, why);
            break;
        }
        for (size_t i = 0; i < n; i++)
            buf[part * n + i] -= ref[i];
    }
    free(ref);
    return rc;
}

/* Where region r's nodes lie in its dataset (the whole region: shape; this rank's block: start,
 * count), the position of its first node (um) and, on graded axes, of all its nodes (coords,
 * allocated; NULL on uniform axes: free with yee_h5_coords_free). */
static int block_of(const yee_dft_set *d, const region *r, int64_t shape[3], int64_t start[3],
                    int64_t count[3], double origin[3], double *coords[3], yee_err *err)
{
    for (int a = 0; a < 3; a++) {
        shape[a] = r->gcount[a];
        start[a] = r->start[a];
        count[a] = r->count[a];
        origin[a] = yee_node_position(d->cfg, r->comp, a, r->glo[a]);
    }
    return yee_h5_node_coords(d->cfg, r->comp, r->glo, r->gcount, coords, err);
}

static int write_region(yee_h5 *h5, const yee_dft_set *d, const monitor *m, const region *r,
                        const char *prefix, const double *buf, yee_err *err)
{
    const size_t n = (size_t)r->nodes * (size_t)m->nfreq;
    int64_t shape[3], start[3], count[3];
    double origin[3], *coords[3];
    YEE_TRY(block_of(d, r, shape, start, count, origin, coords, err));
    int rc = YEE_OK;
    for (int part = 0; part < 2 && rc == YEE_OK; part++) {
        char path[4 * YEE_NAME_LEN];
        snprintf(path, sizeof path, "%s/%s_%s", prefix, comp_name(r->comp), part ? "im" : "re");
        rc = yee_h5_block_write(h5, path, m->nfreq, shape, start, count,
                                buf ? buf + part * n : NULL, origin, d->cfg->dx,
                                (const double *const *)coords, err);
    }
    yee_h5_coords_free(coords);
    return rc;
}

/* <prefix>/<Comp>_weight (1, nz, ny, nx): the area weight of each node of E region r, the
 * trapezoid rule's share of its cell inside the monitor (node_weight). Collective. */
static int write_weights(yee_h5 *h5, const yee_dft_set *d, const region *r, const char *prefix,
                         yee_err *err)
{
    int64_t shape[3], start[3], count[3];
    double origin[3], *coords[3];
    YEE_TRY(block_of(d, r, shape, start, count, origin, coords, err));
    char path[4 * YEE_NAME_LEN];
    snprintf(path, sizeof path, "%s/%s_weight", prefix, comp_name(r->comp));
    const int rc = yee_h5_block_write(h5, path, 1, shape, start, count,
                                      r->nodes ? r->weight : NULL, origin, d->cfg->dx,
                                      (const double *const *)coords, err);
    yee_h5_coords_free(coords);
    return rc;
}

/* The flux spectrum of monitor m on this rank, reference fields subtracted when asked; writes
 * the face fields when save_fields. Collective (the writes). */
/* A mode monitor's coefficients from its plane's fetched DFT buffers (E_q, H_r, E_r, H_q):
 * collective (every rank calls it, with or without nodes). */
static int mode_coefficients(yee_dft_set *d, monitor *m, const face *f, double *const buf[4],
                             yee_err *err)
{
    const int nm = m->cfg->nmodes, nf = m->nfreq;
    m->alpha = (double *)malloc(4 * (size_t)nm * nf * sizeof(double));
    m->neff = (double *)malloc((size_t)nm * nf * sizeof(double));
    int *node[2] = {NULL, NULL};
    yee_plane_pair pair[2];
    memset(pair, 0, sizeof pair);
    int ok = m->alpha && m->neff;
    for (int p = 0; p < 2 && ok; p++) {
        const region *g = &f->reg[2 * p];
        if (!buf[2 * p] || !buf[2 * p + 1] || g->nodes == 0)
            continue;
        ok = (node[p] = (int *)malloc(3 * (size_t)g->nodes * sizeof(int))) != NULL;
        for (int64_t n = 0; ok && n < g->nodes; n++)
            region_node(g, n, node[p] + 3 * n);
        pair[p] = (yee_plane_pair){g->nodes, node[p], g->weight, buf[2 * p], buf[2 * p + 1]};
    }
    int rc = ok ? yee_mode_coefficients(d->cfg, m->cfg, f->axis, f->reg[0].glo[f->axis], nf,
                                        m->freq, pair, MPI_COMM_WORLD, m->alpha, m->neff, err)
                : YEE_FAIL(err, YEE_ERR_NOMEM, "mode monitor '%s'", m->cfg->name);
    free(node[0]);
    free(node[1]);
    return rc;
}

/* /modes/<name>/mode<k>/...: the coefficients, the power each way and, with `incident`, the
 * S-parameters (the incident monitor's forward mode-1 amplitude divides them); collective.
 * Rank 0 also writes <dir>/<run>_<name>_modes.csv. */
static int write_modes(yee_dft_set *d, const monitor *m, yee_h5 *h5, int rank, yee_err *err)
{
    const yee_monitor_cfg *mc = m->cfg;
    const int nm = mc->nmodes, nf = m->nfreq;
    const monitor *inc = NULL;
    for (int i = 0; i < d->nmon && mc->incident[0]; i++)
        if (d->mon[i].alpha && strcmp(d->mon[i].cfg->name, mc->incident) == 0)
            inc = &d->mon[i];
    enum { NEFF, AFR, AFI, ABR, ABI, PF, PB, SFR, SFI, SBR, SBI, NQ };
    static const char *const names[NQ] = {"neff", "alpha_fwd_re", "alpha_fwd_im", "alpha_bwd_re",
                                          "alpha_bwd_im", "power_fwd", "power_bwd", "s_fwd_re",
                                          "s_fwd_im", "s_bwd_re", "s_bwd_im"};
    static const char *const notes[NQ] = {
        "effective index at each frequency", "forward (+axis) amplitude: unit = unit power",
        NULL, "backward (-axis) amplitude", NULL, "2 |alpha_fwd|^2: power in the flux's units",
        "2 |alpha_bwd|^2", "alpha_fwd / the incident monitor's forward mode-1 alpha", NULL,
        "alpha_bwd / the incident monitor's forward mode-1 alpha", NULL};
    const int nq = inc ? NQ : SFR;
    double *v = (double *)malloc((size_t)NQ * nm * nf * sizeof(double));
    if (!v)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "mode monitor '%s'", mc->name);
    for (int k = 0; k < nm; k++)
        for (int q = 0; q < nf; q++) {
            const double *a = m->alpha + 4 * ((size_t)k * nf + q);
            double *x = v + (size_t)(k * nf + q) * NQ;
            x[NEFF] = m->neff[k * nf + q];
            x[AFR] = a[0], x[AFI] = a[1], x[ABR] = a[2], x[ABI] = a[3];
            x[PF] = 2 * (a[0] * a[0] + a[1] * a[1]);
            x[PB] = 2 * (a[2] * a[2] + a[3] * a[3]);
            if (inc) {
                const double *b = inc->alpha + 4 * (size_t)q; /* mode 1, forward */
                const double bb = b[0] * b[0] + b[1] * b[1];
                /* a / b = a conj(b) / |b|^2 */
                x[SFR] = (a[0] * b[0] + a[1] * b[1]) / bb;
                x[SFI] = (a[1] * b[0] - a[0] * b[1]) / bb;
                x[SBR] = (a[2] * b[0] + a[3] * b[1]) / bb;
                x[SBI] = (a[3] * b[0] - a[2] * b[1]) / bb;
            }
        }
    int rc = YEE_OK;
    double *col = (double *)malloc((size_t)nf * sizeof(double));
    if (!col)
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "mode monitor '%s'", mc->name);
    char path[4 * YEE_NAME_LEN];
    snprintf(path, sizeof path, "/modes/%s/frequency", mc->name);
    if (rc == YEE_OK)
        rc = yee_h5_vector_write(h5, path, nf, m->freq, "units", "c/um", err);
    for (int k = 0; k < nm && rc == YEE_OK; k++)
        for (int j = 0; j < nq && rc == YEE_OK; j++) {
            for (int q = 0; q < nf; q++)
                col[q] = v[(size_t)(k * nf + q) * NQ + j];
            snprintf(path, sizeof path, "/modes/%s/mode%d/%s", mc->name, k + 1, names[j]);
            rc = yee_h5_vector_write(h5, path, nf, col, notes[j] ? "meaning" : NULL, notes[j],
                                     err);
        }
    if (rc == YEE_OK && rank == 0) {
        const yee_config *cfg = d->cfg;
        char csv[YEE_PATH_LEN + 2 * YEE_NAME_LEN + 16];
        snprintf(csv, sizeof csv, "%s/%s_%s_modes.csv", cfg->out_dir, cfg->name, mc->name);
        FILE *fp = fopen(csv, "w");
        if (!fp) {
            rc = yee_fail(err, YEE_ERR_IO, "cannot write '%s'", csv);
        } else {
            fprintf(fp, "frequency_thz,wavelength_um,mode,neff,power_fwd,power_bwd,alpha_fwd_re,"
                        "alpha_fwd_im,alpha_bwd_re,alpha_bwd_im%s\n",
                    inc ? ",s_fwd_abs2,s_bwd_abs2,s_fwd_re,s_fwd_im,s_bwd_re,s_bwd_im" : "");
            for (int q = 0; q < nf; q++)
                for (int k = 0; k < nm; k++) {
                    const double *x = v + (size_t)(k * nf + q) * NQ;
                    fprintf(fp, "%.10g,%.10g,%d,%.10g,%.10e,%.10e,%.10e,%.10e,%.10e,%.10e",
                            m->freq[q] * YEE_C_UM_THZ, 1.0 / m->freq[q], k + 1, x[NEFF], x[PF],
                            x[PB], x[AFR], x[AFI], x[ABR], x[ABI]);
                    if (inc)
                        fprintf(fp, ",%.10e,%.10e,%.10e,%.10e,%.10e,%.10e",
                                x[SFR] * x[SFR] + x[SFI] * x[SFI],
                                x[SBR] * x[SBR] + x[SBI] * x[SBI],
                                x[SFR], x[SFI], x[SBR], x[SBI]);
                    fputc('\n', fp);
                }
            if (fclose(fp) != 0)
                rc = yee_fail(err, YEE_ERR_IO, "cannot write '%s' (disk full?)", csv);
        }
    }
    free(col);
    free(v);
    return rc;
}

static int flux_spectrum(yee_dft_set *d, monitor *m, yee_h5 *h5, double *flux, yee_err *err)
{
    const yee_monitor_cfg *mc = m->cfg;
    const int nf = m->nfreq;
    int rc = YEE_OK;
    for (int fi = 0; fi < m->nfaces; fi++) {
        face *f = &m->faces[fi];
        double *buf[4] = {NULL, NULL, NULL, NULL};
        for (int k = 0; k < 4 && rc == YEE_OK; k++) {
            rc = fetch(d, m, &f->reg[k], &buf[k], err);
            if (rc == YEE_OK && buf[k] && mc->subtract_reference)
                rc = subtract_reference(d, m, fi, &f->reg[k], buf[k], err);
        }
        /* every rank must reach the collective writes: agree on failure first */
        int ok = rc == YEE_OK, all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (all && mc->save_fields) {
            char prefix[3 * YEE_NAME_LEN];
            snprintf(prefix, sizeof prefix, "/flux/%s/face%d", mc->name, fi);
            for (int k = 0; k < 4 && rc == YEE_OK; k++)
                rc = write_region(h5, d, m, &f->reg[k], prefix, buf[k], err);
            /* what a near-to-far transform needs besides the fields (postproc/farfield.c):
             * the face's normal and each E node's share of its cell in the face */
            const double normal[2] = {(double)f->axis, f->sign};
            char path[4 * YEE_NAME_LEN];
            snprintf(path, sizeof path, "%s/normal", prefix);
            if (rc == YEE_OK)
                rc = yee_h5_vector_write(h5, path, 2, normal, "meaning",
                                         "axis (0 x, 1 y, 2 z) and sign of the outward normal",
                                         err);
            for (int k = 0; k < 4 && rc == YEE_OK; k += 2)
                rc = write_weights(h5, d, &f->reg[k], prefix, err);
        }
        /* the two products E_q H_r* and E_r H_q* live on different node sets (E_q's and E_r's
         * staggering): a rank may hold nodes of one and none of the other (a face edge on its
         * boundary), and then still adds the one it has */
        if (all && mc->nmodes > 0 && rc == YEE_OK)
            rc = mode_coefficients(d, m, f, buf, err);
        const int pair1 = all && buf[0] && buf[1], pair2 = all && buf[2] && buf[3];
        if (pair1 || pair2) {
            const int p = f->axis;
            const double da = d->cfg->dx[(p + 1) % 3] * d->cfg->dx[(p + 2) % 3];
            const int64_t n1 = pair1 ? f->reg[0].nodes : 0, n2 = pair2 ? f->reg[2].nodes : 0;
            for (int q = 0; q < nf; q++) {
                double s = 0.0;
                for (int64_t i = 0; i < n1; i++) {
                    const double *eq = buf[0] + q * n1, *hr = buf[1] + q * n1;
                    s += f->reg[0].weight[i] * (eq[i] * hr[i] + eq[nf * n1 + i] * hr[nf * n1 + i]);
                }
                for (int64_t i = 0; i < n2; i++) {
                    const double *er = buf[2] + q * n2, *hq = buf[3] + q * n2;
                    s -= f->reg[2].weight[i] * (er[i] * hq[i] + er[nf * n2 + i] * hq[nf * n2 + i]);
                }
                flux[q] += f->sign * da * s;
            }
        }
        for (int k = 0; k < 4; k++)
            free(buf[k]);
        if (!all)
            return rc != YEE_OK ? rc : yee_fail(err, YEE_ERR_IO, "flux monitor '%s' failed on "
                                                                 "another rank", mc->name);
    }
    return rc;
}

static int write_csv(const yee_dft_set *d, const monitor *m, const double *flux,
                     const double *ref, yee_err *err)
{
    const yee_config *cfg = d->cfg;
    char path[YEE_PATH_LEN + 2 * YEE_NAME_LEN + 16];
    snprintf(path, sizeof path, "%s/%s_%s_flux.csv", cfg->out_dir, cfg->name, m->cfg->name);
    FILE *fp = fopen(path, "w");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s'", path);
    fprintf(fp, "frequency_thz,wavelength_um,flux%s\n", ref ? ",reference_flux,normalized" : "");
    for (int q = 0; q < m->nfreq; q++) {
        fprintf(fp, "%.10g,%.10g,%.10e", m->freq[q] * YEE_C_UM_THZ, 1.0 / m->freq[q], flux[q]);
        if (ref)
            fprintf(fp, ",%.10e,%.10e", ref[q], flux[q] / fabs(ref[q]));
        fputc('\n', fp);
    }
    if (fclose(fp) != 0)
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s' (disk full?)", path);
    return YEE_OK;
}

/* The reference run's flux of this monitor, checked to have the same frequencies. */
static int read_reference(const yee_dft_set *d, const monitor *m, double **out, yee_err *err)
{
    const yee_monitor_cfg *mc = m->cfg;
    const char *ref_mon = mc->reference_monitor[0] ? mc->reference_monitor : mc->name;
    char path[2 * YEE_NAME_LEN + 16];
    double *freq = NULL, *flux = NULL;
    int64_t nfreq = 0, nflux = 0;
    snprintf(path, sizeof path, "/flux/%s/frequency", ref_mon);
    int rc = yee_h5_read_vector(mc->reference, path, &freq, &nfreq, err);
    snprintf(path, sizeof path, "/flux/%s/flux", ref_mon);
    if (rc == YEE_OK)
        rc = yee_h5_read_vector(mc->reference, path, &flux, &nflux, err);
    if (rc == YEE_OK && (nfreq != m->nfreq || nflux != m->nfreq))
        rc = yee_fail(err, YEE_ERR_IO, "has %lld frequencies, this monitor %d",
                      (long long)nfreq, m->nfreq);
    for (int q = 0; rc == YEE_OK && q < m->nfreq; q++)
        if (fabs(freq[q] - m->freq[q]) > 1e-9 * fabs(m->freq[q]))
            rc = yee_fail(err, YEE_ERR_IO, "frequency %d is %.9g THz there, %.9g THz here", q,
                          freq[q] * YEE_C_UM_THZ, m->freq[q] * YEE_C_UM_THZ);
    free(freq);
    if (rc != YEE_OK) {
        char why[YEE_ERR_MSG_LEN];
        snprintf(why, sizeof why, "%s", err->msg);
        free(flux);
        return yee_fail(err, rc, "%s:%d: flux monitor '%s': reference '%s' monitor '%s': %s",
                        d->cfg->deck_path, mc->line, mc->name, mc->reference, ref_mon, why);
    }
    *out = flux;
    return YEE_OK;
}

static int write_monitor(yee_dft_set *d, monitor *m, yee_h5 *h5, MPI_Comm comm, int rank,
                         yee_err *err)
{
    const yee_monitor_cfg *mc = m->cfg;
    const int nf = m->nfreq;
    char path[3 * YEE_NAME_LEN];
    const char *group = mc->kind == YEE_MON_FLUX ? "flux" : "dft";
    double *thz = (double *)malloc((size_t)nf * sizeof(double));
    if (!thz)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "spectrum of '%s'", mc->name);
    for (int q = 0; q < nf; q++)
        thz[q] = m->freq[q] * YEE_C_UM_THZ;
    snprintf(path, sizeof path, "/%s/%s/frequency", group, mc->name);
    int rc = yee_h5_vector_write(h5, path, nf, m->freq, "units", "c/um (f_THz = f * 299.792458)",
                                 err);
    snprintf(path, sizeof path, "/%s/%s/frequency_thz", group, mc->name);
    if (rc == YEE_OK)
        rc = yee_h5_vector_write(h5, path, nf, thz, "units", "THz", err);
    free(thz);
    YEE_TRY(rc);
    if (mc->kind == YEE_MON_DFT) {
        for (int k = 0; k < m->nregions; k++) {
            double *buf = NULL;
            int ok = fetch(d, m, &m->regs[k], &buf, err) == YEE_OK, all = 0;
            MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
            snprintf(path, sizeof path, "/dft/%s", mc->name);
            rc = all ? write_region(h5, d, m, &m->regs[k], path, buf, err) : YEE_ERR_NOMEM;
            free(buf);
            if (!all && ok)
                return yee_fail(err, YEE_ERR_NOMEM, "DFT download failed on another rank");
            YEE_TRY(rc);
        }
        return YEE_OK;
    }
    double *flux = (double *)calloc((size_t)nf, sizeof(double));
    double *ref = NULL;
    if (!flux)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "flux of '%s'", mc->name);
    rc = flux_spectrum(d, m, h5, flux, err);
    if (rc == YEE_OK) {
        MPI_Allreduce(MPI_IN_PLACE, flux, nf, MPI_DOUBLE, MPI_SUM, comm);
        for (int q = 0; q < nf; q++)
            flux[q] *= mc->weight;
    }
    if (rc == YEE_OK && mc->reference[0]) {
        /* every rank reads the small spectrum; all agree on failure before writing */
        int ok = read_reference(d, m, &ref, err) == YEE_OK, all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
        if (!all)
            rc = ok ? yee_fail(err, YEE_ERR_IO, "reading the reference failed on another rank")
                    : YEE_ERR_IO;
    }
    snprintf(path, sizeof path, "/flux/%s/flux", mc->name);
    if (rc == YEE_OK)
        rc = yee_h5_vector_write(h5, path, nf, flux, "description",
                                 "Re sum (E x conj H) . n dA over the monitor, times weight", err);
    if (rc == YEE_OK && ref) {
        double *norm = (double *)malloc((size_t)nf * sizeof(double));
        if (!norm)
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "normalized flux");
        /* |reference|: the sign stays this monitor's own (weight -1 on a reflection plane and
         * its reference both count towards -z; the ratio is the positive reflectance) */
        for (int q = 0; rc == YEE_OK && q < nf; q++)
            norm[q] = flux[q] / fabs(ref[q]);
        snprintf(path, sizeof path, "/flux/%s/reference", mc->name);
        if (rc == YEE_OK)
            rc = yee_h5_vector_write(h5, path, nf, ref, "file", mc->reference, err);
        snprintf(path, sizeof path, "/flux/%s/normalized", mc->name);
        if (rc == YEE_OK)
            rc = yee_h5_vector_write(h5, path, nf, norm, "description", "flux / |reference|",
                                     err);
        free(norm);
    }
    if (rc == YEE_OK && rank == 0)
        rc = write_csv(d, m, flux, ref, err);
    free(flux);
    free(ref);
    return rc;
}

int yee_dft_set_write(yee_dft_set *d, yee_h5 *h5, MPI_Comm comm, yee_err *err)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    for (int q = 0; q < d->nmon; q++)
        YEE_TRY(write_monitor(d, &d->mon[q], h5, comm, rank, err));
    /* after every monitor's coefficients: a mode monitor's incident one may come later */
    for (int q = 0; q < d->nmon; q++)
        if (d->mon[q].alpha)
            YEE_TRY(write_modes(d, &d->mon[q], h5, rank, err));
    return YEE_OK;
}

size_t yee_dft_bytes_estimate(const yee_config *cfg)
{
    size_t bytes = 0;
    for (int q = 0; q < cfg->nmonitors; q++) {
        const yee_monitor_cfg *mc = &cfg->monitors[q];
        if (mc->kind != YEE_MON_FLUX && mc->kind != YEE_MON_DFT)
            continue;
        /* nodes per axis of the box clipped to the domain; flat axes count one node */
        double nodes[3];
        int flat = 0;
        for (int a = 0; a < 3; a++) {
            const double lo = fmax(mc->box_min[a], cfg->origin[a]);
            const double hi = fmin(mc->box_max[a], yee_domain_end(cfg, a));
            nodes[a] = fmin(floor(fmax(hi - lo, 0.0) / yee_min_width(cfg, a)) + 1, cfg->n[a]);
            flat += mc->box_max[a] - mc->box_min[a] < 0.5 * yee_min_width(cfg, a);
        }
        double total;
        if (mc->kind == YEE_MON_DFT) {
            int nc = 0;
            for (int c = 0; c < YEE_NCOMP; c++)
                nc += (mc->components >> c) & 1;
            total = nc * nodes[0] * nodes[1] * nodes[2];
        } else if (flat) { /* a plane: 4 components on one face */
            total = 4 * nodes[0] * nodes[1] * nodes[2];
        } else {          /* a box: 4 components on each of 6 faces */
            total = 4 * 2 * (nodes[0] * nodes[1] + nodes[1] * nodes[2] + nodes[0] * nodes[2]);
        }
        /* the sums, and the samples the CPU backend holds between additions */
        bytes += (size_t)(total * (2 * mc->nfreq + yee_dft_batch(mc->nfreq)) * sizeof(double));
    }
    return bytes;
}

int yee_dft_set_regions(const yee_dft_set *d)
{
    int n = 0;
    for (int q = 0; q < d->nmon; q++)
        n += 4 * d->mon[q].nfaces + d->mon[q].nregions;
    return n;
}

/* Region r of the set, in monitor order (faces' four, then dft components), and its monitor. */
static region *nth_region(const yee_dft_set *d, int r, const monitor **mon)
{
    for (int q = 0; q < d->nmon; q++) {
        monitor *m = &d->mon[q];
        *mon = m;
        if (r < 4 * m->nfaces)
            return &m->faces[r / 4].reg[r % 4];
        r -= 4 * m->nfaces;
        if (r < m->nregions)
            return &m->regs[r];
        r -= m->nregions;
    }
    return NULL;
}

size_t yee_dft_set_hold_bytes(const yee_dft_set *d)
{
    size_t nodes = 0;
    for (int r = 0; r < yee_dft_set_regions(d); r++) {
        const monitor *m;
        const region *g = nth_region(d, r, &m);
        if (g->id < 0)
            continue;
        nodes += (size_t)g->nodes;
        if (g->avg_axis >= 0)
            nodes += (size_t)(g->nodes / g->count[g->avg_axis]);
    }
    return nodes * sizeof(yee_real);
}

int64_t yee_dft_set_region_size(const yee_dft_set *d, int r)
{
    const monitor *m;
    const region *g = nth_region(d, r, &m);
    return g && g->id >= 0 ? g->nodes * m->nfreq : 0;
}

int yee_dft_set_transfer(yee_dft_set *d, int r, double *re, double *im, int set, yee_err *err)
{
    const monitor *m;
    const region *g = nth_region(d, r, &m);
    if (!g || g->id < 0)
        return YEE_OK;
    return d->be->dft_transfer(d->ctx, g->id, re, im, set, err);
}

void yee_dft_set_destroy(yee_dft_set *d)
{
    if (!d)
        return;
    for (int q = 0; q < d->nmon; q++) {
        for (int f = 0; f < d->mon[q].nfaces; f++)
            for (int k = 0; k < 4; k++)
                free(d->mon[q].faces[f].reg[k].weight);
        free(d->mon[q].freq);
        free(d->mon[q].alpha);
        free(d->mon[q].neff);
        free(d->mon[q].ph_e);
        free(d->mon[q].ph_h);
    }
    free(d->mon);
    free(d);
}
