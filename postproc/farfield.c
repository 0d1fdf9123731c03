/* postproc/farfield.c -- `yee farfield` (postproc/farfield.h): reads a closed flux box's saved
 * face fields, forms the equivalent currents on each face's own nodes and sums the radiation
 * vectors N and L per direction and frequency. Options are described in app/commands.c.
 */
#include "postproc/farfield.h"

#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/yee_num.h"
#include "io/h5out.h"
#include "io/h5read.h"
#include "model/config.h"

static const char *const comp_names[6] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

/* The currents on one node set of a face: J along axis ja and M along axis ma, per frequency
 * (nfreq x n, already carrying the sign of n x H and -n x E), at positions pos (3n, um) with
 * area weights w (n, um^2). */
typedef struct current_set {
    int64_t n;
    int ja, ma;
    double *pos, *w;
    double complex *j, *m;
} current_set;

typedef struct farfield_cli {
    const char *run, *monitor, *out, *csv;
    double *theta, *phi; /* degrees; owned */
    int nth, nph;
    double r_um, index;  /* index < 0: from the file */
    int quiet;
} farfield_cli;

static void usage(FILE *out)
{
    fputs("usage: yee farfield RUN.h5 --monitor BOX [options] (see yee farfield --help)\n", out);
}

/* "START:STOP:N" (N evenly spaced values, ends included) or "A,B,C"; degrees. */
static int parse_angles(const char *text, double lo, double hi, double **out, int *n)
{
    double a = 0, b = 0;
    int count = 0;
    char tail = 0;
    if (sscanf(text, "%lf:%lf:%d%c", &a, &b, &count, &tail) == 3) {
        if (count < 1 || count > 100000 || a < lo || b > hi || a > b)
            return -1;
        *out = (double *)malloc((size_t)count * sizeof(double));
        if (!*out)
            return -1;
        for (int i = 0; i < count; i++)
            (*out)[i] = count == 1 ? a : a + (b - a) * i / (count - 1);
        *n = count;
        return 0;
    }
    const size_t len = strlen(text);
    double *v = (double *)malloc((len / 2 + 2) * sizeof(double));
    if (!v)
        return -1;
    int k = 0;
    const char *end = NULL;
    int ok = yee_parse_number_list(text, (int)(len / 2 + 1), v, &k, &end) == 0 && *end == '\0';
    for (int i = 0; i < k && ok; i++)
        ok = v[i] >= lo && v[i] <= hi;
    if (!ok) {
        free(v);
        return -1;
    }
    *out = v;
    *n = k;
    return 0;
}

static void free_sets(current_set *s, int n)
{
    for (int i = 0; i < n; i++) {
        free(s[i].pos);
        free(s[i].w);
        free(s[i].j);
        free(s[i].m);
    }
}

/* One node set of face `prefix`: the nodes of E component e (with the H component h that shares
 * them), J = sj * H_h along axis ja, M = sm * E_e along axis ma. */
static int load_set(yee_h5_reader *rd, const char *prefix, int e, int h, int ja, double sj,
                    int ma, double sm, int64_t nfreq, current_set *s, yee_err *err)
{
    yee_h5_block b[5];
    memset(b, 0, sizeof b);
    const char *names[5][2] = {{comp_names[e], "re"}, {comp_names[e], "im"},
                               {comp_names[h], "re"}, {comp_names[h], "im"},
                               {comp_names[e], "weight"}};
    int rc = YEE_OK;
    for (int i = 0; i < 5 && rc == YEE_OK; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s_%s", prefix, names[i][0], names[i][1]);
        rc = yee_h5_read_field_block(rd, path, &b[i], err);
        if (rc == YEE_OK && (b[i].n[0] != b[0].n[0] || b[i].n[1] != b[0].n[1] ||
                             b[i].n[2] != b[0].n[2] || b[i].nfreq != (i == 4 ? 1 : nfreq)))
            rc = yee_fail(err, YEE_ERR_IO, "'%s': %s has another shape than %s_re", prefix, path,
                          comp_names[e]);
    }
    const int64_t n = rc == YEE_OK ? b[0].n[0] * b[0].n[1] * b[0].n[2] : 0;
    memset(s, 0, sizeof *s);
    if (rc == YEE_OK) {
        s->n = n;
        s->ja = ja;
        s->ma = ma;
        s->pos = (double *)malloc((size_t)(3 * n + 1) * sizeof(double));
        s->w = (double *)malloc((size_t)(n + 1) * sizeof(double));
        s->j = (double complex *)malloc((size_t)(nfreq * n + 1) * sizeof(double complex));
        s->m = (double complex *)malloc((size_t)(nfreq * n + 1) * sizeof(double complex));
        if (!s->pos || !s->w || !s->j || !s->m)
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "'%s': %lld nodes", prefix, (long long)n);
    }
    if (rc == YEE_OK) {
        const double *sp = b[0].spacing;
        int64_t i = 0;
        for (int64_t z = 0; z < b[0].n[2]; z++)
            for (int64_t y = 0; y < b[0].n[1]; y++)
                for (int64_t x = 0; x < b[0].n[0]; x++, i++) {
                    /* the nodes' own coordinates (a graded mesh), else origin + i spacing */
                    const int64_t node[3] = {x, y, z};
                    for (int a = 0; a < 3; a++)
                        s->pos[3 * i + a] = b[0].coord[a] ? b[0].coord[a][node[a]]
                                                          : b[0].origin[a] + node[a] * sp[a];
                    /* the face's own area element: its two tangential base spacings, times
                     * the weight (which holds each node's cell in units of them) */
                    double da = 1.0;
                    for (int a = 0; a < 3; a++)
                        if (a == ja || a == ma)
                            da *= sp[a];
                    s->w[i] = b[4].data[i] * da;
                }
        for (int64_t q = 0; q < nfreq * n; q++) {
            s->j[q] = sj * (b[2].data[q] + I * b[3].data[q]);
            s->m[q] = sm * (b[0].data[q] + I * b[1].data[q]);
        }
    }
    for (int i = 0; i < 5; i++)
        yee_h5_block_free(&b[i]);
    return rc;
}

/* The six faces of flux monitor `mon`, two node sets each (sets: room for 12). */
static int load_box(yee_h5_reader *rd, const char *run, const char *mon, int64_t nfreq,
                    current_set *sets, int *nsets, yee_err *err)
{
    *nsets = 0;
    char group[256];
    snprintf(group, sizeof group, "/flux/%s", mon);
    yee_name_list faces;
    YEE_TRY(yee_h5_list(rd, group, &faces, err));
    int nfaces = 0, rc = YEE_OK;
    for (int i = 0; i < faces.n; i++)
        nfaces += strncmp(faces.name[i], "face", 4) == 0;
    yee_name_list_free(&faces);
    if (nfaces == 0)
        return yee_fail(err, YEE_ERR_IO, "flux monitor '%s' of %s has no saved face fields: set "
                        "save_fields = true on it and run again", mon, run);
    if (nfaces != 6)
        return yee_fail(err, YEE_ERR_IO, "flux monitor '%s' of %s has %d faces: the near-to-far "
                        "transform needs a closed box of six (a face on a mirror wall or across "
                        "a periodic axis is left out of the flux, and of the surface)", mon, run,
                        nfaces);
    for (int f = 0; f < 6 && rc == YEE_OK; f++) {
        char prefix[300], path[320];
        snprintf(prefix, sizeof prefix, "%s/face%d", group, f);
        snprintf(path, sizeof path, "%s/normal", prefix);
        double *normal = NULL;
        int64_t nn = 0;
        if (yee_h5_read_vector(run, path, &normal, &nn, err) < 0 || nn != 2) {
            free(normal);
            return yee_fail(err, YEE_ERR_IO, "'%s:%s' is missing: the file was written by a yee "
                            "older than yee farfield; run the deck again", run, path);
        }
        const int p = (int)normal[0], q = (p + 1) % 3, r = (p + 2) % 3;
        const double s = normal[1];
        free(normal);
        /* n = s p: n x H = s (H_q r - H_r q), -n x E = s (E_r q - E_q r) */
        rc = load_set(rd, prefix, q, 3 + r, q, -s, r, -s, nfreq, &sets[(*nsets)++], err);
        if (rc == YEE_OK)
            rc = load_set(rd, prefix, r, 3 + q, r, s, q, s, nfreq, &sets[(*nsets)++], err);
    }
    return rc;
}

/* N and L of frequency index fq, wave number k, direction rhat, positions taken from center. */
static void radiation_vectors(const current_set *sets, int nsets, int64_t fq, double k,
                              const double rhat[3], const double center[3],
                              double complex N[3], double complex L[3])
{
    for (int a = 0; a < 3; a++)
        N[a] = L[a] = 0;
    for (int s = 0; s < nsets; s++) {
        const current_set *c = &sets[s];
        double complex nj = 0, lm = 0;
        const double complex *j = c->j + fq * c->n, *m = c->m + fq * c->n;
        for (int64_t i = 0; i < c->n; i++) {
            const double *x = c->pos + 3 * i;
            const double phase = -k * (rhat[0] * (x[0] - center[0]) +
                                       rhat[1] * (x[1] - center[1]) +
                                       rhat[2] * (x[2] - center[2]));
            const double complex w = c->w[i] * (cos(phase) + I * sin(phase));
            nj += j[i] * w;
            lm += m[i] * w;
        }
        N[c->ja] += nj;
        L[c->ma] += lm;
    }
}

/* E_theta, E_phi at distance r (um) and U (power per steradian) in direction (theta, phi). */
static void far_fields(const current_set *sets, int nsets, int64_t fq, double k, double eta,
                       double theta, double phi, double r, const double center[3],
                       double complex *et, double complex *ep, double *u)
{
    const double st = sin(theta), ct = cos(theta), sp = sin(phi), cp = cos(phi);
    const double rhat[3] = {st * cp, st * sp, ct};
    const double th[3] = {ct * cp, ct * sp, -st}, ph[3] = {-sp, cp, 0.0};
    double complex N[3], L[3];
    radiation_vectors(sets, nsets, fq, k, rhat, center, N, L);
    double complex nt = 0, np = 0, lt = 0, lp = 0;
    for (int a = 0; a < 3; a++) {
        nt += N[a] * th[a];
        np += N[a] * ph[a];
        lt += L[a] * th[a];
        lp += L[a] * ph[a];
    }
    /* Balanis eq. 12-10a,b with j -> -i for fields ~ exp(-i w t) */
    const double complex g = I * k * cexp(I * k * r) / (4.0 * M_PI * r);
    *et = g * (lp + eta * nt);
    *ep = -g * (lt - eta * np);
    *u = k * k / (16.0 * M_PI * M_PI * eta) *
         (cabs(lp + eta * nt) * cabs(lp + eta * nt) + cabs(lt - eta * np) * cabs(lt - eta * np));
}

/* Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n; Press et al., Numerical Recipes
 * 3rd ed., sec. 4.6). */
static void gauss_legendre(int n, double *x, double *w)
{
    for (int i = 0; i < (n + 1) / 2; i++) {
        double z = cos(M_PI * (i + 0.75) / (n + 0.5)), dp = 1.0;
        for (int it = 0; it < 100; it++) {
            double p0 = 1.0, p1 = 0.0;
            for (int j = 0; j < n; j++) {
                const double p2 = p1;
                p1 = p0;
                p0 = ((2.0 * j + 1.0) * z * p1 - j * p2) / (j + 1.0);
            }
            dp = n * (z * p0 - p1) / (z * z - 1.0);
            const double dz = p0 / dp;
            z -= dz;
            if (fabs(dz) < 1e-15)
                break;
        }
        x[i] = -z;
        x[n - 1 - i] = z;
        w[i] = w[n - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

/* The power through a sphere around the box: U integrated over 4 pi, with n_theta > k R + 8
 * Gauss-Legendre points (U holds spherical harmonics up to degree ~ 2 k R for a source of
 * radius R about the center) and twice as many in phi. */
static double total_power(const current_set *sets, int nsets, int64_t fq, double k, double eta,
                          const double center[3], double radius)
{
    const int nt = (int)ceil(k * radius) + 8, np = 2 * nt + 2;
    double *x = (double *)malloc((size_t)nt * sizeof(double));
    double *w = (double *)malloc((size_t)nt * sizeof(double));
    if (!x || !w) {
        free(x);
        free(w);
        return NAN;
    }
    gauss_legendre(nt, x, w);
    double total = 0.0;
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < np; j++) {
            double complex et, ep;
            double u;
            far_fields(sets, nsets, fq, k, eta, acos(x[i]), 2.0 * M_PI * j / np, 1.0, center,
                       &et, &ep, &u);
            total += w[i] * (2.0 * M_PI / np) * u;
        }
    free(x);
    free(w);
    return total;
}

static int parse_cli(int argc, char **argv, farfield_cli *c)
{
    memset(c, 0, sizeof *c);
    c->r_um = 1e6;
    c->index = -1.0;
    yee_err err;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int more = i + 1 < argc;
        int bad = 0; /* a value that is not one: its message is in err */
        if (strcmp(a, "--monitor") == 0 && more) {
            c->monitor = argv[++i];
        } else if ((strcmp(a, "--theta") == 0 || strcmp(a, "--phi") == 0) && more) {
            const int theta = a[2] == 't';
            double **v = theta ? &c->theta : &c->phi;
            free(*v);
            *v = NULL;
            if (parse_angles(argv[++i], theta ? 0.0 : -360.0, theta ? 180.0 : 360.0, v,
                             theta ? &c->nth : &c->nph) < 0)
                bad = yee_fail(&err, YEE_ERR_USAGE, "%s wants degrees as START:STOP:N or A,B,C "
                               "in [%s] (got '%s')", a, theta ? "0, 180" : "-360, 360",
                               argv[i]);
        } else if (strcmp(a, "--out") == 0 && more) {
            c->out = argv[++i];
        } else if (strcmp(a, "--csv") == 0 && more) {
            c->csv = argv[++i];
        } else if (strcmp(a, "--r") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &c->r_um, &err);
        } else if (strcmp(a, "--index") == 0 && more) {
            bad = yee_parse_double(a, argv[++i], 0.0, YEE_NUM_ABOVE, &c->index, &err);
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            c->quiet = 1;
        } else if (a[0] != '-' && !c->run) {
            c->run = a;
        } else {
            fprintf(stderr, "yee farfield: unexpected argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "yee farfield: %s\n", err.msg);
            return 2;
        }
    }
    if (!c->run || !c->monitor) {
        usage(stderr);
        return 2;
    }
    if ((!c->theta && parse_angles("0:180:37", 0.0, 180.0, &c->theta, &c->nth) < 0) ||
        (!c->phi && parse_angles("0,90", -360.0, 360.0, &c->phi, &c->nph) < 0)) {
        fprintf(stderr, "yee farfield: out of memory\n");
        return 1;
    }
    return 0;
}

/* <run without .h5>_<monitor>_farfield.<ext> */
static void default_name(const char *run, const char *mon, const char *ext, char *out, size_t cap)
{
    size_t len = strlen(run);
    if (len > 3 && strcmp(run + len - 3, ".h5") == 0)
        len -= 3;
    snprintf(out, cap, "%.*s_%s_farfield.%s", (int)len, run, mon, ext);
}

typedef struct farfield_result {
    int64_t nfreq;
    int nth, nph;
    double *freq, *theta, *phi;  /* c/um, degrees */
    double *col[5];              /* Etheta re/im, Ephi re/im, U: nfreq x nth x nph */
    double *p_far, *p_box;       /* nfreq */
} farfield_result;

static int write_outputs(const farfield_cli *c, const farfield_result *res, const char *h5,
                         const char *csv, yee_err *err)
{
    const int64_t total = res->nfreq * res->nth * res->nph;
    const yee_h5_column cols[] = {
        {"/farfield/frequency", res->nfreq, res->freq, "c/um"},
        {"/farfield/theta", res->nth, res->theta, "degrees from +z"},
        {"/farfield/phi", res->nph, res->phi, "degrees from +x towards +y"},
        {"/farfield/Etheta_re", total, res->col[0], "normalized E at distance r (nfreq x ntheta x nphi)"},
        {"/farfield/Etheta_im", total, res->col[1], NULL},
        {"/farfield/Ephi_re", total, res->col[2], NULL},
        {"/farfield/Ephi_im", total, res->col[3], NULL},
        {"/farfield/power_per_sr", total, res->col[4], "flux units per steradian"},
        {"/farfield/power_total", res->nfreq, res->p_far, "U integrated over the sphere"},
        {"/farfield/power_box", res->nfreq, res->p_box, "the flux box's own flux"},
    };
    char r_text[32], n_text[32];
    snprintf(r_text, sizeof r_text, "%.17g", c->r_um);
    snprintf(n_text, sizeof n_text, "%.17g", c->index);
    const char *names[] = {"yee_file", "run", "monitor", "r_um", "index"};
    const char *values[] = {"farfield", c->run, c->monitor, r_text, n_text};
    YEE_TRY(yee_h5_write_table(h5, cols, (int)(sizeof cols / sizeof cols[0]), names, values, 5,
                               err));
    FILE *fp = fopen(csv, "w");
    if (!fp)
        return yee_fail(err, YEE_ERR_IO, "cannot create '%s': %s", csv, strerror(errno));
    fprintf(fp, "freq_c_um,freq_THz,theta_deg,phi_deg,Etheta_re,Etheta_im,Ephi_re,Ephi_im,"
                "power_per_sr\n");
    for (int64_t q = 0, i = 0; q < res->nfreq; q++)
        for (int t = 0; t < res->nth; t++)
            for (int p = 0; p < res->nph; p++, i++)
                fprintf(fp, "%.10g,%.10g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g,%.8g\n", res->freq[q],
                        res->freq[q] * YEE_C_UM_THZ, res->theta[t], res->phi[p], res->col[0][i],
                        res->col[1][i], res->col[2][i], res->col[3][i], res->col[4][i]);
    if (fclose(fp) != 0)
        return yee_fail(err, YEE_ERR_IO, "cannot write '%s': %s", csv, strerror(errno));
    return YEE_OK;
}

static int farfield(const farfield_cli *c, farfield_result *res, yee_err *err)
{
    yee_h5_reader *rd = NULL;
    YEE_TRY(yee_h5_reader_open(c->run, &rd, err));
    double dims = 3, eps = NAN;
    yee_h5_root_doubles(rd, "dimensions", &dims, 1);
    const int have_eps = yee_h5_root_doubles(rd, "background_epsilon", &eps, 1) == 0;
    char path[320];
    snprintf(path, sizeof path, "/flux/%s/frequency", c->monitor);
    int rc = YEE_OK;
    double index = c->index;
    if (dims != 3)
        rc = yee_fail(err, YEE_ERR_IO, "%s is a 2-D run: yee farfield transforms 3-D runs only "
                      "(a 2-D far field needs the 2-D Green's function)", c->run);
    else if (index < 0 && !(have_eps && eps >= 1.0))
        rc = yee_fail(err, YEE_ERR_IO, "%s does not say a real background permittivity (%s): "
                      "give the medium's refractive index with --index", c->run,
                      have_eps ? "the background is dispersive, lossy or anisotropic"
                               : "written by an older yee");
    if (index < 0)
        index = sqrt(eps);
    yee_name_list mons = {0, NULL};
    if (rc == YEE_OK && (rc = yee_h5_list(rd, "/flux", &mons, err)) == YEE_OK) {
        int found = 0;
        char have[512] = "";
        for (int i = 0; i < mons.n; i++) {
            found |= strcmp(mons.name[i], c->monitor) == 0;
            snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s", i ? ", " : "",
                     mons.name[i]);
        }
        if (!found)
            rc = yee_fail(err, YEE_ERR_IO, "%s has no flux monitor '%s' (it has: %s)", c->run,
                          c->monitor, mons.n ? have : "none");
        yee_name_list_free(&mons);
    }
    int64_t nfreq = 0;
    if (rc == YEE_OK)
        rc = yee_h5_read_vector(c->run, path, &res->freq, &nfreq, err);
    res->nfreq = nfreq;
    snprintf(path, sizeof path, "/flux/%s/flux", c->monitor);
    int64_t nbox = 0;
    if (rc == YEE_OK)
        rc = yee_h5_read_vector(c->run, path, &res->p_box, &nbox, err);
    current_set sets[12];
    int nsets = 0;
    if (rc == YEE_OK)
        rc = load_box(rd, c->run, c->monitor, nfreq, sets, &nsets, err);
    yee_h5_reader_close(rd);
    const int64_t total = nfreq * res->nth * res->nph;
    for (int i = 0; i < 5 && rc == YEE_OK; i++)
        if (!(res->col[i] = (double *)malloc((size_t)(total + 1) * sizeof(double))))
            rc = YEE_FAIL(err, YEE_ERR_NOMEM, "%lld far-field values", (long long)total);
    if (rc == YEE_OK && !(res->p_far = (double *)malloc((size_t)(nfreq + 1) * sizeof(double))))
        rc = YEE_FAIL(err, YEE_ERR_NOMEM, "%lld frequencies", (long long)nfreq);
    if (rc == YEE_OK) {
        /* the sphere's center and radius for the power integral: the nodes' bounding box */
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int s = 0; s < nsets; s++)
            for (int64_t i = 0; i < sets[s].n; i++)
                for (int a = 0; a < 3; a++) {
                    lo[a] = fmin(lo[a], sets[s].pos[3 * i + a]);
                    hi[a] = fmax(hi[a], sets[s].pos[3 * i + a]);
                }
        double center[3], radius = 0.0;
        for (int a = 0; a < 3; a++) {
            center[a] = 0.5 * (lo[a] + hi[a]);
            radius += 0.25 * (hi[a] - lo[a]) * (hi[a] - lo[a]);
        }
        radius = sqrt(radius);
        const double origin[3] = {0.0, 0.0, 0.0}, eta = 1.0 / index;
        for (int64_t q = 0, i = 0; q < nfreq; q++) {
            const double k = 2.0 * M_PI * res->freq[q] * index;
            for (int t = 0; t < res->nth; t++)
                for (int p = 0; p < res->nph; p++, i++) {
                    double complex et, ep;
                    far_fields(sets, nsets, q, k, eta, res->theta[t] * M_PI / 180.0,
                               res->phi[p] * M_PI / 180.0, c->r_um, origin, &et, &ep,
                               &res->col[4][i]);
                    res->col[0][i] = creal(et);
                    res->col[1][i] = cimag(et);
                    res->col[2][i] = creal(ep);
                    res->col[3][i] = cimag(ep);
                }
            res->p_far[q] = total_power(sets, nsets, q, k, eta, center, radius);
        }
    }
    free_sets(sets, nsets);
    return rc;
}

int yee_farfield_main(int argc, char **argv)
{
    farfield_cli c;
    int rc = parse_cli(argc, argv, &c);
    farfield_result res;
    memset(&res, 0, sizeof res);
    res.theta = c.theta; /* res owns them from here */
    res.phi = c.phi;
    res.nth = c.nth;
    res.nph = c.nph;
    if (rc) {
        free(res.theta);
        free(res.phi);
        return rc;
    }
    yee_err err;
    err.msg[0] = '\0';
    char h5[1024], csv[1024];
    default_name(c.run, c.monitor, "h5", h5, sizeof h5);
    default_name(c.run, c.monitor, "csv", csv, sizeof csv);
    rc = farfield(&c, &res, &err);
    if (rc == YEE_OK)
        rc = write_outputs(&c, &res, c.out ? c.out : h5, c.csv ? c.csv : csv, &err);
    if (rc == YEE_OK && !c.quiet) {
        for (int64_t q = 0; q < res.nfreq; q++)
            printf("f %.6g c/um (%.6g THz): radiated %.6g (far field over 4 pi), box flux %.6g, "
                   "ratio %.5f\n", res.freq[q], res.freq[q] * YEE_C_UM_THZ, res.p_far[q],
                   res.p_box[q], res.p_far[q] / res.p_box[q]);
        printf("wrote %s and %s\n", c.out ? c.out : h5, c.csv ? c.csv : csv);
    }
    if (rc < 0)
        fprintf(stderr, "yee farfield: %s\n", err.msg);
    free(res.freq);
    free(res.theta);
    free(res.phi);
    for (int i = 0; i < 5; i++)
        free(res.col[i]);
    free(res.p_far);
    free(res.p_box);
    return rc < 0 ? 1 : 0;
}
