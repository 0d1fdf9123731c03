/* io/vtk.c -- legacy VTK writer: one scalar field on a STRUCTURED_POINTS grid (uniform axes) or a
 * RECTILINEAR_GRID (a graded axis: coordinates per axis), BINARY.
 *
 * The legacy format stores binary values big-endian whatever the host, so values are byte-swapped
 * on little-endian machines, a buffer at a time (never one fwrite per value). Host memory only;
 * no MPI: the caller gathers a field onto one rank before writing it.
 */
#include "io/vtk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VTK_CHUNK 4096 /* values per fwrite */

#ifdef YEE_DOUBLE
#define VTK_TYPE "double"
#else
#define VTK_TYPE "float"
#endif

/* Shortest %g text that reads back as exactly v. */
static const char *fmt_g(char buf[32], double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Copy n values of w bytes each into out as big-endian bytes. */
static void to_big_endian(const void *in, size_t n, size_t w, unsigned char *out, int swap)
{
    memcpy(out, in, n * w);
    if (!swap)
        return;
    for (size_t v = 0; v < n; v++) {
        unsigned char *p = out + v * w;
        for (size_t a = 0, b = w - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
    }
}

/* The title is one line of at most 255 characters (format rule); anything else would break the
 * header, so control characters become spaces and the rest is cut. */
static void sanitize_title(const char *title, char out[256])
{
    size_t n = 0;
    for (const char *s = title ? title : ""; *s && n < 255; s++)
        out[n++] = ((unsigned char)*s < 32 || *s == 127) ? ' ' : *s;
    if (n == 0)
        out[n++] = 'y', out[n++] = 'e', out[n++] = 'e';
    out[n] = '\0';
}

/* A SCALARS name is one token: spaces and control characters become '_'. */
static void sanitize_name(const char *name, char out[64])
{
    size_t n = 0;
    for (const char *s = name ? name : ""; *s && n < 63; s++)
        out[n++] = ((unsigned char)*s <= 32 || *s == 127) ? '_' : *s;
    if (n == 0)
        out[n++] = 'f';
    out[n] = '\0';
}

/* One axis of a RECTILINEAR_GRID: its n coordinates as big-endian float64 (coords, or origin +
 * i spacing on a uniform axis), then a newline. Returns 0 on a write error. */
static int write_axis(FILE *fp, char axis, int64_t n, const double *coords, double origin,
                      double spacing, int swap)
{
    enum { CHUNK = 512 };
    double v[CHUNK];
    unsigned char buf[CHUNK * sizeof(double)];
    int ok = fprintf(fp, "%c_COORDINATES %lld double\n", axis, (long long)n) > 0;
    for (int64_t done = 0; ok && done < n;) {
        const size_t m = n - done < CHUNK ? (size_t)(n - done) : CHUNK;
        for (size_t i = 0; i < m; i++)
            v[i] = coords ? coords[done + (int64_t)i]
                          : origin + (double)(done + (int64_t)i) * spacing;
        to_big_endian(v, m, sizeof(double), buf, swap);
        ok = fwrite(buf, sizeof(double), m, fp) == m;
        done += (int64_t)m;
    }
    return ok && fputc('\n', fp) != EOF;
}

int yee_vtk_write_points(const char *path, const char *title, const char *field_name,
                         const int64_t n[3], const double origin[3], const double spacing[3],
                         const double *const coords[3], const yee_real *data, yee_err *err)
{
    if (n[0] < 1 || n[1] < 1 || n[2] < 1 || !data)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot write '%s': bad dimensions %lld x %lld x %lld",
                        path, (long long)n[0], (long long)n[1], (long long)n[2]);
    char ttl[256], name[64];
    sanitize_title(title, ttl);
    sanitize_name(field_name, name);
    size_t total = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];

    FILE *fp = fopen(path, "wb");
    if (!fp)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot create '%s': %s", path, strerror(errno));
    const int rectilinear = coords && (coords[0] || coords[1] || coords[2]);
    const int swap = host_is_little_endian();
    int ok = 1;
    fprintf(fp, "# vtk DataFile Version 3.0\n%s\nBINARY\nDATASET %s\n", ttl,
            rectilinear ? "RECTILINEAR_GRID" : "STRUCTURED_POINTS");
    fprintf(fp, "DIMENSIONS %lld %lld %lld\n", (long long)n[0], (long long)n[1], (long long)n[2]);
    if (rectilinear) {
        /* float64 coordinates: a fine graded cell next to a coarse one stays exact */
        for (int ax = 0; ax < 3 && ok; ax++)
            ok = write_axis(fp, "XYZ"[ax], n[ax], coords[ax], origin[ax], spacing[ax], swap);
    } else {
        char a[32], b[32], c[32];
        fprintf(fp, "ORIGIN %s %s %s\n", fmt_g(a, origin[0]), fmt_g(b, origin[1]),
                fmt_g(c, origin[2]));
        fprintf(fp, "SPACING %s %s %s\n", fmt_g(a, spacing[0]), fmt_g(b, spacing[1]),
                fmt_g(c, spacing[2]));
    }
    fprintf(fp, "POINT_DATA %zu\nSCALARS %s %s 1\nLOOKUP_TABLE default\n", total, name, VTK_TYPE);

    unsigned char buf[VTK_CHUNK * sizeof(yee_real)];
    ok = ok && !ferror(fp);
    for (size_t done = 0; ok && done < total;) {
        size_t m = total - done < VTK_CHUNK ? total - done : VTK_CHUNK;
        to_big_endian(data + done, m, sizeof(yee_real), buf, swap);
        ok = fwrite(buf, sizeof(yee_real), m, fp) == m;
        done += m;
    }
    if (ok)
        ok = fputc('\n', fp) != EOF;
    int saved = errno;
    if (fclose(fp) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (!ok)
        return YEE_FAIL(err, YEE_ERR_IO, "cannot write '%s': %s", path,
                        saved ? strerror(saved) : "write error");
    return YEE_OK;
}
