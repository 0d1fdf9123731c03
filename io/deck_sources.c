/* io/deck_sources.c -- the `sources` section (io/deck_sections.h): each source's kind and the
 * keys that kind takes, its place in the domain, and its time profile with the derived timing
 * (default delays, cw ramps, table samples in c-units).
 */
#include "io/deck_sections.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define YEE_PI 3.14159265358979323846

/* A direction-like vector key: nonzero, normalized into out. Returns 1 when usable. */
static int get_unit(yee_rd *c, const yee_rd_scope *sc, const char *name, double out[3])
{
    char key[160], got[128];
    int r = yee_rd_vec3(c, sc, name, out);
    snprintf(key, sizeof key, "%s.%s", sc->key, name);
    if (r == 0) {
        yee_rd_error(c, sc->s, key, "missing required key");
        return 0;
    }
    if (r < 0)
        return 0;
    const double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (!(len > 0)) {
        const config_setting_t *w = config_setting_get_member(sc->s, name);
        yee_rd_error(c, w, key, "must not be the zero vector (got %s)",
                     yee_rd_got(w, got, sizeof got));
        return 0;
    }
    for (int a = 0; a < 3; a++)
        out[a] /= len;
    return 1;
}

/* The time profile keys of a source. Returns 1 when the profile is complete. */
static int load_profile(yee_rd *c, const yee_rd_scope *sc, yee_config *cfg, yee_profile *p)
{
    static const char *const profile_names[] = {"gaussian", "cw", "ricker", "table"};
    static const yee_profile_kind kinds[] = {YEE_PROFILE_GAUSSIAN, YEE_PROFILE_CW,
                                             YEE_PROFILE_RICKER, YEE_PROFILE_TABLE};
    char key[160];
    const config_setting_t *w;
    int prof = 0;
    int rprof = yee_rd_choice(c, sc, "profile", &prof, &w);
    p->kind = kinds[prof];
    yee_rd_check_only(c, sc, "profile", rprof >= 0 ? profile_names[prof] : NULL);

    double wl = 0, fthz = 0, bw = 0.5, delay_fs = 0, ramp_fs = 0;
    int rwl = yee_rd_num(c, sc, "wavelength", &wl);
    int rf = yee_rd_num(c, sc, "frequency", &fthz);
    int fok = 0;
    if (rwl != 0 && rf != 0) {
        snprintf(key, sizeof key, "%s.frequency", sc->key);
        yee_rd_error(c, config_setting_get_member(sc->s, "frequency"), key,
                     "give exactly one of wavelength / frequency (got both)");
    } else if (rwl == 0 && rf == 0) {
        if (p->kind == YEE_PROFILE_TABLE)
            fok = 1; /* optional: no carrier */
        else
            yee_rd_error(c, sc->s, sc->key, "one of wavelength / frequency is required");
    } else if (rwl > 0) {
        p->frequency = 1.0 / wl, fok = 1;
    } else if (rf > 0) {
        p->frequency = fthz / YEE_C_UM_THZ, fok = 1;
    }
    int rbw = yee_rd_num(c, sc, "bandwidth", &bw);
    int rdelay = yee_rd_num(c, sc, "delay", &delay_fs);
    int rramp = yee_rd_num(c, sc, "ramp", &ramp_fs);
    yee_rd_num(c, sc, "amplitude", &p->amplitude);
    if (p->kind == YEE_PROFILE_TABLE) {
        snprintf(key, sizeof key, "%s.table", sc->key);
        int rt = yee_rd_pairs(c, sc, "table", 2, "[t, value]", &p->table, &p->ntable);
        if (rt == 0) {
            yee_rd_error(c, sc->s, key, "missing required key (profile = \"table\" needs it)");
            fok = 0;
        } else if (rt < 0) {
            fok = 0;
        }
        w = config_setting_get_member(sc->s, "table");
        for (int i = 0; fok && i < p->ntable; i++) {
            if (i > 0 && !(p->table[2 * i] > p->table[2 * i - 2])) {
                yee_rd_error(c, w, key, "times must increase (sample %d: %g fs after %g fs)", i,
                             p->table[2 * i], p->table[2 * i - 2]);
                fok = 0;
            }
        }
        /* the amplitude's limit holds for the peak the table reaches (float fields) */
        double peak = 0.0;
        for (int i = 0; fok && i < p->ntable; i++)
            peak = fmax(peak, fabs(p->table[2 * i + 1]));
        if (fok && peak * fabs(p->amplitude) > YEE_SOURCE_PEAK_MAX) {
            yee_rd_error(c, w, key, "amplitude x the largest value is %g; at most %g (fields are "
                         "32-bit floats)", peak * fabs(p->amplitude), YEE_SOURCE_PEAK_MAX);
            fok = 0;
        }
        for (int i = 0; p->table && i < p->ntable; i++)
            p->table[2 * i] /= YEE_TIME_UNIT_FS;
    }
    if (!fok || rbw < 0)
        return 0;
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN:
        p->fwidth = bw * p->frequency;
        p->delay = 5.0 / (2 * YEE_PI * p->fwidth);
        break;
    case YEE_PROFILE_RICKER: p->delay = 1.5 / p->frequency; break;
    case YEE_PROFILE_CW:
        p->delay = 0;
        p->ramp = rramp > 0 ? ramp_fs / YEE_TIME_UNIT_FS : 5.0 / p->frequency;
        break;
    case YEE_PROFILE_TABLE: p->delay = 0; break;
    }
    if (rdelay > 0)
        p->delay = delay_fs / YEE_TIME_UNIT_FS;
    if (p->kind == YEE_PROFILE_TABLE) /* the delay shifts the samples */
        for (int i = 0; i < p->ntable; i++)
            p->table[2 * i] += p->delay;
    if (cfg->steps > 0 && cfg->dt > 0 && p->delay > cfg->steps * cfg->dt) {
        snprintf(key, sizeof key, "%s.delay", sc->key);
        yee_rd_warn(c, rdelay > 0 ? config_setting_get_member(sc->s, "delay") : sc->s, key,
                    "the source starts at %.4g fs, after the run ends at %.4g fs",
                    p->delay * YEE_TIME_UNIT_FS, cfg->steps * cfg->dt * YEE_TIME_UNIT_FS);
    }
    return 1;
}

int yee_deck_load_sources(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                          const yee_deck_grid *g)
{
    static const char *const kind_names[] = {"dipole", "volume", "planewave", "gaussian_beam",
                                             "eigenmode"};
    static const yee_source_kind kinds[] = {YEE_SRC_DIPOLE, YEE_SRC_VOLUME, YEE_SRC_PLANEWAVE,
                                            YEE_SRC_GAUSSIAN_BEAM, YEE_SRC_EIGENMODE};
    const config_setting_t *list;
    int rc = yee_rd_list(c, root, "sources", &list);
    int n = list ? config_setting_length(list) : 0;
    if (rc >= 0 && n == 0)
        yee_rd_warn(c, list ? list : root->s, "sources", "no sources: the fields stay zero");
    if (n == 0)
        return 0;
    cfg->sources = calloc((size_t)n, sizeof *cfg->sources);
    if (!cfg->sources)
        return YEE_ERR_NOMEM;
    cfg->nsources = n;
    for (int i = 0; i < n; i++) {
        yee_source_cfg *src = &cfg->sources[i];
        yee_rd_scope sc;
        if (!yee_rd_list_elem(c, list, "sources[]", "sources", i, &sc))
            continue;
        src->line = yee_rd_line(c, sc.s);
        char key[128], got[128], dom[160];
        const config_setting_t *w;
        int idx = 0;
        int rk = yee_rd_choice(c, &sc, "type", &idx, &w);
        src->kind = kinds[idx];
        yee_rd_check_only(c, &sc, "type", rk > 0 ? kind_names[idx] : NULL);
        snprintf(src->name, sizeof src->name, "src%d", i);
        yee_rd_name(c, &sc, "name", src->name, sizeof src->name, &w);
        load_profile(c, &sc, cfg, &src->profile);
        if (rk < 0)
            continue;
        yee_deck_domain_text(g, dom, sizeof dom);

        if (src->kind == YEE_SRC_DIPOLE || src->kind == YEE_SRC_VOLUME) {
            const char *comp;
            snprintf(key, sizeof key, "%s.component", sc.key);
            int rcomp = yee_rd_string(c, &sc, "component", &comp, &w);
            if (rcomp == 0)
                yee_rd_error(c, sc.s, key, "missing required key");
            if (rcomp > 0) {
                int cc = yee_component_parse(comp);
                if (cc < 0)
                    yee_rd_error(c, w, key,
                                 "unknown component, expected Ex, Ey or Ez (got \"%.20s\")", comp);
                else if (cc > YEE_EZ && src->kind == YEE_SRC_DIPOLE)
                    yee_rd_error(c, w, key,
                                 "a dipole drives an E component: Ex, Ey or Ez (got \"%s\")",
                                 comp);
                else
                    src->component = (yee_component)cc;
            }
        }
        const int one_face = src->kind == YEE_SRC_GAUSSIAN_BEAM || src->kind == YEE_SRC_EIGENMODE;
        if (src->kind == YEE_SRC_DIPOLE || one_face) {
            snprintf(key, sizeof key, "%s.position", sc.key);
            int rp = yee_rd_vec3(c, &sc, "position", src->position);
            w = config_setting_get_member(sc.s, "position");
            if (rp == 0)
                yee_rd_error(c, sc.s, key, "missing required key");
            else if (rp > 0 && g->ok && !yee_deck_inside(g, src->position))
                yee_rd_error(c, w, key, "outside the domain %s (got %s)", dom,
                             yee_rd_got(w, got, sizeof got));
        }
        if (src->kind == YEE_SRC_VOLUME || src->kind == YEE_SRC_PLANEWAVE)
            yee_deck_box(c, &sc, g, src->box_min, src->box_max);
        if ((src->kind == YEE_SRC_PLANEWAVE || one_face) && cfg->complex_fields) {
            snprintf(key, sizeof key, "%s.type", sc.key);
            yee_rd_error(c, config_setting_get_member(sc.s, "type"), key,
                         "a %s has a real incident field without the Bloch phase of "
                         "boundary.bloch: launch the wave with a volume sheet source, which "
                         "carries it (docs/deck.md \"Bloch-periodic cells\")",
                         kind_names[idx]);
        }
        if (src->kind == YEE_SRC_PLANEWAVE || one_face) {
            int okd = get_unit(c, &sc, "direction", src->direction);
            int okp = src->kind == YEE_SRC_EIGENMODE
                          ? 0 /* the mode's profile gives E */
                          : get_unit(c, &sc, "polarization", src->polarization);
            if (okd && okp) {
                double dot = 0;
                for (int a = 0; a < 3; a++)
                    dot += src->direction[a] * src->polarization[a];
                double len = 0;
                for (int a = 0; a < 3; a++) {
                    src->polarization[a] -= dot * src->direction[a];
                    len += src->polarization[a] * src->polarization[a];
                }
                snprintf(key, sizeof key, "%s.polarization", sc.key);
                if (len < 1e-12)
                    yee_rd_error(c, config_setting_get_member(sc.s, "polarization"), key,
                                 "must not be parallel to direction (E is transverse)");
                else
                    for (int a = 0; a < 3; a++)
                        src->polarization[a] /= sqrt(len);
            }
            if (okd && one_face) {
                int axis = -1;
                for (int a = 0; a < 3; a++)
                    if (fabs(fabs(src->direction[a]) - 1.0) < 1e-12)
                        axis = a;
                snprintf(key, sizeof key, "%s.direction", sc.key);
                w = config_setting_get_member(sc.s, "direction");
                if (axis < 0)
                    yee_rd_error(c, w, key, "a%s travels along +-x, +-y or +-z (got %s)",
                                 src->kind == YEE_SRC_EIGENMODE ? "n eigenmode source"
                                                                 : " Gaussian beam",
                                 yee_rd_got(w, got, sizeof got));
                else if (src->kind == YEE_SRC_EIGENMODE && cfg->two_d && axis == 2)
                    yee_rd_error(c, w, key, "a 2-D run has no z direction: an eigenmode source "
                                 "travels along +-x or +-y (got %s)",
                                 yee_rd_got(w, got, sizeof got));
                else if (g->ok) {
                    /* the one-face TFSF box: from the source plane on, the whole domain across */
                    for (int a = 0; a < 3; a++) {
                        src->box_min[a] = g->lo[a] - 1.0;
                        src->box_max[a] = g->hi[a] + 1.0;
                    }
                    if (src->direction[axis] > 0)
                        src->box_min[axis] = src->position[axis];
                    else
                        src->box_max[axis] = src->position[axis];
                }
            }
        }
        if (src->kind == YEE_SRC_EIGENMODE) {
            long mode = 1;
            yee_rd_long(c, &sc, "mode", &mode);
            src->mode = (int)mode;
            if (src->profile.kind == YEE_PROFILE_TABLE || src->profile.kind == YEE_PROFILE_RICKER) {
                snprintf(key, sizeof key, "%s.profile", sc.key);
                yee_rd_error(c, config_setting_get_member(sc.s, "profile"), key,
                             "an eigenmode source needs a carrier, the frequency its mode is "
                             "solved at: profile gaussian or cw");
            }
        }
        if (src->kind == YEE_SRC_GAUSSIAN_BEAM) {
            snprintf(key, sizeof key, "%s.waist", sc.key);
            if (yee_rd_num(c, &sc, "waist", &src->waist) == 0)
                yee_rd_error(c, sc.s, key, "missing required key");
            yee_rd_num(c, &sc, "focus", &src->focus);
            if (src->profile.kind == YEE_PROFILE_TABLE || src->profile.kind == YEE_PROFILE_RICKER) {
                snprintf(key, sizeof key, "%s.profile", sc.key);
                yee_rd_error(c, config_setting_get_member(sc.s, "profile"), key,
                             "a Gaussian beam needs a carrier: profile gaussian or cw");
            }
        }
    }
    return 0;
}
