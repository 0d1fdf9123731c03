/* solver/source.c -- the three time profiles of docs/deck.md, as closed-form functions. */
#include "solver/source.h"

#include <math.h>

static const double two_pi = 6.283185307179586;

double yee_profile_value(const yee_profile *p, double t)
{
    const double tau = t - p->delay;
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN: {
        const double s = 1.0 / (two_pi * p->fwidth);
        const double x = tau / s;
        if (fabs(x) > 12.0) /* exp(-72): below float resolution of any field */
            return 0.0;
        return p->amplitude * sin(two_pi * p->frequency * tau) * exp(-0.5 * x * x);
    }
    case YEE_PROFILE_CW: {
        if (tau <= 0.0)
            return 0.0;
        const double w = tau >= p->ramp ? 1.0 : 0.5 * (1.0 - cos(M_PI * tau / p->ramp));
        return p->amplitude * w * sin(two_pi * p->frequency * tau);
    }
    case YEE_PROFILE_RICKER: {
        const double u = M_PI * p->frequency * tau;
        if (fabs(u) > 12.0)
            return 0.0;
        return p->amplitude * (1.0 - 2.0 * u * u) * exp(-u * u);
    }
    }
    return 0.0;
}

double yee_profile_end(const yee_profile *p)
{
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN: return p->delay + 12.0 / (two_pi * p->fwidth);
    case YEE_PROFILE_RICKER: return p->delay + 12.0 / (M_PI * p->frequency);
    case YEE_PROFILE_CW: return INFINITY;
    }
    return INFINITY;
}

double yee_profile_fmax(const yee_profile *p)
{
    switch (p->kind) {
    case YEE_PROFILE_GAUSSIAN: return p->frequency + 3.0 * p->fwidth;
    case YEE_PROFILE_RICKER: return 3.0 * p->frequency;
    case YEE_PROFILE_CW: return p->frequency;
    }
    return p->frequency;
}
