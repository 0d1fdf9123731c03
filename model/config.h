/* model/config.h -- the validated simulation description: what io/deck.c produces from a deck and
 * what solver/ consumes. Plain data, no libconfig or HDF5 types, so the solver never sees them.
 *
 * Units (docs/units.md): lengths in micrometres; times in "c-units" (1 = 1 um / c = 3.33564 fs);
 * frequencies in c/um (f_THz = f * YEE_C_UM_THZ, wavelength_um = 1 / f in vacuum); fields in
 * normalized units with eps0 = mu0 = c = 1 (H is stored as eta0*H so E and H have the same scale).
 * Every entry that came from the deck keeps its deck line in a *_line field (0 when defaulted) so
 * later stages can still report "file:line" for errors found after parsing (e.g. geometry).
 */
#ifndef YEE_MODEL_CONFIG_H
#define YEE_MODEL_CONFIG_H

#include <stdint.h>

#include "model/components.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Speed of light: 1 c/um expressed in THz, and 1 c-unit of time in femtoseconds. */
#define YEE_C_UM_THZ 299.792458
#define YEE_TIME_UNIT_FS 3.3356409519815204
/* Free-space impedance in ohms: converts conductivity in S/m to normalized units with
 * sigma_norm[1/um] = sigma[S/m] * eta0[ohm] * 1e-6[m/um]. */
#define YEE_ETA0_OHM 376.730313668

#define YEE_NAME_LEN 64
#define YEE_PATH_LEN 1024


/* Boundary condition of one face. A CPML face is backed by PEC at its outer wall. A PMC wall
 * (a magnetic mirror: tangential H odd, tangential E even about it) is on low faces only. */
typedef enum yee_boundary {
    YEE_BC_PEC = 0, YEE_BC_CPML, YEE_BC_PERIODIC, YEE_BC_PMC
} yee_boundary;

typedef enum yee_profile_kind {
    YEE_PROFILE_GAUSSIAN = 0, /* sin carrier under a Gaussian envelope (broadband pulse) */
    YEE_PROFILE_CW,           /* sin carrier switched on with a smooth ramp */
    YEE_PROFILE_RICKER,       /* Ricker (Mexican-hat) wavelet: 2nd derivative of a Gaussian */
    YEE_PROFILE_TABLE         /* samples (t, value) from the deck, linearly interpolated */
} yee_profile_kind;

/* Time profile of a source. All times in c-units, frequencies in c/um. */
typedef struct yee_profile {
    yee_profile_kind kind;
    double frequency; /* carrier (gaussian, cw) or peak (ricker) frequency */
    double fwidth;    /* gaussian: 1/e half-width of the spectrum (envelope sigma_t = 1/(2 pi fwidth)) */
    double delay;     /* time of the envelope peak (gaussian, ricker) or ramp start (cw) */
    double ramp;      /* cw: duration of the smooth (raised-cosine) turn-on */
    double amplitude; /* scale: dipole I*l, volume current density J, plane wave E amplitude */
    int ntable;       /* table: samples, times increasing (c-units) */
    double *table;    /* table: 2*ntable values t0, v0, t1, v1, ...; owned by the source */
} yee_profile;

typedef enum yee_source_kind {
    YEE_SRC_DIPOLE = 0,     /* point current moment I*l on one E component */
    YEE_SRC_VOLUME,         /* uniform current density over a box (a plane or line: a sheet) */
    YEE_SRC_PLANEWAVE,      /* total-field/scattered-field plane wave (solver/tfsf.h) */
    YEE_SRC_GAUSSIAN_BEAM,  /* one-sided TFSF sheet with a paraxial Gaussian-beam profile */
    YEE_SRC_EIGENMODE       /* one-sided TFSF sheet with a guided mode's profile (yee modes) */
} yee_source_kind;

/* A source (docs/deck.md "Sources"). Which fields apply depends on kind. */
typedef struct yee_source_cfg {
    int line;               /* deck line of this source's group */
    char name[YEE_NAME_LEN];
    yee_source_kind kind;
    yee_component component; /* dipole, volume: E (J) or H (magnetic current M) component */
    double position[3];     /* dipole: point; gaussian_beam: beam axis on the source plane;
                             * eigenmode: a point of the source plane, um */
    double box_min[3];      /* volume: current box; planewave: total-field box (may exceed */
    double box_max[3];      /*   the domain: faces outside it are dropped), um */
    double direction[3];    /* planewave, gaussian_beam, eigenmode: unit propagation vector */
    double polarization[3]; /* planewave, gaussian_beam: unit E vector, normal to direction */
    double waist;           /* gaussian_beam: 1/e field radius w0 at the focus, um */
    double focus;           /* gaussian_beam: distance from the source plane to the focus, um */
    int mode;               /* eigenmode: which mode of the plane, 1 = highest effective index */
    yee_profile profile;
} yee_source_cfg;

typedef enum yee_monitor_kind {
    YEE_MON_PROBE = 0,   /* time series of components at one point, every step */
    YEE_MON_SNAPSHOT,    /* components over a box, every `interval` steps */
    YEE_MON_FLUX,        /* Poynting flux spectrum through a plane or out of a closed box */
    YEE_MON_DFT          /* frequency-domain fields (running DFT) over a box */
} yee_monitor_kind;

typedef struct yee_monitor_cfg {
    int line;
    char name[YEE_NAME_LEN];
    yee_monitor_kind kind;
    unsigned components;    /* bit (1u << yee_component) per requested component */
    double position[3];     /* probe: um */
    double box_min[3];      /* snapshot: region, um (defaults to the whole domain) */
    double box_max[3];
    long interval;          /* snapshot: steps between frames (>= 1) */
    long start;             /* snapshot: first step written (default 0 = initial fields skipped, see docs) */
    int vtk;                /* snapshot: also write legacy VTK files, one per component and frame */
    double fmin, fmax;      /* flux, dft: frequency range, c/um (fmin == fmax with nfreq 1) */
    int nfreq;              /* flux, dft: frequencies, evenly spaced in [fmin, fmax] */
    double weight;          /* flux: multiplies the flux (-1 counts a plane's flux towards -axis) */
    char reference[YEE_PATH_LEN];     /* flux: HDF5 file of an earlier run ("" = none) */
    char reference_monitor[YEE_NAME_LEN]; /* flux: its monitor name (default: this name) */
    int subtract_reference; /* flux: subtract the reference's DFT fields before the flux */
    int save_fields;        /* flux: write the faces' DFT fields (for a later subtraction) */
    int nmodes;             /* deck type "mode": a flux plane whose DFT fields are also projected
                             * on this many guided modes of the plane (solver/dft.h); 0: none */
    char incident[YEE_NAME_LEN]; /* mode: the mode monitor whose forward mode-1 amplitude the
                             * S-parameters are divided by ("" = none) */
} yee_monitor_cfg;

/* Dispersive susceptibility terms added to a material's epsilon (docs/deck.md "Materials"), in
 * Meep's convention with frequencies f (not omega), all in c/um:
 *   Lorentz: sigma f0^2 / (f0^2 - f^2 - i f gamma)
 *   Drude:   sigma f0^2 / (    - f^2 - i f gamma)      (f0 = plasma frequency when sigma = 1)
 *   Debye:   sigma / (1 - i 2 pi f tau)                 (sigma = delta epsilon, tau in c-units)
 * for fields ~ exp(-i 2 pi f t). */
typedef enum yee_pole_kind { YEE_POLE_LORENTZ = 0, YEE_POLE_DRUDE, YEE_POLE_DEBYE } yee_pole_kind;

#define YEE_MAX_POLES 8

typedef struct yee_pole_cfg {
    int line;
    yee_pole_kind kind;
    double f0;        /* Lorentz/Drude: c/um */
    double gamma;     /* Lorentz/Drude: c/um */
    double sigma;     /* strength (Debye: delta epsilon) */
    double tau;       /* Debye: relaxation time, c-units */
} yee_pole_cfg;

/* A named material of the deck's `materials` list. */
typedef struct yee_material_cfg {
    int line;
    char name[YEE_NAME_LEN];
    double eps[3];    /* relative permittivity (eps_inf when dispersive) per axis x, y, z */
    double sigma;     /* conductivity, S/m */
    int pec;          /* perfect electric conductor: E = 0 inside */
    int npoles;
    yee_pole_cfg poles[YEE_MAX_POLES];
} yee_material_cfg;

typedef enum yee_shape_kind {
    YEE_SHAPE_BOX = 0, YEE_SHAPE_SPHERE, YEE_SHAPE_CYLINDER, YEE_SHAPE_CONE, YEE_SHAPE_ELLIPSOID,
    YEE_SHAPE_PRISM, YEE_SHAPE_VOXELS
} yee_shape_kind;

/* One object of the deck's `geometry` list; later objects override earlier ones. Lengths um. */
typedef struct yee_shape_cfg {
    int line;
    yee_shape_kind kind;
    int material;        /* index into yee_config.materials (voxels: -1, see vox) */
    double center[3];
    double size[3];      /* box, ellipsoid, voxels: full extents along x, y, z */
    double radius;       /* sphere, cylinder; cone: radius at center - height/2 along the axis */
    double radius2;      /* cone: radius at center + height/2 */
    double height;       /* cylinder, cone, prism: length along the axis */
    double axis[3];      /* cylinder, cone, prism: unit vector (prism: a coordinate axis) */
    int nvert;           /* prism: polygon vertices (u, v) relative to center, in the plane of */
    double *vert;        /*   the axes (axis+1, axis+2) mod 3; 2*nvert values, owned */
    int vox_n[3];        /* voxels: cells of the voxel grid along x, y, z; it spans the box */
    uint16_t *vox;       /*   (center, size), voxel (i, j, k) at vox[i + n0 (j + n1 k)] holds an
                          *   index into yee_config.materials; owned. Permittivity data become
                          *   one material per distinct value (io/deck_voxels.c) */
    double lattice[3][3];/* repetition vectors a1, a2, a3 (um) */
    int counts[3];       /* copies at center + i a1 + j a2 + k a3, 0 <= i < counts[0], ... */
} yee_shape_cfg;

typedef struct yee_config {
    char deck_path[YEE_PATH_LEN];
    char name[YEE_NAME_LEN];      /* run name: output files are <out_dir>/<name>.h5 etc. */
    char out_dir[YEE_PATH_LEN];

    /* Grid. The domain spans [origin, origin + n*dx) on each axis and includes the CPML. */
    int n[3];            /* cells per axis */
    double dx[3];        /* cell size per axis, um (a graded axis: the base, coarsest, size) */
    double origin[3];    /* lower corner, um */
    /* A graded axis (grid.refine, model/mesh.h): its n[a] + 1 node coordinates x_0 = origin ..
     * x_n, owned; NULL on a uniform axis, whose nodes are origin + i dx. Code that places or
     * weighs nodes goes through model/nodes.h, which reads both. */
    double *mesh[3];
    double grading;      /* grid.grading: the largest ratio of neighbouring cells asked for */
    /* A 2-D run (grid.size z = 0): fields independent of z, one plane of cells (n[2] = 1)
     * without z neighbours; dx[2] = 1 um, so that point sources are line currents per um of z
     * and fluxes are per um of z, as in Meep's 2-D. */
    int two_d;
    int pol2d;           /* 2-D: YEE_POL_TM, YEE_POL_TE or YEE_POL_BOTH (kernels/yee_cell.h) of
                          * simulation.polarization; 3-D: YEE_POL_BOTH */

    /* Time stepping. */
    double courant;      /* fraction of the 3D Courant limit, (0, 1] */
    double dt;           /* c-units, = courant / sqrt(sum 1/dx^2) */
    long steps;          /* number of full E+H steps */

    /* Uniform background medium. */
    double eps_r;        /* relative permittivity, >= 1 */
    double sigma;        /* conductivity, S/m, >= 0 */

    /* Boundaries: [axis][0 = low face, 1 = high face]. */
    yee_boundary boundary[3][2];
    int pml_cells[3][2];     /* CPML thickness in cells (0 when the face is not CPML) */
    double pml_order;        /* polynomial grading order m of sigma and kappa */
    double pml_sigma_factor; /* sigma_max = factor * 0.8 (m+1) / (dx sqrt(eps_r)), Taflove eq. 7.67 */
    double pml_kappa_max;    /* >= 1 */
    double pml_alpha_max;    /* CFS alpha at the inner interface, c/um (normalized by eps0) */
    /* Bloch-periodic boundaries (boundary.bloch): the wave vector k, in cycles per um (Meep's
     * k_point with a = 1 um): across a periodic axis of length L the fields take the factor
     * exp(2 pi i k_a L). Nonzero only on periodic axes; any nonzero entry makes the fields
     * complex (kernels/backend.h "complex fields"). */
    double bloch[3];
    int complex_fields;      /* 1 when any bloch[a] != 0 */

    int nsources;
    yee_source_cfg *sources;     /* owned; freed by yee_config_free */
    int nmonitors;
    yee_monitor_cfg *monitors;   /* owned */

    long check_interval;     /* steps between NaN/Inf and energy-growth checks */
    char backend[8];         /* "auto", "cpu" or "cuda" (simulation.backend; --backend wins) */

    /* Materials and geometry (geometry/). With no geometry the domain is the background. */
    int nmaterials;
    yee_material_cfg *materials; /* owned */
    int background_material;     /* index into materials, or -1: eps_r and sigma above */
    int nshapes;
    yee_shape_cfg *shapes;       /* owned (and their vertices) */
    int subpixel;                /* anisotropic subpixel averaging at dielectric interfaces */
    int subpixel_metals;         /* also average conducting and dispersive interfaces */
    int subpixel_samples;        /* supersampling points per axis of a dual cell */
    int subpixel_tensor;         /* also the off-diagonal terms of the averaged tensor */
    int geometry_out;            /* write the rasterized permittivity to HDF5 (and VTK) */
    double flush_seconds;        /* most seconds between flushes of the run file after snapshot
                                  * frames (0: every frame; io/h5out.h) */

    /* Checkpoints (docs/checkpoint.md): every checkpoint_interval steps (0: only on SIGTERM or
     * SIGUSR1) into checkpoint_dir ("" = out_dir). */
    long checkpoint_interval;
    char checkpoint_dir[YEE_PATH_LEN];
} yee_config;

/* Axis-aligned bounding box [lo, hi] (um) of one copy of a shape, lattice offsets excluded:
 * tight for boxes, voxel blocks, spheres, ellipsoids and prisms (the vertices' extent), exact for
 * cylinders and cones along any axis. */
void yee_shape_bbox(const yee_shape_cfg *s, double lo[3], double hi[3]);

/* The time step, c-units, at `courant` times the 3D Courant limit of cells dx[3] (um):
 * courant / sqrt(1/dx^2 + 1/dy^2 + 1/dz^2). The deck reader and `yee bench` both use it. */
double yee_courant_dt(const double dx[3], double courant);
/* Highest frequency with significant content (c/um), for resolution checks:
 * gaussian f + 3 fwidth, cw f, ricker 3 f, table 0 (unknown). */
double yee_profile_fmax(const yee_profile *p);

/* The time step of cfg's grid at `courant`: yee_courant_dt, without the z term in 2-D. */
double yee_config_courant_dt(const yee_config *cfg, double courant);

/* Release what a config owns; leaves it zeroed. Safe on a zeroed config. */
void yee_config_free(yee_config *cfg);

/* The most lattice copies a deck may make, all objects together (docs/deck.md): the geometry
 * setup visits every copy (two passes, about 100 bytes each), so this keeps it to well under a
 * second and 100 MB; io/deck_geometry.c refuses a deck past it. */
#define YEE_MAX_SHAPE_COPIES 1000000

/* Copies the shapes of cfg make: the sum over shapes of counts[0] * counts[1] * counts[2]. */
double yee_config_shape_copies(const yee_config *cfg);

#ifdef __cplusplus
}
#endif

#endif
