/* solver/mode_monitor.c -- mode coefficients of a flux plane (solver/mode_monitor.h): one mode
 * solve per frequency, the two overlap integrals per mode, their sum over the ranks.
 */
#include "solver/mode_monitor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/mode_solver.h"

int yee_mode_coefficients(const yee_config *cfg, const yee_monitor_cfg *mc, int axis, int P,
                          int nfreq, const double *freq, const yee_plane_pair pair[2],
                          MPI_Comm comm, double *alpha, double *neff, yee_err *err)
{
    const int nm = mc->nmodes;
    const int q = (axis + 1) % 3, r = (axis + 2) % 3;
    const double da = cfg->dx[q] * cfg->dx[r], dw = cfg->dx[axis];
    /* per mode and frequency: Int E x h_m and Int e_m x H / cos, complex */
    double *sums = (double *)calloc(4 * (size_t)nm * nfreq, sizeof(double));
    if (!sums)
        return YEE_FAIL(err, YEE_ERR_NOMEM, "mode monitor '%s'", mc->name);
    for (int i = 0; i < nm * nfreq; i++)
        neff[i] = NAN;
    int rc = YEE_OK;
    for (int fq = 0; fq < nfreq && rc == YEE_OK; fq++) {
        const yee_mode_request req = yee_mode_request_grid(cfg, axis, P, freq[fq], nm);
        yee_mode_set set;
        if ((rc = yee_modes_solve(cfg, &req, &set, err)) < 0)
            break;
        for (int k = 0; k < set.nmodes; k++) {
            const yee_mode *m = &set.modes[k];
            neff[k * nfreq + fq] = m->beta / (2 * M_PI * req.freq);
            /* beta is the difference quotient (2/dw) sin(beta_d dw/2) */
            const double s = 0.5 * m->beta * dw;
            const double cosine = s < 1.0 ? sqrt(1.0 - s * s) : 1.0;
            double *out = sums + 4 * ((size_t)k * nfreq + fq);
            for (int p = 0; p < 2; p++) {
                /* E x h . n = E_q h_r - E_r h_q: pair 0 adds, pair 1 subtracts */
                const double sign = p == 0 ? 1.0 : -1.0;
                const int ec = p == 0 ? q : r, hc = 3 + (p == 0 ? r : q);
                const yee_plane_pair *pp = &pair[p];
                const int64_t n = pp->nodes;
                for (int64_t i = 0; i < n; i++) {
                    const long mi = yee_mode_plane_index(cfg, axis, pp->node + 3 * i);
                    const double w = sign * pp->weight[i] * da;
                    const double e_re = pp->e[fq * n + i], e_im = pp->e[(nfreq + fq) * n + i];
                    const double h_re = pp->h[fq * n + i], h_im = pp->h[(nfreq + fq) * n + i];
                    out[0] += w * e_re * m->field[hc][mi];
                    out[1] += w * e_im * m->field[hc][mi];
                    out[2] += w * m->field[ec][mi] * h_re / cosine;
                    out[3] += w * m->field[ec][mi] * h_im / cosine;
                }
            }
        }
        yee_mode_set_free(&set);
    }
    /* every rank solved the same modes; a failure on one is a failure on all */
    int ok = rc == YEE_OK, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all) {
        MPI_Allreduce(MPI_IN_PLACE, sums, 4 * nm * nfreq, MPI_DOUBLE, MPI_SUM, comm);
        const double norm = 4.0; /* 2 N with N = 2 */
        for (int k = 0; k < nm; k++)
            for (int fq = 0; fq < nfreq; fq++) {
                const double *s = sums + 4 * ((size_t)k * nfreq + fq);
                double *a = alpha + 4 * ((size_t)k * nfreq + fq);
                const int have = !isnan(neff[k * nfreq + fq]);
                a[0] = have ? (s[0] + s[2]) / norm : NAN; /* forward re, im */
                a[1] = have ? (s[1] + s[3]) / norm : NAN;
                a[2] = have ? (s[0] - s[2]) / norm : NAN; /* backward re, im */
                a[3] = have ? (s[1] - s[3]) / norm : NAN;
            }
    } else if (rc == YEE_OK) {
        rc = yee_fail(err, YEE_ERR_MPI, "mode monitor '%s' failed on another rank", mc->name);
    }
    free(sums);
    return rc;
}
