/* tests/fuzz/fuzz_deck.c -- libFuzzer target for the deck reader, validator and grid setup.
 *
 * Each input is written to a file and loaded as a deck (libconfig reads files; the path is what
 * a user would pass). A deck that validates is then turned into the static grid description of
 * a small subdomain, as `yee run` would. Any crash, sanitizer report, leak or hang is a bug: the
 * contract is that bad input gives an error message, never a crash. Build: configure with
 * -DYEE_FUZZ=ON and CC=clang (tests/fuzz/run_fuzz.sh does this for the ctest `fuzz`).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/deck.h"
#include "solver/structure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/yee-fuzz-%d.cfg", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);

    yee_config cfg;
    yee_err err;
    memset(&cfg, 0, sizeof cfg);
    if (yee_deck_load(path, NULL, 0, &cfg, &err) == YEE_OK) {
        /* grid setup of a block of at most 32 cells per axis at the domain's corner */
        int n[3], offset[3] = {0, 0, 0};
        for (int a = 0; a < 3; a++)
            n[a] = cfg.n[a] < 32 ? cfg.n[a] : 32;
        yee_structure g;
        if (yee_structure_build(&cfg, n, offset, &g, &err) == YEE_OK)
            yee_structure_free(&g);
        yee_config_free(&cfg);
    }
    return 0;
}
