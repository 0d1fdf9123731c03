/* io/deck_monitors.c -- the `monitors` section (io/deck_sections.h): probes, snapshots, flux
 * and DFT monitors, their components, boxes and spectra, and the reference runs of flux
 * monitors (whose files must exist now; their contents are checked when the run starts).
 */
#include "io/deck_sections.h"
#include "model/nodes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* monitors[].components: a non-empty list of distinct component names -> bit mask. */
static int get_components(yee_rd *c, const yee_rd_scope *sc, unsigned *mask)
{
    *mask = (1u << YEE_EX) | (1u << YEE_EY) | (1u << YEE_EZ);
    char key[128], got[160];
    const config_setting_t *s;
    int len = yee_rd_strings(c, sc, "components", "components [\"Ex\", ...]", key, sizeof key, &s);
    if (len <= 0)
        return len;
    unsigned m = 0;
    int rc = 1;
    for (int i = 0; i < len; i++) {
        char ekey[160];
        const config_setting_t *e = yee_rd_elem(s, i, key, ekey, sizeof ekey);
        int cc = config_setting_type(e) == CONFIG_TYPE_STRING
                     ? yee_component_parse(config_setting_get_string(e)) : -1;
        if (cc < 0) {
            yee_rd_error(c, e, ekey,
                         "unknown component, expected one of Ex Ey Ez Hx Hy Hz (got %s)",
                         yee_rd_got(e, got, sizeof got));
            rc = -1;
        } else if (m & (1u << cc)) {
            yee_rd_error(c, e, ekey, "component listed twice (got %s)",
                         yee_rd_got(e, got, sizeof got));
            rc = -1;
        }
        if (cc >= 0)
            m |= 1u << cc;
    }
    if (rc > 0)
        *mask = m;
    return rc;
}

/* The frequency keys of flux and dft monitors, and the reference keys of flux monitors. */
static void load_spectrum(yee_rd *c, const yee_rd_scope *sc, yee_config *cfg, yee_monitor_cfg *m,
                          int box_ok)
{
    char key[160];
    double wmin = 0, wmax = 0, fmin = 0, fmax = 0;
    long nfreq = 50;
    int rwmin = yee_rd_num(c, sc, "wavelength_min", &wmin);
    int rwmax = yee_rd_num(c, sc, "wavelength_max", &wmax);
    int rfmin = yee_rd_num(c, sc, "frequency_min", &fmin);
    int rfmax = yee_rd_num(c, sc, "frequency_max", &fmax);
    yee_rd_long(c, sc, "nfreq", &nfreq);
    m->nfreq = (int)nfreq;
    const int have_w = rwmin != 0 || rwmax != 0, have_f = rfmin != 0 || rfmax != 0;
    if (have_w && have_f) {
        yee_rd_error(c, sc->s, sc->key, "give wavelength_min/max or frequency_min/max, not both");
    } else if (!have_w && !have_f) {
        yee_rd_error(c, sc->s, sc->key, "the spectrum needs wavelength_min and wavelength_max (um) "
                                        "or frequency_min and frequency_max (THz)");
    } else if (have_w && (rwmin == 0 || rwmax == 0)) {
        yee_rd_error(c, sc->s, sc->key, "give both wavelength_min and wavelength_max");
    } else if (have_f && (rfmin == 0 || rfmax == 0)) {
        yee_rd_error(c, sc->s, sc->key, "give both frequency_min and frequency_max");
    } else if (rwmin > 0 && rwmax > 0) {
        m->fmin = 1.0 / wmax;
        m->fmax = 1.0 / wmin;
        if (wmin > wmax) {
            snprintf(key, sizeof key, "%s.wavelength_min", sc->key);
            yee_rd_error(c, config_setting_get_member(sc->s, "wavelength_min"), key,
                         "must be <= wavelength_max (got %g > %g)", wmin, wmax);
        }
    } else if (rfmin > 0 && rfmax > 0) {
        m->fmin = fmin / YEE_C_UM_THZ;
        m->fmax = fmax / YEE_C_UM_THZ;
        if (fmin > fmax) {
            snprintf(key, sizeof key, "%s.frequency_min", sc->key);
            yee_rd_error(c, config_setting_get_member(sc->s, "frequency_min"), key,
                         "must be <= frequency_max (got %g > %g)", fmin, fmax);
        }
    }
    if (m->nfreq == 1 && m->fmax > m->fmin * (1 + 1e-12)) {
        snprintf(key, sizeof key, "%s.nfreq", sc->key);
        yee_rd_error(c, config_setting_get_member(sc->s, "nfreq"), key,
                     "nfreq = 1 needs the minimum equal to the maximum");
    }
    if (m->kind != YEE_MON_FLUX)
        return;
    m->weight = 1.0;
    yee_rd_num(c, sc, "weight", &m->weight);
    yee_rd_bool(c, sc, "subtract_reference", &m->subtract_reference);
    yee_rd_bool(c, sc, "save_fields", &m->save_fields);
    const char *ref;
    const config_setting_t *w;
    snprintf(key, sizeof key, "%s.reference", sc->key);
    if (yee_rd_string(c, sc, "reference", &ref, &w) > 0) {
        FILE *fp = fopen(ref, "rb");
        if (strlen(ref) >= sizeof m->reference)
            yee_rd_error(c, w, key, "path too long (%zu characters)", strlen(ref));
        else if (!fp)
            yee_rd_error(c, w, key, "cannot open the reference run \"%s\": %s (run the reference "
                                    "deck first; paths are from the working directory)",
                         ref, strerror(errno));
        else
            snprintf(m->reference, sizeof m->reference, "%s", ref);
        if (fp)
            fclose(fp);
    } else if (m->subtract_reference) {
        snprintf(key, sizeof key, "%s.subtract_reference", sc->key);
        yee_rd_error(c, config_setting_get_member(sc->s, "subtract_reference"), key,
                     "needs a reference run (monitors[].reference)");
    }
    snprintf(key, sizeof key, "%s.reference_monitor", sc->key);
    if (yee_rd_name(c, sc, "reference_monitor", m->reference_monitor, sizeof m->reference_monitor,
                    &w) > 0 && !m->reference[0])
        yee_rd_error(c, w, key, "needs a reference run (monitors[].reference)");
    if (!box_ok)
        return;
    int flat = 0;
    for (int a = 0; a < (cfg->two_d ? 2 : 3); a++) /* 2-D: z is the run's depth */
        flat += m->box_max[a] - m->box_min[a] < 0.5 * yee_min_width(cfg, a);
    if (flat > 1)
        yee_rd_error(c, sc->s, sc->key, "a flux monitor is a plane (one flat axis) or a closed box "
                                        "(none); this one is flat on %d axes%s", flat,
                     cfg->two_d ? " (a 2-D run: x and y)" : "");
    if (m->nmodes == 0)
        return;
    long nmodes = 1;
    yee_rd_long(c, sc, "modes", &nmodes);
    m->nmodes = (int)nmodes;
    yee_rd_name(c, sc, "incident", m->incident, sizeof m->incident, &w);
    if (flat == 0)
        yee_rd_error(c, sc->s, sc->key, "a mode monitor is a plane (min = max on the axis the "
                                        "modes travel along), not a box");
    if (cfg->complex_fields)
        yee_rd_error(c, sc->s, sc->key, "a mode monitor projects on real mode profiles, without "
                                        "the Bloch phase of boundary.bloch");
}

/* Each mode monitor's `incident` names a mode monitor of the deck (itself included). */
static void check_incident(yee_rd *c, const config_setting_t *list, yee_config *cfg)
{
    for (int i = 0; i < cfg->nmonitors; i++) {
        const yee_monitor_cfg *m = &cfg->monitors[i];
        if (!m->incident[0])
            continue;
        int found = 0;
        for (int j = 0; j < cfg->nmonitors && !found; j++)
            found = cfg->monitors[j].nmodes > 0 && strcmp(cfg->monitors[j].name, m->incident) == 0;
        if (found)
            continue;
        const config_setting_t *s = config_setting_get_elem(list, (unsigned)i);
        const config_setting_t *w = s ? config_setting_get_member(s, "incident") : NULL;
        char key[64];
        snprintf(key, sizeof key, "monitors[%d].incident", i);
        yee_rd_error(c, w ? w : s, key, "no mode monitor is named \"%s\"", m->incident);
    }
}

int yee_deck_load_monitors(yee_rd *c, const yee_rd_scope *root, yee_config *cfg,
                           const yee_deck_grid *g)
{
    static const char *const kind_names[] = {"probe", "snapshot", "flux", "dft", "mode"};
    /* a mode monitor is a flux plane that also projects its fields on the plane's modes */
    static const yee_monitor_kind kinds[] = {YEE_MON_PROBE, YEE_MON_SNAPSHOT, YEE_MON_FLUX,
                                             YEE_MON_DFT, YEE_MON_FLUX};
    const config_setting_t *list;
    yee_rd_list(c, root, "monitors", &list);
    int n = list ? config_setting_length(list) : 0;
    if (n == 0)
        return 0;
    cfg->monitors = calloc((size_t)n, sizeof *cfg->monitors);
    if (!cfg->monitors)
        return YEE_ERR_NOMEM;
    const config_setting_t **name_at = calloc((size_t)n, sizeof *name_at);
    if (!name_at)
        return YEE_ERR_NOMEM;
    cfg->nmonitors = n;
    for (int i = 0; i < n; i++) {
        yee_monitor_cfg *m = &cfg->monitors[i];
        yee_rd_scope sc;
        if (!yee_rd_list_elem(c, list, "monitors[]", "monitors", i, &sc))
            continue;
        m->line = yee_rd_line(c, sc.s);
        char key[128], got[160], dom[160];
        const config_setting_t *w;
        int kind = -1;
        int rkind = yee_rd_choice(c, &sc, "type", &kind, &w);
        m->kind = kinds[kind < 0 ? 0 : kind];
        m->nmodes = kind == 4 ? 1 : 0;
        yee_rd_check_only(c, &sc, "type", rkind > 0 ? kind_names[kind] : NULL);
        if (yee_rd_name(c, &sc, "name", m->name, sizeof m->name, &w) > 0) {
            name_at[i] = w;
            for (int j = 0; j < i; j++) {
                if (!name_at[j] || strcmp(cfg->monitors[j].name, m->name) != 0)
                    continue;
                char first[YEE_PATH_LEN + 64];
                yee_rd_locate(c, name_at[j], first, sizeof first);
                snprintf(key, sizeof key, "%s.name", sc.key);
                yee_rd_error(c, w, key, "duplicate monitor name \"%s\" (first used by monitors[%d] "
                                        "at %s)", m->name, j, first);
                name_at[i] = NULL;
                break;
            }
        }
        get_components(c, &sc, &m->components);
        if (rkind <= 0)
            continue;
        yee_deck_domain_text(g, dom, sizeof dom);
        if (m->kind == YEE_MON_PROBE) {
            snprintf(key, sizeof key, "%s.position", sc.key);
            w = config_setting_get_member(sc.s, "position");
            int rp = yee_rd_vec3(c, &sc, "position", m->position);
            if (rp == 0)
                yee_rd_error(c, sc.s, key, "missing required key (probes need a position)");
            else if (rp > 0 && g->ok && !yee_deck_inside(g, m->position))
                yee_rd_error(c, w, key, "outside the domain %s (got %s)", dom,
                             yee_rd_got(w, got, sizeof got));
            continue;
        }
        int box_ok = yee_deck_box(c, &sc, g, m->box_min, m->box_max);
        if (m->kind == YEE_MON_FLUX || m->kind == YEE_MON_DFT) {
            load_spectrum(c, &sc, cfg, m, box_ok);
            continue;
        }
        /* snapshot */
        snprintf(key, sizeof key, "%s.interval", sc.key);
        if (yee_rd_long(c, &sc, "interval", &m->interval) == 0)
            yee_rd_error(c, sc.s, key, "missing required key (snapshots need an interval)");
        yee_rd_long(c, &sc, "start", &m->start);
        yee_rd_bool(c, &sc, "vtk", &m->vtk);
        if (!box_ok)
            continue;
        if (cfg->steps > 0 && m->start > cfg->steps) {
            snprintf(key, sizeof key, "%s.start", sc.key);
            yee_rd_warn(c, config_setting_get_member(sc.s, "start"), key,
                        "starts after the last step %ld: no frames", cfg->steps);
        } else if (cfg->steps > 0 && m->start <= 0 && m->interval > cfg->steps) {
            /* the first frame is at step `interval` (solver/monitors.c) */
            yee_rd_warn(c, config_setting_get_member(sc.s, "interval"), key,
                        "%ld is more than the run's %ld steps: no frames", m->interval,
                        cfg->steps);
        }
    }
    free(name_at);
    check_incident(c, list, cfg);
    return 0;
}
