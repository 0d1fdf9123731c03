#!/usr/bin/python3
"""Checks that docs/deck.md and the deck schema agree, and that the doc's example deck loads.

usage: check_docs.py DECK_DRIVER DOCS_MD

The schema is what `deck_driver --keys` prints (first column of each line); the docs keys are the
first cells, in backticks, of the markdown table rows. A key in one but not the other fails.
"""
import os
import re
import subprocess
import sys
import tempfile


def keys_table(text):
    """First-column keys of the table(s) whose header row starts with `| key |`."""
    keys, in_table = [], False
    for line in text.splitlines():
        if re.match(r"^\|\s*key\s*\|", line):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            in_table = False
        if in_table:
            m = re.match(r"^\|\s*`([^`]+)`\s*\|", line)
            if m:
                keys.append(m.group(1))
    return keys


def main():
    driver, docs = sys.argv[1], sys.argv[2]
    out = subprocess.run([driver, "--keys"], check=True, capture_output=True, text=True).stdout
    schema = [line.split("\t")[0] for line in out.splitlines() if line.strip()]
    bad = [line for line in out.splitlines() if line.strip() and line.count("\t") != 4]
    text = open(docs, encoding="utf-8").read()
    documented = keys_table(text)
    ok = True
    for line in bad:
        print("schema line without 5 tab-separated fields: %r" % line)
        ok = False
    for k in sorted(set(schema) - set(documented)):
        print("in the schema but not documented in %s: %s" % (docs, k))
        ok = False
    for k in sorted(set(documented) - set(schema)):
        print("documented in %s but not in the schema: %s" % (docs, k))
        ok = False
    dups = sorted({k for k in schema if schema.count(k) > 1})
    if dups:
        print("schema keys listed twice: %s" % ", ".join(dups))
        ok = False

    # the first fenced block is the example deck: it must load
    m = re.search(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S)
    if not m:
        print("no example deck in %s" % docs)
        ok = False
    else:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "example.cfg")
            with open(path, "w", encoding="utf-8") as f:
                f.write(m.group(1))
            r = subprocess.run([driver, path], capture_output=True, text=True)
            if r.returncode != 0:
                print("the example deck in %s does not load:\n%s" % (docs, r.stderr))
                ok = False
    if ok:
        print("docs in sync: %d keys" % len(schema))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
