/* solver/sources.c -- node lists of dipole and volume sources, TFSF plane waves, and the
 * per-step current lists built from them (see solver/sources.h). */
#include "solver/sources.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/nodes.h"
#include "solver/structure.h"
#include "solver/waveform.h"
#include "solver/tfsf.h"

/* One node of a dipole or volume source: J (or M) = (weight + i weight_im) * profile(t). */
typedef struct node_src {
    int comp;
    int i, j, k;
    double weight;
    double weight_im;  /* Bloch runs: the volume source's phase exp(2 pi i k.r) at this node */
    int source;       /* index into cfg->sources */
} node_src;

struct yee_sources {
    const yee_config *cfg;
    int nnodes;
    node_src *nodes;
    int ntfsf;
    yee_tfsf **tfsf;
    int max; /* the most currents of one call */
    double t_end;
};

/* The nodes of a dipole (one node) or volume source on this rank. */
static int add_nodes(yee_sources *s, int q, const int n_local[3], const int offset[3])
{
    const yee_config *cfg = s->cfg;
    const yee_source_cfg *sc = &cfg->sources[q];
    const int c = sc->component;
    int lo[3], cnt[3];
    double weight = sc->profile.amplitude == 0.0 ? 0.0 : 1.0;
    for (int a = 0; a < 3; a++) {
        if (sc->kind == YEE_SRC_DIPOLE) {
            lo[a] = yee_nearest_node(cfg, c, a, sc->position[a]);
            cnt[a] = 1;
        } else {
            yee_node_range(cfg, c, a, sc->box_min[a], sc->box_max[a], &lo[a], &cnt[a]);
        }
        /* a point, line or sheet: the delta function's 1/dx along each collapsed axis, dx the
         * width of the node's own cell there (a graded axis: model/nodes.h) */
        const double w = yee_node_width(cfg, c, a, lo[a]);
        if (sc->kind == YEE_SRC_DIPOLE || sc->box_max[a] - sc->box_min[a] < w)
            weight /= w;
    }
    for (int k = lo[2]; k < lo[2] + cnt[2]; k++)
        for (int j = lo[1]; j < lo[1] + cnt[1]; j++)
            for (int i = lo[0]; i < lo[0] + cnt[0]; i++) {
                const int g[3] = {i - offset[0], j - offset[1], k - offset[2]};
                if (g[0] < 0 || g[0] >= n_local[0] || g[1] < 0 || g[1] >= n_local[1] ||
                    g[2] < 0 || g[2] >= n_local[2])
                    continue;
                if (s->nnodes % 1024 == 0) {
                    node_src *nn = (node_src *)realloc(s->nodes, (size_t)(s->nnodes + 1024) *
                                                                     sizeof *nn);
                    if (!nn)
                        return 0;
                    s->nodes = nn;
                }
                node_src *ns = &s->nodes[s->nnodes++];
                ns->comp = c;
                ns->i = g[0];
                ns->j = g[1];
                ns->k = g[2];
                ns->weight = weight;
                ns->weight_im = 0.0;
                ns->source = q;
                if (cfg->complex_fields && sc->kind == YEE_SRC_VOLUME) {
                    /* a sheet across a Bloch cell launches the wave of that k (Meep's amp_func
                     * exp(i k.r)); the phase is taken at the component's own node */
                    const int node[3] = {i, j, k};
                    double phi = 0.0;
                    for (int a = 0; a < 3; a++)
                        phi += 2.0 * M_PI * cfg->bloch[a] * yee_node_position(cfg, c, a, node[a]);
                    ns->weight = weight * cos(phi);
                    ns->weight_im = weight * sin(phi);
                }
            }
    return 1;
}

int yee_sources_create(const yee_config *cfg, const int n_local[3], const int offset[3],
                       yee_sources **out, yee_err *err)
{
    *out = NULL;
    yee_sources *s = (yee_sources *)calloc(1, sizeof *s);
    if (!s)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate sources");
    s->cfg = cfg;
    s->tfsf = (yee_tfsf **)calloc((size_t)cfg->nsources + 1, sizeof *s->tfsf);
    int rc = s->tfsf ? YEE_OK : YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate sources");
    for (int q = 0; q < cfg->nsources && rc == YEE_OK; q++) {
        const yee_source_cfg *sc = &cfg->sources[q];
        double end = yee_profile_end(&sc->profile);
        if (sc->kind == YEE_SRC_DIPOLE || sc->kind == YEE_SRC_VOLUME) {
            if (!add_nodes(s, q, n_local, offset))
                rc = YEE_FAIL(err, YEE_ERR_NOMEM, "cannot allocate source '%s'", sc->name);
        } else {
            rc = yee_tfsf_create(cfg, sc, n_local, offset, &s->tfsf[s->ntfsf], err);
            if (rc == YEE_OK)
                end = yee_tfsf_end_time(s->tfsf[s->ntfsf++]);
        }
        if (end > s->t_end)
            s->t_end = end;
    }
    int need = s->nnodes;
    for (int q = 0; q < s->ntfsf; q++) {
        const int nh = yee_tfsf_count_h(s->tfsf[q]), ne = yee_tfsf_count_e(s->tfsf[q]);
        need += nh > ne ? nh : ne;
    }
    s->max = need;
    if (rc != YEE_OK) {
        yee_sources_destroy(s);
        return rc;
    }
    *out = s;
    return YEE_OK;
}

/* Node sources of field kind `h` (M into H, or J into E) at time t, written to buf. */
static int node_currents(const yee_sources *s, int h, double t, yee_point_current *buf)
{
    int n = 0;
    const yee_config *cfg = s->cfg;
    int last = -1;
    double v = 0.0;
    for (int q = 0; q < s->nnodes; q++) {
        const node_src *ns = &s->nodes[q];
        if ((ns->comp >= 3) != h)
            continue;
        if (ns->source != last) { /* nodes of one source are contiguous */
            last = ns->source;
            v = yee_profile_value(&cfg->sources[ns->source].profile, t);
        }
        if (v == 0.0)
            continue;
        yee_point_current *c = &buf[n++];
        c->comp = ns->comp;
        c->i = ns->i;
        c->j = ns->j;
        c->k = ns->k;
        c->j_value = (yee_real)(v * ns->weight);
        c->j_imag = (yee_real)(v * ns->weight_im);
    }
    return n;
}

int yee_sources_max(const yee_sources *s)
{
    return s->max;
}

int yee_sources_h(yee_sources *s, long n, yee_point_current *out)
{
    /* M enters Faraday's law with E^n: its time is n dt */
    int count = node_currents(s, 1, n * s->cfg->dt, out);
    for (int q = 0; q < s->ntfsf; q++)
        count += yee_tfsf_h_step(s->tfsf[q], out + count);
    return count;
}

int yee_sources_e(yee_sources *s, long n, yee_point_current *out)
{
    int count = node_currents(s, 0, (n + 0.5) * s->cfg->dt, out);
    for (int q = 0; q < s->ntfsf; q++)
        count += yee_tfsf_e_step(s->tfsf[q], out + count);
    return count;
}

double yee_sources_end_time(const yee_sources *s)
{
    return s->t_end;
}

size_t yee_sources_state_size(const yee_sources *s)
{
    size_t bytes = 0;
    for (int q = 0; q < s->ntfsf; q++)
        bytes += yee_tfsf_state_size(s->tfsf[q]);
    return bytes;
}

void yee_sources_state_save(const yee_sources *s, void *buf)
{
    char *p = (char *)buf;
    for (int q = 0; q < s->ntfsf; q++) {
        yee_tfsf_state_save(s->tfsf[q], p);
        p += yee_tfsf_state_size(s->tfsf[q]);
    }
}

void yee_sources_state_load(yee_sources *s, const void *buf)
{
    const char *p = (const char *)buf;
    for (int q = 0; q < s->ntfsf; q++) {
        yee_tfsf_state_load(s->tfsf[q], p);
        p += yee_tfsf_state_size(s->tfsf[q]);
    }
}

void yee_sources_destroy(yee_sources *s)
{
    if (!s)
        return;
    for (int q = 0; q < s->ntfsf; q++)
        yee_tfsf_destroy(s->tfsf[q]);
    free(s->tfsf);
    free(s->nodes);
    free(s);
}
