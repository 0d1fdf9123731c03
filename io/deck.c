/* io/deck.c -- read a libconfig deck, apply --set overrides, validate it against one schema table
 * and fill a yee_config.
 *
 * Three passes over the parsed libconfig tree, all before anything is allocated for the run:
 *   1. overrides: each "key=value" edits the tree, and the edited setting is tagged (libconfig's
 *      per-setting hook) with the argument, so errors in it read "--set arg: error: ..." instead
 *      of "file:line: error: ...";
 *   2. validation: every group is checked for unknown keys against the schema (with a "did you
 *      mean" hint), and every value is read through one getter per type that checks the type and
 *      the range stated in the schema. Every problem is appended to err; none stops the rest;
 *   3. derived values (n, dx, origin, dt, steps, source timing in c-units).
 * The schema table below is also what `yee deck-keys` prints and what docs/deck.md must match.
 */
#include "io/deck.h"

#include "common/yee_hint.h"
#include "io/cfgval.h"
#include "io/h5read.h"
#include "io/params.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------------------------------
 * Schema
 * ------------------------------------------------------------------------------------------- */

typedef enum key_type {
    KT_GROUP,         /* { ... } */
    KT_LIST,          /* ( {...}, {...} ) of groups */
    KT_INT,
    KT_FLOAT,         /* an int is accepted too */
    KT_BOOL,
    KT_STRING,
    KT_CHOICE,        /* a string out of `choices` */
    KT_VEC3,          /* [x, y, z] numbers */
    KT_FLOAT_OR_VEC3, /* one number for all axes, or [x, y, z] */
    KT_INT_OR_6,      /* one int for all faces, or six */
    KT_STRLIST,       /* non-empty ["a", "b"] */
    KT_POINTS2,       /* ( [u, v], [u, v], ... ): polygon vertices */
    KT_INT3,          /* [i, j, k] integers */
    KT_VALUES         /* [a, b, ...] numbers or strings (sweep parameter values) */
} key_type;

static const char *const key_type_names[] = {
    "group", "list", "int", "float", "bool", "string", "string", "float[3]", "float|float[3]",
    "int|int[6]", "string[]", "float[2][]", "int[3]", "float[]|string[]"};

/* Range flags (applied to every number of the value, vector elements included) and presence. */
enum {
    R_GT = 1u << 0,      /* value > lo */
    R_GE = 1u << 1,      /* value >= lo */
    R_LT = 1u << 2,      /* value < hi */
    R_LE = 1u << 3,      /* value <= hi */
    R_NONZERO = 1u << 4,
    K_REQ = 1u << 5      /* missing is an error (conditional requirements are checked in code) */
};

typedef struct deck_key {
    const char *path;    /* "grid.size", "sources[].wavelength": [] stands for any list index */
    key_type type;
    const char *unit;    /* "-" when dimensionless */
    const char *def;     /* default as documented; "required" or "-" (none) */
    double dval;         /* numeric default the getters return when the key is absent */
    unsigned flags;
    double lo, hi;
    const char *choices; /* KT_CHOICE: "a|b|c" */
    const char *only;    /* "profile=gaussian": allowed only when the sibling key has that value */
    const char *doc;
} deck_key;

/* Every key a deck may contain. Order is the documentation order. */
static const deck_key schema[] = {
    {.path = "simulation", .type = KT_GROUP, .unit = "-", .def = "required", .flags = K_REQ,
     .doc = "Run control: length of the run, time step, health checks."},
    {.path = "simulation.name", .type = KT_STRING, .unit = "-", .def = "deck file name",
     .doc = "Run name, [A-Za-z0-9_.-]+; output files are <directory>/<name>.h5. Defaults to the "
            "deck's file name without .cfg."},
    {.path = "simulation.steps", .type = KT_INT, .unit = "steps", .def = "-", .flags = R_GT,
     .doc = "Number of time steps. Exactly one of steps / time."},
    {.path = "simulation.time", .type = KT_FLOAT, .unit = "fs", .def = "-", .flags = R_GT,
     .doc = "Simulated time; steps = ceil(time / dt). Exactly one of steps / time."},
    {.path = "simulation.courant", .type = KT_FLOAT, .unit = "-", .def = "0.99", .dval = 0.99,
     .flags = R_GT | R_LE, .lo = 0, .hi = 1,
     .doc = "Time step as a fraction of the 3D Courant limit 1/sqrt(1/dx^2+1/dy^2+1/dz^2)."},
    {.path = "simulation.check_interval", .type = KT_INT, .unit = "steps", .def = "100",
     .dval = 100, .flags = R_GE, .lo = 1,
     .doc = "Steps between NaN/Inf and energy-growth checks."},
    {.path = "simulation.backend", .type = KT_CHOICE, .unit = "-", .def = "auto",
     .choices = "auto|cpu|cuda",
     .doc = "Where the fields live: auto (CUDA when a device is present), cpu or cuda. "
            "`yee run --backend` overrides it."},

    {.path = "grid", .type = KT_GROUP, .unit = "-", .def = "required", .flags = K_REQ,
     .doc = "The Yee grid. The domain includes the CPML layers."},
    {.path = "grid.size", .type = KT_VEC3, .unit = "um", .def = "required",
     .flags = K_REQ | R_GT, .lo = 0,
     .doc = "Domain size [x, y, z]; rounded to a whole number of cells (warning if it changes)."},
    {.path = "grid.resolution", .type = KT_FLOAT, .unit = "1/um", .def = "-", .flags = R_GT,
     .doc = "Cells per um on every axis. Exactly one of resolution / spacing."},
    {.path = "grid.spacing", .type = KT_FLOAT_OR_VEC3, .unit = "um", .def = "-", .flags = R_GT,
     .doc = "Cell size: one number or [dx, dy, dz]. Exactly one of resolution / spacing."},
    {.path = "grid.center", .type = KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Centre of the domain."},
    {.path = "grid.subpixel", .type = KT_BOOL, .unit = "-", .def = "true", .dval = 1,
     .doc = "Subpixel averaging of the permittivity at dielectric interfaces (anisotropic, "
            "Farjadpour et al. 2006): second-order accurate interfaces. false: staircase."},
    {.path = "grid.subpixel_samples", .type = KT_INT, .unit = "-", .def = "8", .dval = 8,
     .flags = R_GE | R_LE, .lo = 2, .hi = 32,
     .doc = "Supersampling points per axis of a cell when averaging (samples^3 per interface "
            "node)."},

    {.path = "background", .type = KT_GROUP, .unit = "-", .def = "vacuum",
     .doc = "Uniform medium filling the domain (under the geometry objects)."},
    {.path = "background.epsilon", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_GE, .lo = 1, .doc = "Relative permittivity."},
    {.path = "background.sigma", .type = KT_FLOAT, .unit = "S/m", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0, .doc = "Electric conductivity."},
    {.path = "background.material", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "Name of a material of the materials list; excludes epsilon and sigma. Not pec."},

    {.path = "materials", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "Named materials, ( {...}, {...} ), used by geometry[].material and "
            "background.material. See \"Materials\" below."},
    {.path = "materials[].name", .type = KT_STRING, .unit = "-", .def = "required",
     .flags = K_REQ, .doc = "Unique name, [A-Za-z0-9_.-]+."},
    {.path = "materials[].epsilon", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_GT, .lo = 0,
     .doc = "Relative permittivity (eps_inf when poles are given). Excludes epsilon_diag."},
    {.path = "materials[].epsilon_diag", .type = KT_VEC3, .unit = "-", .def = "-",
     .flags = R_GT, .lo = 0,
     .doc = "Diagonal anisotropic permittivity [eps_x, eps_y, eps_z]. Excludes epsilon."},
    {.path = "materials[].sigma", .type = KT_FLOAT, .unit = "S/m", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0, .doc = "Electric conductivity."},
    {.path = "materials[].pec", .type = KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .doc = "Perfect electric conductor (E = 0 inside); excludes every other property."},
    {.path = "materials[].lorentz", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "Lorentz poles sigma f0^2 / (f0^2 - f^2 - i f gamma)."},
    {.path = "materials[].lorentz[].frequency", .type = KT_FLOAT, .unit = "THz",
     .def = "required", .flags = K_REQ | R_GT, .lo = 0, .doc = "Resonance frequency f0."},
    {.path = "materials[].lorentz[].gamma", .type = KT_FLOAT, .unit = "THz", .def = "0",
     .dval = 0, .flags = R_GE, .lo = 0, .doc = "Damping gamma (a frequency, as f0)."},
    {.path = "materials[].lorentz[].sigma", .type = KT_FLOAT, .unit = "-", .def = "required",
     .flags = K_REQ, .doc = "Strength: the pole adds sigma to epsilon at f = 0."},
    {.path = "materials[].drude", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "Drude poles sigma f0^2 / (-f^2 - i f gamma); sigma = 1 makes f0 the plasma "
            "frequency."},
    {.path = "materials[].drude[].frequency", .type = KT_FLOAT, .unit = "THz",
     .def = "required", .flags = K_REQ | R_GT, .lo = 0,
     .doc = "Frequency f0 (the plasma frequency when sigma = 1)."},
    {.path = "materials[].drude[].gamma", .type = KT_FLOAT, .unit = "THz", .def = "0",
     .dval = 0, .flags = R_GE, .lo = 0, .doc = "Collision rate gamma (a frequency, as f0)."},
    {.path = "materials[].drude[].sigma", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_GT, .lo = 0, .doc = "Strength."},
    {.path = "materials[].debye", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "Debye poles delta_epsilon / (1 - i 2 pi f tau)."},
    {.path = "materials[].debye[].delta_epsilon", .type = KT_FLOAT, .unit = "-",
     .def = "required", .flags = K_REQ | R_GT, .lo = 0,
     .doc = "Static minus high-frequency permittivity."},
    {.path = "materials[].debye[].tau", .type = KT_FLOAT, .unit = "fs", .def = "required",
     .flags = K_REQ | R_GT, .lo = 0, .doc = "Relaxation time."},

    {.path = "geometry", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "Objects, ( {...}, {...} ), drawn in order over the background: later objects "
            "override earlier ones. See \"Geometry\" below."},
    {.path = "geometry[].type", .type = KT_CHOICE, .unit = "-", .def = "required",
     .flags = K_REQ, .choices = "box|sphere|cylinder|cone|ellipsoid|prism|voxels",
     .doc = "Shape; voxels: a block of voxel data read from an HDF5 file."},
    {.path = "geometry[].material", .type = KT_STRING, .unit = "-", .def = "required",
     .doc = "Name of a material of the materials list. Every type but voxels (whose medium "
            "comes from the data)."},
    {.path = "geometry[].center", .type = KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Centre (prism: origin of the vertices and middle of the height)."},
    {.path = "geometry[].size", .type = KT_VEC3, .unit = "um", .def = "required",
     .flags = R_GT, .lo = 0,
     .doc = "Full extents [x, y, z]. Only box, ellipsoid and voxels (the box the voxel grid "
            "spans)."},
    {.path = "geometry[].radius", .type = KT_FLOAT, .unit = "um", .def = "required",
     .flags = R_GT, .lo = 0,
     .doc = "Radius (cone: at the low end, center - height/2 along the axis). Only sphere, "
            "cylinder and cone."},
    {.path = "geometry[].radius2", .type = KT_FLOAT, .unit = "um", .def = "required",
     .flags = R_GE, .lo = 0, .only = "type=cone",
     .doc = "Radius at the high end, center + height/2 along the axis; 0 makes a tip."},
    {.path = "geometry[].height", .type = KT_FLOAT, .unit = "um", .def = "required",
     .flags = R_GT, .lo = 0, .doc = "Length along the axis. Only cylinder, cone and prism."},
    {.path = "geometry[].axis", .type = KT_VEC3, .unit = "-", .def = "[0, 0, 1]",
     .doc = "Axis direction (normalized by yee); a prism's must be x, y or z. Only cylinder, "
            "cone and prism."},
    {.path = "geometry[].vertices", .type = KT_POINTS2, .unit = "um", .def = "required",
     .only = "type=prism",
     .doc = "Polygon ( [u, v], ... ), at least 3 vertices, not self-intersecting; (u, v) are "
            "offsets from center along the next two axes (axis z: x, y; x: y, z; y: z, x)."},
    {.path = "geometry[].file", .type = KT_STRING, .unit = "-", .def = "required",
     .only = "type=voxels",
     .doc = "HDF5 file holding the voxel data; a relative path is relative to the deck's "
            "folder."},
    {.path = "geometry[].dataset", .type = KT_STRING, .unit = "-", .def = "epsilon",
     .only = "type=voxels",
     .doc = "3-D dataset of the file, shape (nz, ny, nx) with x fastest: relative permittivity "
            "(every value >= 1), or with materials integer indices into that list. Each E node "
            "takes the value of the voxel containing it (piecewise constant)."},
    {.path = "geometry[].materials", .type = KT_STRLIST, .unit = "-", .def = "-",
     .only = "type=voxels",
     .doc = "Names of materials of the materials list; the dataset then holds indices into "
            "this list (0 = the first name)."},
    {.path = "geometry[].lattice", .type = KT_GROUP, .unit = "-", .def = "-",
     .doc = "Repeat the object on a lattice (gratings, photonic crystals)."},
    {.path = "geometry[].lattice.a1", .type = KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "First lattice vector."},
    {.path = "geometry[].lattice.a2", .type = KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Second lattice vector."},
    {.path = "geometry[].lattice.a3", .type = KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Third lattice vector."},
    {.path = "geometry[].lattice.counts", .type = KT_INT3, .unit = "-", .def = "[1, 1, 1]",
     .dval = 1, .flags = R_GE | R_LE, .lo = 1, .hi = 100000,
     .doc = "Copies along a1, a2, a3: at center + i a1 + j a2 + k a3, 0 <= i < counts[0], ..."},

    {.path = "boundary", .type = KT_GROUP, .unit = "-", .def = "all cpml",
     .doc = "Boundary conditions of the six faces of the domain."},
    {.path = "boundary.x", .type = KT_CHOICE, .unit = "-", .def = "cpml",
     .choices = "cpml|pec|periodic", .doc = "Both x faces. periodic must be on both faces."},
    {.path = "boundary.y", .type = KT_CHOICE, .unit = "-", .def = "cpml",
     .choices = "cpml|pec|periodic", .doc = "Both y faces."},
    {.path = "boundary.z", .type = KT_CHOICE, .unit = "-", .def = "cpml",
     .choices = "cpml|pec|periodic", .doc = "Both z faces."},
    {.path = "boundary.x_low", .type = KT_CHOICE, .unit = "-", .def = "boundary.x",
     .choices = "cpml|pec|periodic", .doc = "Low x face; overrides boundary.x."},
    {.path = "boundary.x_high", .type = KT_CHOICE, .unit = "-", .def = "boundary.x",
     .choices = "cpml|pec|periodic", .doc = "High x face; overrides boundary.x."},
    {.path = "boundary.y_low", .type = KT_CHOICE, .unit = "-", .def = "boundary.y",
     .choices = "cpml|pec|periodic", .doc = "Low y face; overrides boundary.y."},
    {.path = "boundary.y_high", .type = KT_CHOICE, .unit = "-", .def = "boundary.y",
     .choices = "cpml|pec|periodic", .doc = "High y face; overrides boundary.y."},
    {.path = "boundary.z_low", .type = KT_CHOICE, .unit = "-", .def = "boundary.z",
     .choices = "cpml|pec|periodic", .doc = "Low z face; overrides boundary.z."},
    {.path = "boundary.z_high", .type = KT_CHOICE, .unit = "-", .def = "boundary.z",
     .choices = "cpml|pec|periodic", .doc = "High z face; overrides boundary.z."},
    {.path = "boundary.pml", .type = KT_GROUP, .unit = "-", .def = "-",
     .doc = "CFS-CPML parameters, used on the cpml faces."},
    {.path = "boundary.pml.cells", .type = KT_INT_OR_6, .unit = "cells", .def = "10", .dval = 10,
     .flags = R_GE, .lo = 1,
     .doc = "Thickness: one int, or [x_low, x_high, y_low, y_high, z_low, z_high]. Both faces of "
            "an axis together must be thinner than the grid."},
    {.path = "boundary.pml.order", .type = KT_FLOAT, .unit = "-", .def = "3", .dval = 3,
     .flags = R_GE | R_LE, .lo = 1, .hi = 10,
     .doc = "Polynomial grading order m of sigma and kappa."},
    {.path = "boundary.pml.sigma_factor", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_GT, .lo = 0,
     .doc = "Multiplier of the optimal sigma_max = 0.8 (m+1) / (dx sqrt(eps_r))."},
    {.path = "boundary.pml.kappa_max", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_GE, .lo = 1, .doc = "Maximum of the kappa coordinate stretch."},
    {.path = "boundary.pml.alpha_max", .type = KT_FLOAT, .unit = "c/um", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0, .doc = "CFS alpha at the inner interface of the PML."},

    {.path = "sources", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "List of sources, ( {...}, {...} ); may be empty (warning)."},
    {.path = "sources[].type", .type = KT_CHOICE, .unit = "-", .def = "required", .flags = K_REQ,
     .choices = "dipole|volume|planewave|gaussian_beam",
     .doc = "dipole: a point current moment; volume: a current density over a box, plane or "
            "line; planewave: a plane wave by total-field/scattered-field (TFSF) on a box; "
            "gaussian_beam: a one-way paraxial Gaussian beam from a plane. See \"Sources\" "
            "below."},
    {.path = "sources[].name", .type = KT_STRING, .unit = "-", .def = "src<index>",
     .doc = "Name used in logs, [A-Za-z0-9_.-]+."},
    {.path = "sources[].component", .type = KT_STRING, .unit = "-", .def = "required",
     .only = "type=dipole|volume",
     .doc = "Current component (case-insensitive): Ex, Ey or Ez for an electric current; a "
            "volume source also takes Hx, Hy or Hz (a magnetic current)."},
    {.path = "sources[].position", .type = KT_VEC3, .unit = "um", .def = "required",
     .only = "type=dipole|gaussian_beam",
     .doc = "dipole: its point; gaussian_beam: where the beam axis crosses the source plane. "
            "Must lie inside the domain."},
    {.path = "sources[].min", .type = KT_VEC3, .unit = "um", .def = "domain lower corner",
     .only = "type=volume|planewave",
     .doc = "Lower corner of the current box (volume) or of the total-field box (planewave); "
            "a planewave box reaching past the domain loses that face."},
    {.path = "sources[].max", .type = KT_VEC3, .unit = "um", .def = "domain upper corner",
     .only = "type=volume|planewave", .doc = "Upper corner; each max >= min."},
    {.path = "sources[].direction", .type = KT_VEC3, .unit = "-", .def = "required",
     .only = "type=planewave|gaussian_beam",
     .doc = "Propagation direction (normalized by yee); a gaussian_beam's must be +-x, +-y or "
            "+-z."},
    {.path = "sources[].polarization", .type = KT_VEC3, .unit = "-", .def = "required",
     .only = "type=planewave|gaussian_beam",
     .doc = "Direction of E; its part along direction is removed, then it is normalized."},
    {.path = "sources[].waist", .type = KT_FLOAT, .unit = "um", .def = "required", .flags = R_GT,
     .lo = 0, .only = "type=gaussian_beam", .doc = "1/e field radius w0 at the focus."},
    {.path = "sources[].focus", .type = KT_FLOAT, .unit = "um", .def = "0", .dval = 0,
     .only = "type=gaussian_beam",
     .doc = "Distance from the source plane to the focus along direction (negative: behind)."},
    {.path = "sources[].profile", .type = KT_CHOICE, .unit = "-", .def = "gaussian",
     .choices = "gaussian|cw|ricker|table",
     .doc = "Time profile: gaussian pulse, cw (continuous wave with a smooth turn-on), ricker "
            "wavelet or table (samples from `table`)."},
    {.path = "sources[].wavelength", .type = KT_FLOAT, .unit = "um", .def = "-", .flags = R_GT,
     .doc = "Vacuum wavelength of the carrier (ricker: of the peak). Exactly one of wavelength "
            "/ frequency (optional with a table: it then only sets the frequency a plane wave's "
            "dispersion is matched at)."},
    {.path = "sources[].frequency", .type = KT_FLOAT, .unit = "THz", .def = "-", .flags = R_GT,
     .doc = "Carrier (ricker: peak) frequency. Exactly one of wavelength / frequency."},
    {.path = "sources[].bandwidth", .type = KT_FLOAT, .unit = "-", .def = "0.5", .dval = 0.5,
     .flags = R_GT | R_LE, .lo = 0, .hi = 2, .only = "profile=gaussian",
     .doc = "Spectral 1/e half-width as a fraction of the frequency: fwidth = bandwidth * f."},
    {.path = "sources[].delay", .type = KT_FLOAT, .unit = "fs", .def = "auto", .flags = R_GE,
     .lo = 0,
     .doc = "Peak time (gaussian, ricker) or turn-on time (cw); shifts a table. Default: "
            "gaussian 5/(2 pi fwidth), ricker 1.5/f, cw and table 0."},
    {.path = "sources[].ramp", .type = KT_FLOAT, .unit = "fs", .def = "5 periods", .flags = R_GT,
     .lo = 0, .only = "profile=cw", .doc = "Duration of the smooth turn-on."},
    {.path = "sources[].table", .type = KT_POINTS2, .unit = "fs, -", .def = "required",
     .only = "profile=table",
     .doc = "Samples ( [t, value], ... ), at least 2, times increasing; linear in between, 0 "
            "outside."},
    {.path = "sources[].amplitude", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_NONZERO,
     .doc = "Scale of the profile: dipole current moment I*l; volume current density (per "
            "area on a plane, per length on a line); planewave and gaussian_beam incident E "
            "(the beam's on axis at the focus). Normalized units."},

    {.path = "monitors", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "List of monitors, ( {...}, {...} )."},
    {.path = "monitors[].type", .type = KT_CHOICE, .unit = "-", .def = "required",
     .flags = K_REQ, .choices = "probe|snapshot|flux|dft",
     .doc = "probe: time series at one point, every step; snapshot: fields over a box every "
            "interval steps; flux: Poynting flux spectrum through a plane or out of a box; dft: "
            "frequency-domain fields over a box."},
    {.path = "monitors[].name", .type = KT_STRING, .unit = "-", .def = "required",
     .flags = K_REQ, .doc = "Unique name, [A-Za-z0-9_.-]+; names the output data set."},
    {.path = "monitors[].components", .type = KT_STRLIST, .unit = "-",
     .def = "[\"Ex\", \"Ey\", \"Ez\"]", .only = "type=probe|snapshot|dft",
     .doc = "Field components recorded, each one of Ex Ey Ez Hx Hy Hz, no repeats."},
    {.path = "monitors[].position", .type = KT_VEC3, .unit = "um", .def = "required",
     .only = "type=probe", .doc = "Point recorded; must lie inside the domain."},
    {.path = "monitors[].min", .type = KT_VEC3, .unit = "um", .def = "domain lower corner",
     .only = "type=snapshot|flux|dft",
     .doc = "Lower corner of the box; min == max on an axis gives a plane (a flux monitor is "
            "a plane, or a closed box when no axis is flat)."},
    {.path = "monitors[].max", .type = KT_VEC3, .unit = "um", .def = "domain upper corner",
     .only = "type=snapshot|flux|dft", .doc = "Upper corner of the box; each max >= min."},
    {.path = "monitors[].interval", .type = KT_INT, .unit = "steps", .def = "required",
     .flags = R_GE, .lo = 1, .only = "type=snapshot", .doc = "Steps between frames."},
    {.path = "monitors[].start", .type = KT_INT, .unit = "steps", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0, .only = "type=snapshot",
     .doc = "First step written; frames at start, start+interval, ... <= steps."},
    {.path = "monitors[].vtk", .type = KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .only = "type=snapshot", .doc = "Also write legacy VTK files, one per component and frame."},
    {.path = "monitors[].wavelength_min", .type = KT_FLOAT, .unit = "um", .def = "-",
     .flags = R_GT, .lo = 0, .only = "type=flux|dft",
     .doc = "Shortest wavelength of the spectrum. Give wavelength_min and wavelength_max, or "
            "frequency_min and frequency_max; nfreq frequencies evenly spaced in frequency."},
    {.path = "monitors[].wavelength_max", .type = KT_FLOAT, .unit = "um", .def = "-",
     .flags = R_GT, .lo = 0, .only = "type=flux|dft", .doc = "Longest wavelength."},
    {.path = "monitors[].frequency_min", .type = KT_FLOAT, .unit = "THz", .def = "-",
     .flags = R_GT, .lo = 0, .only = "type=flux|dft", .doc = "Lowest frequency."},
    {.path = "monitors[].frequency_max", .type = KT_FLOAT, .unit = "THz", .def = "-",
     .flags = R_GT, .lo = 0, .only = "type=flux|dft", .doc = "Highest frequency."},
    {.path = "monitors[].nfreq", .type = KT_INT, .unit = "-", .def = "50", .dval = 50,
     .flags = R_GE | R_LE, .lo = 1, .hi = 100000, .only = "type=flux|dft",
     .doc = "Frequencies of the spectrum (1: the minimum only, which must equal the maximum)."},
    {.path = "monitors[].weight", .type = KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_NONZERO, .only = "type=flux",
     .doc = "Factor on the flux: -1 counts a plane's flux towards -axis (reflection)."},
    {.path = "monitors[].reference", .type = KT_STRING, .unit = "-", .def = "-",
     .only = "type=flux",
     .doc = "HDF5 file of an earlier run (path from the working directory) with the same flux "
            "monitor: adds normalized = flux / reference flux."},
    {.path = "monitors[].reference_monitor", .type = KT_STRING, .unit = "-", .def = "this name",
     .only = "type=flux", .doc = "Name of the monitor in the reference run."},
    {.path = "monitors[].subtract_reference", .type = KT_BOOL, .unit = "-", .def = "false",
     .dval = 0, .only = "type=flux",
     .doc = "Subtract the reference run's DFT fields before forming the flux (the reflected "
            "part only; the reference needs save_fields = true)."},
    {.path = "monitors[].save_fields", .type = KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .only = "type=flux",
     .doc = "Write the monitor's DFT fields, so later runs can subtract them."},

    {.path = "output", .type = KT_GROUP, .unit = "-", .def = "-", .doc = "Where results go."},
    {.path = "output.directory", .type = KT_STRING, .unit = "-", .def = ".",
     .doc = "Directory of the output files (must exist)."},
    {.path = "output.geometry", .type = KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .doc = "Write the rasterized permittivity per E component to /snapshots/geometry/Ex.. of the "
            "run's HDF5 file (and legacy VTK on one rank)."},

    {.path = "checkpoint", .type = KT_GROUP, .unit = "-", .def = "-",
     .doc = "Checkpoints of a long run, continued with `yee run DECK --restart CKPT` "
            "(docs/checkpoint.md). SIGTERM (checkpoint, then stop) and SIGUSR1 (checkpoint, "
            "go on) write one with or without this group."},
    {.path = "checkpoint.interval", .type = KT_INT, .unit = "steps", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0,
     .doc = "Steps between checkpoints (at multiples of it); 0: only on a signal."},
    {.path = "checkpoint.path", .type = KT_STRING, .unit = "-", .def = "output directory",
     .doc = "Directory of the checkpoint files, created when missing: <name>.ckpt (what "
            "--restart takes) and <name>.ckpt.<step>.r<rank>, one per MPI rank."},

    /* read by io/params.c for `yee sweep` (which keeps its own list of these keys; a test
     * compares the two); a single run only checks that the keys are known */
    {.path = "sweep", .type = KT_GROUP, .unit = "-", .def = "-",
     .doc = "A batch of runs for `yee sweep` (docs/sweeps.md): the rest of the deck uses the "
            "parameters as ${name} or ${expression}. Ignored by yee run."},
    {.path = "sweep.mode", .type = KT_CHOICE, .unit = "-", .def = "product",
     .choices = "product|zip",
     .doc = "product: every combination of the values (last parameter fastest); zip: the i-th "
            "values together (lists of one length)."},
    {.path = "sweep.parameters", .type = KT_LIST, .unit = "-", .def = "required",
     .doc = "The swept parameters, ( {...}, {...} )."},
    {.path = "sweep.parameters[].name", .type = KT_STRING, .unit = "-", .def = "required",
     .doc = "Name used as ${name}, [A-Za-z_][A-Za-z0-9_]*."},
    {.path = "sweep.parameters[].values", .type = KT_VALUES, .unit = "-", .def = "-",
     .doc = "The values. All integers: the parameter is an int; any float: a float; strings: "
            "text. Exactly one of values / range."},
    {.path = "sweep.parameters[].range", .type = KT_VEC3, .unit = "-", .def = "-",
     .doc = "[start, stop, step], stop included; integers give an int parameter. Exactly one of "
            "values / range."},
    {.path = "sweep.results", .type = KT_LIST, .unit = "-", .def = "()",
     .doc = "Scalar results of each job, one column each in summary.csv."},
    {.path = "sweep.results[].name", .type = KT_STRING, .unit = "-", .def = "required",
     .doc = "Column name, [A-Za-z0-9_.-]+."},
    {.path = "sweep.results[].flux", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "A flux monitor: its spectrum (normalized when the run has a reference) at one "
            "frequency, linearly interpolated. Exactly one of flux / resonance."},
    {.path = "sweep.results[].frequency", .type = KT_FLOAT, .unit = "THz", .def = "-",
     .flags = R_GT, .lo = 0,
     .doc = "Flux result: where to read the spectrum. Exactly one of frequency / wavelength."},
    {.path = "sweep.results[].wavelength", .type = KT_FLOAT, .unit = "um", .def = "-",
     .flags = R_GT, .lo = 0,
     .doc = "Flux result: where to read the spectrum, vacuum wavelength."},
    {.path = "sweep.results[].resonance", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "A probe: harminv on its time series; the mode with the largest amplitude."},
    {.path = "sweep.results[].what", .type = KT_CHOICE, .unit = "-", .def = "frequency",
     .choices = "frequency|wavelength|Q|decay",
     .doc = "Resonance result: frequency (THz), wavelength (um), Q or decay (1/fs)."},
    {.path = "sweep.results[].component", .type = KT_STRING, .unit = "-", .def = "first",
     .doc = "Resonance result: the probe component analysed (Ex ... Hz)."},
    {.path = "sweep.results[].fmin", .type = KT_FLOAT, .unit = "THz", .def = "-",
     .flags = R_GE, .lo = 0, .doc = "Resonance result: lower end of the search band."},
    {.path = "sweep.results[].fmax", .type = KT_FLOAT, .unit = "THz", .def = "Nyquist",
     .flags = R_GT, .lo = 0, .doc = "Resonance result: upper end of the search band."},
    {.path = "sweep.results[].start", .type = KT_FLOAT, .unit = "fs", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0,
     .doc = "Resonance result: analyse the series from this time on (after the source)."},
    {.path = "sweep.slurm", .type = KT_GROUP, .unit = "-", .def = "-",
     .doc = "Resources of each job in `yee sweep --slurm` scripts (flags override them)."},
    {.path = "sweep.slurm.time", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --time, e.g. \"02:00:00\"."},
    {.path = "sweep.slurm.partition", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --partition."},
    {.path = "sweep.slurm.account", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --account."},
    {.path = "sweep.slurm.memory", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --mem, e.g. \"16G\"."},
    {.path = "sweep.slurm.gpus", .type = KT_INT, .unit = "-", .def = "0", .dval = 0,
     .flags = R_GE, .lo = 0, .doc = "GPUs per job: #SBATCH --gres=gpu:N."},
    {.path = "sweep.slurm.cpus", .type = KT_INT, .unit = "-", .def = "1", .dval = 1,
     .flags = R_GE, .lo = 1, .doc = "#SBATCH --cpus-per-task (and OMP_NUM_THREADS)."},
    {.path = "sweep.slurm.setup", .type = KT_STRING, .unit = "-", .def = "-",
     .doc = "Shell lines run before each job, e.g. \"module load cuda\"."},
};

#define NSCHEMA ((int)(sizeof schema / sizeof schema[0]))

static const deck_key *schema_find(const char *path)
{
    for (int i = 0; i < NSCHEMA; i++)
        if (strcmp(schema[i].path, path) == 0)
            return &schema[i];
    return NULL;
}

/* Length of the parent part of a schema path: "sources[].type" -> 9, "grid" -> 0. */
static size_t schema_parent_len(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? (size_t)(dot - path) : 0;
}

static const char *schema_leaf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

/* Writes the range of k as prose ("> 0", "in (0, 1]"); empty when unrestricted. */
static void range_text(const deck_key *k, char *buf, size_t n)
{
    unsigned f = k->flags;
    buf[0] = '\0';
    if ((f & (R_GT | R_GE)) && (f & (R_LT | R_LE)))
        snprintf(buf, n, "in %c%g, %g%c", (f & R_GT) ? '(' : '[', k->lo, k->hi,
                 (f & R_LT) ? ')' : ']');
    else if (f & (R_GT | R_GE))
        snprintf(buf, n, "%s %g", (f & R_GT) ? ">" : ">=", k->lo);
    else if (f & (R_LT | R_LE))
        snprintf(buf, n, "%s %g", (f & R_LT) ? "<" : "<=", k->hi);
    else if (f & R_NONZERO)
        snprintf(buf, n, "nonzero");
}

void yee_deck_print_keys(FILE *out)
{
    for (int i = 0; i < NSCHEMA; i++) {
        const deck_key *k = &schema[i];
        char range[64];
        range_text(k, range, sizeof range);
        fprintf(out, "%s\t%s\t%s\t%s\t%s", k->path, key_type_names[k->type], k->unit, k->def,
                k->doc);
        if (range[0])
            fprintf(out, " Must be %s.", range);
        if (k->choices) {
            fputs(" One of: ", out);
            for (const char *p = k->choices; *p; p++) {
                if (*p == '|')
                    fputs(", ", out);
                else
                    fputc(*p, out);
            }
            fputc('.', out);
        }
        if (k->only) { /* "type=a|b|c" -> "Only when type is a, b or c." */
            const char *eq = strchr(k->only, '=');
            fprintf(out, " Only when %.*s is ", (int)(eq - k->only), k->only);
            for (const char *p = eq + 1; *p; p++) {
                if (*p != '|')
                    fputc(*p, out);
                else
                    fputs(strchr(p + 1, '|') ? ", " : " or ", out);
            }
            fputc('.', out);
        }
        fputc('\n', out);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Diagnostics
 * ------------------------------------------------------------------------------------------- */

#define MAX_ERRORS 40
#if defined(__GNUC__)
#define YEE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define YEE_PRINTF(a, b)
#endif
#define YEE_PI 3.14159265358979323846

/* Errors are collected here and written to err at the end, sorted by deck line (--set errors
 * last), because validation visits the sections in dependency order, not in file order. */
typedef struct deck_diag {
    long order;
    char text[360];
} deck_diag;

typedef struct deck_ctx {
    const char *path;  /* deck path as the user gave it */
    yee_err *err;
    int nerr;
    int quiet;         /* suppress warnings (MPI ranks other than 0) */
    deck_diag diags[MAX_ERRORS];
} deck_ctx;

#define ORDER_SET 0x7fffffffL /* sort key of --set diagnostics */

static void push_error(deck_ctx *c, long order, const char *fmt, ...) YEE_PRINTF(3, 4);
static void push_error(deck_ctx *c, long order, const char *fmt, ...)
{
    if (c->nerr < MAX_ERRORS) {
        deck_diag *d = &c->diags[c->nerr];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->text, sizeof d->text, fmt, ap);
        va_end(ap);
        d->order = order;
    }
    c->nerr++;
}

/* Writes the collected errors to err, stable-sorted by order. */
static void flush_errors(deck_ctx *c)
{
    int n = c->nerr < MAX_ERRORS ? c->nerr : MAX_ERRORS;
    for (int i = 1; i < n; i++) {
        deck_diag d = c->diags[i];
        int j = i;
        for (; j > 0 && c->diags[j - 1].order > d.order; j--)
            c->diags[j] = c->diags[j - 1];
        c->diags[j] = d;
    }
    for (int i = 0; i < n; i++)
        yee_err_append(c->err, "%s", c->diags[i].text);
    if (c->nerr > n)
        yee_err_append(c->err, "%s: error: %d more errors not shown", c->path, c->nerr - n);
}

/* A group being validated: its setting, its schema path ("sources[]") and its key path as shown
 * to the user ("sources[0]"). The root has empty paths. */
typedef struct scope {
    const config_setting_t *s;
    const char *pat;
    char key[96];
} scope;

/* Location of a setting: the --set argument that produced it (or an ancestor), else its file and
 * line, else the nearest ancestor with a line, else the deck file alone. */
static long locate(const deck_ctx *c, const config_setting_t *s, char *buf, size_t n)
{
    /* a vector with one element replaced by --set (grid.size[2]=8) is reported as that --set */
    int t = s ? config_setting_type(s) : CONFIG_TYPE_NONE;
    if (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST)
        for (int i = 0; i < config_setting_length(s); i++) {
            const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
            if (e->hook) {
                snprintf(buf, n, "--set %s", (const char *)e->hook);
                return ORDER_SET;
            }
        }
    for (; s; s = config_setting_parent(s)) {
        if (s->hook) {
            snprintf(buf, n, "--set %s", (const char *)s->hook);
            return ORDER_SET;
        }
        if (config_setting_source_line(s) > 0) {
            const char *f = config_setting_source_file(s);
            snprintf(buf, n, "%s:%u", f ? f : c->path, config_setting_source_line(s));
            return (long)config_setting_source_line(s);
        }
    }
    snprintf(buf, n, "%s", c->path);
    return 0;
}

static void vdiag(deck_ctx *c, int warning, const config_setting_t *s, const char *key,
                  const char *fmt, va_list ap)
{
    char where[YEE_PATH_LEN + 64], what[512];
    long order = locate(c, s, where, sizeof where);
    vsnprintf(what, sizeof what, fmt, ap);
    if (warning) {
        if (!c->quiet)
            fprintf(stderr, "%s: warning: %s: %s\n", where, key, what);
        return;
    }
    push_error(c, order, "%s: error: %s: %s", where, key, what);
}


static void deck_error(deck_ctx *c, const config_setting_t *s, const char *key, const char *fmt,
                       ...) YEE_PRINTF(4, 5);
static void deck_error(deck_ctx *c, const config_setting_t *s, const char *key, const char *fmt,
                       ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(c, 0, s, key, fmt, ap);
    va_end(ap);
}

static void deck_warn(deck_ctx *c, const config_setting_t *s, const char *key, const char *fmt,
                      ...) YEE_PRINTF(4, 5);
static void deck_warn(deck_ctx *c, const config_setting_t *s, const char *key, const char *fmt,
                      ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(c, 1, s, key, fmt, ap);
    va_end(ap);
}

/* Appends printf output to buf (of size n) at *used, never overflowing. */
static void bprintf(char *buf, size_t n, size_t *used, const char *fmt, ...) YEE_PRINTF(4, 5);
static void bprintf(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used = (*used + (size_t)w < n) ? *used + (size_t)w : n - 1;
}

/* A float as the user would have typed it: 800.0 stays distinguishable from the integer 800. */
static void fmt_double(char *buf, size_t n, size_t *used, double v)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.9g", v);
    if (isfinite(v) && !strpbrk(tmp, ".eEn"))
        strcat(tmp, ".0");
    bprintf(buf, n, used, "%s", tmp);
}

static void fmt_value_at(const config_setting_t *s, char *buf, size_t n, size_t *used)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT: bprintf(buf, n, used, "%d", config_setting_get_int(s)); break;
    case CONFIG_TYPE_INT64: bprintf(buf, n, used, "%lld", config_setting_get_int64(s)); break;
    case CONFIG_TYPE_FLOAT: fmt_double(buf, n, used, config_setting_get_float(s)); break;
    case CONFIG_TYPE_BOOL:
        bprintf(buf, n, used, "%s", config_setting_get_bool(s) ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        bprintf(buf, n, used, "\"%.60s\"", config_setting_get_string(s));
        break;
    case CONFIG_TYPE_GROUP: bprintf(buf, n, used, "a group { ... }"); break;
    case CONFIG_TYPE_ARRAY:
    case CONFIG_TYPE_LIST: {
        int list = config_setting_type(s) == CONFIG_TYPE_LIST;
        int len = config_setting_length(s);
        bprintf(buf, n, used, "%c", list ? '(' : '[');
        for (int i = 0; i < len && i < 8; i++) {
            if (i)
                bprintf(buf, n, used, ", ");
            fmt_value_at(config_setting_get_elem(s, (unsigned)i), buf, n, used);
        }
        if (len > 8)
            bprintf(buf, n, used, ", ...");
        bprintf(buf, n, used, "%c", list ? ')' : ']');
        break;
    }
    default: bprintf(buf, n, used, "?"); break;
    }
}

/* The value of a setting as shown after "got". */
static const char *fmt_value(const config_setting_t *s, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    fmt_value_at(s, buf, n, &used);
    return buf;
}

/* Best schema key under the schema path `parent` for the unknown name; NULL if none is close. */
static const char *suggest_key(const char *parent, const char *name)
{
    const char *best = NULL;
    int bestd = 99;
    size_t plen = strlen(parent);
    for (int i = 0; i < NSCHEMA; i++) {
        const char *p = schema[i].path;
        if (schema_parent_len(p) != plen || strncmp(p, parent, plen) != 0)
            continue;
        const char *leaf = schema_leaf(p);
        int d = yee_edit_distance(name, leaf);
        if (d < bestd && yee_close_enough(name, leaf, d))
            best = leaf, bestd = d;
    }
    return best;
}

/* Index of `v` in "a|b|c" (exact match), or -1; *hint gets the closest choice when v is none. */
static int choice_index(const char *choices, const char *v, char *hint, size_t n)
{
    int idx = 0, bestd = 99;
    if (hint)
        hint[0] = '\0';
    for (const char *p = choices; *p; idx++) {
        size_t len = strcspn(p, "|");
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)len, p);
        if (strcmp(word, v) == 0)
            return idx;
        int d = yee_edit_distance(v, word);
        if (hint && d < bestd && yee_close_enough(v, word, d))
            bestd = d, snprintf(hint, n, "%s", word);
        p += len;
        if (*p == '|')
            p++;
    }
    return -1;
}

/* ---------------------------------------------------------------------------------------------
 * Typed getters. Each returns 0 when the key is absent (the output gets the schema default),
 * 1 when present and valid, -1 when present and invalid (the error is already reported).
 * ------------------------------------------------------------------------------------------- */

static const deck_key *scope_key(const scope *sc, const char *name)
{
    char pat[128];
    if (sc->pat[0])
        snprintf(pat, sizeof pat, "%s.%s", sc->pat, name);
    else
        snprintf(pat, sizeof pat, "%s", name);
    return schema_find(pat);
}

static void key_join(char *buf, size_t n, const char *prefix, const char *name)
{
    if (prefix[0])
        snprintf(buf, n, "%s.%s", prefix, name);
    else
        snprintf(buf, n, "%s", name);
}

/* Checks one number against the range of k; reports under `key` at setting s. */
static int check_range(deck_ctx *c, const config_setting_t *s, const char *key, const deck_key *k,
                       double v)
{
    char got[64];
    if (!isfinite(v)) {
        deck_error(c, s, key, "must be a finite number (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    unsigned f = k->flags;
    int ok = !((f & R_GT) && !(v > k->lo)) && !((f & R_GE) && !(v >= k->lo)) &&
             !((f & R_LT) && !(v < k->hi)) && !((f & R_LE) && !(v <= k->hi)) &&
             !((f & R_NONZERO) && v == 0);
    if (!ok) {
        char range[64];
        range_text(k, range, sizeof range);
        deck_error(c, s, key, "must be %s (got %s)", range, fmt_value(s, got, sizeof got));
        return -1;
    }
    return 1;
}

/* Looks `name` up in the scope; reports a missing required key. */
static const config_setting_t *member(deck_ctx *c, const scope *sc, const char *name,
                                      const deck_key **k, char *key, size_t keylen)
{
    *k = scope_key(sc, name);
    key_join(key, keylen, sc->key, name);
    if (!*k) {
        /* a key read by the code but missing from the schema: a bug here, not in the deck */
        deck_error(c, sc->s, key, "internal: key missing from the schema");
        return NULL;
    }
    const config_setting_t *s = sc->s ? config_setting_get_member(sc->s, name) : NULL;
    if (!s && ((*k)->flags & K_REQ))
        deck_error(c, sc->s, key, "missing required %s",
                   (*k)->type == KT_GROUP ? "group" : "key");
    return s;
}

static int get_num(deck_ctx *c, const scope *sc, const char *name, double *out)
{
    const deck_key *k;
    char key[128], got[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (k)
        *out = k->dval;
    if (!s || !k)
        return s ? -1 : 0;
    if (!yee_cfg_is_number(s)) {
        deck_error(c, s, key, "must be a number (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    double v = yee_cfg_number(s);
    if (check_range(c, s, key, k, v) < 0)
        return -1;
    *out = v;
    return 1;
}

static int get_long(deck_ctx *c, const scope *sc, const char *name, long *out)
{
    const deck_key *k;
    char key[128], got[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (k)
        *out = (long)k->dval;
    if (!s || !k)
        return s ? -1 : 0;
    if (!yee_cfg_is_int(s)) {
        deck_error(c, s, key, "must be an integer (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    long long v = config_setting_get_int64(s);
    if (v > LONG_MAX / 2) {
        deck_error(c, s, key, "too large (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    if (check_range(c, s, key, k, (double)v) < 0)
        return -1;
    *out = (long)v;
    return 1;
}

static int get_bool(deck_ctx *c, const scope *sc, const char *name, int *out)
{
    const deck_key *k;
    char key[128], got[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (k)
        *out = k->dval != 0;
    if (!s || !k)
        return s ? -1 : 0;
    if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
        deck_error(c, s, key, "must be true or false (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    *out = config_setting_get_bool(s);
    return 1;
}

/* A string; *out points into the config tree (valid until config_destroy). */
static int get_string(deck_ctx *c, const scope *sc, const char *name, const char **out,
                      const config_setting_t **where)
{
    const deck_key *k;
    char key[128], got[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    *out = NULL;
    if (where)
        *where = s;
    if (!s || !k)
        return s ? -1 : 0;
    if (config_setting_type(s) != CONFIG_TYPE_STRING) {
        deck_error(c, s, key, "must be a string (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    *out = config_setting_get_string(s);
    return 1;
}

/* A choice; *out gets its index in the schema's choices, or stays as given when absent. */
static int get_choice(deck_ctx *c, const scope *sc, const char *name, int *out,
                      const config_setting_t **where)
{
    const char *v;
    int rc = get_string(c, sc, name, &v, where);
    if (rc <= 0)
        return rc;
    const deck_key *k = scope_key(sc, name);
    char key[128], hint[32], list[96];
    key_join(key, sizeof key, sc->key, name);
    int idx = choice_index(k->choices, v, hint, sizeof hint);
    if (idx < 0) {
        size_t used = 0;
        list[0] = '\0';
        for (const char *p = k->choices; *p;) {
            size_t len = strcspn(p, "|");
            bprintf(list, sizeof list, &used, "%s\"%.*s\"", used ? ", " : "", (int)len, p);
            p += len + (p[len] == '|');
        }
        if (hint[0])
            deck_error(c, *where, key, "must be one of %s (got \"%.60s\"), did you mean \"%s\"?",
                       list, v, hint);
        else
            deck_error(c, *where, key, "must be one of %s (got \"%.60s\")", list, v);
        return -1;
    }
    *out = idx;
    return 1;
}

/* Numbers of an array or list; *len gets the count. Non-numbers are reported. */
static int get_numbers(deck_ctx *c, const config_setting_t *s, const char *key, const deck_key *k,
                       int want_int, double *vals, int maxlen, int *len)
{
    char got[128];
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
        return 0;
    int n = config_setting_length(s);
    *len = n;
    if (n > maxlen)
        return 1; /* the caller reports the length */
    int rc = 1;
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        char ekey[160];
        snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
        if (want_int ? !yee_cfg_is_int(e) : !yee_cfg_is_number(e)) {
            deck_error(c, e, ekey, "must be %s (got %s)", want_int ? "an integer" : "a number",
                       fmt_value(e, got, sizeof got));
            rc = -1;
            continue;
        }
        vals[i] = yee_cfg_number(e);
        if (check_range(c, e, ekey, k, vals[i]) < 0)
            rc = -1;
    }
    return rc;
}

/* [x, y, z]; with `scalar_ok` a single number fills all three. */
static int get_vec3_ex(deck_ctx *c, const scope *sc, const char *name, double out[3],
                       int scalar_ok)
{
    const deck_key *k;
    char key[128], got[160];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (!s || !k)
        return s ? -1 : 0;
    if (scalar_ok && yee_cfg_is_number(s)) {
        double v = yee_cfg_number(s);
        if (check_range(c, s, key, k, v) < 0)
            return -1;
        out[0] = out[1] = out[2] = v;
        return 1;
    }
    double vals[3];
    int len = 0;
    int rc = get_numbers(c, s, key, k, 0, vals, 3, &len);
    if (rc == 0 || len != 3) {
        deck_error(c, s, key, "must be %s[x, y, z] (got %s)", scalar_ok ? "a number or " : "",
                   fmt_value(s, got, sizeof got));
        return -1;
    }
    if (rc < 0)
        return -1;
    memcpy(out, vals, sizeof vals);
    return 1;
}

static int get_vec3(deck_ctx *c, const scope *sc, const char *name, double out[3])
{
    return get_vec3_ex(c, sc, name, out, 0);
}

/* One int for all six faces, or six ints. */
static int get_int6(deck_ctx *c, const scope *sc, const char *name, int out[6])
{
    const deck_key *k;
    char key[128], got[160];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (k)
        for (int i = 0; i < 6; i++)
            out[i] = (int)k->dval;
    if (!s || !k)
        return s ? -1 : 0;
    if (yee_cfg_is_int(s)) {
        double v = yee_cfg_number(s);
        if (check_range(c, s, key, k, v) < 0)
            return -1;
        if (v > INT_MAX / 4) {
            deck_error(c, s, key, "too large (got %s)", fmt_value(s, got, sizeof got));
            return -1;
        }
        for (int i = 0; i < 6; i++)
            out[i] = (int)v;
        return 1;
    }
    double vals[6];
    int len = 0;
    int rc = get_numbers(c, s, key, k, 1, vals, 6, &len);
    if (rc == 0 || len != 6) {
        deck_error(c, s, key, "must be an integer or 6 integers [x_low, x_high, y_low, y_high, "
                              "z_low, z_high] (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    if (rc < 0)
        return -1;
    for (int i = 0; i < 6; i++) {
        if (vals[i] > INT_MAX / 4) {
            deck_error(c, s, key, "too large (got %s)", fmt_value(s, got, sizeof got));
            return -1;
        }
        out[i] = (int)vals[i];
    }
    return 1;
}

/* A group member; fills *out as the scope of that group. */
static int get_group(deck_ctx *c, const scope *sc, const char *name, scope *out)
{
    const deck_key *k;
    char got[128];
    memset(out, 0, sizeof *out);
    const config_setting_t *s = member(c, sc, name, &k, out->key, sizeof out->key);
    if (!s || !k)
        return s ? -1 : 0;
    if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
        deck_error(c, s, out->key, "must be a group { ... } (got %s)",
                   fmt_value(s, got, sizeof got));
        return -1;
    }
    out->s = s;
    out->pat = k->path;
    return 1;
}

/* A list of groups ( {...}, ... ); an empty array [] or () is an empty list. */
static int get_list(deck_ctx *c, const scope *sc, const char *name, const config_setting_t **out)
{
    const deck_key *k;
    char key[128], got[128];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    *out = NULL;
    if (!s || !k)
        return s ? -1 : 0;
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_LIST && !(t == CONFIG_TYPE_ARRAY && config_setting_length(s) == 0)) {
        deck_error(c, s, key, "must be a list ( {...}, {...} ) (got %s)",
                   fmt_value(s, got, sizeof got));
        return -1;
    }
    *out = s;
    return 1;
}

/* Reports members of the scope's group that the schema does not know there, with a hint. */
static void check_unknown(deck_ctx *c, const scope *sc)
{
    int n = config_setting_length(sc->s);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(sc->s, (unsigned)i);
        const char *name = config_setting_name(m);
        if (!name || scope_key(sc, name))
            continue;
        char key[160];
        key_join(key, sizeof key, sc->key, name);
        const char *hint = suggest_key(sc->pat, name);
        if (hint)
            deck_error(c, m, key, "unknown key, did you mean `%s`?", hint);
        else
            deck_error(c, m, key, "unknown key");
    }
}

/* Reports keys that the schema restricts ("only") to another value of a sibling key, e.g. a
 * snapshot's `interval` on a probe. `value` is the sibling's value, NULL when it is invalid. */
static void check_only(deck_ctx *c, const scope *sc, const char *sibling, const char *value)
{
    if (!value)
        return;
    int n = config_setting_length(sc->s);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(sc->s, (unsigned)i);
        const char *name = config_setting_name(m);
        const deck_key *k = name ? scope_key(sc, name) : NULL;
        if (!k || !k->only)
            continue;
        size_t len = strcspn(k->only, "=");
        if (strncmp(k->only, sibling, len) != 0 || sibling[len] != '\0')
            continue;
        if (choice_index(k->only + len + 1, value, NULL, 0) >= 0)
            continue;
        char key[160], allowed[160];
        size_t used = 0;
        allowed[0] = '\0';
        for (const char *p = k->only + len + 1; *p && used + 8 < sizeof allowed; p++) {
            if (*p == '|')
                used += (size_t)snprintf(allowed + used, sizeof allowed - used, "%s",
                                         strchr(p + 1, '|') ? "\", \"" : "\" or \"");
            else
                allowed[used++] = *p, allowed[used] = '\0';
        }
        key_join(key, sizeof key, sc->key, name);
        deck_error(c, m, key, "only allowed when %s is \"%s\" (this %s is \"%s\")", sibling,
                   allowed, sibling, value);
    }
}

/* ---------------------------------------------------------------------------------------------
 * --set overrides
 * ------------------------------------------------------------------------------------------- */

#define OV_MAXELEM 16

typedef struct ovalue {
    int type;                        /* CONFIG_TYPE_INT/INT64/FLOAT/BOOL/STRING/ARRAY */
    long long i;
    double f;
    int b;
    char s[YEE_PATH_LEN];
    int nelem;                       /* ARRAY: elements */
    int elem_type;                   /* ARRAY: INT, FLOAT or STRING */
    double nums[OV_MAXELEM];
    char strs[OV_MAXELEM][YEE_NAME_LEN];
} ovalue;

typedef struct oseg {
    int is_index;
    long index;
    char name[64];
} oseg;

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t k = 0;
    while (s[k] && isspace((unsigned char)s[k]))
        k++;
    memmove(s, s + k, n - k + 1);
}

/* A scalar: integer, float, true/false, "quoted" or bare string. Returns 0 or -1 (+ msg). */
static int parse_scalar(const char *tok, ovalue *v, char *msg, size_t n)
{
    char *end;
    size_t len = strlen(tok);
    memset(v, 0, sizeof *v);
    if (len == 0) {
        snprintf(msg, n, "empty value");
        return -1;
    }
    if (tok[0] == '"') {
        if (len < 2 || tok[len - 1] != '"') {
            snprintf(msg, n, "unterminated string (got %.200s)", tok);
            return -1;
        }
        v->type = CONFIG_TYPE_STRING;
        snprintf(v->s, sizeof v->s, "%.*s", (int)(len - 2), tok + 1);
        return 0;
    }
    if (strcasecmp(tok, "true") == 0 || strcasecmp(tok, "false") == 0) {
        v->type = CONFIG_TYPE_BOOL;
        v->b = strcasecmp(tok, "true") == 0;
        return 0;
    }
    errno = 0;
    long long i = strtoll(tok, &end, 10);
    if (*end == '\0' && errno == 0) {
        v->type = (i >= INT_MIN && i <= INT_MAX) ? CONFIG_TYPE_INT : CONFIG_TYPE_INT64;
        v->i = i;
        return 0;
    }
    errno = 0;
    double f = strtod(tok, &end);
    if (*end == '\0' && end != tok) {
        if (!isfinite(f)) {
            snprintf(msg, n, "must be a finite number (got %.200s)", tok);
            return -1;
        }
        v->type = CONFIG_TYPE_FLOAT;
        v->f = f;
        return 0;
    }
    v->type = CONFIG_TYPE_STRING;
    snprintf(v->s, sizeof v->s, "%s", tok);
    return 0;
}

/* A value: a scalar, or [a, b, ...] of numbers (ints become floats if any is a float) or of
 * strings. */
static int parse_value(const char *text, ovalue *v, char *msg, size_t n)
{
    char buf[YEE_PATH_LEN];
    snprintf(buf, sizeof buf, "%s", text);
    trim(buf);
    size_t len = strlen(buf);
    if (buf[0] != '[')
        return parse_scalar(buf, v, msg, n);
    if (buf[len - 1] != ']') {
        snprintf(msg, n, "missing ']' (got %.200s)", buf);
        return -1;
    }
    buf[len - 1] = '\0';
    memset(v, 0, sizeof *v);
    v->type = CONFIG_TYPE_ARRAY;
    char *p = buf + 1;
    trim(p);
    if (*p == '\0') {
        v->elem_type = CONFIG_TYPE_INT;
        return 0;
    }
    int any_float = 0, any_num = 0, any_str = 0;
    while (p) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        trim(p);
        ovalue e;
        if (parse_scalar(p, &e, msg, n) < 0)
            return -1;
        if (v->nelem == OV_MAXELEM) {
            snprintf(msg, n, "more than %d elements", OV_MAXELEM);
            return -1;
        }
        if (e.type == CONFIG_TYPE_FLOAT) {
            any_float = any_num = 1;
            v->nums[v->nelem] = e.f;
        } else if (e.type == CONFIG_TYPE_INT || e.type == CONFIG_TYPE_INT64) {
            any_num = 1;
            v->nums[v->nelem] = (double)e.i;
        } else if (e.type == CONFIG_TYPE_STRING) {
            any_str = 1;
            snprintf(v->strs[v->nelem], sizeof v->strs[0], "%.63s", e.s);
        } else {
            snprintf(msg, n, "arrays hold numbers or strings (got %.200s)", p);
            return -1;
        }
        v->nelem++;
        p = comma ? comma + 1 : NULL;
    }
    if (any_num && any_str) {
        snprintf(msg, n, "an array cannot mix numbers and strings");
        return -1;
    }
    v->elem_type = any_str ? CONFIG_TYPE_STRING : any_float ? CONFIG_TYPE_FLOAT : CONFIG_TYPE_INT;
    return 0;
}

/* "a.b[0].c" or "a.b.[0].c" -> segments. */
static int parse_key(const char *key, oseg *segs, int max, int *nseg, char *msg, size_t n)
{
    const char *p = key;
    *nseg = 0;
    if (*p == '\0') {
        snprintf(msg, n, "empty key");
        return -1;
    }
    while (*p) {
        if (*nseg == max) {
            snprintf(msg, n, "key too deep");
            return -1;
        }
        oseg *s = &segs[(*nseg)++];
        memset(s, 0, sizeof *s);
        if (*p == '[') {
            char *end;
            errno = 0;
            long idx = strtol(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || idx < 0 || errno) {
                snprintf(msg, n, "bad list index in key");
                return -1;
            }
            s->is_index = 1;
            s->index = idx;
            p = end + 1;
        } else {
            size_t len = strcspn(p, ".[");
            if (len == 0 || len >= sizeof s->name) {
                snprintf(msg, n, "bad key");
                return -1;
            }
            memcpy(s->name, p, len);
            p += len;
        }
        if (*p == '.') {
            p++;
            if (*p == '\0') {
                snprintf(msg, n, "key ends with '.'");
                return -1;
            }
        } else if (*p && *p != '[') {
            snprintf(msg, n, "bad key");
            return -1;
        }
    }
    return 0;
}

static int scalar_fits(int settype, const ovalue *v)
{
    return settype == v->type;
}

/* Sets a scalar setting in place; numeric type changes are made by retyping the setting, which
 * libconfig permits for numbers only because they own no memory. */
static int set_scalar(config_setting_t *s, const ovalue *v)
{
    int t = config_setting_type(s);
    int vnum = v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64 ||
               v->type == CONFIG_TYPE_FLOAT;
    if (vnum && yee_cfg_is_number(s)) {
        s->type = (short)v->type;
        if (v->type == CONFIG_TYPE_FLOAT)
            s->value.fval = v->f;
        else if (v->type == CONFIG_TYPE_INT)
            s->value.ival = (int)v->i;
        else
            s->value.llval = v->i;
        return 0;
    }
    if (!scalar_fits(t, v))
        return -1;
    if (t == CONFIG_TYPE_BOOL)
        return config_setting_set_bool(s, v->b) ? 0 : -1;
    if (t == CONFIG_TYPE_STRING)
        return config_setting_set_string(s, v->s) ? 0 : -1;
    return -1;
}

/* Adds `v` to parent (a group, under `name`, or a list/array when name is NULL). */
static config_setting_t *add_value(config_setting_t *parent, const char *name, const ovalue *v)
{
    config_setting_t *s = config_setting_add(parent, name, v->type);
    if (!s)
        return NULL;
    switch (v->type) {
    case CONFIG_TYPE_INT: config_setting_set_int(s, (int)v->i); break;
    case CONFIG_TYPE_INT64: config_setting_set_int64(s, v->i); break;
    case CONFIG_TYPE_FLOAT: config_setting_set_float(s, v->f); break;
    case CONFIG_TYPE_BOOL: config_setting_set_bool(s, v->b); break;
    case CONFIG_TYPE_STRING: config_setting_set_string(s, v->s); break;
    case CONFIG_TYPE_ARRAY:
        for (int i = 0; i < v->nelem; i++) {
            if (v->elem_type == CONFIG_TYPE_STRING)
                config_setting_set_string_elem(s, -1, v->strs[i]);
            else if (v->elem_type == CONFIG_TYPE_FLOAT)
                config_setting_set_float_elem(s, -1, v->nums[i]);
            else
                config_setting_set_int64_elem(s, -1, (long long)v->nums[i]);
        }
        break;
    default: break;
    }
    return s;
}

static const char *type_word(int t)
{
    switch (t) {
    case CONFIG_TYPE_GROUP: return "a group";
    case CONFIG_TYPE_LIST: return "a list";
    case CONFIG_TYPE_ARRAY: return "an array";
    default: return "a value";
    }
}

/* Applies one "key=value" to the tree. Errors are reported as "--set arg: error: key: ...". */
static void apply_override(deck_ctx *c, config_t *cfg, const char *arg)
{
    char key[256], msg[640];
    const char *eq = strchr(arg, '=');
    if (!eq) {
        push_error(c, ORDER_SET, "--set %s: error: expected key=value", arg);
        return;
    }
    snprintf(key, sizeof key, "%.*s", (int)(eq - arg), arg);
    trim(key);
    oseg segs[16];
    int nseg = 0;
    ovalue *v = calloc(1, sizeof *v);
    if (!v) {
        push_error(c, ORDER_SET, "--set %s: error: out of memory", arg);
        return;
    }
    if (parse_key(key, segs, 16, &nseg, msg, sizeof msg) < 0 ||
        parse_value(eq + 1, v, msg, sizeof msg) < 0)
        goto fail;

    config_setting_t *cur = config_root_setting(cfg);
    char sofar[256] = "";
    for (int i = 0; i < nseg; i++) {
        const oseg *sg = &segs[i];
        int last = i == nseg - 1;
        int t = config_setting_type(cur);
        const char *where = sofar[0] ? sofar : "the top level";
        config_setting_t *next = NULL;
        if (!sg->is_index) {
            if (t != CONFIG_TYPE_GROUP) {
                snprintf(msg, sizeof msg, "%s is %s, not a group", where, type_word(t));
                goto fail;
            }
            next = config_setting_get_member(cur, sg->name);
            if (last) {
                /* replace: remove and re-add, so the type may change (an int for a float) */
                if (next && !config_setting_remove(cur, sg->name)) {
                    snprintf(msg, sizeof msg, "cannot replace %s", key);
                    goto fail;
                }
                next = add_value(cur, sg->name, v);
            } else if (!next) {
                next = config_setting_add(cur, sg->name, CONFIG_TYPE_GROUP);
                if (next)
                    config_setting_set_hook(next, (void *)arg);
            }
            if (!next) {
                snprintf(msg, sizeof msg, "invalid key name `%s`", sg->name);
                goto fail;
            }
            size_t l = strlen(sofar);
            snprintf(sofar + l, sizeof sofar - l, "%s%s", l ? "." : "", sg->name);
        } else {
            if (t != CONFIG_TYPE_LIST && t != CONFIG_TYPE_ARRAY) {
                snprintf(msg, sizeof msg, "%s is %s, not a list", where, type_word(t));
                goto fail;
            }
            long len = config_setting_length(cur);
            /* one past the end appends a group to a list of groups (e.g. a new source) */
            if (sg->index > len || (sg->index == len && (t != CONFIG_TYPE_LIST || last))) {
                snprintf(msg, sizeof msg, "index %ld out of range (%s has %ld element%s)",
                         sg->index, where, len, len == 1 ? "" : "s");
                goto fail;
            }
            if (sg->index == len) {
                next = config_setting_add(cur, NULL, CONFIG_TYPE_GROUP);
                if (!next) {
                    snprintf(msg, sizeof msg, "cannot add an element to %s", where);
                    goto fail;
                }
                config_setting_set_hook(next, (void *)arg);
            } else {
                next = config_setting_get_elem(cur, (unsigned)sg->index);
                if (last) {
                    if (v->type == CONFIG_TYPE_ARRAY || config_setting_is_aggregate(next)) {
                        snprintf(msg, sizeof msg, "only a single value can replace an element");
                        goto fail;
                    }
                    if (t == CONFIG_TYPE_ARRAY && v->type == CONFIG_TYPE_FLOAT && yee_cfg_is_int(next)) {
                        /* a float into an int array: the whole array becomes float */
                        int n = config_setting_length(cur);
                        for (int j = 0; j < n; j++) {
                            config_setting_t *e = config_setting_get_elem(cur, (unsigned)j);
                            double d = yee_cfg_number(e);
                            e->type = CONFIG_TYPE_FLOAT;
                            e->value.fval = d;
                        }
                    }
                    ovalue cv = *v;
                    if (t == CONFIG_TYPE_ARRAY && config_setting_type(next) == CONFIG_TYPE_FLOAT &&
                        (v->type == CONFIG_TYPE_INT || v->type == CONFIG_TYPE_INT64)) {
                        cv.type = CONFIG_TYPE_FLOAT;
                        cv.f = (double)v->i;
                    }
                    if (set_scalar(next, &cv) < 0) {
                        snprintf(msg, sizeof msg, "value does not fit the type of the element");
                        goto fail;
                    }
                }
            }
            size_t l = strlen(sofar);
            snprintf(sofar + l, sizeof sofar - l, "[%ld]", sg->index);
        }
        if (last)
            config_setting_set_hook(next, (void *)arg);
        cur = next;
    }
    free(v);
    return;
fail:
    push_error(c, ORDER_SET, "--set %s: error: %s: %s", arg, key, msg);
    free(v);
}

/* ---------------------------------------------------------------------------------------------
 * Validation of the sections
 * ------------------------------------------------------------------------------------------- */

static int valid_name(const char *s)
{
    if (!s[0])
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '-')
            return 0;
    return 1;
}

/* A name key: charset and length. Returns 1 when *out was filled. */
static int get_name(deck_ctx *c, const scope *sc, const char *name, char *out, size_t n,
                    const config_setting_t **where)
{
    const char *v;
    int rc = get_string(c, sc, name, &v, where);
    if (rc <= 0)
        return rc;
    char key[128];
    key_join(key, sizeof key, sc->key, name);
    if (!valid_name(v)) {
        deck_error(c, *where, key,
                   "must be non-empty and use only A-Z a-z 0-9 _ . - (got \"%.60s\")", v);
        return -1;
    }
    if (strlen(v) >= n) {
        deck_error(c, *where, key, "longer than %zu characters (got \"%.60s\")", n - 1, v);
        return -1;
    }
    snprintf(out, n, "%s", v);
    return 1;
}

typedef struct grid_info {
    int ok;          /* n, dx, origin, dt valid */
    const config_setting_t *size_s;
    double lo[3], hi[3];
} grid_info;

static void default_name(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".cfg") == 0)
        len -= 4;
    if (len >= n)
        len = n - 1;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = base[i];
        out[k++] = (isalnum((unsigned char)ch) || ch == '_' || ch == '.' || ch == '-') ? ch : '_';
    }
    out[k] = '\0';
    if (k == 0)
        snprintf(out, n, "yee");
}

static void load_grid(deck_ctx *c, const scope *root, yee_config *cfg, grid_info *g)
{
    scope sc;
    g->ok = 0;
    cfg->subpixel = 1;
    cfg->subpixel_samples = 8;
    if (get_group(c, root, "grid", &sc) <= 0)
        return;
    check_unknown(c, &sc);
    double size[3] = {0, 0, 0}, center[3] = {0, 0, 0}, res = 0, dx[3] = {0, 0, 0};
    int ok = get_vec3(c, &sc, "size", size) > 0;
    get_vec3(c, &sc, "center", center);
    get_bool(c, &sc, "subpixel", &cfg->subpixel);
    long samples = 8;
    get_long(c, &sc, "subpixel_samples", &samples);
    cfg->subpixel_samples = (int)samples;
    g->size_s = config_setting_get_member(sc.s, "size");
    int rres = get_num(c, &sc, "resolution", &res);
    int rsp = get_vec3_ex(c, &sc, "spacing", dx, 1);
    if (rres != 0 && rsp != 0) {
        deck_error(c, config_setting_get_member(sc.s, "spacing"), "grid.spacing",
                   "give exactly one of grid.resolution / grid.spacing (got both)");
        ok = 0;
    } else if (rres == 0 && rsp == 0) {
        deck_error(c, sc.s, "grid", "one of grid.resolution / grid.spacing is required");
        ok = 0;
    } else if (rres < 0 || rsp < 0) {
        ok = 0;
    } else if (rres > 0) {
        dx[0] = dx[1] = dx[2] = 1.0 / res;
    }
    if (!ok)
        return;

    double total = 1;
    for (int a = 0; a < 3; a++) {
        double cells = size[a] / dx[a];
        if (!(cells <= (double)(1L << 30))) {
            deck_error(c, g->size_s, "grid.size",
                       "%.6g cells on %c is more than 2^30 (size %g um / spacing %g um)", cells,
                       "xyz"[a], size[a], dx[a]);
            return;
        }
        long n = lround(cells);
        cfg->n[a] = n < 1 ? 1 : (int)n;
        cfg->dx[a] = dx[a];
        cfg->origin[a] = center[a] - cfg->n[a] * dx[a] / 2;
        total *= cfg->n[a];
        double actual = cfg->n[a] * dx[a];
        if (fabs(actual - size[a]) > 1e-9 * size[a])
            deck_warn(c, g->size_s, "grid.size", "%c size %g um rounded to %d cells = %.9g um",
                      "xyz"[a], size[a], cfg->n[a], actual);
        g->lo[a] = cfg->origin[a];
        g->hi[a] = cfg->origin[a] + actual;
    }
    if (total > (double)(1LL << 40)) {
        deck_error(c, g->size_s, "grid.size", "%d x %d x %d = %.4g cells is more than 2^40",
                   cfg->n[0], cfg->n[1], cfg->n[2], total);
        return;
    }
    g->ok = 1;
}

static void load_simulation(deck_ctx *c, const scope *root, yee_config *cfg, const grid_info *g)
{
    scope sc;
    default_name(c->path, cfg->name, sizeof cfg->name);
    cfg->courant = 0.99;
    cfg->check_interval = 100;
    snprintf(cfg->backend, sizeof cfg->backend, "auto");
    if (get_group(c, root, "simulation", &sc) <= 0)
        return;
    check_unknown(c, &sc);
    const config_setting_t *where;
    get_name(c, &sc, "name", cfg->name, sizeof cfg->name, &where);
    int rc_courant = get_num(c, &sc, "courant", &cfg->courant);
    get_long(c, &sc, "check_interval", &cfg->check_interval);
    static const char *const backends[] = {"auto", "cpu", "cuda"};
    int backend = 0;
    const config_setting_t *bwhere;
    get_choice(c, &sc, "backend", &backend, &bwhere);
    snprintf(cfg->backend, sizeof cfg->backend, "%s", backends[backend]);
    long steps = 0;
    double time_fs = 0;
    int rs = get_long(c, &sc, "steps", &steps);
    int rt = get_num(c, &sc, "time", &time_fs);
    if (rs != 0 && rt != 0) {
        deck_error(c, config_setting_get_member(sc.s, "time"), "simulation.time",
                   "give exactly one of simulation.steps / simulation.time (got both)");
        return;
    }
    if (rs == 0 && rt == 0) {
        deck_error(c, sc.s, "simulation", "one of simulation.steps / simulation.time is required");
        return;
    }
    if (g->ok && rc_courant >= 0) {
        double inv2 = 0;
        for (int a = 0; a < 3; a++)
            inv2 += 1.0 / (cfg->dx[a] * cfg->dx[a]);
        cfg->dt = cfg->courant / sqrt(inv2);
    }
    if (rs > 0)
        cfg->steps = steps;
    if (rt > 0 && cfg->dt > 0) {
        double x = time_fs / YEE_TIME_UNIT_FS / cfg->dt;
        if (x > 1e15) {
            deck_error(c, config_setting_get_member(sc.s, "time"), "simulation.time",
                       "%.3g steps of %.3g fs are too many (got %g)", x,
                       cfg->dt * YEE_TIME_UNIT_FS, time_fs);
            return;
        }
        /* the 1e-9 guard keeps a time that is an exact multiple of dt from gaining a step */
        cfg->steps = (long)ceil(x - 1e-9 * x);
        if (cfg->steps < 1)
            cfg->steps = 1;
    }
}

static int find_material(deck_ctx *c, const yee_config *cfg, const config_setting_t *w,
                         const char *key, const char *name);

static void load_background(deck_ctx *c, const scope *root, yee_config *cfg)
{
    scope sc;
    cfg->eps_r = 1;
    cfg->sigma = 0;
    cfg->background_material = -1;
    if (get_group(c, root, "background", &sc) <= 0)
        return;
    check_unknown(c, &sc);
    int re = get_num(c, &sc, "epsilon", &cfg->eps_r);
    int rs = get_num(c, &sc, "sigma", &cfg->sigma);
    const char *name;
    const config_setting_t *w;
    if (get_string(c, &sc, "material", &name, &w) <= 0)
        return;
    if (re != 0 || rs != 0) {
        deck_error(c, w, "background.material",
                   "give either a material or epsilon/sigma, not both (got \"%.60s\")", name);
        return;
    }
    int m = find_material(c, cfg, w, "background.material", name);
    if (m < 0)
        return;
    const yee_material_cfg *mat = &cfg->materials[m];
    if (mat->pec) {
        deck_error(c, w, "background.material", "the background cannot be pec (got \"%s\")",
                   name);
        return;
    }
    cfg->background_material = m;
    cfg->eps_r = mat->eps[0]; /* for the CPML's sigma_max and resolution reports */
    cfg->sigma = mat->sigma;
}

static const yee_boundary bc_of_choice[] = {YEE_BC_CPML, YEE_BC_PEC, YEE_BC_PERIODIC};
static const char *const bc_names[] = {"pec", "cpml", "periodic"}; /* by yee_boundary */

static void load_boundary(deck_ctx *c, const scope *root, yee_config *cfg, const grid_info *g)
{
    static const char *const axis_names[3] = {"x", "y", "z"};
    static const char *const face_names[3][2] = {
        {"x_low", "x_high"}, {"y_low", "y_high"}, {"z_low", "z_high"}};
    scope sc, pml;
    int have = get_group(c, root, "boundary", &sc) > 0;
    int have_pml = 0, cells[6];
    const config_setting_t *set_by[3][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *key_by[3][2];
    for (int i = 0; i < 6; i++)
        cells[i] = 10;
    cfg->pml_order = 3;
    cfg->pml_sigma_factor = 1;
    cfg->pml_kappa_max = 1;
    cfg->pml_alpha_max = 0;
    for (int a = 0; a < 3; a++)
        for (int f = 0; f < 2; f++)
            cfg->boundary[a][f] = YEE_BC_CPML, key_by[a][f] = "boundary";
    if (have) {
        check_unknown(c, &sc);
        for (int a = 0; a < 3; a++) {
            int idx;
            const config_setting_t *w;
            if (get_choice(c, &sc, axis_names[a], &idx, &w) > 0)
                for (int f = 0; f < 2; f++) {
                    cfg->boundary[a][f] = bc_of_choice[idx];
                    set_by[a][f] = w;
                    key_by[a][f] = a == 0 ? "boundary.x" : a == 1 ? "boundary.y" : "boundary.z";
                }
        }
        static const char *const face_keys[3][2] = {
            {"boundary.x_low", "boundary.x_high"},
            {"boundary.y_low", "boundary.y_high"},
            {"boundary.z_low", "boundary.z_high"}};
        for (int a = 0; a < 3; a++)
            for (int f = 0; f < 2; f++) {
                int idx;
                const config_setting_t *w;
                if (get_choice(c, &sc, face_names[a][f], &idx, &w) > 0) {
                    cfg->boundary[a][f] = bc_of_choice[idx];
                    set_by[a][f] = w;
                    key_by[a][f] = face_keys[a][f];
                }
            }
        have_pml = get_group(c, &sc, "pml", &pml) > 0;
    }
    const config_setting_t *cells_s = NULL;
    if (have_pml) {
        check_unknown(c, &pml);
        get_int6(c, &pml, "cells", cells);
        cells_s = config_setting_get_member(pml.s, "cells");
        get_num(c, &pml, "order", &cfg->pml_order);
        get_num(c, &pml, "sigma_factor", &cfg->pml_sigma_factor);
        get_num(c, &pml, "kappa_max", &cfg->pml_kappa_max);
        get_num(c, &pml, "alpha_max", &cfg->pml_alpha_max);
    }

    for (int a = 0; a < 3; a++) {
        int p0 = cfg->boundary[a][0] == YEE_BC_PERIODIC;
        int p1 = cfg->boundary[a][1] == YEE_BC_PERIODIC;
        if (p0 != p1) {
            int f = p0 ? 0 : 1; /* the periodic face */
            deck_error(c, set_by[a][f], key_by[a][f],
                       "periodic must be on both faces of %s (%s is %s)", axis_names[a],
                       face_names[a][1 - f], bc_names[cfg->boundary[a][1 - f]]);
        }
        for (int f = 0; f < 2; f++)
            cfg->pml_cells[a][f] = cfg->boundary[a][f] == YEE_BC_CPML ? cells[2 * a + f] : 0;
    }
    if (!g->ok)
        return;
    for (int a = 0; a < 3; a++) {
        int sum = cfg->pml_cells[a][0] + cfg->pml_cells[a][1];
        if (sum >= cfg->n[a])
            deck_error(c, cells_s ? cells_s : g->size_s, "boundary.pml.cells",
                       "the PML on %s takes %d + %d = %d cells, but the grid has only %d cells on "
                       "%s (the PML must leave at least one interior cell)",
                       axis_names[a], cfg->pml_cells[a][0], cfg->pml_cells[a][1], sum, cfg->n[a],
                       axis_names[a]);
    }
}

/* Inside [lo, hi] per axis, with a relative tolerance for rounding in the deck. */
static int inside(const grid_info *g, const double p[3])
{
    for (int a = 0; a < 3; a++) {
        double tol = 1e-9 * (g->hi[a] - g->lo[a]);
        if (p[a] < g->lo[a] - tol || p[a] > g->hi[a] + tol)
            return 0;
    }
    return 1;
}

static void domain_text(const grid_info *g, char *buf, size_t n)
{
    snprintf(buf, n, "[%g, %g] x [%g, %g] x [%g, %g]", g->lo[0], g->hi[0], g->lo[1], g->hi[1],
             g->lo[2], g->hi[2]);
}

/* Each element of a list, as a scope ("sources[2]"); NULL (reported) when it is not a group. */
static int list_elem(deck_ctx *c, const config_setting_t *list, const char *pat, const char *key,
                     int i, scope *out)
{
    char got[128];
    memset(out, 0, sizeof *out);
    out->s = config_setting_get_elem(list, (unsigned)i);
    out->pat = pat;
    snprintf(out->key, sizeof out->key, "%s[%d]", key, i);
    if (config_setting_type(out->s) != CONFIG_TYPE_GROUP) {
        deck_error(c, out->s, out->key, "must be a group { ... } (got %s)",
                   fmt_value(out->s, got, sizeof got));
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Materials and geometry (issue 4). Units: THz -> c/um, fs -> c-units, lengths um.
 * ------------------------------------------------------------------------------------------- */

/* Index of the material `name`, or -1 (reported at w under key, with a hint). */
static int find_material(deck_ctx *c, const yee_config *cfg, const config_setting_t *w,
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
        deck_error(c, w, key, "unknown material \"%.60s\", did you mean \"%s\"?", name, best);
    else
        deck_error(c, w, key, "unknown material \"%.60s\" (%d defined in materials)", name,
                   cfg->nmaterials);
    return -1;
}

/* [i, j, k] integers. */
static int get_int3(deck_ctx *c, const scope *sc, const char *name, int out[3])
{
    const deck_key *k;
    char key[128], got[160];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    if (!s || !k)
        return s ? -1 : 0;
    double vals[3];
    int len = 0;
    int rc = get_numbers(c, s, key, k, 1, vals, 3, &len);
    if (rc == 0 || len != 3) {
        deck_error(c, s, key, "must be [i, j, k] integers (got %s)", fmt_value(s, got, sizeof got));
        return -1;
    }
    if (rc < 0)
        return -1;
    for (int a = 0; a < 3; a++)
        out[a] = (int)vals[a];
    return 1;
}

/* ( [a, b], ... ) of at least min pairs -> *xy (malloc'd, 2 per pair), *n pairs; `pair` names
 * one element in messages ("[u, v]"). */
static int get_pairs(deck_ctx *c, const scope *sc, const char *name, int min, const char *pair,
                     double **xy, int *n)
{
    const deck_key *k;
    char key[128], got[160];
    const config_setting_t *s = member(c, sc, name, &k, key, sizeof key);
    *xy = NULL;
    *n = 0;
    if (!s || !k)
        return s ? -1 : 0;
    int t = config_setting_type(s);
    int len = (t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY) ? config_setting_length(s) : 0;
    if (t != CONFIG_TYPE_LIST || len < min) {
        deck_error(c, s, key, "must be a list of at least %d elements ( %s, %s, ... ) (got %s)",
                   min, pair, pair, fmt_value(s, got, sizeof got));
        return -1;
    }
    double *p = (double *)calloc(2 * (size_t)len, sizeof(double));
    if (!p)
        return -1;
    int rc = 1;
    for (int i = 0; i < len; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        char ekey[160];
        snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
        int l2 = 0;
        int r = get_numbers(c, e, ekey, k, 0, p + 2 * i, 2, &l2);
        if (r == 0 || l2 != 2) {
            deck_error(c, e, ekey, "must be a pair %s (got %s)", pair, fmt_value(e, got, sizeof got));
            rc = -1;
        } else if (r < 0) {
            rc = -1;
        }
    }
    if (rc < 0) {
        free(p);
        return -1;
    }
    *xy = p;
    *n = len;
    return 1;
}

/* ( [u, v], ... ) polygon vertices, at least 3. */
static int get_points2(deck_ctx *c, const scope *sc, const char *name, double **xy, int *n)
{
    return get_pairs(c, sc, name, 3, "[u, v]", xy, n);
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
static void load_poles(deck_ctx *c, const scope *msc, const char *list_name, yee_pole_kind kind,
                       yee_material_cfg *mat)
{
    const config_setting_t *list;
    get_list(c, msc, list_name, &list);
    int n = list ? config_setting_length(list) : 0;
    char pat[64], key[80];
    snprintf(pat, sizeof pat, "materials[].%s[]", list_name);
    snprintf(key, sizeof key, "%.60s.%.10s", msc->key, list_name);
    for (int i = 0; i < n; i++) {
        scope sc;
        if (!list_elem(c, list, pat, key, i, &sc))
            continue;
        check_unknown(c, &sc);
        if (mat->npoles == YEE_MAX_POLES) {
            deck_error(c, sc.s, sc.key, "more than %d poles in one material", YEE_MAX_POLES);
            return;
        }
        yee_pole_cfg *p = &mat->poles[mat->npoles++];
        p->line = (int)config_setting_source_line(sc.s);
        p->kind = kind;
        if (kind == YEE_POLE_DEBYE) {
            double tau_fs = 1;
            get_num(c, &sc, "delta_epsilon", &p->sigma);
            get_num(c, &sc, "tau", &tau_fs);
            p->tau = tau_fs / YEE_TIME_UNIT_FS;
        } else {
            double f = 1, g = 0;
            get_num(c, &sc, "frequency", &f);
            get_num(c, &sc, "gamma", &g);
            get_num(c, &sc, "sigma", &p->sigma);
            p->f0 = f / YEE_C_UM_THZ;
            p->gamma = g / YEE_C_UM_THZ;
        }
    }
}

static int load_materials(deck_ctx *c, const scope *root, yee_config *cfg)
{
    const config_setting_t *list;
    get_list(c, root, "materials", &list);
    int n = list ? config_setting_length(list) : 0;
    if (n == 0)
        return 0;
    cfg->materials = (yee_material_cfg *)calloc((size_t)n, sizeof *cfg->materials);
    if (!cfg->materials)
        return YEE_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        yee_material_cfg *m = &cfg->materials[i];
        m->eps[0] = m->eps[1] = m->eps[2] = 1;
        scope sc;
        if (!list_elem(c, list, "materials[]", "materials", i, &sc))
            continue;
        m->line = (int)config_setting_source_line(sc.s);
        check_unknown(c, &sc);
        const config_setting_t *w;
        char key[160];
        snprintf(m->name, sizeof m->name, "material%d", i);
        if (get_name(c, &sc, "name", m->name, sizeof m->name, &w) > 0)
            for (int j = 0; j < i; j++)
                if (strcmp(cfg->materials[j].name, m->name) == 0) {
                    snprintf(key, sizeof key, "%s.name", sc.key);
                    deck_error(c, w, key, "duplicate material name \"%s\" (first defined at "
                               "line %d)", m->name, cfg->materials[j].line);
                    break;
                }
        double eps = 1;
        int re = get_num(c, &sc, "epsilon", &eps);
        int rd = get_vec3(c, &sc, "epsilon_diag", m->eps);
        if (re != 0 && rd != 0) {
            snprintf(key, sizeof key, "%s.epsilon_diag", sc.key);
            deck_error(c, config_setting_get_member(sc.s, "epsilon_diag"), key,
                       "give exactly one of epsilon / epsilon_diag (got both)");
        } else if (rd <= 0) {
            m->eps[0] = m->eps[1] = m->eps[2] = eps;
        }
        int rs = get_num(c, &sc, "sigma", &m->sigma);
        get_bool(c, &sc, "pec", &m->pec);
        load_poles(c, &sc, "lorentz", YEE_POLE_LORENTZ, m);
        load_poles(c, &sc, "drude", YEE_POLE_DRUDE, m);
        load_poles(c, &sc, "debye", YEE_POLE_DEBYE, m);
        if (m->pec && (re != 0 || rd != 0 || rs != 0 || m->npoles)) {
            snprintf(key, sizeof key, "%s.pec", sc.key);
            deck_error(c, config_setting_get_member(sc.s, "pec"), key,
                       "a pec material has no epsilon, sigma or poles");
        }
        /* eps < 1 is allowed only as eps_inf of a dispersive material (its static eps is higher) */
        if (!m->pec && m->npoles == 0 && fmin(m->eps[0], fmin(m->eps[1], m->eps[2])) < 1) {
            snprintf(key, sizeof key, "%s.%s", sc.key, rd > 0 ? "epsilon_diag" : "epsilon");
            deck_error(c, config_setting_get_member(sc.s, rd > 0 ? "epsilon_diag" : "epsilon"),
                       key, "must be >= 1 without dispersive poles (got %g)",
                       fmin(m->eps[0], fmin(m->eps[1], m->eps[2])));
        }
    }
    cfg->nmaterials = n;
    return 0;
}

/* ---- voxel blocks (type = "voxels") ---- */

/* Distinct permittivities one voxel block may hold: the coefficient table has 256 entries and
 * keeps 16 for interfaces (geometry/geometry.h), so 240 bulk media at most. */
#define VOXEL_MAX_VALUES 240

/* geometry[].materials: names -> material indices (*out malloc'd, *n names). 0 when absent. */
static int get_voxel_materials(deck_ctx *c, const scope *sc, const yee_config *cfg, int **out,
                               int *n)
{
    const deck_key *k;
    char key[128], got[160];
    const config_setting_t *s = member(c, sc, "materials", &k, key, sizeof key);
    *out = NULL;
    *n = 0;
    if (!s || !k)
        return s ? -1 : 0;
    int t = config_setting_type(s);
    int len = (t == CONFIG_TYPE_ARRAY || t == CONFIG_TYPE_LIST) ? config_setting_length(s) : 0;
    if (len == 0) {
        deck_error(c, s, key, "must be a non-empty list of material names [\"air\", ...] (got %s)",
                   fmt_value(s, got, sizeof got));
        return -1;
    }
    int *idx = (int *)calloc((size_t)len, sizeof(int));
    if (!idx)
        return -1;
    int rc = 1;
    for (int i = 0; i < len; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        char ekey[160];
        snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
        if (config_setting_type(e) != CONFIG_TYPE_STRING) {
            deck_error(c, e, ekey, "must be a material name (got %s)",
                       fmt_value(e, got, sizeof got));
            rc = -1;
        } else if ((idx[i] = find_material(c, cfg, e, ekey, config_setting_get_string(e))) < 0) {
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

/* Read the voxel data of shape s (geometry[i], scope sc) into s->vox. With material names
 * (mats, nmats > 0) the dataset holds integer indices into them; without, it holds permittivities
 * and each distinct value becomes a material appended to cfg->materials (sigma 0, isotropic),
 * so the rasterizer sees a voxel block as any other set of dielectrics. Nearest (piecewise
 * constant) resampling, never interpolation: the coefficient table holds at most 256 media, and
 * subpixel averaging already smooths each voxel face as the interface it is. Errors are
 * reported at the file, dataset or materials key. Returns YEE_ERR_NOMEM or 0. */
static int load_voxels(deck_ctx *c, yee_config *cfg, int i, const scope *sc, const char *file,
                       const config_setting_t *wfile, const char *dset,
                       const config_setting_t *wdset, const int *mats, int nmats)
{
    yee_shape_cfg *s = &cfg->shapes[i];
    char path[YEE_PATH_LEN], kfile[160], kdset[160], kmats[160];
    snprintf(kfile, sizeof kfile, "%s.file", sc->key);
    snprintf(kdset, sizeof kdset, "%s.dataset", sc->key);
    snprintf(kmats, sizeof kmats, "%s.materials", sc->key);
    /* relative to the deck's folder, as @include paths are */
    const char *slash = strrchr(c->path, '/');
    if (file[0] != '/' && slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - c->path), c->path, file);
    else
        snprintf(path, sizeof path, "%s", file);
    yee_h5_array3 a;
    yee_err e;
    int rc = yee_h5_read_array3(path, dset, &a, &e);
    if (rc == YEE_ERR_NOMEM)
        return YEE_ERR_NOMEM;
    if (rc < 0) {
        if (a.file_opened)
            deck_error(c, wdset ? wdset : sc->s, kdset, "%s", e.msg);
        else
            deck_error(c, wfile, kfile, "%s", e.msg);
        return 0;
    }
    const int64_t nx = a.n[0], ny = a.n[1], nz = a.n[2];
    const size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
    if (nx > INT_MAX || ny > INT_MAX || nz > INT_MAX) {
        deck_error(c, wdset ? wdset : sc->s, kdset, "'%s:%s' is too large (got %lld x %lld x %lld)",
                   file, dset, (long long)nz, (long long)ny, (long long)nx);
        yee_h5_array3_free(&a);
        return 0;
    }
    /* [k, j, i] of value q, as NumPy would index the dataset */
#define VOX_AT(q) (long long)((q) / ((size_t)nx * ny)), (long long)((q) / (size_t)nx % ny), \
                  (long long)((q) % (size_t)nx)
    double vals[VOXEL_MAX_VALUES + 1];
    int nvals = 0, bad = 0;
    if (nmats > 0 && !a.is_integer) {
        deck_error(c, wdset ? wdset : sc->s, kdset, "'%s:%s' must hold integers (indices into "
                   "materials) (got floating-point values)", file, dset);
        bad = 1;
    }
    for (size_t q = 0; q < total && !bad; q++) {
        const double v = a.data[q];
        if (nmats > 0) {
            if (!(v >= 0 && v < nmats)) {
                deck_error(c, config_setting_get_member(sc->s, "materials"), kmats,
                           "'%s:%s' holds index %g at [k, j, i] = [%lld, %lld, %lld], out of "
                           "range of the %d materials listed (0 to %d)", file, dset, v, VOX_AT(q),
                           nmats, nmats - 1);
                bad = 1;
            }
            continue;
        }
        if (!(v >= 1) || !isfinite(v)) {
            deck_error(c, wdset ? wdset : sc->s, kdset, "permittivity must be >= 1 (got %g at "
                       "[k, j, i] = [%lld, %lld, %lld] of '%s:%s')", v, VOX_AT(q), file, dset);
            bad = 1;
            continue;
        }
        /* sorted table of the distinct values so far: binary search, insert when new */
        int lo = 0, hi = nvals;
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (vals[mid] < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < nvals && vals[lo] == v)
            continue;
        if (nvals == VOXEL_MAX_VALUES) {
            deck_error(c, wdset ? wdset : sc->s, kdset, "'%s:%s' holds more than %d distinct "
                       "permittivities (the coefficient table's limit): round the values, or "
                       "give materials = [...] and store indices", file, dset, VOXEL_MAX_VALUES);
            bad = 1;
            continue;
        }
        memmove(vals + lo + 1, vals + lo, (size_t)(nvals - lo) * sizeof *vals);
        vals[lo] = v;
        nvals++;
    }
#undef VOX_AT
    if (!bad && cfg->nmaterials + nvals > UINT16_MAX) {
        deck_error(c, sc->s, sc->key, "more than %d materials with the voxel values", UINT16_MAX);
        bad = 1;
    }
    if (bad) {
        yee_h5_array3_free(&a);
        return 0;
    }
    s->vox = (uint16_t *)malloc(total * sizeof *s->vox);
    yee_material_cfg *grown = nvals ? (yee_material_cfg *)realloc(
        cfg->materials, (size_t)(cfg->nmaterials + nvals) * sizeof *cfg->materials)
                                    : cfg->materials;
    if (!s->vox || !grown) {
        yee_h5_array3_free(&a);
        return YEE_ERR_NOMEM;
    }
    cfg->materials = grown;
    const int base = cfg->nmaterials;
    for (int v = 0; v < nvals; v++) {
        yee_material_cfg *m = &cfg->materials[base + v];
        memset(m, 0, sizeof *m);
        m->line = s->line;
        /* not a valid deck name, so no deck material can collide with it */
        snprintf(m->name, sizeof m->name, "geometry[%d]:eps=%.9g", i, vals[v]);
        m->eps[0] = m->eps[1] = m->eps[2] = vals[v];
    }
    cfg->nmaterials += nvals;
    for (size_t q = 0; q < total; q++) {
        if (nmats > 0) {
            s->vox[q] = (uint16_t)mats[(int)a.data[q]];
            continue;
        }
        int lo = 0, hi = nvals - 1;
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (vals[mid] < a.data[q])
                lo = mid + 1;
            else
                hi = mid;
        }
        s->vox[q] = (uint16_t)(base + lo);
    }
    s->vox_n[0] = (int)nx;
    s->vox_n[1] = (int)ny;
    s->vox_n[2] = (int)nz;
    yee_h5_array3_free(&a);
    return 0;
}

static int load_geometry(deck_ctx *c, const scope *root, yee_config *cfg, const grid_info *g)
{
    static const char *const kind_names[] = {"box", "sphere", "cylinder", "cone", "ellipsoid",
                                             "prism", "voxels"};
    const config_setting_t *list;
    get_list(c, root, "geometry", &list);
    int n = list ? config_setting_length(list) : 0;
    if (n == 0)
        return 0;
    cfg->shapes = (yee_shape_cfg *)calloc((size_t)n, sizeof *cfg->shapes);
    if (!cfg->shapes)
        return YEE_ERR_NOMEM;
    cfg->nshapes = n;
    for (int i = 0; i < n; i++) {
        yee_shape_cfg *s = &cfg->shapes[i];
        s->axis[2] = 1;
        s->counts[0] = s->counts[1] = s->counts[2] = 1;
        s->material = -1;
        scope sc;
        if (!list_elem(c, list, "geometry[]", "geometry", i, &sc))
            continue;
        s->line = (int)config_setting_source_line(sc.s);
        check_unknown(c, &sc);
        char key[160];
        const config_setting_t *w;
        int kind = -1;
        int rk = get_choice(c, &sc, "type", &kind, &w);
        check_only(c, &sc, "type", rk > 0 ? kind_names[kind] : NULL);
        const char *mname;
        const int rmat = get_string(c, &sc, "material", &mname, &w);
        if (rmat > 0 && !(rk > 0 && kind == YEE_SHAPE_VOXELS)) {
            snprintf(key, sizeof key, "%s.material", sc.key);
            s->material = find_material(c, cfg, w, key, mname);
        }
        const char *file = NULL, *dset = "epsilon";
        const config_setting_t *wfile = NULL, *wdset = NULL;
        const int rfile = get_string(c, &sc, "file", &file, &wfile);
        const int rdset = get_string(c, &sc, "dataset", &dset, &wdset);
        if (rdset <= 0)
            dset = "epsilon";
        int *vmats = NULL, nvmats = 0;
        const int rvm = get_voxel_materials(c, &sc, cfg, &vmats, &nvmats);
        get_vec3(c, &sc, "center", s->center);
        int rsize = get_vec3(c, &sc, "size", s->size);
        int rrad = get_num(c, &sc, "radius", &s->radius);
        int rrad2 = get_num(c, &sc, "radius2", &s->radius2);
        int rh = get_num(c, &sc, "height", &s->height);
        int rax = get_vec3(c, &sc, "axis", s->axis);
        int rv = get_points2(c, &sc, "vertices", &s->vert, &s->nvert);
        scope lat;
        if (get_group(c, &sc, "lattice", &lat) > 0) {
            check_unknown(c, &lat);
            get_vec3(c, &lat, "a1", s->lattice[0]);
            get_vec3(c, &lat, "a2", s->lattice[1]);
            get_vec3(c, &lat, "a3", s->lattice[2]);
            get_int3(c, &lat, "counts", s->counts);
        }
        if (rk <= 0) {
            free(vmats);
            continue;
        }
        s->kind = (yee_shape_kind)kind;
        snprintf(key, sizeof key, "%s.material", sc.key);
        if (kind != YEE_SHAPE_VOXELS && rmat == 0)
            deck_error(c, sc.s, key, "missing required key");
        else if (kind == YEE_SHAPE_VOXELS && rmat != 0)
            deck_error(c, w, key, "not a property of voxels (the data give the medium; for "
                       "indices name the materials with materials = [...])");
        if (kind == YEE_SHAPE_VOXELS) {
            snprintf(key, sizeof key, "%s.file", sc.key);
            int rv = 0;
            if (rfile == 0)
                deck_error(c, sc.s, key, "missing required key (voxels need a file)");
            else if (rfile > 0 && rdset >= 0 && rvm >= 0)
                rv = load_voxels(c, cfg, i, &sc, file, wfile, dset, wdset, vmats, nvmats);
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
                deck_error(c, sc.s, key, "missing required key (a %s%s needs a %s)",
                           kind_names[kind], voxels ? " object" : "", names[q]);
            else if (want[kind][q] == 0 && got[q] != 0)
                deck_error(c, config_setting_get_member(sc.s, names[q]), key,
                           "not a property of a %s%s", kind_names[kind], voxels ? " object" : "");
        }
        if (kind == YEE_SHAPE_CONE && rrad2 == 0) {
            snprintf(key, sizeof key, "%s.radius2", sc.key);
            deck_error(c, sc.s, key, "missing required key (a cone needs a radius2)");
        }
        if (kind == YEE_SHAPE_PRISM && rv == 0) {
            snprintf(key, sizeof key, "%s.vertices", sc.key);
            deck_error(c, sc.s, key, "missing required key (a prism needs vertices)");
        }
        if (rax > 0) {
            double len = sqrt(s->axis[0] * s->axis[0] + s->axis[1] * s->axis[1] +
                              s->axis[2] * s->axis[2]);
            snprintf(key, sizeof key, "%s.axis", sc.key);
            w = config_setting_get_member(sc.s, "axis");
            char gtxt[128];
            if (!(len > 0)) {
                deck_error(c, w, key, "must be a nonzero vector (got %s)",
                           fmt_value(w, gtxt, sizeof gtxt));
                continue;
            }
            for (int a = 0; a < 3; a++)
                s->axis[a] /= len;
            int coord = 0;
            for (int a = 0; a < 3; a++)
                coord += s->axis[a] != 0;
            if (kind == YEE_SHAPE_PRISM && coord != 1) {
                deck_error(c, w, key, "a prism's axis must be x, y or z, e.g. [0, 0, 1] (got %s)",
                           fmt_value(w, gtxt, sizeof gtxt));
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
                deck_error(c, w, key, "the polygon intersects itself (edges %d-%d and %d-%d)", e1,
                           (e1 + 1) % s->nvert, e2, (e2 + 1) % s->nvert);
                continue;
            }
            if (area == 0) {
                deck_error(c, w, key, "the polygon has zero area");
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
            domain_text(g, dom, sizeof dom);
            deck_warn(c, sc.s, sc.key, "the %s [%g, %g] x [%g, %g] x [%g, %g] lies entirely outside "
                      "the domain %s: not drawn", kind_names[kind], tlo[0], thi[0], tlo[1], thi[1],
                      tlo[2], thi[2], dom);
        }
    }
    return 0;
}

/* A box key pair (min/max, defaulting to the domain) of a source or monitor: ordered and
 * overlapping the domain. Returns 1 when both are usable. */
static int get_box(deck_ctx *c, const scope *sc, const grid_info *g, double lo[3], double hi[3])
{
    char key[160], dom[160];
    for (int a = 0; a < 3; a++) {
        lo[a] = g->lo[a];
        hi[a] = g->hi[a];
    }
    int rmin = get_vec3(c, sc, "min", lo);
    int rmax = get_vec3(c, sc, "max", hi);
    if (rmin < 0 || rmax < 0 || !g->ok)
        return 0;
    const config_setting_t *ws = config_setting_get_member(sc->s, rmax > 0 ? "max" : "min");
    if (!ws)
        ws = sc->s;
    snprintf(key, sizeof key, "%s.%s", sc->key, rmax > 0 ? "max" : "min");
    for (int a = 0; a < 3; a++)
        if (lo[a] > hi[a]) {
            deck_error(c, ws, key, "min > max on %c (%g > %g)", "xyz"[a], lo[a], hi[a]);
            return 0;
        }
    domain_text(g, dom, sizeof dom);
    for (int a = 0; a < 3; a++)
        if (hi[a] < g->lo[a] || lo[a] > g->hi[a]) {
            deck_error(c, ws, key, "the box [%g, %g] x [%g, %g] x [%g, %g] misses the domain %s",
                       lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], dom);
            return 0;
        }
    return 1;
}

/* A direction-like vector key: nonzero, normalized into out. Returns 1 when usable. */
static int get_unit(deck_ctx *c, const scope *sc, const char *name, double out[3])
{
    char key[160], got[128];
    int r = get_vec3(c, sc, name, out);
    snprintf(key, sizeof key, "%s.%s", sc->key, name);
    if (r == 0) {
        deck_error(c, sc->s, key, "missing required key");
        return 0;
    }
    if (r < 0)
        return 0;
    const double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (!(len > 0)) {
        const config_setting_t *w = config_setting_get_member(sc->s, name);
        deck_error(c, w, key, "must not be the zero vector (got %s)", fmt_value(w, got, sizeof got));
        return 0;
    }
    for (int a = 0; a < 3; a++)
        out[a] /= len;
    return 1;
}

/* The time profile keys of a source. Returns 1 when the profile is complete. */
static int load_profile(deck_ctx *c, const scope *sc, yee_config *cfg, yee_profile *p)
{
    static const char *const profile_names[] = {"gaussian", "cw", "ricker", "table"};
    static const yee_profile_kind kinds[] = {YEE_PROFILE_GAUSSIAN, YEE_PROFILE_CW,
                                             YEE_PROFILE_RICKER, YEE_PROFILE_TABLE};
    char key[160];
    const config_setting_t *w;
    int prof = 0;
    int rprof = get_choice(c, sc, "profile", &prof, &w);
    p->kind = kinds[prof];
    check_only(c, sc, "profile", rprof >= 0 ? profile_names[prof] : NULL);

    double wl = 0, fthz = 0, bw = 0.5, delay_fs = 0, ramp_fs = 0;
    int rwl = get_num(c, sc, "wavelength", &wl);
    int rf = get_num(c, sc, "frequency", &fthz);
    int fok = 0;
    if (rwl != 0 && rf != 0) {
        snprintf(key, sizeof key, "%s.frequency", sc->key);
        deck_error(c, config_setting_get_member(sc->s, "frequency"), key,
                   "give exactly one of wavelength / frequency (got both)");
    } else if (rwl == 0 && rf == 0) {
        if (p->kind == YEE_PROFILE_TABLE)
            fok = 1; /* optional: no carrier */
        else
            deck_error(c, sc->s, sc->key, "one of wavelength / frequency is required");
    } else if (rwl > 0) {
        p->frequency = 1.0 / wl, fok = 1;
    } else if (rf > 0) {
        p->frequency = fthz / YEE_C_UM_THZ, fok = 1;
    }
    int rbw = get_num(c, sc, "bandwidth", &bw);
    int rdelay = get_num(c, sc, "delay", &delay_fs);
    int rramp = get_num(c, sc, "ramp", &ramp_fs);
    get_num(c, sc, "amplitude", &p->amplitude);
    if (p->kind == YEE_PROFILE_TABLE) {
        snprintf(key, sizeof key, "%s.table", sc->key);
        int rt = get_pairs(c, sc, "table", 2, "[t, value]", &p->table, &p->ntable);
        if (rt == 0) {
            deck_error(c, sc->s, key, "missing required key (profile = \"table\" needs it)");
            fok = 0;
        } else if (rt < 0) {
            fok = 0;
        }
        w = config_setting_get_member(sc->s, "table");
        for (int i = 0; fok && i < p->ntable; i++) {
            if (i > 0 && !(p->table[2 * i] > p->table[2 * i - 2])) {
                deck_error(c, w, key, "times must increase (sample %d: %g fs after %g fs)", i,
                           p->table[2 * i], p->table[2 * i - 2]);
                fok = 0;
            }
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
        deck_warn(c, rdelay > 0 ? config_setting_get_member(sc->s, "delay") : sc->s, key,
                  "the source starts at %.4g fs, after the run ends at %.4g fs",
                  p->delay * YEE_TIME_UNIT_FS, cfg->steps * cfg->dt * YEE_TIME_UNIT_FS);
    }
    return 1;
}

static int load_sources(deck_ctx *c, const scope *root, yee_config *cfg, const grid_info *g)
{
    static const char *const kind_names[] = {"dipole", "volume", "planewave", "gaussian_beam"};
    static const yee_source_kind kinds[] = {YEE_SRC_DIPOLE, YEE_SRC_VOLUME, YEE_SRC_PLANEWAVE,
                                            YEE_SRC_GAUSSIAN_BEAM};
    const config_setting_t *list;
    int rc = get_list(c, root, "sources", &list);
    int n = list ? config_setting_length(list) : 0;
    if (rc >= 0 && n == 0)
        deck_warn(c, list ? list : root->s, "sources", "no sources: the fields stay zero");
    if (n == 0)
        return 0;
    cfg->sources = calloc((size_t)n, sizeof *cfg->sources);
    if (!cfg->sources)
        return YEE_ERR_NOMEM;
    cfg->nsources = n;
    for (int i = 0; i < n; i++) {
        yee_source_cfg *src = &cfg->sources[i];
        scope sc;
        if (!list_elem(c, list, "sources[]", "sources", i, &sc))
            continue;
        src->line = (int)config_setting_source_line(sc.s);
        check_unknown(c, &sc);
        char key[128], got[128], dom[160];
        const config_setting_t *w;
        int idx = 0;
        int rk = get_choice(c, &sc, "type", &idx, &w);
        src->kind = kinds[idx];
        check_only(c, &sc, "type", rk > 0 ? kind_names[idx] : NULL);
        snprintf(src->name, sizeof src->name, "src%d", i);
        get_name(c, &sc, "name", src->name, sizeof src->name, &w);
        load_profile(c, &sc, cfg, &src->profile);
        if (rk < 0)
            continue;
        domain_text(g, dom, sizeof dom);

        if (src->kind == YEE_SRC_DIPOLE || src->kind == YEE_SRC_VOLUME) {
            const char *comp;
            snprintf(key, sizeof key, "%s.component", sc.key);
            int rcomp = get_string(c, &sc, "component", &comp, &w);
            if (rcomp == 0)
                deck_error(c, sc.s, key, "missing required key");
            if (rcomp > 0) {
                int cc = yee_component_parse(comp);
                if (cc < 0)
                    deck_error(c, w, key, "unknown component, expected Ex, Ey or Ez (got \"%.20s\")",
                               comp);
                else if (cc > YEE_EZ && src->kind == YEE_SRC_DIPOLE)
                    deck_error(c, w, key, "a dipole drives an E component: Ex, Ey or Ez (got \"%s\")",
                               comp);
                else
                    src->component = (yee_component)cc;
            }
        }
        if (src->kind == YEE_SRC_DIPOLE || src->kind == YEE_SRC_GAUSSIAN_BEAM) {
            snprintf(key, sizeof key, "%s.position", sc.key);
            int rp = get_vec3(c, &sc, "position", src->position);
            w = config_setting_get_member(sc.s, "position");
            if (rp == 0)
                deck_error(c, sc.s, key, "missing required key");
            else if (rp > 0 && g->ok && !inside(g, src->position))
                deck_error(c, w, key, "outside the domain %s (got %s)", dom,
                           fmt_value(w, got, sizeof got));
        }
        if (src->kind == YEE_SRC_VOLUME || src->kind == YEE_SRC_PLANEWAVE)
            get_box(c, &sc, g, src->box_min, src->box_max);
        if (src->kind == YEE_SRC_PLANEWAVE || src->kind == YEE_SRC_GAUSSIAN_BEAM) {
            int okd = get_unit(c, &sc, "direction", src->direction);
            int okp = get_unit(c, &sc, "polarization", src->polarization);
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
                    deck_error(c, config_setting_get_member(sc.s, "polarization"), key,
                               "must not be parallel to direction (E is transverse)");
                else
                    for (int a = 0; a < 3; a++)
                        src->polarization[a] /= sqrt(len);
            }
            if (okd && src->kind == YEE_SRC_GAUSSIAN_BEAM) {
                int axis = -1;
                for (int a = 0; a < 3; a++)
                    if (fabs(fabs(src->direction[a]) - 1.0) < 1e-12)
                        axis = a;
                snprintf(key, sizeof key, "%s.direction", sc.key);
                w = config_setting_get_member(sc.s, "direction");
                if (axis < 0)
                    deck_error(c, w, key, "a Gaussian beam travels along +-x, +-y or +-z (got %s)",
                               fmt_value(w, got, sizeof got));
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
        if (src->kind == YEE_SRC_GAUSSIAN_BEAM) {
            snprintf(key, sizeof key, "%s.waist", sc.key);
            if (get_num(c, &sc, "waist", &src->waist) == 0)
                deck_error(c, sc.s, key, "missing required key");
            get_num(c, &sc, "focus", &src->focus);
            if (src->profile.kind == YEE_PROFILE_TABLE || src->profile.kind == YEE_PROFILE_RICKER) {
                snprintf(key, sizeof key, "%s.profile", sc.key);
                deck_error(c, config_setting_get_member(sc.s, "profile"), key,
                           "a Gaussian beam needs a carrier: profile gaussian or cw");
            }
        }
    }
    return 0;
}

/* monitors[].components: a non-empty list of distinct component names -> bit mask. */
static int get_components(deck_ctx *c, const scope *sc, unsigned *mask)
{
    const deck_key *k;
    char key[128], got[160];
    const config_setting_t *s = member(c, sc, "components", &k, key, sizeof key);
    *mask = (1u << YEE_EX) | (1u << YEE_EY) | (1u << YEE_EZ);
    if (!s || !k)
        return s ? -1 : 0;
    int t = config_setting_type(s);
    if ((t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || config_setting_length(s) == 0) {
        deck_error(c, s, key, "must be a non-empty list of components [\"Ex\", ...] (got %s)",
                   fmt_value(s, got, sizeof got));
        return -1;
    }
    unsigned m = 0;
    int rc = 1;
    for (int i = 0; i < config_setting_length(s); i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        char ekey[160];
        snprintf(ekey, sizeof ekey, "%s[%d]", key, i);
        int cc = config_setting_type(e) == CONFIG_TYPE_STRING
                     ? yee_component_parse(config_setting_get_string(e)) : -1;
        if (cc < 0) {
            deck_error(c, e, ekey, "unknown component, expected one of Ex Ey Ez Hx Hy Hz (got %s)",
                       fmt_value(e, got, sizeof got));
            rc = -1;
        } else if (m & (1u << cc)) {
            deck_error(c, e, ekey, "component listed twice (got %s)",
                       fmt_value(e, got, sizeof got));
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
static void load_spectrum(deck_ctx *c, const scope *sc, yee_config *cfg, yee_monitor_cfg *m,
                          int box_ok)
{
    char key[160];
    double wmin = 0, wmax = 0, fmin = 0, fmax = 0;
    long nfreq = 50;
    int rwmin = get_num(c, sc, "wavelength_min", &wmin);
    int rwmax = get_num(c, sc, "wavelength_max", &wmax);
    int rfmin = get_num(c, sc, "frequency_min", &fmin);
    int rfmax = get_num(c, sc, "frequency_max", &fmax);
    get_long(c, sc, "nfreq", &nfreq);
    m->nfreq = (int)nfreq;
    const int have_w = rwmin != 0 || rwmax != 0, have_f = rfmin != 0 || rfmax != 0;
    if (have_w && have_f) {
        deck_error(c, sc->s, sc->key, "give wavelength_min/max or frequency_min/max, not both");
    } else if (!have_w && !have_f) {
        deck_error(c, sc->s, sc->key, "the spectrum needs wavelength_min and wavelength_max (um) "
                                      "or frequency_min and frequency_max (THz)");
    } else if (have_w && (rwmin == 0 || rwmax == 0)) {
        deck_error(c, sc->s, sc->key, "give both wavelength_min and wavelength_max");
    } else if (have_f && (rfmin == 0 || rfmax == 0)) {
        deck_error(c, sc->s, sc->key, "give both frequency_min and frequency_max");
    } else if (rwmin > 0 && rwmax > 0) {
        m->fmin = 1.0 / wmax;
        m->fmax = 1.0 / wmin;
        if (wmin > wmax) {
            snprintf(key, sizeof key, "%s.wavelength_min", sc->key);
            deck_error(c, config_setting_get_member(sc->s, "wavelength_min"), key,
                       "must be <= wavelength_max (got %g > %g)", wmin, wmax);
        }
    } else if (rfmin > 0 && rfmax > 0) {
        m->fmin = fmin / YEE_C_UM_THZ;
        m->fmax = fmax / YEE_C_UM_THZ;
        if (fmin > fmax) {
            snprintf(key, sizeof key, "%s.frequency_min", sc->key);
            deck_error(c, config_setting_get_member(sc->s, "frequency_min"), key,
                       "must be <= frequency_max (got %g > %g)", fmin, fmax);
        }
    }
    if (m->nfreq == 1 && m->fmax > m->fmin * (1 + 1e-12)) {
        snprintf(key, sizeof key, "%s.nfreq", sc->key);
        deck_error(c, config_setting_get_member(sc->s, "nfreq"), key,
                   "nfreq = 1 needs the minimum equal to the maximum");
    }
    if (m->kind != YEE_MON_FLUX)
        return;
    m->weight = 1.0;
    get_num(c, sc, "weight", &m->weight);
    get_bool(c, sc, "subtract_reference", &m->subtract_reference);
    get_bool(c, sc, "save_fields", &m->save_fields);
    const char *ref;
    const config_setting_t *w;
    snprintf(key, sizeof key, "%s.reference", sc->key);
    if (get_string(c, sc, "reference", &ref, &w) > 0) {
        FILE *fp = fopen(ref, "rb");
        if (strlen(ref) >= sizeof m->reference)
            deck_error(c, w, key, "path too long (%zu characters)", strlen(ref));
        else if (!fp)
            deck_error(c, w, key, "cannot open the reference run \"%s\": %s (run the reference "
                                  "deck first; paths are from the working directory)",
                       ref, strerror(errno));
        else
            snprintf(m->reference, sizeof m->reference, "%s", ref);
        if (fp)
            fclose(fp);
    } else if (m->subtract_reference) {
        snprintf(key, sizeof key, "%s.subtract_reference", sc->key);
        deck_error(c, config_setting_get_member(sc->s, "subtract_reference"), key,
                   "needs a reference run (monitors[].reference)");
    }
    snprintf(key, sizeof key, "%s.reference_monitor", sc->key);
    if (get_name(c, sc, "reference_monitor", m->reference_monitor, sizeof m->reference_monitor,
                 &w) > 0 && !m->reference[0])
        deck_error(c, w, key, "needs a reference run (monitors[].reference)");
    if (!box_ok)
        return;
    int flat = 0;
    for (int a = 0; a < 3; a++)
        flat += m->box_max[a] - m->box_min[a] < 0.5 * cfg->dx[a];
    if (flat > 1)
        deck_error(c, sc->s, sc->key, "a flux monitor is a plane (one flat axis) or a closed box "
                                      "(none); this one is flat on %d axes", flat);
}

static int load_monitors(deck_ctx *c, const scope *root, yee_config *cfg, const grid_info *g)
{
    static const char *const kind_names[] = {"probe", "snapshot", "flux", "dft"};
    static const yee_monitor_kind kinds[] = {YEE_MON_PROBE, YEE_MON_SNAPSHOT, YEE_MON_FLUX,
                                             YEE_MON_DFT};
    const config_setting_t *list;
    get_list(c, root, "monitors", &list);
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
        scope sc;
        if (!list_elem(c, list, "monitors[]", "monitors", i, &sc))
            continue;
        m->line = (int)config_setting_source_line(sc.s);
        check_unknown(c, &sc);
        char key[128], got[160], dom[160];
        const config_setting_t *w;
        int kind = -1;
        int rkind = get_choice(c, &sc, "type", &kind, &w);
        m->kind = kinds[kind < 0 ? 0 : kind];
        check_only(c, &sc, "type", rkind > 0 ? kind_names[kind] : NULL);
        if (get_name(c, &sc, "name", m->name, sizeof m->name, &w) > 0) {
            name_at[i] = w;
            for (int j = 0; j < i; j++) {
                if (!name_at[j] || strcmp(cfg->monitors[j].name, m->name) != 0)
                    continue;
                char first[YEE_PATH_LEN + 64];
                locate(c, name_at[j], first, sizeof first);
                snprintf(key, sizeof key, "%s.name", sc.key);
                deck_error(c, w, key, "duplicate monitor name \"%s\" (first used by monitors[%d] "
                                      "at %s)", m->name, j, first);
                name_at[i] = NULL;
                break;
            }
        }
        get_components(c, &sc, &m->components);
        if (rkind <= 0)
            continue;
        domain_text(g, dom, sizeof dom);
        if (m->kind == YEE_MON_PROBE) {
            snprintf(key, sizeof key, "%s.position", sc.key);
            w = config_setting_get_member(sc.s, "position");
            int rp = get_vec3(c, &sc, "position", m->position);
            if (rp == 0)
                deck_error(c, sc.s, key, "missing required key (probes need a position)");
            else if (rp > 0 && g->ok && !inside(g, m->position))
                deck_error(c, w, key, "outside the domain %s (got %s)", dom,
                           fmt_value(w, got, sizeof got));
            continue;
        }
        int box_ok = get_box(c, &sc, g, m->box_min, m->box_max);
        if (m->kind == YEE_MON_FLUX || m->kind == YEE_MON_DFT) {
            load_spectrum(c, &sc, cfg, m, box_ok);
            continue;
        }
        /* snapshot */
        snprintf(key, sizeof key, "%s.interval", sc.key);
        if (get_long(c, &sc, "interval", &m->interval) == 0)
            deck_error(c, sc.s, key, "missing required key (snapshots need an interval)");
        get_long(c, &sc, "start", &m->start);
        get_bool(c, &sc, "vtk", &m->vtk);
        if (!box_ok)
            continue;
        if (cfg->steps > 0 && m->start > cfg->steps) {
            snprintf(key, sizeof key, "%s.start", sc.key);
            deck_warn(c, config_setting_get_member(sc.s, "start"), key,
                      "starts after the last step %ld: no frames", cfg->steps);
        }
    }
    free(name_at);
    return 0;
}

static void load_output(deck_ctx *c, const scope *root, yee_config *cfg)
{
    scope sc;
    snprintf(cfg->out_dir, sizeof cfg->out_dir, ".");
    if (get_group(c, root, "output", &sc) <= 0)
        return;
    check_unknown(c, &sc);
    get_bool(c, &sc, "geometry", &cfg->geometry_out);
    const char *dir;
    const config_setting_t *w;
    if (get_string(c, &sc, "directory", &dir, &w) <= 0)
        return;
    if (!dir[0] || strlen(dir) >= sizeof cfg->out_dir)
        deck_error(c, w, "output.directory", "must be a non-empty path shorter than %d characters",
                   YEE_PATH_LEN);
    else
        snprintf(cfg->out_dir, sizeof cfg->out_dir, "%s", dir);
}

/* checkpoint = { interval; path; }: when and where the run writes checkpoints (solver/sim.c). */
static void load_checkpoint(deck_ctx *c, const scope *root, yee_config *cfg)
{
    scope sc;
    if (get_group(c, root, "checkpoint", &sc) <= 0)
        return;
    check_unknown(c, &sc);
    get_long(c, &sc, "interval", &cfg->checkpoint_interval);
    const char *dir;
    const config_setting_t *w;
    if (get_string(c, &sc, "path", &dir, &w) <= 0)
        return;
    if (!dir[0] || strlen(dir) >= sizeof cfg->checkpoint_dir - 2 * YEE_NAME_LEN)
        deck_error(c, w, "checkpoint.path", "must be a non-empty path shorter than %d characters",
                   YEE_PATH_LEN - 2 * YEE_NAME_LEN);
    else
        snprintf(cfg->checkpoint_dir, sizeof cfg->checkpoint_dir, "%s", dir);
}

/* ---------------------------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------------------------- */

/* A `sweep` group is read by io/params.c for `yee sweep`; a single run ignores it but still
 * rejects unknown keys in it, so that a typo there is an error wherever the deck is read. */
static void check_sweep(deck_ctx *c, const scope *root)
{
    static const char *const lists[] = {"parameters", "results"};
    scope sw, sub;
    if (get_group(c, root, "sweep", &sw) <= 0)
        return;
    check_unknown(c, &sw);
    if (get_group(c, &sw, "slurm", &sub) > 0)
        check_unknown(c, &sub);
    for (int k = 0; k < 2; k++) {
        const config_setting_t *list;
        if (get_list(c, &sw, lists[k], &list) <= 0)
            continue;
        char pat[48], key[48];
        snprintf(pat, sizeof pat, "sweep.%s[]", lists[k]);
        snprintf(key, sizeof key, "sweep.%s", lists[k]);
        for (int i = 0; i < config_setting_length(list); i++)
            if (list_elem(c, list, pat, key, i, &sub))
                check_unknown(c, &sub);
    }
}

/* A deck with ${...} outside comments is a sweep deck: only `yee sweep` resolves it. Caught
 * before libconfig, whose message for `${` would be a bare syntax error. */
static int check_placeholders(const char *path, FILE *fp, yee_err *err)
{
    char *text = NULL;
    size_t cap = 0, len = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            char *t = (char *)realloc(text, cap = 2 * cap + 4096 + 1);
            if (!t) {
                free(text);
                return YEE_OK; /* libconfig reads the file next and reports what it must */
            }
            text = t;
        }
        got = fread(text + len, 1, cap - len - 1, fp);
        len += got;
    } while (got > 0);
    int line = 0, rc = YEE_OK;
    if (text) {
        text[len] = '\0';
        if (yee_params_has_placeholder(text, &line)) {
            const char *p = text;
            for (int l = 1; l < line && p; l++)
                p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
            p = p ? strstr(p, "${") : NULL; /* the first on its line, to show it */
            if (!p)
                p = "${...}";
            int shown = (int)strcspn(p, "}\n") + 1;
            rc = yee_fail(err, YEE_ERR_DECK, "%s:%d: error: %.*s%s is a sweep parameter: run "
                          "this deck with `yee sweep %s --out DIR`, which writes and runs one "
                          "resolved deck per job (docs/sweeps.md)", path, line,
                          shown > 60 ? 60 : shown, p, shown > 60 ? "..." : "",
                          path);
        }
    }
    free(text);
    return rc;
}

/* Warnings are printed once per run, by rank 0, not by every MPI rank. */
static int quiet_rank(void)
{
    int init = 0, fini = 0, rank = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fini);
    if (init && !fini)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank != 0;
}

int yee_deck_load(const char *path, const char *const *overrides, int noverrides,
                  yee_config *cfg, yee_err *err)
{
    static const deck_ctx zero;
    deck_ctx c = zero;
    c.path = path;
    c.err = err;
    c.quiet = quiet_rank();
    memset(cfg, 0, sizeof *cfg);
    if (err)
        err->msg[0] = '\0';

    FILE *fp = fopen(path, "r");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot open deck '%s': %s", path, strerror(errno));
    int placeholder = check_placeholders(path, fp, err);
    fclose(fp);
    if (placeholder < 0)
        return placeholder;

    config_t lc;
    config_init(&lc);
    /* @include paths are relative to the deck's directory */
    char dir[YEE_PATH_LEN];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        slash[slash == dir ? 1 : 0] = '\0';
        config_set_include_dir(&lc, dir);
    }
    if (!config_read_file(&lc, path)) {
        int rc;
        if (config_error_type(&lc) == CONFIG_ERR_FILE_IO) {
            rc = yee_fail(err, YEE_ERR_IO, "cannot read deck '%s': %s", path,
                          config_error_text(&lc));
        } else {
            const char *f = config_error_file(&lc), *text = config_error_text(&lc);
            /* libconfig arrays are typed by their first element: [4, 4.5] is a syntax error */
            int mixed = text && strstr(text, "mismatched element type");
            rc = yee_fail(err, YEE_ERR_DECK, "%s:%d: error: syntax: %s%s", f ? f : path,
                          config_error_line(&lc), text ? text : "?",
                          mixed ? " (write every number of an array the same way, e.g. "
                                  "[4.0, 4.5, 4.0], or use a list (4, 4.5, 4))" : "");
        }
        config_destroy(&lc);
        return rc;
    }

    for (int i = 0; i < noverrides; i++)
        apply_override(&c, &lc, overrides[i]);

    snprintf(cfg->deck_path, sizeof cfg->deck_path, "%s", path);
    scope root;
    memset(&root, 0, sizeof root);
    root.s = config_root_setting(&lc);
    root.pat = "";
    check_unknown(&c, &root);
    check_sweep(&c, &root);
    grid_info g;
    memset(&g, 0, sizeof g);
    load_grid(&c, &root, cfg, &g);
    load_simulation(&c, &root, cfg, &g);
    int rc = load_materials(&c, &root, cfg);
    load_background(&c, &root, cfg);
    load_boundary(&c, &root, cfg, &g);
    if (rc == 0)
        rc = load_geometry(&c, &root, cfg, &g);
    if (rc == 0)
        rc = load_sources(&c, &root, cfg, &g);
    if (rc == 0)
        rc = load_monitors(&c, &root, cfg, &g);
    if (rc == 0)
        load_output(&c, &root, cfg);
    if (rc == 0)
        load_checkpoint(&c, &root, cfg);
    config_destroy(&lc);

    if (rc == YEE_ERR_NOMEM) {
        yee_config_free(cfg);
        return YEE_FAIL(err, YEE_ERR_NOMEM, "out of memory reading deck '%s'", path);
    }
    if (c.nerr > 0) {
        flush_errors(&c);
        yee_config_free(cfg);
        return YEE_ERR_DECK;
    }
    return YEE_OK;
}
