"""yee._lib -- find and load libyee (python/capi.h) with ctypes, and declare its functions.

Where the library comes from, first match wins: the file named by the environment variable
YEE_LIB; for an installed package, the libyee.so that `cmake --install` put in <libdir>/yee and
recorded in yee/_installed.py; libyee.so next to this package; the newest build*/libyee.so of
the source tree this package sits in (python/yee/ -> the repository root). Loaded once, on first
use, so that importing yee never fails for want of the library: the first call says what was
tried.
"""
import atexit
import ctypes
import glob
import os

PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_long, ctypes.c_long, ctypes.c_void_p)

# return codes of python/capi.h
OK, DECK, RUN, STOPPED, USAGE = 0, 1, 2, 3, 4

_lib = None


def installed():
    """yee._installed (paths of an installed package: LIBRARY, PROGRAM), or None in a source
    tree, which has no such file."""
    try:
        from . import _installed
    except ImportError:
        return None
    return _installed


def candidates():
    """The paths tried, in order."""
    here = os.path.dirname(os.path.abspath(__file__))
    if os.environ.get("YEE_LIB"):
        return [os.environ["YEE_LIB"]]
    inst = installed()
    if inst is not None:
        # an installed package uses its own library only: a build tree that happens to lie
        # above the site folder is not the one it was installed with
        return [inst.LIBRARY]
    out = [os.path.join(here, "libyee.so")]
    root = os.path.dirname(os.path.dirname(here))
    builds = glob.glob(os.path.join(root, "build*", "libyee.so"))
    builds.sort(key=os.path.getmtime, reverse=True)
    return out + builds


def program_path():
    """The yee program that goes with the library: YEE_BIN; the installed one recorded in
    yee/_installed.py; else the yee beside the library (a build folder). Raises OSError naming
    the path when it is not an executable file."""
    p = os.environ.get("YEE_BIN")
    if not p:
        inst = installed()
        p = inst.PROGRAM if inst is not None else os.path.join(
            os.path.dirname(library_path()), "yee")
    if not (os.path.isfile(p) and os.access(p, os.X_OK)):
        raise OSError("no yee program at %s (set YEE_BIN to its path)" % p)
    return p


def library_path():
    """The path of the libyee that is (or would be) loaded; raises OSError when none is found."""
    for p in candidates():
        if os.path.isfile(p):
            return p
    raise OSError("libyee.so not found (tried: %s); build it (cmake --build BUILD) or set "
                  "YEE_LIB to its path" % ", ".join(candidates()))


def lib():
    global _lib
    if _lib is not None:
        return _lib
    L = ctypes.CDLL(library_path())
    c_char_pp = ctypes.POINTER(ctypes.c_char_p)
    L.yee_capi_version.restype = ctypes.c_char_p
    L.yee_capi_version.argtypes = []
    L.yee_capi_check.restype = ctypes.c_int
    L.yee_capi_check.argtypes = [ctypes.c_char_p, c_char_pp, ctypes.c_int, ctypes.c_char_p,
                                 ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                 ctypes.c_size_t, ctypes.POINTER(ctypes.c_long),
                                 ctypes.POINTER(ctypes.c_double), ctypes.c_char_p,
                                 ctypes.c_size_t]
    L.yee_capi_run.restype = ctypes.c_int
    L.yee_capi_run.argtypes = [ctypes.c_char_p, c_char_pp, ctypes.c_int, ctypes.c_char_p,
                               ctypes.c_char_p, PROGRESS, ctypes.c_void_p, ctypes.c_char_p,
                               ctypes.c_size_t]
    L.yee_capi_run_ex.restype = ctypes.c_int
    L.yee_capi_run_ex.argtypes = L.yee_capi_run.argtypes[:7] + [
        ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    L.yee_capi_harminv.restype = ctypes.c_int
    L.yee_capi_harminv.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_long,
                                   ctypes.c_long, ctypes.c_double, ctypes.c_double,
                                   ctypes.c_double, ctypes.c_int, ctypes.c_double,
                                   ctypes.c_double, ctypes.POINTER(ctypes.c_double),
                                   ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_char_p,
                                   ctypes.c_size_t]
    L.yee_capi_finalize.restype = None
    L.yee_capi_finalize.argtypes = []
    atexit.register(L.yee_capi_finalize)  # ends MPI only if libyee started it
    _lib = L
    return L


def strings(items):
    """A char ** of the given str list (and the list keeping the bytes alive)."""
    b = [s.encode() for s in items]
    arr = (ctypes.c_char_p * max(1, len(b)))(*b)
    return arr, b


def path_arg(p):
    return None if p is None else os.fsencode(p)
