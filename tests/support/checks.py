"""tests/support/checks.py -- the PASS/FAIL line of one check, and the count of failed ones, for
the test scripts that print one line per check and exit 1 when any failed:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    import checks
    from checks import check
    ...
    sys.exit(1 if checks.failures else 0)
"""
failures = 0


def check(name, ok, detail=""):
    """Print `PASS|FAIL name (detail)`; count a failure; return ok."""
    global failures
    print(("PASS " if ok else "FAIL ") + name + (" (" + detail + ")" if detail else ""))
    if not ok:
        failures += 1
    return ok
