/* io/deck_schema.c -- the table of every deck key (io/deck_schema.h) and its lookups.
 *
 * The table is data only: what a key is, not how a section uses it. The conditions that involve
 * several keys (exactly one of steps / time, a cone needs radius2, ...) are the section loaders'
 * (io/deck*.c, io/params.c). Order is the documentation order; `yee deck-keys` prints it as is.
 */
#include "io/deck_schema.h"

#include "common/yee_hint.h"
#include "io/deck.h"

#include <stdio.h>
#include <string.h>

/* Every key a deck may contain. Order is the documentation order. */
static const yee_deck_key schema[] = {
    {.path = "simulation", .type = YEE_KT_GROUP, .unit = "-", .def = "required", .flags = YEE_K_REQ,
     .doc = "Run control: length of the run, time step, health checks."},
    {.path = "simulation.name", .type = YEE_KT_STRING, .unit = "-", .def = "deck file name",
     .doc = "Run name, [A-Za-z0-9_.-]+; output files are <directory>/<name>.h5. Defaults to the "
            "deck's file name without .cfg."},
    {.path = "simulation.steps", .type = YEE_KT_INT, .unit = "steps", .def = "-", .flags = YEE_R_GT,
     .doc = "Number of time steps. Exactly one of steps / time."},
    {.path = "simulation.time", .type = YEE_KT_FLOAT, .unit = "fs", .def = "-", .flags = YEE_R_GT,
     .doc = "Simulated time; steps = ceil(time / dt). Exactly one of steps / time."},
    {.path = "simulation.courant", .type = YEE_KT_FLOAT, .unit = "-", .def = "0.99", .dval = 0.99,
     .flags = YEE_R_GT | YEE_R_LE, .lo = 0, .hi = 1,
     .doc = "Time step as a fraction of the 3D Courant limit 1/sqrt(1/dx^2+1/dy^2+1/dz^2)."},
    {.path = "simulation.check_interval", .type = YEE_KT_INT, .unit = "steps", .def = "100",
     .dval = 100, .flags = YEE_R_GE, .lo = 1,
     .doc = "Steps between NaN/Inf and energy-growth checks."},
    {.path = "simulation.polarization", .type = YEE_KT_CHOICE, .unit = "-", .def = "auto",
     .choices = "auto|tm|te|both",
     .doc = "2-D runs only: the field components advanced. tm: Ez, Hx, Hy; te: Hz, Ex, Ey; both: "
            "all six; auto: tm or te when every source drives only that one, else both. A source "
            "or monitor asking for a component the run lacks is an error."},
    {.path = "simulation.backend", .type = YEE_KT_CHOICE, .unit = "-", .def = "auto",
     .choices = "auto|cpu|cuda",
     .doc = "Where the fields live: auto (CUDA when a device is present), cpu or cuda. "
            "`yee run --backend` overrides it."},

    {.path = "grid", .type = YEE_KT_GROUP, .unit = "-", .def = "required", .flags = YEE_K_REQ,
     .doc = "The Yee grid. The domain includes the CPML layers."},
    {.path = "grid.size", .type = YEE_KT_VEC3, .unit = "um", .def = "required",
     .flags = YEE_K_REQ | YEE_R_GE, .lo = 0,
     .doc = "Domain size [x, y, z]; rounded to a whole number of cells (warning if it changes). "
            "z = 0: a 2-D run in the x-y plane (fields independent of z); x and y must be > 0."},
    {.path = "grid.resolution", .type = YEE_KT_FLOAT, .unit = "1/um", .def = "-", .flags = YEE_R_GT,
     .doc = "Cells per um on every axis. Exactly one of resolution / spacing."},
    {.path = "grid.spacing", .type = YEE_KT_FLOAT_OR_VEC3, .unit = "um", .def = "-",
     .flags = YEE_R_GT,
     .doc = "Cell size: one number or [dx, dy, dz]. Exactly one of resolution / spacing."},
    {.path = "grid.center", .type = YEE_KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Centre of the domain."},
    {.path = "grid.refine", .type = YEE_KT_LIST, .unit = "-", .def = "none",
     .doc = "Regions of finer cells: a graded (nonuniform) mesh. On each axis the interval "
            "[min, max] of a region gets cells of at most 1/resolution; its edges are mesh "
            "lines; the rest of the axis grades up to the base spacing by at most `grading` per "
            "cell. Regions must lie inside the CPML layers, which keep the base spacing."},
    {.path = "grid.refine[].min", .type = YEE_KT_VEC3, .unit = "um", .def = "required",
     .flags = YEE_K_REQ, .doc = "Lower corner of the region."},
    {.path = "grid.refine[].max", .type = YEE_KT_VEC3, .unit = "um", .def = "required",
     .flags = YEE_K_REQ, .doc = "Upper corner of the region."},
    {.path = "grid.refine[].resolution", .type = YEE_KT_FLOAT_OR_VEC3, .unit = "1/um",
     .def = "required", .flags = YEE_K_REQ | YEE_R_GE, .lo = 0,
     .doc = "Cells per um inside the region: one number for every axis, or [x, y, z] with 0 "
            "for an axis the region leaves alone (a film: [0, 0, 200])."},
    {.path = "grid.grading", .type = YEE_KT_FLOAT, .unit = "-", .def = "1.3", .dval = 1.3,
     .flags = YEE_R_GT | YEE_R_LE, .lo = 1, .hi = 2,
     .doc = "Largest ratio of the widths of neighbouring cells where a graded mesh changes its "
            "spacing (`yee check` prints the ratio reached)."},
    {.path = "grid.subpixel", .type = YEE_KT_BOOL, .unit = "-", .def = "true", .dval = 1,
     .doc = "Subpixel averaging of the permittivity at dielectric interfaces (anisotropic, "
            "Farjadpour et al. 2006): second-order accurate interfaces. false: staircase."},
    {.path = "grid.subpixel_metals", .type = YEE_KT_BOOL, .unit = "-", .def = "true", .dval = 1,
     .doc = "With subpixel: also average the surfaces of conducting and dispersive media "
            "(metals): an E component within 30 degrees of the surface gets the cell's volume "
            "average of eps(omega), the metal's poles and conductivity weighted by its fill "
            "fraction; the others the medium at their node (docs/deck.md, Geometry). false: "
            "staircase them. PEC objects are always staircased."},
    {.path = "grid.subpixel_tensor", .type = YEE_KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .doc = "With subpixel: also the off-diagonal terms of the averaged inverse permittivity "
            "(Kottke et al. 2008) at interfaces between isotropic dielectrics, which an E "
            "component takes from its neighbours' curl H: second order for fields across "
            "oblique interfaces too (docs/deck.md, Geometry). One rank only for now; the "
            "terms cost about 15 % of a 3-D step on the CPU (docs/performance.md, \"Tensor "
            "nodes on the fast path\")."},
    {.path = "grid.subpixel_samples", .type = YEE_KT_INT, .unit = "-", .def = "8", .dval = 8,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 2, .hi = 32,
     .doc = "Supersampling points per axis of a cell when averaging (samples^3 per interface "
            "node)."},

    {.path = "background", .type = YEE_KT_GROUP, .unit = "-", .def = "vacuum",
     .doc = "Uniform medium filling the domain (under the geometry objects)."},
    {.path = "background.epsilon", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GE, .lo = 1, .doc = "Relative permittivity."},
    {.path = "background.sigma", .type = YEE_KT_FLOAT, .unit = "S/m", .def = "0", .dval = 0,
     .flags = YEE_R_GE, .lo = 0, .doc = "Electric conductivity."},
    {.path = "background.material", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "Name of a material of the materials list; excludes epsilon and sigma. Not pec."},

    {.path = "materials", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "Named materials, ( {...}, {...} ), used by geometry[].material and "
            "background.material. See \"Materials\" below."},
    {.path = "materials[].name", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .flags = YEE_K_REQ, .doc = "Unique name, [A-Za-z0-9_.-]+."},
    {.path = "materials[].epsilon", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Relative permittivity (eps_inf when poles are given). Excludes epsilon_diag."},
    {.path = "materials[].epsilon_diag", .type = YEE_KT_VEC3, .unit = "-", .def = "-",
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Diagonal anisotropic permittivity [eps_x, eps_y, eps_z]. Excludes epsilon."},
    {.path = "materials[].sigma", .type = YEE_KT_FLOAT, .unit = "S/m", .def = "0", .dval = 0,
     .flags = YEE_R_GE, .lo = 0, .doc = "Electric conductivity."},
    {.path = "materials[].pec", .type = YEE_KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .doc = "Perfect electric conductor (E = 0 inside); excludes every other property."},
    {.path = "materials[].lorentz", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "Lorentz poles sigma f0^2 / (f0^2 - f^2 - i f gamma)."},
    {.path = "materials[].lorentz[].frequency", .type = YEE_KT_FLOAT, .unit = "THz",
     .def = "required", .flags = YEE_K_REQ | YEE_R_GT, .lo = 0, .doc = "Resonance frequency f0."},
    {.path = "materials[].lorentz[].gamma", .type = YEE_KT_FLOAT, .unit = "THz", .def = "0",
     .dval = 0, .flags = YEE_R_GE, .lo = 0, .doc = "Damping gamma (a frequency, as f0)."},
    {.path = "materials[].lorentz[].sigma", .type = YEE_KT_FLOAT, .unit = "-", .def = "required",
     .flags = YEE_K_REQ, .doc = "Strength: the pole adds sigma to epsilon at f = 0."},
    {.path = "materials[].drude", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "Drude poles sigma f0^2 / (-f^2 - i f gamma); sigma = 1 makes f0 the plasma "
            "frequency."},
    {.path = "materials[].drude[].frequency", .type = YEE_KT_FLOAT, .unit = "THz",
     .def = "required", .flags = YEE_K_REQ | YEE_R_GT, .lo = 0,
     .doc = "Frequency f0 (the plasma frequency when sigma = 1)."},
    {.path = "materials[].drude[].gamma", .type = YEE_KT_FLOAT, .unit = "THz", .def = "0",
     .dval = 0, .flags = YEE_R_GE, .lo = 0, .doc = "Collision rate gamma (a frequency, as f0)."},
    {.path = "materials[].drude[].sigma", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GT, .lo = 0, .doc = "Strength."},
    {.path = "materials[].debye", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "Debye poles delta_epsilon / (1 - i 2 pi f tau)."},
    {.path = "materials[].debye[].delta_epsilon", .type = YEE_KT_FLOAT, .unit = "-",
     .def = "required", .flags = YEE_K_REQ | YEE_R_GT, .lo = 0,
     .doc = "Static minus high-frequency permittivity."},
    {.path = "materials[].debye[].tau", .type = YEE_KT_FLOAT, .unit = "fs", .def = "required",
     .flags = YEE_K_REQ | YEE_R_GT, .lo = 0, .doc = "Relaxation time."},

    {.path = "geometry", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "Objects, ( {...}, {...} ), drawn in order over the background: later objects "
            "override earlier ones. See \"Geometry\" below."},
    {.path = "geometry[].type", .type = YEE_KT_CHOICE, .unit = "-", .def = "required",
     .flags = YEE_K_REQ, .choices = "box|sphere|cylinder|cone|ellipsoid|prism|voxels",
     .doc = "Shape; voxels: a block of voxel data read from an HDF5 file."},
    {.path = "geometry[].material", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .doc = "Name of a material of the materials list. Every type but voxels (whose medium "
            "comes from the data)."},
    {.path = "geometry[].center", .type = YEE_KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Centre (prism: origin of the vertices and middle of the height)."},
    {.path = "geometry[].size", .type = YEE_KT_VEC3, .unit = "um", .def = "required",
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Full extents [x, y, z]. Only box, ellipsoid and voxels (the box the voxel grid "
            "spans)."},
    {.path = "geometry[].radius", .type = YEE_KT_FLOAT, .unit = "um", .def = "required",
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Radius (cone: at the low end, center - height/2 along the axis). Only sphere, "
            "cylinder and cone."},
    {.path = "geometry[].radius2", .type = YEE_KT_FLOAT, .unit = "um", .def = "required",
     .flags = YEE_R_GE, .lo = 0, .only = "type=cone",
     .doc = "Radius at the high end, center + height/2 along the axis; 0 makes a tip."},
    {.path = "geometry[].height", .type = YEE_KT_FLOAT, .unit = "um", .def = "required",
     .flags = YEE_R_GT, .lo = 0, .doc = "Length along the axis. Only cylinder, cone and prism."},
    {.path = "geometry[].axis", .type = YEE_KT_VEC3, .unit = "-", .def = "[0, 0, 1]",
     .doc = "Axis direction (normalized by yee); a prism's must be x, y or z. Only cylinder, "
            "cone and prism."},
    {.path = "geometry[].vertices", .type = YEE_KT_POINTS2, .unit = "um", .def = "required",
     .only = "type=prism",
     .doc = "Polygon ( [u, v], ... ), at least 3 vertices, not self-intersecting; (u, v) are "
            "offsets from center along the next two axes (axis z: x, y; x: y, z; y: z, x)."},
    {.path = "geometry[].file", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .only = "type=voxels",
     .doc = "HDF5 file holding the voxel data; a relative path is relative to the deck's "
            "folder."},
    {.path = "geometry[].dataset", .type = YEE_KT_STRING, .unit = "-", .def = "epsilon",
     .only = "type=voxels",
     .doc = "3-D dataset of the file, shape (nz, ny, nx) with x fastest: relative permittivity "
            "(every value >= 1), or with materials integer indices into that list. Each E node "
            "takes the value of the voxel containing it (piecewise constant)."},
    {.path = "geometry[].materials", .type = YEE_KT_STRLIST, .unit = "-", .def = "-",
     .only = "type=voxels",
     .doc = "Names of materials of the materials list; the dataset then holds indices into "
            "this list (0 = the first name)."},
    {.path = "geometry[].lattice", .type = YEE_KT_GROUP, .unit = "-", .def = "-",
     .doc = "Repeat the object on a lattice (gratings, photonic crystals)."},
    {.path = "geometry[].lattice.a1", .type = YEE_KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "First lattice vector."},
    {.path = "geometry[].lattice.a2", .type = YEE_KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Second lattice vector."},
    {.path = "geometry[].lattice.a3", .type = YEE_KT_VEC3, .unit = "um", .def = "[0, 0, 0]",
     .doc = "Third lattice vector."},
    {.path = "geometry[].lattice.counts", .type = YEE_KT_INT3, .unit = "-", .def = "[1, 1, 1]",
     .dval = 1, .flags = YEE_R_GE | YEE_R_LE, .lo = 1, .hi = 100000,
     .doc = "Copies along a1, a2, a3: at center + i a1 + j a2 + k a3, 0 <= i < counts[0], ..."},

    {.path = "boundary", .type = YEE_KT_GROUP, .unit = "-", .def = "all cpml",
     .doc = "Boundary conditions of the six faces of the domain."},
    {.path = "boundary.x", .type = YEE_KT_CHOICE, .unit = "-", .def = "cpml",
     .choices = "cpml|pec|periodic|pmc", .doc = "Both x faces. periodic must be on both faces."},
    {.path = "boundary.y", .type = YEE_KT_CHOICE, .unit = "-", .def = "cpml",
     .choices = "cpml|pec|periodic|pmc", .doc = "Both y faces."},
    {.path = "boundary.z", .type = YEE_KT_CHOICE, .unit = "-", .def = "cpml",
     .choices = "cpml|pec|periodic|pmc", .doc = "Both z faces."},
    {.path = "boundary.x_low", .type = YEE_KT_CHOICE, .unit = "-", .def = "boundary.x",
     .choices = "cpml|pec|periodic|pmc", .doc = "Low x face; overrides boundary.x."},
    {.path = "boundary.x_high", .type = YEE_KT_CHOICE, .unit = "-", .def = "boundary.x",
     .choices = "cpml|pec|periodic|pmc", .doc = "High x face; overrides boundary.x."},
    {.path = "boundary.y_low", .type = YEE_KT_CHOICE, .unit = "-", .def = "boundary.y",
     .choices = "cpml|pec|periodic|pmc", .doc = "Low y face; overrides boundary.y."},
    {.path = "boundary.y_high", .type = YEE_KT_CHOICE, .unit = "-", .def = "boundary.y",
     .choices = "cpml|pec|periodic|pmc", .doc = "High y face; overrides boundary.y."},
    {.path = "boundary.z_low", .type = YEE_KT_CHOICE, .unit = "-", .def = "boundary.z",
     .choices = "cpml|pec|periodic|pmc", .doc = "Low z face; overrides boundary.z."},
    {.path = "boundary.z_high", .type = YEE_KT_CHOICE, .unit = "-", .def = "boundary.z",
     .choices = "cpml|pec|periodic|pmc", .doc = "High z face; overrides boundary.z."},
    {.path = "boundary.bloch", .type = YEE_KT_VEC3, .unit = "1/um", .def = "[0, 0, 0]",
     .doc = "Bloch wave vector [kx, ky, kz] in cycles per um (Meep's k_point with a = 1 um): "
            "across a periodic axis of length L the fields take the factor exp(2 pi i k L). "
            "Nonzero only on periodic axes; then the fields are complex (twice the memory and "
            "work), snapshots and probes are their real part, and volume sources carry the "
            "phase exp(2 pi i k.r). An oblique plane wave is a volume sheet source at "
            "k = f n sin(theta) (docs/deck.md \"Bloch-periodic cells\")."},
    {.path = "boundary.pml", .type = YEE_KT_GROUP, .unit = "-", .def = "-",
     .doc = "CFS-CPML parameters, used on the cpml faces."},
    {.path = "boundary.pml.cells", .type = YEE_KT_INT_OR_6, .unit = "cells", .def = "10",
     .dval = 10, .flags = YEE_R_GE, .lo = 1,
     .doc = "Thickness: one int, or [x_low, x_high, y_low, y_high, z_low, z_high]. Both faces of "
            "an axis together must be thinner than the grid."},
    {.path = "boundary.pml.order", .type = YEE_KT_FLOAT, .unit = "-", .def = "3", .dval = 3,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 1, .hi = 10,
     .doc = "Polynomial grading order m of sigma and kappa."},
    {.path = "boundary.pml.sigma_factor", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Multiplier of the optimal sigma_max = 0.8 (m+1) / (dx sqrt(eps_r))."},
    {.path = "boundary.pml.kappa_max", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GE, .lo = 1, .doc = "Maximum of the kappa coordinate stretch."},
    {.path = "boundary.pml.alpha_max", .type = YEE_KT_FLOAT, .unit = "c/um", .def = "0", .dval = 0,
     .flags = YEE_R_GE, .lo = 0, .doc = "CFS alpha at the inner interface of the PML."},

    {.path = "sources", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "List of sources, ( {...}, {...} ); may be empty (warning)."},
    {.path = "sources[].type", .type = YEE_KT_CHOICE, .unit = "-", .def = "required",
     .flags = YEE_K_REQ, .choices = "dipole|volume|planewave|gaussian_beam|eigenmode",
     .doc = "dipole: a point current moment; volume: a current density over a box, plane or "
            "line; planewave: a plane wave by total-field/scattered-field (TFSF) on a box; "
            "gaussian_beam: a one-way paraxial Gaussian beam from a plane; eigenmode: one guided "
            "mode of the structure's cross-section, launched one way from a plane (docs/modes.md). "
            "See \"Sources\" below."},
    {.path = "sources[].name", .type = YEE_KT_STRING, .unit = "-", .def = "src<index>",
     .doc = "Name used in logs, [A-Za-z0-9_.-]+."},
    {.path = "sources[].component", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .only = "type=dipole|volume",
     .doc = "Current component (case-insensitive): Ex, Ey or Ez for an electric current; a "
            "volume source also takes Hx, Hy or Hz (a magnetic current)."},
    {.path = "sources[].position", .type = YEE_KT_VEC3, .unit = "um", .def = "required",
     .only = "type=dipole|gaussian_beam|eigenmode",
     .doc = "dipole: its point; gaussian_beam: where the beam axis crosses the source plane; "
            "eigenmode: a point of the source plane (the whole cross-section through it is "
            "solved and lit). Must lie inside the domain."},
    {.path = "sources[].min", .type = YEE_KT_VEC3, .unit = "um", .def = "domain lower corner",
     .only = "type=volume|planewave",
     .doc = "Lower corner of the current box (volume) or of the total-field box (planewave); "
            "a planewave box reaching past the domain loses that face."},
    {.path = "sources[].max", .type = YEE_KT_VEC3, .unit = "um", .def = "domain upper corner",
     .only = "type=volume|planewave", .doc = "Upper corner; each max >= min."},
    {.path = "sources[].direction", .type = YEE_KT_VEC3, .unit = "-", .def = "required",
     .only = "type=planewave|gaussian_beam|eigenmode",
     .doc = "Propagation direction (normalized by yee); a gaussian_beam's and an eigenmode's "
            "must be +-x, +-y or +-z."},
    {.path = "sources[].polarization", .type = YEE_KT_VEC3, .unit = "-", .def = "required",
     .only = "type=planewave|gaussian_beam",
     .doc = "Direction of E; its part along direction is removed, then it is normalized."},
    {.path = "sources[].waist", .type = YEE_KT_FLOAT, .unit = "um", .def = "required",
     .flags = YEE_R_GT, .lo = 0, .only = "type=gaussian_beam",
     .doc = "1/e field radius w0 at the focus."},
    {.path = "sources[].focus", .type = YEE_KT_FLOAT, .unit = "um", .def = "0", .dval = 0,
     .only = "type=gaussian_beam",
     .doc = "Distance from the source plane to the focus along direction (negative: behind)."},
    {.path = "sources[].mode", .type = YEE_KT_INT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 1, .hi = 50, .only = "type=eigenmode",
     .doc = "Which mode of the source plane at the carrier frequency, counted from the highest "
            "effective index (yee modes lists them; in a 2-D run with one polarization, among "
            "that polarization's modes)."},
    {.path = "sources[].profile", .type = YEE_KT_CHOICE, .unit = "-", .def = "gaussian",
     .choices = "gaussian|cw|ricker|table",
     .doc = "Time profile: gaussian pulse, cw (continuous wave with a smooth turn-on), ricker "
            "wavelet or table (samples from `table`)."},
    {.path = "sources[].wavelength", .type = YEE_KT_FLOAT, .unit = "um", .def = "-",
     .flags = YEE_R_GT,
     .doc = "Vacuum wavelength of the carrier (ricker: of the peak). Exactly one of wavelength "
            "/ frequency (optional with a table: it then only sets the frequency a plane wave's "
            "dispersion is matched at)."},
    {.path = "sources[].frequency", .type = YEE_KT_FLOAT, .unit = "THz", .def = "-",
     .flags = YEE_R_GT,
     .doc = "Carrier (ricker: peak) frequency. Exactly one of wavelength / frequency."},
    {.path = "sources[].bandwidth", .type = YEE_KT_FLOAT, .unit = "-", .def = "0.5", .dval = 0.5,
     .flags = YEE_R_GT | YEE_R_LE, .lo = 0, .hi = 2, .only = "profile=gaussian",
     .doc = "Spectral 1/e half-width as a fraction of the frequency: fwidth = bandwidth * f."},
    {.path = "sources[].delay", .type = YEE_KT_FLOAT, .unit = "fs", .def = "auto",
     .flags = YEE_R_GE, .lo = 0,
     .doc = "Peak time (gaussian, ricker) or turn-on time (cw); shifts a table. Default: "
            "gaussian 5/(2 pi fwidth), ricker 1.5/f, cw and table 0."},
    {.path = "sources[].ramp", .type = YEE_KT_FLOAT, .unit = "fs", .def = "5 periods",
     .flags = YEE_R_GT, .lo = 0, .only = "profile=cw", .doc = "Duration of the smooth turn-on."},
    {.path = "sources[].table", .type = YEE_KT_POINTS2, .unit = "fs, -", .def = "required",
     .only = "profile=table",
     .doc = "Samples ( [t, value], ... ), at least 2, times increasing; linear in between, 0 "
            "outside."},
    {.path = "sources[].amplitude", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_NONZERO | YEE_R_GE | YEE_R_LE, .lo = -YEE_SOURCE_PEAK_MAX,
     .hi = YEE_SOURCE_PEAK_MAX,
     .doc = "Scale of the profile: dipole current moment I*l; volume current density (per "
            "area on a plane, per length on a line); planewave and gaussian_beam incident E "
            "(the beam's on axis at the focus); eigenmode: the square root of the mode's power "
            "(the profile of yee modes, unit power, times it). Normalized units; fields are 32-bit floats, "
            "which end at 3.4e38."},

    {.path = "monitors", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "List of monitors, ( {...}, {...} )."},
    {.path = "monitors[].type", .type = YEE_KT_CHOICE, .unit = "-", .def = "required",
     .flags = YEE_K_REQ, .choices = "probe|snapshot|flux|dft|mode",
     .doc = "probe: time series at one point, every step; snapshot: fields over a box every "
            "interval steps; flux: Poynting flux spectrum through a plane or out of a box; dft: "
            "frequency-domain fields over a box; mode: a flux plane whose fields are also "
            "split into the plane's guided modes, forward and backward (docs/modes.md)."},
    {.path = "monitors[].name", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .flags = YEE_K_REQ, .doc = "Unique name, [A-Za-z0-9_.-]+; names the output data set."},
    {.path = "monitors[].components", .type = YEE_KT_STRLIST, .unit = "-",
     .def = "[\"Ex\", \"Ey\", \"Ez\"]", .only = "type=probe|snapshot|dft",
     .doc = "Field components recorded, each one of Ex Ey Ez Hx Hy Hz, no repeats."},
    {.path = "monitors[].position", .type = YEE_KT_VEC3, .unit = "um", .def = "required",
     .only = "type=probe", .doc = "Point recorded; must lie inside the domain."},
    {.path = "monitors[].min", .type = YEE_KT_VEC3, .unit = "um", .def = "domain lower corner",
     .only = "type=snapshot|flux|dft|mode",
     .doc = "Lower corner of the box; min == max on an axis gives a plane (a flux monitor is "
            "a plane, or a closed box when no axis is flat)."},
    {.path = "monitors[].max", .type = YEE_KT_VEC3, .unit = "um", .def = "domain upper corner",
     .only = "type=snapshot|flux|dft|mode", .doc = "Upper corner of the box; each max >= min."},
    {.path = "monitors[].interval", .type = YEE_KT_INT, .unit = "steps", .def = "required",
     .flags = YEE_R_GE, .lo = 1, .only = "type=snapshot", .doc = "Steps between frames."},
    {.path = "monitors[].start", .type = YEE_KT_INT, .unit = "steps", .def = "0", .dval = 0,
     .flags = YEE_R_GE, .lo = 0, .only = "type=snapshot",
     .doc = "First step written; frames at start, start+interval, ... <= steps."},
    {.path = "monitors[].vtk", .type = YEE_KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .only = "type=snapshot", .doc = "Also write legacy VTK files, one per component and frame."},
    {.path = "monitors[].wavelength_min", .type = YEE_KT_FLOAT, .unit = "um", .def = "-",
     .flags = YEE_R_GT, .lo = 0, .only = "type=flux|dft|mode",
     .doc = "Shortest wavelength of the spectrum. Give wavelength_min and wavelength_max, or "
            "frequency_min and frequency_max; nfreq frequencies evenly spaced in frequency."},
    {.path = "monitors[].wavelength_max", .type = YEE_KT_FLOAT, .unit = "um", .def = "-",
     .flags = YEE_R_GT, .lo = 0, .only = "type=flux|dft|mode", .doc = "Longest wavelength."},
    {.path = "monitors[].frequency_min", .type = YEE_KT_FLOAT, .unit = "THz", .def = "-",
     .flags = YEE_R_GT, .lo = 0, .only = "type=flux|dft|mode", .doc = "Lowest frequency."},
    {.path = "monitors[].frequency_max", .type = YEE_KT_FLOAT, .unit = "THz", .def = "-",
     .flags = YEE_R_GT, .lo = 0, .only = "type=flux|dft|mode", .doc = "Highest frequency."},
    {.path = "monitors[].nfreq", .type = YEE_KT_INT, .unit = "-", .def = "50", .dval = 50,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 1, .hi = 100000, .only = "type=flux|dft|mode",
     .doc = "Frequencies of the spectrum (1: the minimum only, which must equal the maximum)."},
    {.path = "monitors[].weight", .type = YEE_KT_FLOAT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_NONZERO, .only = "type=flux|mode",
     .doc = "Factor on the flux: -1 counts a plane's flux towards -axis (reflection)."},
    {.path = "monitors[].reference", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .only = "type=flux|mode",
     .doc = "HDF5 file of an earlier run (path from the working directory) with the same flux "
            "monitor: adds normalized = flux / reference flux."},
    {.path = "monitors[].reference_monitor", .type = YEE_KT_STRING, .unit = "-", .def = "this name",
     .only = "type=flux|mode", .doc = "Name of the monitor in the reference run."},
    {.path = "monitors[].subtract_reference", .type = YEE_KT_BOOL, .unit = "-", .def = "false",
     .dval = 0, .only = "type=flux|mode",
     .doc = "Subtract the reference run's DFT fields before forming the flux (the reflected "
            "part only; the reference needs save_fields = true)."},
    {.path = "monitors[].save_fields", .type = YEE_KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .only = "type=flux|mode",
     .doc = "Write the monitor's DFT fields, so later runs can subtract them."},
    {.path = "monitors[].modes", .type = YEE_KT_INT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 1, .hi = 50, .only = "type=mode",
     .doc = "How many modes of the plane (highest effective index first; a 2-D run with one "
            "polarization: of that polarization) the fields are projected on, at every "
            "frequency."},
    {.path = "monitors[].incident", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .only = "type=mode",
     .doc = "A mode monitor (this one included) whose forward amplitude of mode 1 divides this "
            "monitor's amplitudes: the S-parameters s_fwd, s_bwd (docs/modes.md)."},

    {.path = "output", .type = YEE_KT_GROUP, .unit = "-", .def = "-", .doc = "Where results go."},
    {.path = "output.directory", .type = YEE_KT_STRING, .unit = "-", .def = ".",
     .doc = "Directory of the output files, created when missing."},
    {.path = "output.geometry", .type = YEE_KT_BOOL, .unit = "-", .def = "false", .dval = 0,
     .doc = "Write the rasterized permittivity per E component to /snapshots/geometry/Ex.. of the "
            "run's HDF5 file (and legacy VTK on one rank)."},
    {.path = "output.flush_seconds", .type = YEE_KT_FLOAT, .unit = "s", .def = "5", .dval = 5,
     .flags = YEE_R_GE, .lo = 0,
     .doc = "Most seconds between two flushes of the run file after snapshot frames (the first "
            "frame is always flushed; 0: after every frame). A run killed by SIGKILL keeps every "
            "frame flushed before (docs/output.md)."},

    {.path = "checkpoint", .type = YEE_KT_GROUP, .unit = "-", .def = "-",
     .doc = "Checkpoints of a long run, continued with `yee run DECK --restart CKPT` "
            "(docs/checkpoint.md). SIGTERM (checkpoint, then stop) and SIGUSR1 (checkpoint, "
            "go on) write one with or without this group."},
    {.path = "checkpoint.interval", .type = YEE_KT_INT, .unit = "steps", .def = "0", .dval = 0,
     .flags = YEE_R_GE, .lo = 0,
     .doc = "Steps between checkpoints (at multiples of it); 0: only on a signal."},
    {.path = "checkpoint.path", .type = YEE_KT_STRING, .unit = "-", .def = "output directory",
     .doc = "Directory of the checkpoint files, created when missing: <name>.ckpt (what "
            "--restart takes) and <name>.ckpt.<step>.r<rank>, one per MPI rank."},

    /* read by io/params.c for `yee sweep`; a single run only checks that the keys are known */
    {.path = "sweep", .type = YEE_KT_GROUP, .unit = "-", .def = "-",
     .doc = "A batch of runs for `yee sweep` (docs/sweeps.md): the rest of the deck uses the "
            "parameters as ${name} or ${expression}. Ignored by yee run."},
    {.path = "sweep.mode", .type = YEE_KT_CHOICE, .unit = "-", .def = "product",
     .choices = "product|zip",
     .doc = "product: every combination of the values (last parameter fastest); zip: the i-th "
            "values together (lists of one length)."},
    {.path = "sweep.parameters", .type = YEE_KT_LIST, .unit = "-", .def = "required",
     .doc = "The swept parameters, ( {...}, {...} )."},
    {.path = "sweep.parameters[].name", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .doc = "Name used as ${name}, [A-Za-z_][A-Za-z0-9_]*."},
    {.path = "sweep.parameters[].values", .type = YEE_KT_VALUES, .unit = "-", .def = "-",
     .doc = "The values. All integers: the parameter is an int; any float: a float; strings: "
            "text. Exactly one of values / range."},
    {.path = "sweep.parameters[].range", .type = YEE_KT_VEC3, .unit = "-", .def = "-",
     .doc = "[start, stop, step], stop included; integers give an int parameter. Exactly one of "
            "values / range."},
    {.path = "sweep.results", .type = YEE_KT_LIST, .unit = "-", .def = "()",
     .doc = "Scalar results of each job, one column each in summary.csv."},
    {.path = "sweep.results[].name", .type = YEE_KT_STRING, .unit = "-", .def = "required",
     .doc = "Column name, [A-Za-z0-9_.-]+."},
    {.path = "sweep.results[].flux", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "A flux monitor: its spectrum (normalized when the run has a reference) at one "
            "frequency, linearly interpolated. Exactly one of flux / resonance."},
    {.path = "sweep.results[].frequency", .type = YEE_KT_FLOAT, .unit = "THz", .def = "-",
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Flux result: where to read the spectrum. Exactly one of frequency / wavelength."},
    {.path = "sweep.results[].wavelength", .type = YEE_KT_FLOAT, .unit = "um", .def = "-",
     .flags = YEE_R_GT, .lo = 0,
     .doc = "Flux result: where to read the spectrum, vacuum wavelength."},
    {.path = "sweep.results[].resonance", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "A probe: harminv on its time series; the mode with the largest amplitude."},
    {.path = "sweep.results[].what", .type = YEE_KT_CHOICE, .unit = "-", .def = "frequency",
     .choices = "frequency|wavelength|Q|decay",
     .doc = "Resonance result: frequency (THz), wavelength (um), Q or decay (1/fs)."},
    {.path = "sweep.results[].component", .type = YEE_KT_STRING, .unit = "-", .def = "first",
     .doc = "Resonance result: the probe component analysed (Ex ... Hz)."},
    {.path = "sweep.results[].fmin", .type = YEE_KT_FLOAT, .unit = "THz", .def = "-",
     .flags = YEE_R_GE, .lo = 0, .doc = "Resonance result: lower end of the search band."},
    {.path = "sweep.results[].fmax", .type = YEE_KT_FLOAT, .unit = "THz", .def = "Nyquist",
     .flags = YEE_R_GT, .lo = 0, .doc = "Resonance result: upper end of the search band."},
    {.path = "sweep.results[].start", .type = YEE_KT_FLOAT, .unit = "fs", .def = "0", .dval = 0,
     .flags = YEE_R_GE, .lo = 0,
     .doc = "Resonance result: analyse the series from this time on (after the source)."},
    {.path = "sweep.slurm", .type = YEE_KT_GROUP, .unit = "-", .def = "-",
     .doc = "Resources of each job in `yee sweep --slurm` scripts (flags override them)."},
    {.path = "sweep.slurm.time", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --time, e.g. \"02:00:00\"."},
    {.path = "sweep.slurm.partition", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --partition."},
    {.path = "sweep.slurm.account", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --account."},
    {.path = "sweep.slurm.memory", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "#SBATCH --mem, e.g. \"16G\"."},
    {.path = "sweep.slurm.gpus", .type = YEE_KT_INT, .unit = "-", .def = "0", .dval = 0,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 0, .hi = 100000,
     .doc = "GPUs per job: #SBATCH --gres=gpu:N."},
    {.path = "sweep.slurm.cpus", .type = YEE_KT_INT, .unit = "-", .def = "1", .dval = 1,
     .flags = YEE_R_GE | YEE_R_LE, .lo = 1, .hi = 100000,
     .doc = "#SBATCH --cpus-per-task (and OMP_NUM_THREADS)."},
    {.path = "sweep.slurm.mpi", .type = YEE_KT_STRING, .unit = "-", .def = "detected",
     .doc = "srun --mpi plugin of each task (pmix, pmi2, ...); by default the best of "
            "`srun --mpi=list` for the MPI library yee was built with."},
    {.path = "sweep.slurm.checkpoint_margin", .type = YEE_KT_INT, .unit = "s", .def = "120",
     .dval = 120, .flags = YEE_R_GE | YEE_R_LE, .lo = 0, .hi = 65535,
     .doc = "#SBATCH --signal=B:TERM@S: S seconds before its time limit a task checkpoints its "
            "run and requeues itself (0: no signal, no requeue)."},
    {.path = "sweep.slurm.setup", .type = YEE_KT_STRING, .unit = "-", .def = "-",
     .doc = "Shell lines run before each job, e.g. \"module load cuda\"."},
};

#define NSCHEMA ((int)(sizeof schema / sizeof schema[0]))

static const char *const key_type_names[] = {
    "group", "list", "int", "float", "bool", "string", "string", "float[3]", "float|float[3]",
    "int|int[6]", "string[]", "float[2][]", "int[3]", "float[]|string[]"};

const yee_deck_key *yee_schema_find(const char *path)
{
    for (int i = 0; i < NSCHEMA; i++)
        if (strcmp(schema[i].path, path) == 0)
            return &schema[i];
    return NULL;
}

const yee_deck_key *yee_schema_at(int i)
{
    return i >= 0 && i < NSCHEMA ? &schema[i] : NULL;
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

void yee_schema_range_text(const yee_deck_key *k, char *buf, size_t n)
{
    unsigned f = k->flags;
    buf[0] = '\0';
    if ((f & (YEE_R_GT | YEE_R_GE)) && (f & (YEE_R_LT | YEE_R_LE)))
        snprintf(buf, n, "in %c%g, %g%c", (f & YEE_R_GT) ? '(' : '[', k->lo, k->hi,
                 (f & YEE_R_LT) ? ')' : ']');
    else if (f & (YEE_R_GT | YEE_R_GE))
        snprintf(buf, n, "%s %g", (f & YEE_R_GT) ? ">" : ">=", k->lo);
    else if (f & (YEE_R_LT | YEE_R_LE))
        snprintf(buf, n, "%s %g", (f & YEE_R_LT) ? "<" : "<=", k->hi);
    else if (f & YEE_R_NONZERO)
        snprintf(buf, n, "nonzero");
    if ((f & YEE_R_NONZERO) && (f & (YEE_R_GT | YEE_R_GE | YEE_R_LT | YEE_R_LE))) {
        const size_t len = strlen(buf);
        snprintf(buf + len, n - len, ", nonzero");
    }
}

void yee_deck_print_keys(FILE *out)
{
    for (int i = 0; i < NSCHEMA; i++) {
        const yee_deck_key *k = &schema[i];
        char range[64];
        yee_schema_range_text(k, range, sizeof range);
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

const char *yee_schema_suggest(const char *parent, const char *name)
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

int yee_schema_choice_index(const char *choices, const char *v, char *hint, size_t n)
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
