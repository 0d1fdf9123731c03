/* tests/unit/profiles.c -- the source time profiles (solver/source.h) and the TFSF 1-D incident
 * grid (solver/tfsf.h) against closed forms. Exit 0 when every check passes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/waveform.h"

static int failures;

static void check(int ok, const char *what, double got, double want)
{
    printf("%s %s (got %.9g, want %.9g)\n", ok ? "PASS" : "FAIL", what, got, want);
    failures += !ok;
}

int main(void)
{
    /* table: linear between samples, zero outside, amplitude scales */
    double samples[] = {1.0, 0.0, 2.0, 4.0, 4.0, -2.0};
    yee_profile t;
    memset(&t, 0, sizeof t);
    t.kind = YEE_PROFILE_TABLE;
    t.amplitude = 0.5;
    t.ntable = 3;
    t.table = samples;
    check(yee_profile_value(&t, 0.5) == 0.0, "table before the first sample", yee_profile_value(&t, 0.5), 0);
    check(fabs(yee_profile_value(&t, 1.5) - 1.0) < 1e-15, "table midway 1-2", yee_profile_value(&t, 1.5), 1.0);
    check(fabs(yee_profile_value(&t, 3.0) - 0.5) < 1e-15, "table midway 2-4", yee_profile_value(&t, 3.0), 0.5);
    check(yee_profile_value(&t, 4.5) == 0.0, "table after the last sample", yee_profile_value(&t, 4.5), 0);
    check(yee_profile_end(&t) == 4.0, "table end", yee_profile_end(&t), 4.0);

    /* gaussian quadrature: in = A env sin, quad = A env cos, so in^2 + quad^2 = (A env)^2 */
    yee_profile g;
    memset(&g, 0, sizeof g);
    g.kind = YEE_PROFILE_GAUSSIAN;
    g.frequency = 1.3;
    g.fwidth = 0.4;
    g.delay = 3.0;
    g.amplitude = 2.0;
    double worst = 0.0;
    for (double tt = 0.0; tt < 6.0; tt += 0.01) {
        double in, quad;
        yee_profile_iq(&g, tt, &in, &quad);
        const double s = 1.0 / (2 * M_PI * g.fwidth);
        const double env = g.amplitude * exp(-0.5 * pow((tt - g.delay) / s, 2));
        worst = fmax(worst, fabs(hypot(in, quad) - env));
        worst = fmax(worst, fabs(in - yee_profile_value(&g, tt)));
    }
    check(worst < 1e-12, "gaussian in/quadrature envelope", worst, 0.0);
    return failures ? 1 : 0;
}
