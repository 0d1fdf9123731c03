/* model/resolution.h -- how finely the grid resolves the deck's media at its highest frequency
 * of interest: cells per wavelength in the densest transparent medium, and cells per skin depth
 * in the most opaque metal (`yee check`, and the run's HDF5 root attributes).
 */
#ifndef YEE_MODEL_RESOLUTION_H
#define YEE_MODEL_RESOLUTION_H

#include "model/config.h"

/* Below these `yee check` warns (docs/deck.md "Resolution"). */
#define YEE_MIN_CELLS_PER_WAVELENGTH 10.0
#define YEE_MIN_CELLS_PER_SKIN_DEPTH 2.0

typedef struct yee_resolution {
    double fmax;         /* c/um: the highest flux/DFT monitor frequency, else the sources'
                          * highest (yee_profile_fmax); 0 when neither says */
    double cells;        /* cells per wavelength in the densest transparent medium */
    double index;        /* that medium's Re n at fmax */
    int medium;          /* its index in cfg->materials; -1: the background without a material */
    double skin_cells;   /* cells per skin depth in the most opaque metal (Re eps < 0); INFINITY
                          * when no medium is a metal */
    int metal;           /* its index in cfg->materials; -1: none */
} yee_resolution;

/* The figures of cfg (every medium the geometry or background uses, every axis of an
 * anisotropic one, dispersive poles and conductivity evaluated at fmax; PEC excluded). The
 * cell size is the largest spacing of the run's axes (x and y in 2-D); on a graded mesh, per
 * medium, the largest cell that the objects made of it reach, and `cells` is then that of the
 * worst resolved medium, not necessarily the densest. */
void yee_resolution_of(const yee_config *cfg, yee_resolution *r);

/* Complex relative permittivity of material m along axis a at frequency f (c/um), fields
 * ~ exp(-i 2 pi f t) (docs/deck.md "Materials"). */
void yee_material_eps(const yee_material_cfg *m, int a, double f, double *re, double *im);

#endif
