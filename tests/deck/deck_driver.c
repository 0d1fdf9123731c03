/* tests/deck/deck_driver.c -- exercises io/deck.c without the solver.
 *
 *   deck_driver DECK [--set key=value]...   load; print a dump of the derived values and exit 0,
 *                                           or print the errors to stderr and exit 1
 *   deck_driver --keys                      print the schema (as `yee deck-keys` will)
 *
 * The dump is one "name value..." line per item so tests can match it with a regex.
 */
#include <stdio.h>
#include <string.h>

#include "io/deck.h"

static const char *bc_name(yee_boundary b)
{
    return b == YEE_BC_PEC ? "pec" : b == YEE_BC_CPML ? "cpml" : b == YEE_BC_PMC ? "pmc"
                                                                      : "periodic";
}

static const char *profile_name(yee_profile_kind k)
{
    return k == YEE_PROFILE_GAUSSIAN ? "gaussian" : k == YEE_PROFILE_CW ? "cw" : "ricker";
}

static void print_mask(unsigned m)
{
    for (int c = 0; c < YEE_NCOMP; c++)
        if (m & (1u << c))
            printf(" %s", yee_component_name(c));
}

static void dump(const yee_config *cfg)
{
    printf("deck %s\nname %s\nout_dir %s\n", cfg->deck_path, cfg->name, cfg->out_dir);
    printf("n %d %d %d\n", cfg->n[0], cfg->n[1], cfg->n[2]);
    printf("dx %.9g %.9g %.9g\n", cfg->dx[0], cfg->dx[1], cfg->dx[2]);
    printf("origin %.9g %.9g %.9g\n", cfg->origin[0], cfg->origin[1], cfg->origin[2]);
    printf("courant %.9g\ndt %.9g\nsteps %ld\ncheck_interval %ld\n", cfg->courant, cfg->dt,
           cfg->steps, cfg->check_interval);
    printf("eps_r %.9g\nsigma %.9g\n", cfg->eps_r, cfg->sigma);
    printf("boundary");
    for (int a = 0; a < 3; a++)
        printf(" %s %s", bc_name(cfg->boundary[a][0]), bc_name(cfg->boundary[a][1]));
    printf("\npml_cells");
    for (int a = 0; a < 3; a++)
        printf(" %d %d", cfg->pml_cells[a][0], cfg->pml_cells[a][1]);
    printf("\npml order %.9g sigma_factor %.9g kappa_max %.9g alpha_max %.9g\n", cfg->pml_order,
           cfg->pml_sigma_factor, cfg->pml_kappa_max, cfg->pml_alpha_max);
    printf("nsources %d\n", cfg->nsources);
    for (int i = 0; i < cfg->nsources; i++) {
        const yee_source_cfg *s = &cfg->sources[i];
        const yee_profile *p = &s->profile;
        printf("source %d line %d name %s component %s position %.9g %.9g %.9g profile %s "
               "frequency %.9g fwidth %.9g delay %.9g ramp %.9g amplitude %.9g\n",
               i, s->line, s->name, yee_component_name(s->component), s->position[0],
               s->position[1], s->position[2], profile_name(p->kind), p->frequency, p->fwidth,
               p->delay, p->ramp, p->amplitude);
    }
    printf("nmonitors %d\n", cfg->nmonitors);
    for (int i = 0; i < cfg->nmonitors; i++) {
        const yee_monitor_cfg *m = &cfg->monitors[i];
        printf("monitor %d line %d name %s kind %s components", i, m->line, m->name,
               m->kind == YEE_MON_PROBE ? "probe" : "snapshot");
        print_mask(m->components);
        if (m->kind == YEE_MON_PROBE)
            printf(" position %.9g %.9g %.9g\n", m->position[0], m->position[1], m->position[2]);
        else
            printf(" min %.9g %.9g %.9g max %.9g %.9g %.9g interval %ld start %ld vtk %d\n",
                   m->box_min[0], m->box_min[1], m->box_min[2], m->box_max[0], m->box_max[1],
                   m->box_max[2], m->interval, m->start, m->vtk);
    }
    printf("subpixel %d samples %d geometry_out %d background_material %d\n", cfg->subpixel,
           cfg->subpixel_samples, cfg->geometry_out, cfg->background_material);
    printf("nmaterials %d\n", cfg->nmaterials);
    for (int i = 0; i < cfg->nmaterials; i++) {
        const yee_material_cfg *m = &cfg->materials[i];
        printf("material %d line %d name %s eps %.9g %.9g %.9g sigma %.9g pec %d poles", i,
               m->line, m->name, m->eps[0], m->eps[1], m->eps[2], m->sigma, m->pec);
        for (int q = 0; q < m->npoles; q++)
            printf(" [kind %d f0 %.9g gamma %.9g sigma %.9g tau %.9g]", (int)m->poles[q].kind,
                   m->poles[q].f0, m->poles[q].gamma, m->poles[q].sigma, m->poles[q].tau);
        printf("\n");
    }
    printf("nshapes %d\n", cfg->nshapes);
    for (int i = 0; i < cfg->nshapes; i++) {
        const yee_shape_cfg *s = &cfg->shapes[i];
        printf("shape %d line %d kind %d material %d center %.9g %.9g %.9g size %.9g %.9g %.9g "
               "radius %.9g radius2 %.9g height %.9g axis %.9g %.9g %.9g nvert %d counts %d %d %d\n",
               i, s->line, (int)s->kind, s->material, s->center[0], s->center[1], s->center[2],
               s->size[0], s->size[1], s->size[2], s->radius, s->radius2, s->height, s->axis[0],
               s->axis[1], s->axis[2], s->nvert, s->counts[0], s->counts[1], s->counts[2]);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--keys") == 0) {
        yee_deck_print_keys(stdout);
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: deck_driver DECK [--set key=value]... | deck_driver --keys\n");
        return 2;
    }
    const char *sets[64];
    int nsets = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--set") == 0 && i + 1 < argc && nsets < 64) {
            sets[nsets++] = argv[++i];
        } else {
            fprintf(stderr, "deck_driver: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    yee_config cfg;
    yee_err err;
    int rc = yee_deck_load(argv[1], sets, nsets, &cfg, &err);
    if (rc != YEE_OK) {
        fprintf(stderr, "%s\n", err.msg);
        fprintf(stderr, "deck_driver: %s error (%d)\n", yee_status_name(rc), rc);
        return 1;
    }
    dump(&cfg);
    yee_config_free(&cfg);
    return 0;
}
