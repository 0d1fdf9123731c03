/* common/yee_fp.h -- the floating-point mode the solver runs in.
 *
 * Subnormal floats (below 1.2e-38) are flushed to zero. Every FDTD run makes them: the numerical
 * precursor ahead of a wavefront and every ring-down decay to zero pass through them, and x86
 * cores take a microcode assist of about a hundred cycles per subnormal operand. A dipole in a
 * 137^3 box ran at 559 Mcells/s at Courant 0.99 and at 116 Mcells/s at Courant 0.5, where more
 * of the box sat in the precursor (2 threads, docs/performance.md). The values flushed are 38
 * orders of magnitude below any field of interest. The CUDA build flushes the same way
 * (nvcc -ftz=true), so both backends keep giving the same bytes.
 */
#ifndef YEE_COMMON_FP_H
#define YEE_COMMON_FP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Flush subnormal results and operands to zero in the calling thread (x86: MXCSR FTZ and DAZ;
 * AArch64: FPCR.FZ; elsewhere nothing). Threads created afterwards by this thread inherit it
 * (POSIX: a new thread takes its creator's floating-point environment). */
void yee_fp_flush_subnormals(void);

#ifdef __cplusplus
}
#endif

#endif
