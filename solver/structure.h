/* solver/structure.h -- the structure of a subdomain: the static description a backend is
 * created from: material coefficient tables, the 1-D kappa-folded inverse spacings, the graded
 * CFS-CPML profiles and slabs, and the PEC walls. Host memory, built once from a validated config.
 * It does not hold fields (the backend does) and does not rasterize shapes (geometry/ does).
 */
#ifndef YEE_SOLVER_STRUCTURE_H
#define YEE_SOLVER_STRUCTURE_H

#include "common/yee_err.h"
#include "geometry/geometry.h"
#include "model/config.h"
#include "model/nodes.h"
#include "kernels/backend.h"

typedef struct yee_structure {
    int n[3];          /* cells of this subdomain */
    int offset[3];     /* position of its cell 0 in the global grid */
    yee_setup setup;   /* points into the arrays below */
    yee_real ca[YEE_MAX_MATERIALS], cb[YEE_MAX_MATERIALS];
    yee_geo geo;       /* material index arrays and the medium of each table entry */
    yee_disp_node *disp;   /* dispersive E nodes (kernels/yee_ade.h), NULL when none */
    yee_pole_coef *pcoef;
    yee_tensor_node *tensor; /* off-diagonal permittivity nodes (kernels/yee_tensor.h), or NULL */
    yee_curl_node *curl;     /* their neighbours, each once */
    yee_real *lines;   /* one block: per axis ie, be, ae (n+1) and ih, bh, ah (n) */
    double sigma_max[3][2]; /* CPML sigma at the outer wall per face (c/um), for reports */
} yee_structure;

/* Build the subdomain [offset, offset+n) of cfg's global grid, its geometry included
 * (geometry/). Returns YEE_OK, YEE_ERR_NOMEM, or YEE_ERR_DECK (too many media, an unstable
 * dispersive pole at this dt). */
int yee_structure_build(const yee_config *cfg, const int n[3], const int offset[3], yee_structure *g,
                   yee_err *err);

void yee_structure_free(yee_structure *g);

/* Relative permittivity (eps_inf of dispersive media; 0 inside PEC) of E component comp on the
 * local cells [lo, lo+count), x fastest, into out: what the E update of each node sees. */
void yee_structure_eps(const yee_structure *g, int comp, const int lo[3], const int count[3], yee_real *out);

/* E update coefficients of a uniform medium eps_r, sigma (S/m) at time step dt (c-units),
 * Taflove & Hagness eq. 3.31 in normalized units; debye_b (yee_debye_weight, 0 without Debye
 * poles) folds the semi-implicit Debye update into them (kernels/yee_ade.h). */
void yee_medium_coefficients(double eps_r, double sigma_si, double debye_b, double dt,
                             yee_real *ca, yee_real *cb);

/* The update coefficients of pole p at time step dt (kernels/yee_ade.h). */
yee_pole_coef yee_pole_coefficients(const yee_pole_cfg *p, double dt);

/* B = sum over the Debye poles of b = (s/2) / (tau/dt + 1/2): how much of E^{n+1} their update
 * moves to the left of Ampere's law. */
double yee_debye_weight(const yee_pole_cfg *poles, int npoles, double dt);

#endif
