/* kernels/cuda/launch_shape.h -- the thread blocks that cover a box of cells.
 *
 * One thread per cell, x fastest within a block so that a warp reads contiguous memory. The block
 * follows the box: a row longer than YEE_BLOCK_THREADS is split evenly between the fewest blocks
 * that hold it; a shorter one (a CPML slab 10 cells deep, a deck one cell wide, a face of the
 * halo) shares its block with the next rows, then the next planes. So no launch leaves more than
 * about half of its threads idle (tests/unit/launch_shape.c), where a fixed 128 x 1 x 1 block
 * left 127 of 128 idle on a one-cell-wide deck. Host code only; C and C++ (nvcc and the
 * emulated build) alike.
 */
#ifndef YEE_KERNELS_CUDA_LAUNCH_SHAPE_H
#define YEE_KERNELS_CUDA_LAUNCH_SHAPE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block the shapes aim at (at most; fewer where the box is smaller). */
#define YEE_BLOCK_THREADS 128

typedef struct yee_launch_shape {
    unsigned grid[3];
    unsigned block[3];
} yee_launch_shape;

static inline unsigned yee_shape_ceil_div(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

/* Blocks for count[0] x count[1] x count[2] cells (each >= 1). */
static inline yee_launch_shape yee_launch_shape_for(const int count[3])
{
    yee_launch_shape s;
    const unsigned max_block[3] = {1024, 1024, 64}; /* CUDA's limits per block axis */
    unsigned left = YEE_BLOCK_THREADS;
    for (int a = 0; a < 3; a++) {
        const unsigned n = count[a] > 0 ? (unsigned)count[a] : 1u;
        const unsigned cap = left < max_block[a] ? left : max_block[a];
        unsigned b = n < cap ? n : cap;
        if (b == 0)
            b = 1;
        /* the same number of blocks, each as small as covers n: no mostly empty last block */
        const unsigned g = yee_shape_ceil_div(n, b);
        b = yee_shape_ceil_div(n, g);
        s.block[a] = b;
        s.grid[a] = yee_shape_ceil_div(n, b);
        left /= b;
        if (left == 0)
            left = 1;
    }
    return s;
}

#ifdef __cplusplus
}
#endif

#endif
