"""yee -- the yee FDTD solver from Python, over libyee (python/capi.h) with ctypes.

    import yee
    deck = yee.Deck.from_file("inputs/dipole.cfg").set("simulation.time", 5.0)
    res = deck.run("out")                      # the files `yee run --out out` writes
    p = res.probe("center"); p.times_fs, p["Ez"]

Decks: Deck.from_file(path), Deck.from_dict(d), .set(key, value), .check(), .run(out_dir).
Results (yee.result.Result): probe, flux, dft, snapshot, resonances. Errors: DeckError
(the deck, `file:line: error: ...`), RunError. docs/python.md has the whole story.
"""
from .deck import Deck, to_libconfig, format_value
from .errors import YeeError, DeckError, RunError
from .result import Result, C_UM_THZ, TIME_UNIT_FS
from . import _lib


def version():
    """The version of the loaded libyee (as `yee --version`)."""
    return _lib.lib().yee_capi_version().decode()


def library_path():
    """The libyee file this module loads (YEE_LIB, next to the package, or a build tree)."""
    return _lib.library_path()


def program_path():
    """The yee program of the same build or install as the library (YEE_BIN overrides), for
    what the module leaves to the command line: yee sweep, yee resonances, yee export-vtk."""
    return _lib.program_path()


def run(deck, out_dir=None, backend=None, progress=None):
    """Run a deck (a Deck, a path or a dict): Deck.run."""
    if isinstance(deck, dict):
        deck = Deck.from_dict(deck)
    elif not isinstance(deck, Deck):
        deck = Deck.from_file(deck)
    return deck.run(out_dir, backend=backend, progress=progress)


__all__ = ["Deck", "Result", "DeckError", "RunError", "YeeError", "run", "version",
           "library_path", "program_path", "to_libconfig", "format_value", "C_UM_THZ",
           "TIME_UNIT_FS"]
