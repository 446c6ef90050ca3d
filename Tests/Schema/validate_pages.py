#!/usr/bin/env python3
"""Validates pages against a page schema with Python's jsonschema (PyPI; Scripts/setup installs it), as an
editor would: the schema itself must be valid draft 2020-12, then each page is validated.

    validate_pages.py SCHEMA PAGE...

Prints one line per error, `PAGE: PATH: MESSAGE` (PATH in floorhost's form: floors[3].colums), then `ok: N
pages` or `N errors in M pages`. Exit status 0 when every page is valid, 1 otherwise, 2 for a bad schema.
"""
import json
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError


def path_text(path):
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (("." if out else "") + part)
    return out or "(page)"


def leaves(error):
    """The innermost errors of an if/then or anyOf, which name the field at fault."""
    if not error.context:
        yield error
        return
    for sub in error.context:
        yield from leaves(sub)


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        print(f"{sys.argv[1]}: not a valid draft 2020-12 schema: {error.message}")
        return 2
    validator = Draft202012Validator(schema)
    errors = 0
    for page in sys.argv[2:]:
        with open(page) as f:
            document = json.load(f)
        for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path))):
            for leaf in leaves(error):
                errors += 1
                print(f"{page}: {path_text(leaf.absolute_path)}: {leaf.message}")
    pages = len(sys.argv) - 2
    print(f"ok: {pages} pages" if errors == 0 else f"{errors} errors in {pages} pages")
    return 0 if errors == 0 else 1


sys.exit(main())
