/* io/config.c -- helpers on the plain yee_config description (names, freeing). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const component_names[YEE_NCOMP] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

const char *yee_component_name(int c)
{
    return (c >= 0 && c < YEE_NCOMP) ? component_names[c] : NULL;
}

int yee_component_parse(const char *s)
{
    for (int c = 0; s && c < YEE_NCOMP; c++)
        if (strcasecmp(s, component_names[c]) == 0)
            return c;
    return -1;
}

void yee_config_free(yee_config *cfg)
{
    if (!cfg)
        return;
    free(cfg->sources);
    cfg->sources = NULL;
    free(cfg->monitors);
    cfg->monitors = NULL;
    free(cfg->materials);
    cfg->materials = NULL;
    for (int i = 0; i < cfg->nshapes && cfg->shapes; i++)
        free(cfg->shapes[i].vert);
    free(cfg->shapes);
    cfg->shapes = NULL;
    memset(cfg, 0, sizeof *cfg);
}
