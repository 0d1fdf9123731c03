"""yee.errors -- what the module raises. The message is yee's own: deck errors one per line as
`file:line: error: key: what (got X)` (or `--set key=value: error: ...` for an override)."""


class YeeError(Exception):
    """Base of yee's errors."""


class DeckError(YeeError):
    """The deck or an override is invalid, or the deck file cannot be read."""


class RunError(YeeError):
    """The run failed: backend, numerics (NaN, blow-up), output files."""
