/* kernels/backend.c -- the registry of built-in backends and the memory model they share. */
#include "kernels/backend.h"

#include <stdio.h>
#include <string.h>

size_t yee_host_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (size_t)kib * 1024u;
}

const yee_backend_ops *yee_backend_find(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "cpu") == 0)
        return &yee_backend_cpu;
#ifdef YEE_HAVE_CUDA
    if (strcmp(name, "cuda") == 0)
        return &yee_backend_cuda;
#endif
    return NULL;
}

int yee_backend_cuda_emulated(void)
{
#ifdef YEE_CUDA_EMULATED
    return 1;
#else
    return 0;
#endif
}

#ifndef YEE_HAVE_CUDA
int yee_backend_cuda_devices(void)
{
    return 0;
}

int yee_backend_cuda_device_info(int dev, char *name, size_t cap, size_t *total,
                                 size_t *free_bytes)
{
    (void)dev;
    if (cap)
        name[0] = '\0';
    *total = *free_bytes = 0;
    return YEE_ERR_CUDA;
}
#endif

size_t yee_backend_bytes_needed(yee_dims d, int nslabs, const yee_slab *slabs)
{
    const size_t cells = (size_t)(d.n[0] + 2 * YEE_HALO) * (size_t)(d.n[1] + 2 * YEE_HALO) *
                         (size_t)(d.n[2] + 2 * YEE_HALO);
    /* six field components plus one material byte per E component */
    size_t bytes = cells * (6 * sizeof(yee_real) + 3 * sizeof(uint8_t));
    for (int s = 0; s < nslabs; s++) {
        size_t slab = 1;
        for (int a = 0; a < 3; a++)
            slab *= (size_t)(slabs[s].hi[a] - slabs[s].lo[a]);
        bytes += 4 * slab * sizeof(yee_real); /* psi: two for E, two for H */
    }
    return bytes;
}
