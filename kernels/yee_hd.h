/* kernels/yee_hd.h -- qualifiers that let one function body compile for host and device.
 *
 * YEE_HD marks the per-cell update functions of kernels/yee_cell.h: `static __host__ __device__
 * __forceinline__` under nvcc, `static inline` under a C or C++ compiler. YEE_RESTRICT is C99 `restrict`
 * or the C++/CUDA spelling. Shared headers stay in the C/C++ common subset (no designated
 * initializers, compound literals or VLAs) so nvcc can include them.
 */
#ifndef YEE_KERNELS_HD_H
#define YEE_KERNELS_HD_H

#include <stdint.h>

#include "common/yee_real.h"

#ifdef __CUDACC__
#define YEE_HD static __host__ __device__ __forceinline__
#define YEE_RESTRICT __restrict__
#elif defined(__cplusplus) /* the emulated CUDA build (kernels/cuda/emu) compiles as C++ */
#define YEE_HD static inline
#define YEE_RESTRICT __restrict
#else
#define YEE_HD static inline
#define YEE_RESTRICT restrict
#endif

#endif
