"""yee.deck -- a deck to run: a libconfig file, or one written from nested dicts, plus --set
overrides.

Validation is yee's own: the deck goes through the C reader (io/deck.c) that `yee run` uses, so
an error here reads exactly as on the command line (`deck.cfg:12: error: key: what`). This
module only writes text: libconfig from Python values (to_libconfig) and --set values
(format_value). Its rules, which the reader is strict about:

- bool -> true / false (tested before int: bool is an int in Python);
- int -> 42 (an int outside 32 bits gets libconfig's L suffix);
- float -> the shortest text that reads back as the same double, always with a decimal point
  or an exponent (1.0, 2.5e-07), so libconfig never takes it for an int; NaN and inf refused;
- str -> "..." with \\ \" \n \t \r \f escaped;
- dict -> a group { key = value; ... }; list or tuple of dicts -> a list ( {...}, {...} );
  list of numbers or strings -> an array [ ... ], all floats when any element is a float
  (a libconfig array has one type); a list of lists -> a list of arrays.
numpy scalars and arrays count as their Python equivalents.
"""
import math
import numbers
import os
import re
import tempfile

from . import _lib
from .errors import DeckError, RunError

_KEY = re.compile(r"^[A-Za-z*][-A-Za-z0-9_*]*$")


def _plain(v):
    """numpy values as Python ones (without importing numpy here)."""
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):
        return v.tolist()
    return v


def format_float(x):
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise ValueError("a deck cannot hold %r" % x)
    s = repr(x)
    return s if ("." in s or "e" in s or "E" in s) else s + ".0"


def format_scalar(v):
    v = _plain(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        v = int(v)
        return "%dL" % v if not -2**31 <= v < 2**31 else "%d" % v
    if isinstance(v, numbers.Real):
        return format_float(v)
    if isinstance(v, str):
        esc = (v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\t", "\\t").replace("\r", "\\r").replace("\f", "\\f"))
        return '"%s"' % esc
    raise TypeError("a deck value must be a bool, number, string, dict or list (got %r)" % (v,))


def _array(items):
    items = [_plain(x) for x in items]
    if any(isinstance(x, float) for x in items) and all(
            isinstance(x, numbers.Real) and not isinstance(x, bool) for x in items):
        return "[" + ", ".join(format_float(x) for x in items) + "]"
    return "[" + ", ".join(format_scalar(x) for x in items) + "]"


def _value(v, indent):
    v = _plain(v)
    pad = "  " * indent
    if isinstance(v, dict):
        body = "".join("%s  %s = %s;\n" % (pad, _key(k), _value(x, indent + 1))
                       for k, x in v.items())
        return "{\n" + body + pad + "}"
    if isinstance(v, (list, tuple)):
        v = [_plain(x) for x in v]
        if v and any(isinstance(x, (dict, list, tuple)) for x in v):
            body = ",\n".join(pad + "  " + _value(x, indent + 1) for x in v)
            return "(\n" + body + "\n" + pad + ")"
        return _array(v)
    return format_scalar(v)


def _key(k):
    if not isinstance(k, str) or not _KEY.match(k):
        raise ValueError("%r is not a libconfig key (a letter, then letters, digits, - or _)"
                         % (k,))
    return k


def to_libconfig(d):
    """libconfig text of the top-level dict d (keys are sections: grid, sources, ...)."""
    if not isinstance(d, dict):
        raise TypeError("a deck is a dict of sections (got %s)" % type(d).__name__)
    return "".join("%s = %s;\n" % (_key(k), _value(v, 0)) for k, v in d.items())


def format_value(v):
    """A value as `yee run --set key=VALUE` takes it (docs/deck.md 'Overriding keys')."""
    v = _plain(v)
    if isinstance(v, (list, tuple)):
        return _array(v)
    return format_scalar(v)


class Deck:
    """A deck and its overrides. from_file / from_dict make one; set adds overrides (the same
    key set twice keeps the last); run writes the same files as `yee run`."""

    def __init__(self, path=None, text=None, overrides=()):
        if (path is None) == (text is None):
            raise ValueError("a Deck has a path or a text, not both")
        self.path = None if path is None else os.fspath(path)
        self.text = text
        self.overrides = list(overrides)

    @classmethod
    def from_file(cls, path):
        return cls(path=path)

    @classmethod
    def from_dict(cls, d):
        return cls(text=to_libconfig(d))

    def copy(self):
        return Deck(self.path, self.text, self.overrides)

    def set(self, key, value=None, *more):
        """set("grid.resolution", 20), or set("grid.resolution=20") as --set takes it. Returns
        the deck, so calls chain."""
        if more:
            raise TypeError("set(key, value) or set('key=value')")
        if value is None:
            if "=" not in key:
                raise ValueError("set(%r) wants key=value, or a value" % key)
            item = key
        else:
            item = "%s=%s" % (key, format_value(value))
        name = item.split("=", 1)[0].strip()
        self.overrides = [o for o in self.overrides if o.split("=", 1)[0].strip() != name]
        self.overrides.append(item)
        return self

    # -- talking to libyee --

    def _file(self, where):
        """The deck's file: its own, or the text written to where/deck.cfg (a run's output
        directory, so that error messages and the run name a file one can open)."""
        if self.path is not None:
            return self.path
        if where is None:
            where = tempfile.mkdtemp(prefix="yee-deck-")
        os.makedirs(where, exist_ok=True)
        p = os.path.join(where, "deck.cfg")
        with open(p, "w") as f:
            f.write(self.text)
        return p

    def check(self, out_dir=None):
        """Validate (as `yee check`) and say what a run would do: a dict with name, out_dir,
        h5 (the output file), steps and dt (c-units). Raises DeckError."""
        return self._check(self._file(out_dir), out_dir)

    def _check(self, path, out_dir):
        L = _lib.lib()
        arr, keep = _lib.strings(self.overrides)
        name = _lib.ctypes.create_string_buffer(512)
        dirb = _lib.ctypes.create_string_buffer(4096)
        steps = _lib.ctypes.c_long(0)
        dt = _lib.ctypes.c_double(0)
        err = _lib.ctypes.create_string_buffer(1 << 16)
        rc = L.yee_capi_check(os.fsencode(path), arr, len(keep), _lib.path_arg(out_dir), name,
                              len(name), dirb, len(dirb), _lib.ctypes.byref(steps),
                              _lib.ctypes.byref(dt), err, len(err))
        if rc != _lib.OK:
            raise (DeckError if rc == _lib.DECK else RunError)(err.value.decode(errors="replace"))
        d = os.fsdecode(dirb.value)
        n = name.value.decode()
        return {"name": n, "out_dir": d, "h5": os.path.join(d, n + ".h5"),
                "steps": steps.value, "dt": dt.value, "deck": path}

    def run(self, out_dir=None, backend=None, progress=None):
        """Run in this process; returns a Result (yee.result). out_dir None: the deck's
        output.directory. backend: "auto", "cpu", "cpu-reference", "cuda", or None for the
        deck's simulation.backend (as `yee run` without --backend). progress(step, steps) is
        called about every 1% of the run; a true return stops the run cleanly (the Result then
        has stopped=True and the steps so far). Raises DeckError, RunError; an exception in
        progress (KeyboardInterrupt too) stops the run and is raised again afterwards."""
        from .result import Result
        path = self._file(out_dir)
        L = _lib.lib()
        arr, keep = _lib.strings(self.overrides)
        err = _lib.ctypes.create_string_buffer(1 << 16)
        h5 = _lib.ctypes.create_string_buffer(8192)
        raised = []

        def cb(step, steps, user):
            try:
                return 1 if progress(step, steps) else 0
            except BaseException as e:  # noqa: B902 -- carried across the C frames
                raised.append(e)
                return 1

        cfunc = _lib.PROGRESS(cb) if progress else _lib.PROGRESS()
        rc = L.yee_capi_run_ex(os.fsencode(path), arr, len(keep), _lib.path_arg(out_dir),
                               backend.encode() if backend else None, cfunc, None, h5, len(h5),
                               err, len(err))
        if raised:
            raise raised[0]
        msg = err.value.decode(errors="replace")
        if rc == _lib.DECK:
            raise DeckError(msg)
        if rc not in (_lib.OK, _lib.STOPPED):
            raise RunError(msg)
        return Result(os.fsdecode(h5.value), stopped=rc == _lib.STOPPED, message=msg)
