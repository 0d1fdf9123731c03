/* geometry/geometry.h -- shapes and materials of a deck rasterized onto one subdomain of the Yee
 * grid: a per-E-component uint8 index per cell into a table of at most 256 entries, each entry
 * the medium one E component sees (eps, sigma, pec, deck material). Host only; runs once.
 *
 * Every node's entry depends only on its global position, never on the subdomain, so any MPI
 * decomposition rasterizes bit-identically (the table's order may differ between ranks, its
 * values per node do not). It does not compute update coefficients (solver/grid.c does) and
 * knows nothing of backends.
 *
 * Subpixel averaging (cfg->subpixel): a node whose dual cell (the cell of size dx x dy x dz
 * centred on the node) holds more than one dielectric gets the diagonal of the anisotropic
 * effective permittivity of Farjadpour et al., Opt. Lett. 31, 2972 (2006) / Kottke et al.,
 * PRE 77, 036611 (2008):
 *   1 / eps_eff,a = n_a^2 <1/eps> + (1 - n_a^2) / <eps>
 * with <.> the mean over samples^3 points of the dual cell and n the unit normal, the direction
 * of the first moment of eps over those points (the gradient of the fill fraction for two
 * media). eps_eff is then rounded to one of L = 256 - (bulk entries) levels spaced evenly in
 * log(eps) between the smallest and largest averageable permittivity, a relative error of at
 * most ln(eps_max/eps_min) / (2 (L - 1)) (yee_geo.quant_error). With cfg->subpixel_tensor, a
 * node whose cell holds only isotropic dielectrics also gets the off-diagonal row
 *   (eps^-1)_ab = n_a n_b (<1/eps> - 1/<eps>),  b != a
 * unrounded, in the list yee_geo.tensor (kernels/yee_tensor.h applies it), except within two
 * cells of a CPML layer or a global face (its stencil would read stretched coordinates or
 * ghosts) and for a term whose neighbours include a PEC node.
 *
 * A dual cell holding one conducting or dispersive medium m (a metal) and dielectrics
 * (cfg->subpixel_metals) gets, for each E component within 30 degrees of the interface plane,
 * the volume average of eps(omega) (the tangential rule): with f the fill fraction of m
 * (planar, as above, rounded to 1/YEE_GEO_FILLS), eps_inf, sigma and every pole's strength of m
 * weighted by f, the dielectrics' eps by 1 - f. A component nearer the normal takes the medium
 * at its node: the normal rule 1/<1/eps> is not a sum of poles, so the ADE could not carry it.
 * Half the free entries are kept for these. A dual cell touching a PEC, or two lossy media, is
 * not averaged: it takes the medium at the node.
 *
 * A voxel block (deck type "voxels") is a box whose material varies per voxel: every point query,
 * nodes and averaging samples alike, takes the voxel containing the point (piecewise constant,
 * yee_shape_material_at), so voxel faces are averaged as any other dielectric interface.
 */
#ifndef YEE_GEOMETRY_GEOMETRY_H
#define YEE_GEOMETRY_GEOMETRY_H

#include <stdint.h>

#include "common/yee_err.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

#define YEE_GEO_MAX_ENTRIES 256
/* Fill fractions of a lossy interface entry are rounded to multiples of 1 / YEE_GEO_FILLS. */
#define YEE_GEO_FILLS 32

/* What one E component sees in the cells that point to this entry. */
typedef struct yee_geo_entry {
    double eps;      /* relative permittivity of this component (eps_inf when dispersive) */
    double sigma;    /* conductivity, S/m */
    int pec;         /* 1: perfect conductor, E stays 0 */
    int material;    /* deck material index, -1 for the background given by eps/sigma */
    int npoles;      /* dispersive poles of that material (0 for an averaged dielectric) */
    int averaged;    /* 1: a subpixel-averaged interface entry */
    double fill;     /* a lossy interface: the fraction f of `material` in the dual cell, its
                      * poles' strengths and sigma weighted by f (1 for bulk media) */
} yee_geo_entry;

/* The off-diagonal row of an averaged node's inverse permittivity (cfg->subpixel_tensor):
 * component comp's node at padded index cell (field layout) has
 *   (eps^-1)_{comp, comp+1} = inv[0],  (eps^-1)_{comp, comp+2} = inv[1]   (axes mod 3). */
typedef struct yee_geo_tensor {
    int64_t cell;
    int comp;
    double inv[2];
} yee_geo_tensor;

typedef struct yee_geo {
    int n[3], offset[3];      /* subdomain: global cells [offset, offset + n) */
    int halo;                 /* ghost cells per side of the index arrays */
    int64_t stride[3];        /* 1, nx + 2 halo, (nx + 2 halo)(ny + 2 halo) */
    uint8_t *mat[3];          /* per E component, padded layout; owned */
    int nentry;
    yee_geo_entry entry[YEE_GEO_MAX_ENTRIES];
    int nbulk;                /* entries 0..nbulk-1: bulk media, identical on every rank */
    double quant_error;       /* largest relative rounding of an averaged eps (0: none) */
    int64_t ninterface;       /* interior nodes given an averaged entry */
    int64_t ntensor;          /* cfg->subpixel_tensor: nodes with off-diagonal terms, */
    yee_geo_tensor *tensor;   /* by component then padded index; owned */
} yee_geo;

/* Rasterize cfg's background, materials and shapes onto the subdomain [offset, offset + n) of
 * the global grid, with `halo` ghost cells (index 0 = background) around it. Fills *g (owned
 * arrays, free with yee_geometry_free). Errors: YEE_ERR_NOMEM; YEE_ERR_DECK when the materials
 * need more than 256 - 16 bulk entries. */
int yee_geometry_rasterize(const yee_config *cfg, const int n[3], const int offset[3], int halo,
                           yee_geo *g, yee_err *err);

void yee_geometry_free(yee_geo *g);

/* 1 when point p (um) lies inside the first copy of shape s (surface included); for lattice copy
 * (i, j, k) pass p - i a1 - j a2 - k a3. A voxel block contains its whole box. */
int yee_shape_contains(const yee_shape_cfg *s, const double p[3]);

/* Material (index into cfg->materials) that shape s gives point p, or -1 when p is outside it.
 * A voxel block gives the material of the voxel containing p (nearest, piecewise constant: voxel
 * (i, j, k) spans lo + [i, i+1) * size / vox_n per axis; a point on a face shared by two voxels
 * takes the higher one, a point on the block's outer surface the voxel on that surface). */
int yee_shape_material_at(const yee_shape_cfg *s, const double p[3]);

#ifdef __cplusplus
}
#endif

#endif
