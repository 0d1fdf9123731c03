/* io/deck_set.h -- `--set KEY=VALUE`: one command-line override applied to a parsed deck.
 *
 * Contract: yee_deck_set_apply edits the libconfig tree before any section is read, so the
 * override is validated exactly as if the deck had said it. KEY is a path as in the docs
 * (`grid.resolution`, `sources[0].wavelength`, `sources.[0].type`, `grid.size[2]`); VALUE is an
 * integer, a float, true/false, a "quoted" or bare string, or [a, b, ...] of numbers or strings.
 * A key that does not exist is created (groups on the way too); one past the end of a list of
 * groups appends a group; a whole value is replaced, so its type may change. Each setting made
 * or edited is tagged with the argument (libconfig's per-setting hook, kept by pointer: `arg`
 * must outlive the tree), so the reader (io/deck_reader.h) places errors in it at
 * "--set ARG" instead of a deck line. Malformed arguments are reported to the reader as
 * "--set ARG: error: KEY: what"; nothing is applied then. Only io/ includes this header.
 */
#ifndef YEE_IO_DECK_SET_H
#define YEE_IO_DECK_SET_H

#include <libconfig.h>

#include "io/deck_reader.h"

void yee_deck_set_apply(yee_rd *c, config_t *cfg, const char *arg);

#endif
