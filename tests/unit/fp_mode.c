/* tests/unit/fp_mode.c -- common/yee_fp.h: the CPU backend flushes subnormal floats to zero in
 * every thread that steps fields (the main thread and each OpenMP thread, also pool threads
 * that existed before the backend), results and operands both. Before the backend exists a
 * subnormal product is kept, so the check can fail. A platform without a flush mode (neither
 * x86 nor AArch64) skips.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/backend.h"
#include "tests/support/setup.h"

/* 1 when this thread flushes: a subnormal product becomes 0 (FTZ) and a subnormal operand is
 * read as 0 (DAZ; FPCR.FZ on AArch64 does both). volatile keeps the compiler from folding. */
static int flushes(void)
{
    volatile float tiny = 1e-30f, scale = 1e-10f, sub = 1e-40f, one = 1.0f;
    const float product = tiny * scale; /* 1e-40: subnormal */
    const float operand = sub * one;
    return product == 0.0f && operand == 0.0f;
}

int main(void)
{
#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
    printf("SKIP no flush-to-zero mode on this platform\n");
    return 0;
#endif
    int failures = 0, before = 0;
    /* the OpenMP pool starts here, before the backend: its threads inherit nothing from it */
#pragma omp parallel reduction(+ : before)
    before += flushes();
    if (before || flushes()) {
        printf("FAIL subnormals flushed before any backend exists: the check below proves nothing\n");
        failures++;
    }
    const int n[3] = {8, 8, 8};
    test_rng r = {0x9e3779b97f4a7c15ull};
    yee_setup s;
    yee_real coef[2];
    uint8_t *mat;
    yee_real *lines = test_one_material(&s, &r, n, coef, &mat);
    yee_err err;
    memset(&err, 0, sizeof err);
    void *ctx = NULL;
    if (yee_backend_cpu.create(&s, &ctx, &err) != 0) {
        printf("FAIL create: %s\n", err.msg);
        return 1;
    }
    if (!flushes()) {
        printf("FAIL the main thread keeps subnormals after the CPU backend was created\n");
        failures++;
    }
    int threads = 0, flushing = 0;
#pragma omp parallel reduction(+ : threads, flushing)
    {
        threads++;
        flushing += flushes();
    }
    if (flushing != threads) {
        printf("FAIL %d of %d OpenMP threads keep subnormals\n", threads - flushing, threads);
        failures++;
    }
    yee_backend_cpu.destroy(ctx);
    free(lines);
    free(mat);
    if (!failures)
        printf("PASS subnormals flushed in the main thread and %d OpenMP threads\n", threads);
    return failures ? 1 : 0;
}
