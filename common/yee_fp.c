/* common/yee_fp.c -- the solver's floating-point mode (common/yee_fp.h). */
#include "common/yee_fp.h"

#if defined(__x86_64__) || defined(__i386__)
#include <pmmintrin.h>
#include <xmmintrin.h>

void yee_fp_flush_subnormals(void)
{
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
}
#elif defined(__aarch64__)
#include <stdint.h>

void yee_fp_flush_subnormals(void)
{
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr |= (uint64_t)1 << 24; /* FZ */
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
}
#else
void yee_fp_flush_subnormals(void)
{
}
#endif
