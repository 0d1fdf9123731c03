/* io/deck.h -- read a libconfig deck into a validated yee_config.
 *
 * The reader is strict: unknown keys (with a "did you mean" hint), wrong types, out-of-range
 * values, missing required keys and inconsistent combinations are all errors. Every error is
 * reported, not only the first, one per line, formatted like a compiler diagnostic:
 *   dipole.cfg:14: error: sources[0].wavelength: must be > 0 (got -1)
 * Values given with --set are reported as `--set sources[0].wavelength=-1: error: ...`.
 * The deck schema (every key, type, unit, default, range) is one table, io/deck_schema.c, which
 * the sweep reader (io/params.h) shares; docs/deck.md documents the same keys and a test keeps
 * the two in sync. The reading itself is io/deck_reader.h (typed getters, errors), io/deck_set.h
 * (--set) and the section loaders of io/deck_sections.h.
 * This module is one of the two includers of libconfig.h; its header exposes none of it.
 */
#ifndef YEE_IO_DECK_H
#define YEE_IO_DECK_H

#include <stdio.h>

#include "common/yee_err.h"
#include "model/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Load the deck at `path`, apply `noverrides` overrides of the form "key.path=value" (key paths
 * as in the docs: `grid.resolution`, `sources[0].wavelength`), validate, and fill *cfg (which the
 * caller later releases with yee_config_free). Derived values (n, dx, origin, dt, steps) are
 * computed here. Returns YEE_OK, YEE_ERR_IO (file missing/unreadable, message names it) or
 * YEE_ERR_DECK (all problems in err->msg, one per line). On failure *cfg is left freed. */
int yee_deck_load(const char *path, const char *const *overrides, int noverrides,
                  yee_config *cfg, yee_err *err);

/* Write the deck's key reference (one line per key: "key<TAB>type<TAB>unit<TAB>default<TAB>doc")
 * to out;
 * `yee deck-keys` prints it, and the docs test compares it with docs/deck.md. */
void yee_deck_print_keys(FILE *out);

#ifdef __cplusplus
}
#endif

#endif
