/* tests/output/vtk_roundtrip.c -- writes a 5 x 4 x 3 field with value 100 k + 10 j + i + 0.5
 * through io/vtk so check_vtk.py can read it back with VTK's own legacy reader.
 *
 *   vtk_roundtrip OUT.vtk
 */
#include <stdio.h>

#include "io/vtk.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: vtk_roundtrip OUT.vtk\n");
        return 2;
    }
    const int64_t n[3] = {5, 4, 3};
    const double origin[3] = {-0.5, 0.25, 1.0};
    const double spacing[3] = {0.1, 0.2, 0.3};
    yee_real data[5 * 4 * 3];
    size_t q = 0;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 5; i++)
                data[q++] = (yee_real)(100 * k + 10 * j + i + 0.5);
    yee_err err = {{0}};
    /* a title with a newline and a name with a space: both must be sanitized into one token/line */
    int rc = yee_vtk_write_points(argv[1], "roundtrip\nsecond line", "E x", n, origin, spacing,
                                  NULL, data, &err);
    if (rc != YEE_OK) {
        fprintf(stderr, "FAIL vtk_write: %s\n", err.msg);
        return 1;
    }
    /* an unwritable path must be YEE_ERR_IO with the path in the message */
    rc = yee_vtk_write_points("/nonexistent-dir/x.vtk", "t", "Ex", n, origin, spacing, NULL, data,
                              &err);
    if (rc != YEE_ERR_IO) {
        fprintf(stderr, "FAIL vtk_error: rc=%d\n", rc);
        return 1;
    }
    printf("vtk error path: %s\n", err.msg);
    printf("wrote %s\n", argv[1]);
    return 0;
}
