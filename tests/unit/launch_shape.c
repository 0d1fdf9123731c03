/* tests/unit/launch_shape.c -- the CUDA backend's thread blocks fit the box they cover
 * (kernels/cuda/launch_shape.h); host arithmetic only, so it runs in every build.
 *
 * For boxes from 1 x 1 x 1 to 1000 x 1000 x 1000, including the one-cell-wide decks (the slab and
 * Drude validations are 1 x 1 x n), CPML slabs 6-12 cells deep and halo faces (n x m x 2), the
 * shape must be a legal launch (block axes within 1024 x 1024 x 64, at most YEE_BLOCK_THREADS
 * threads, grid y and z within 65535), cover every cell, and launch at most twice as many threads
 * as there are cells (a fixed 128 x 1 x 1 block launched 128 per cell on a one-cell-wide deck).
 */
#include <stdio.h>

#include "kernels/cuda/launch_shape.h"

int main(void)
{
    const int sizes[] = {1, 2, 3, 6, 10, 12, 31, 32, 33, 64, 65, 100, 127, 128, 129, 200, 255,
                         256, 257, 400, 800, 1000};
    const int ns = (int)(sizeof sizes / sizeof sizes[0]);
    int failures = 0;
    long checked = 0;
    double worst = 1.0;
    int worst_box[3] = {0, 0, 0};
    for (int a = 0; a < ns; a++)
        for (int b = 0; b < ns; b++)
            for (int c = 0; c < ns; c++) {
                const int n[3] = {sizes[a], sizes[b], sizes[c]};
                const yee_launch_shape s = yee_launch_shape_for(n);
                const unsigned long threads_per_block =
                    (unsigned long)s.block[0] * s.block[1] * s.block[2];
                double launched = (double)threads_per_block;
                int legal = threads_per_block <= YEE_BLOCK_THREADS && s.block[0] <= 1024 &&
                            s.block[1] <= 1024 && s.block[2] <= 64 && s.grid[1] <= 65535 &&
                            s.grid[2] <= 65535;
                for (int q = 0; q < 3; q++) {
                    legal &= s.block[q] >= 1 && s.grid[q] >= 1;
                    legal &= (unsigned long)s.grid[q] * s.block[q] >= (unsigned long)n[q];
                    launched *= s.grid[q];
                }
                const double cells = (double)n[0] * n[1] * n[2];
                const double ratio = launched / cells;
                if (ratio > worst) {
                    worst = ratio;
                    worst_box[0] = n[0];
                    worst_box[1] = n[1];
                    worst_box[2] = n[2];
                }
                if (!legal || ratio > 2.0) {
                    if (failures++ < 10)
                        printf("FAIL box %d x %d x %d: grid %u x %u x %u, block %u x %u x %u "
                               "(%s, %.2f threads per cell)\n",
                               n[0], n[1], n[2], s.grid[0], s.grid[1], s.grid[2], s.block[0],
                               s.block[1], s.block[2], legal ? "legal" : "illegal or short",
                               ratio);
                }
                checked++;
            }
    const int slab[3] = {1, 1, 800};
    const yee_launch_shape s = yee_launch_shape_for(slab);
    printf("1 x 1 x 800 (the Drude deck): grid %u x %u x %u, block %u x %u x %u\n", s.grid[0],
           s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2]);
    printf("%s: %ld boxes, %d failures; most threads per cell %.3f (box %d x %d x %d)\n",
           failures ? "FAIL" : "PASS", checked, failures, worst, worst_box[0], worst_box[1],
           worst_box[2]);
    return failures ? 1 : 0;
}
