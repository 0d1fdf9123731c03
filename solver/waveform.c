/* solver/waveform.c -- the time profiles of docs/deck.md: three closed forms and a table. */
#include "solver/waveform.h"

#include <math.h>

static const double two_pi = 6.283185307179586;

/* Linear interpolation of the (t, v) samples; zero outside them. */
static double table_value(const yee_profile *p, double t)
{
    const double *s = p->table;
    const int n = p->ntable;
    if (n < 1 || t < s[0] || t > s[2 * (n - 1)])
        return 0.0;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) { /* bisection: tables may be long */
        const int mid = (lo + hi) / 2;
        if (s[2 * mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    const double t0 = s[2 * lo], t1 = s[2 * hi];
    const double w = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
    return s[2 * lo + 1] + w * (s[2 * hi + 1] - s[2 * lo + 1]);
}

void yee_profile_iq(const yee_profile *p, double t, double *in, double *quad)
{
    const double tau = t - p->delay;
    *in = *quad = 0.0;
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN: {
        const double s = 1.0 / (two_pi * p->fwidth);
        const double x = tau / s;
        if (fabs(x) > 12.0) /* exp(-72): below float resolution of any field */
            return;
        const double env = p->amplitude * exp(-0.5 * x * x);
        *in = env * sin(two_pi * p->frequency * tau);
        *quad = env * cos(two_pi * p->frequency * tau);
        return;
    }
    case YEE_PROFILE_CW: {
        if (tau <= 0.0)
            return;
        const double w = tau >= p->ramp ? 1.0 : 0.5 * (1.0 - cos(M_PI * tau / p->ramp));
        *in = p->amplitude * w * sin(two_pi * p->frequency * tau);
        *quad = p->amplitude * w * cos(two_pi * p->frequency * tau);
        return;
    }
    case YEE_PROFILE_RICKER: {
        const double u = M_PI * p->frequency * tau;
        if (fabs(u) > 12.0)
            return;
        *in = p->amplitude * (1.0 - 2.0 * u * u) * exp(-u * u);
        return;
    }
    case YEE_PROFILE_TABLE: *in = p->amplitude * table_value(p, t); return;
    }
}

double yee_profile_value(const yee_profile *p, double t)
{
    double in, quad;
    yee_profile_iq(p, t, &in, &quad);
    return in;
}

double yee_profile_end(const yee_profile *p)
{
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN: return p->delay + 12.0 / (two_pi * p->fwidth);
    case YEE_PROFILE_RICKER: return p->delay + 12.0 / (M_PI * p->frequency);
    case YEE_PROFILE_CW: return INFINITY;
    case YEE_PROFILE_TABLE: return p->ntable > 0 ? p->table[2 * (p->ntable - 1)] : 0.0;
    }
    return INFINITY;
}

