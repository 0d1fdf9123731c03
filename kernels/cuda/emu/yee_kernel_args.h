/* kernels/cuda/emu/yee_kernel_args.h -- the device pointers inside yee's kernel argument structs,
 * for the emulated launch's argument check (cuda_runtime.h, yee_emu::kernel_arg).
 *
 * A struct passed by value to a kernel carries device pointers the launch cannot see by itself;
 * each overload here names them, so that a host pointer left in one (a table copied without its
 * device twin, a member never set) is reported at the launch that passes it. A struct with
 * pointers that is added to a kernel's parameters gets its overload here. Included before the
 * .cu by kernels/cuda/emu/rewrite.cmake; found by argument-dependent lookup.
 */
#ifndef YEE_CUDA_EMU_KERNEL_ARGS_H
#define YEE_CUDA_EMU_KERNEL_ARGS_H

#include "cuda_runtime.h"
#include "kernels/backend.h"

inline void kernel_arg(yee_emu::arg_checker &c, const yee_fields &f)
{
    static const char *e[3] = {"e[0]", "e[1]", "e[2]"}, *h[3] = {"h[0]", "h[1]", "h[2]"};
    for (int a = 0; a < 3; a++) {
        c.pointer(f.e[a], e[a]);
        c.pointer(f.h[a], h[a]);
    }
}

inline void kernel_arg(yee_emu::arg_checker &c, const yee_media &m)
{
    static const char *mat[3] = {"mat[0]", "mat[1]", "mat[2]"};
    for (int a = 0; a < 3; a++)
        c.pointer(m.mat[a], mat[a]);
    c.pointer(m.ca, "ca");
    c.pointer(m.cb, "cb");
}

inline void kernel_arg(yee_emu::arg_checker &c, const yee_lines &l)
{
    static const char *ie[3] = {"ie[0]", "ie[1]", "ie[2]"}, *ih[3] = {"ih[0]", "ih[1]", "ih[2]"};
    for (int a = 0; a < 3; a++) {
        c.pointer(l.ie[a], ie[a]);
        c.pointer(l.ih[a], ih[a]);
    }
}

inline void kernel_arg(yee_emu::arg_checker &c, const yee_cpml_axis &p)
{
    c.pointer(p.be, "be");
    c.pointer(p.ae, "ae");
    c.pointer(p.bh, "bh");
    c.pointer(p.ah, "ah");
}

#endif
