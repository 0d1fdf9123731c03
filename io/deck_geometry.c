/* io/deck_geometry.c -- the `materials` and `geometry` sections (io/deck_sections.h).
 *
 * Materials first: geometry objects and the background name them. Each object's keys are
 * checked against its shape (which keys it needs, which it must not have), a prism's polygon
 * for self-intersection, and an object wholly outside the domain gives a warning. Voxel data
 * are read by io/deck_voxels.c. Units: THz -> c/um, fs -> c-units, lengths um.
 */
#include "io/deck_sections.h"

#include "common/yee_hint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of the material `name`, or -1 (reported at w under key, with a hint). */
int yee_deck_find_material(yee_rd *c, const yee_config *cfg, const config_setting_t *w,
                           const char *key, const char *name)
{
    const char *best = NULL;
    int bestd = 99;
    for (int m = 0; m < cfg->nmaterials; m++) {
        if (strcmp(cfg->materials[m].name, name) == 0)
            return m;
        int d = yee_edit_distance(name, cfg->materials[m].name);
        if (d < bestd && yee_close_enough(name, cfg->materials[m].name, d))
            bestd = d, best = cfg->materials[m].name;
    }
    if (best)
        yee_rd_error(c, w, key, "unknown material \"%.60s\", did you mean \"%s\"?", name, best);
    else
        yee_rd_error(c, w, key, "unknown material \"%.60s\" (%d defined in materials)", name,
                     cfg->nmaterials);
    return -1;
}

/* ( [u, v], ... ) polygon vertices, at least 3. */
static int get_points2(yee_rd *c, const yee_rd_scope *sc, const char *name, double **xy, int *n)
{
    return yee_rd_pairs(c, sc, name, 3, "[u, v]", xy, n);
}

/* Proper or touching intersection of segments ab and cd (2-D). */
static int segments_cross(const double *a, const double *b, const double *cc, const double *d)
{
    double d1 = (d[0] - cc[0]) * (a[1] - cc[1]) - (d[1] - cc[1]) * (a[0] - cc[0]);
    double d2 = (d[0] - cc[0]) * (b[1] - cc[1]) - (d[1] - cc[1]) * (b[0] - cc[0]);
    double d3 = (b[0] - a[0]) * (cc[1] - a[1]) - (b[1] - a[1]) * (cc[0] - a[0]);
    double d4 = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
        return 1;
    /* collinear overlaps and touching */
    const double *pt[4] = {a, b, cc, d};
    const double *s0[4] = {cc, cc, a, a}, *s1[4] = {d, d, b, b};
    double dd[4] = {d1, d2, d3, d4};
    for (int q = 0; q < 4; q++)
        if (dd[q] == 0 &&
            fmin(s0[q][0], s1[q][0]) <= pt[q][0] && pt[q][0] <= fmax(s0[q][0], s1[q][0]) &&
            fmin(s0[q][1], s1[q][1]) <= pt[q][1] && pt[q][1] <= fmax(s0[q][1], s1[q][1]))
            return 1;
    return 0;
}

/* 1 and the first pair of crossing edges when the closed polygon intersects itself. */
static int polygon_self_intersects(const double *v, int n, int *e1, int *e2)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (j == i + 1 || (i == 0 && j == n - 1))
                continue; /* adjacent edges share a vertex */
            if (segments_cross(v + 2 * i, v + 2 * ((i + 1) % n), v + 2 * j,
                               v + 2 * ((j + 1) % n))) {
                *e1 = i;
                *e2 = j;
                return 1;
            }
        }
    /* a repeated vertex or a spike folding back onto its neighbour edge */
    for (int i = 0; i < n; i++) {
        const double *p = v + 2 * i, *q = v + 2 * ((i + 1) % n), *r = v + 2 * ((i + 2) % n);
        double cr = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
        double dot = (q[0] - p[0]) * (r[0] - q[0]) + (q[1] - p[1]) * (r[1] - q[1]);
        if ((p[0] == q[0] && p[1] == q[1]) || (cr == 0 && dot < 0)) {
            *e1 = i;
            *e2 = (i + 1) % n;
            return 1;
        }
    }
    return 0;
}

/* One pole list ("lorentz", "drude", "debye") of a material. */
static void load_poles(yee_rd *c, const yee_rd_scope *msc, const char *list_name,
                       yee_pole_kind kind, yee_material_cfg *mat)
{
    const config_setting_t *list;
    yee_rd_list(c, msc, list_name, &list);
    int n = list ? config_setting_length(list) : 0;
    char pat[64], key[80];
    snprintf(pat, sizeof pat, "materials[].%s[]", list_name);
    snprintf(key, sizeof key, "%.60s.%.10s", msc->key, list_name);
    for (int i = 0; i < n; i++) {
        yee_rd_scope sc;
        if (!yee_rd_list_elem(c, list, pat, key, i, &sc))
            continue;
        if (mat->npoles == YEE_MAX_POLES) {
            yee_rd_error(c, sc.s, sc.key, "more than %d poles in one material", YEE_MAX_POLES);
            return;
        }
        yee_pole_cfg *p = &mat->poles[mat->npoles++];
        p->line = yee_rd_line(c, sc.s);
        p->kind = kind;
        if (kind == YEE_POLE_DEBYE) {
            double tau_fs = 1;
            yee_rd_num(c, &sc, "delta_epsilon", &p->sigma);
            yee_rd_num(c, &sc, "tau", &tau_fs);
            p->tau = tau_fs / YEE_TIME_UNIT_FS;
        } else {
            double f = 1, g = 0;
            yee_rd_num(c, &sc, "frequency", &f);
            yee_rd_num(c, &sc, "gamma", &g);
            yee_rd_num(c, &sc, "sigma", &p->sigma);
            p->f0 = f / YEE_C_UM_THZ;
            p->gamma = g / YEE_C_UM_THZ;
        }
    }
}

int yee_deck_load_materials(yee_rd *c, const yee_rd_scope *root, yee_config *cfg)
{
    const config_setting_t *list;
    yee_rd_list(c, root, "materials", &list);
    int n = list ? config_setting_length(list) : 0;
    if (n == 0)
        return 0;
    cfg->materials = (yee_material_cfg *)calloc((size_t)n, sizeof *cfg->materials);
    if (!cfg->materials)
        return YEE_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        yee_material_cfg *m = &cfg->materials[i];
        m->eps[0] = m->eps[1] = m->eps[2] = 1;
        yee_rd_scope sc;
        if (!yee_rd_list_elem(c, list, "materials[]", "materials", i, &sc))
            continue;
        m->line = yee_rd_line(c, sc.s);
        const config_setting_t *w;
        char key[160];
        snprintf(m->name, sizeof m->name, "material%d", i);
        if (yee_rd_name(c, &sc, "name", m->name, sizeof m->name, &w) > 0)
            for (int j = 0; j < i; j++)
                if (strcmp(cfg->materials[j].name, m->name) == 0) {
                    snprintf(key, sizeof key, "%s.name", sc.key);
                    yee_rd_error(c, w, key, "duplicate material name \"%s\" (first defined at "
                                 "line %d)", m->name, cfg->materials[j].line);
                    break;
                }
        double eps = 1;
        int re = yee_rd_num(c, &sc, "epsilon", &eps);
        int rd = yee_rd_vec3(c, &sc, "epsilon_diag", m->eps);
        if (re != 0 && rd != 0) {
            snprintf(key, sizeof key, "%s.epsilon_diag", sc.key);
            yee_rd_error(c, config_setting_get_member(sc.s, "epsilon_diag"), key,
                         "give exactly one of epsilon / epsilon_diag (got both)");
        } else if (rd <= 0) {
            m->eps[0] = m->eps[1] = m->eps[2] = eps;
        }
        int rs = yee_rd_num(c, &sc, "sigma", &m->sigma);
        yee_rd_bool(c, &sc, "pec", &m->pec);
        load_poles(c, &sc, "lorentz", YEE_POLE_LORENTZ, m);
        load_poles(c, &sc, "drude", YEE_POLE_DRUDE, m);
        load_poles(c, &sc, "debye", YEE_POLE_DEBYE, m);
        if (m->pec && (re != 0 || rd != 0 || rs != 0 || m->npoles)) {
            snprintf(key, sizeof key, "%s.pec", sc.key);
            yee_rd_error(c, config_setting_get_member(sc.s, "pec"), key,
                         "a pec material has no epsilon, sigma or poles");
        }
        /* eps < 1 is allowed only as eps_inf of a dispersive material (its static eps is higher) */
        if (!m->pec && m->npoles == 0 && fmin(m->eps[0], fmin(m->eps[1], m->eps[2])) < 1) {
            snprintf(key, sizeof key, "%s.%s", sc.key, rd > 0 ? "epsilon_diag" : "epsilon");
            yee_rd_error(c, config_setting_get_member(sc.s, rd > 0 ? "epsilon_diag" : "epsilon"),
                         key, "must be >= 1 without dispersive poles (got %g)",
                         fmin(m->eps[0], fmin(m->eps[1], m->eps[2])));
        }
    }
    cfg->nmaterials = n;
    return 0;
}

/* geometry[].materials: names -> material indices (*out malloc'd, *n names). 0 when absent. */
static int get_voxel_materials(yee_rd *c, const yee_rd_scope *sc, const yee_config *cfg,
                               int **out, int *n)
{
    *out = NULL;
    *n = 0;
    char key[128], got[160];
    const config_setting_t *s;
    int len = yee_rd_strings(c, sc, "materials", "material names [\"air\", ...]", key,
                             sizeof key, &s);
    if (len <= 0)
        return len;
    int *idx = (int *)calloc((size_t)len, sizeof(int));
    if (!idx)
        return -1;
    int rc = 1;
    for (int i = 0; i < len; i++) {
        char ekey[160];
        const config_setting_t *e = yee_rd_elem(s, i, key, ekey, sizeof ekey);
        if (config_setting_type(e) != CONFIG_TYPE_STRING) {
            yee_rd_error(c, e, ekey, "must be a material name (got %s)",
                         yee_rd_got(e, got, sizeof got));
            rc = -1;
        } else if ((idx[i] = yee_deck_find_material(c, cfg, e, ekey,
                                                    config_setting_get_string(e))) < 0) {
            rc = -1;
        }
    }
    if (rc < 0) {
        free(idx);
        return -1;
    }
    *out = idx;
    *n = len;
    return 1;
}

int yee_deck_load_geometry(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                           const yee_deck_grid *g)
{
    static const char *const kind_names[] = {"box", "sphere", "cylinder", "cone", "ellipsoid",
                                             "prism", "voxels"};
    const config_setting_t *list;
    yee_rd_list(c, root, "geometry", &list);
    int n = list ? config_setting_length(list) : 0;
    if (n == 0)
        return 0;
    cfg->shapes = (yee_shape_cfg *)calloc((size_t)n, sizeof *cfg->shapes);
    if (!cfg->shapes)
        return YEE_ERR_NOMEM;
    cfg->nshapes = n;
    double copies = 0; /* lattice copies beyond the first of each object so far */
    int copies_reported = 0;
    for (int i = 0; i < n; i++) {
        yee_shape_cfg *s = &cfg->shapes[i];
        s->axis[2] = 1;
        s->counts[0] = s->counts[1] = s->counts[2] = 1;
        s->material = -1;
        yee_rd_scope sc;
        if (!yee_rd_list_elem(c, list, "geometry[]", "geometry", i, &sc))
            continue;
        s->line = yee_rd_line(c, sc.s);
        char key[160];
        const config_setting_t *w;
        int kind = -1;
        int rk = yee_rd_choice(c, &sc, "type", &kind, &w);
        yee_rd_check_only(c, &sc, "type", rk > 0 ? kind_names[kind] : NULL);
        const char *mname;
        const int rmat = yee_rd_string(c, &sc, "material", &mname, &w);
        if (rmat > 0 && !(rk > 0 && kind == YEE_SHAPE_VOXELS)) {
            snprintf(key, sizeof key, "%s.material", sc.key);
            s->material = yee_deck_find_material(c, cfg, w, key, mname);
        }
        const char *file = NULL, *dset = "epsilon";
        const config_setting_t *wfile = NULL, *wdset = NULL;
        const int rfile = yee_rd_string(c, &sc, "file", &file, &wfile);
        const int rdset = yee_rd_string(c, &sc, "dataset", &dset, &wdset);
        if (rdset <= 0)
            dset = "epsilon";
        int *vmats = NULL, nvmats = 0;
        const int rvm = get_voxel_materials(c, &sc, cfg, &vmats, &nvmats);
        yee_rd_vec3(c, &sc, "center", s->center);
        int rsize = yee_rd_vec3(c, &sc, "size", s->size);
        int rrad = yee_rd_num(c, &sc, "radius", &s->radius);
        int rrad2 = yee_rd_num(c, &sc, "radius2", &s->radius2);
        int rh = yee_rd_num(c, &sc, "height", &s->height);
        int rax = yee_rd_vec3(c, &sc, "axis", s->axis);
        int rv = get_points2(c, &sc, "vertices", &s->vert, &s->nvert);
        yee_rd_scope lat;
        if (yee_rd_group(c, &sc, "lattice", &lat) > 0) {
            yee_rd_vec3(c, &lat, "a1", s->lattice[0]);
            yee_rd_vec3(c, &lat, "a2", s->lattice[1]);
            yee_rd_vec3(c, &lat, "a3", s->lattice[2]);
            if (yee_rd_int3(c, &lat, "counts", s->counts) > 0) {
                /* the setup visits every copy: a limit keeps it short (model/config.h) */
                copies += (double)s->counts[0] * s->counts[1] * s->counts[2] - 1;
                if (copies + cfg->nshapes > YEE_MAX_SHAPE_COPIES && !copies_reported) {
                    const config_setting_t *wc = config_setting_get_member(lat.s, "counts");
                    snprintf(key, sizeof key, "%s.lattice.counts", sc.key);
                    yee_rd_error(c, wc, key, "the lattices make %.0f copies of objects; at most "
                                 "%d in a deck (got [%d, %d, %d])", copies + cfg->nshapes,
                                 YEE_MAX_SHAPE_COPIES, s->counts[0], s->counts[1], s->counts[2]);
                    copies_reported = 1;
                }
            }
        }
        if (rk <= 0) {
            free(vmats);
            continue;
        }
        s->kind = (yee_shape_kind)kind;
        snprintf(key, sizeof key, "%s.material", sc.key);
        if (kind != YEE_SHAPE_VOXELS && rmat == 0)
            yee_rd_error(c, sc.s, key, "missing required key");
        else if (kind == YEE_SHAPE_VOXELS && rmat != 0)
            yee_rd_error(c, w, key, "not a property of voxels (the data give the medium; for "
                         "indices name the materials with materials = [...])");
        if (kind == YEE_SHAPE_VOXELS) {
            snprintf(key, sizeof key, "%s.file", sc.key);
            int rv = 0;
            if (rfile == 0)
                yee_rd_error(c, sc.s, key, "missing required key (voxels need a file)");
            else if (rfile > 0 && rdset >= 0 && rvm >= 0)
                rv = yee_deck_load_voxels(c, cfg, i, &sc, file, wfile, dset, wdset, vmats, nvmats);
            free(vmats);
            if (rv == YEE_ERR_NOMEM)
                return YEE_ERR_NOMEM;
        } else {
            free(vmats);
        }
        /* which size keys each shape takes: required (2), allowed (1) or not (0) */
        static const int want[7][4] = {
            /* size radius height axis */
            {2, 0, 0, 0}, {0, 2, 0, 0}, {0, 2, 2, 1}, {0, 2, 2, 1}, {2, 0, 0, 0}, {0, 0, 2, 1},
            {2, 0, 0, 0}};
        const char *names[4] = {"size", "radius", "height", "axis"};
        int got[4] = {rsize, rrad, rh, rax};
        const int voxels = kind == YEE_SHAPE_VOXELS; /* "a voxels object", not "a voxels" */
        for (int q = 0; q < 4; q++) {
            snprintf(key, sizeof key, "%s.%s", sc.key, names[q]);
            if (want[kind][q] == 2 && got[q] == 0)
                yee_rd_error(c, sc.s, key, "missing required key (a %s%s needs a %s)",
                             kind_names[kind], voxels ? " object" : "", names[q]);
            else if (want[kind][q] == 0 && got[q] != 0)
                yee_rd_error(c, config_setting_get_member(sc.s, names[q]), key,
                             "not a property of a %s%s", kind_names[kind], voxels ? " object" : "");
        }
        if (kind == YEE_SHAPE_CONE && rrad2 == 0) {
            snprintf(key, sizeof key, "%s.radius2", sc.key);
            yee_rd_error(c, sc.s, key, "missing required key (a cone needs a radius2)");
        }
        if (kind == YEE_SHAPE_PRISM && rv == 0) {
            snprintf(key, sizeof key, "%s.vertices", sc.key);
            yee_rd_error(c, sc.s, key, "missing required key (a prism needs vertices)");
        }
        if (rax > 0) {
            double len = sqrt(s->axis[0] * s->axis[0] + s->axis[1] * s->axis[1] +
                              s->axis[2] * s->axis[2]);
            snprintf(key, sizeof key, "%s.axis", sc.key);
            w = config_setting_get_member(sc.s, "axis");
            char gtxt[128];
            if (!(len > 0)) {
                yee_rd_error(c, w, key, "must be a nonzero vector (got %s)",
                             yee_rd_got(w, gtxt, sizeof gtxt));
                continue;
            }
            for (int a = 0; a < 3; a++)
                s->axis[a] /= len;
            int coord = 0;
            for (int a = 0; a < 3; a++)
                coord += s->axis[a] != 0;
            if (kind == YEE_SHAPE_PRISM && coord != 1) {
                yee_rd_error(c, w, key, "a prism's axis must be x, y or z, e.g. [0, 0, 1] (got %s)",
                             yee_rd_got(w, gtxt, sizeof gtxt));
                continue;
            }
        }
        if (kind == YEE_SHAPE_PRISM && rv > 0) {
            int e1, e2;
            snprintf(key, sizeof key, "%s.vertices", sc.key);
            w = config_setting_get_member(sc.s, "vertices");
            double area = 0;
            for (int q = 0; q < s->nvert; q++) {
                const double *p0 = s->vert + 2 * q, *p1 = s->vert + 2 * ((q + 1) % s->nvert);
                area += p0[0] * p1[1] - p1[0] * p0[1];
            }
            if (polygon_self_intersects(s->vert, s->nvert, &e1, &e2)) {
                yee_rd_error(c, w, key, "the polygon intersects itself (edges %d-%d and %d-%d)", e1,
                             (e1 + 1) % s->nvert, e2, (e2 + 1) % s->nvert);
                continue;
            }
            if (area == 0) {
                yee_rd_error(c, w, key, "the polygon has zero area");
                continue;
            }
        }
        if (!g->ok || (s->material < 0 && !s->vox))
            continue;
        /* entirely outside the domain: a warning, the object is simply not drawn */
        double lo[3], hi[3], tlo[3], thi[3];
        yee_shape_bbox(s, lo, hi);
        for (int a = 0; a < 3; a++) {
            tlo[a] = lo[a];
            thi[a] = hi[a];
            for (int q = 0; q < 3; q++) {
                double sh = s->lattice[q][a] * (s->counts[q] - 1);
                tlo[a] += fmin(0, sh);
                thi[a] += fmax(0, sh);
            }
        }
        int outside = 0;
        for (int a = 0; a < 3; a++)
            outside |= thi[a] <= g->lo[a] || tlo[a] >= g->hi[a];
        if (outside) {
            char dom[160];
            yee_deck_domain_text(g, dom, sizeof dom);
            yee_rd_warn(c, sc.s, sc.key, "the %s [%g, %g] x [%g, %g] x [%g, %g] lies entirely "
                        "outside the domain %s: not drawn", kind_names[kind], tlo[0], thi[0],
                        tlo[1], thi[1], tlo[2], thi[2], dom);
        }
    }
    return 0;
}
