#!/usr/bin/env python3
"""The result tables as analysis tools read them (a step of `cargo xtask verify`).

Usage: check_tables.py --csv-under DIR [DIR ...] --model NAME FOLDER [--model ...]
                       --schemas DIR --summary NAME FILE [--summary ...]

1. Every `*.csv` under each `--csv-under` folder: every row has as many fields as its
   header (read with Python's own csv module), and pandas reads it to the same shape.
2. Each `--model NAME FOLDER`, a folder holding the exports of one log:
   `header.jsonl` (the first line of `replay export`), `jobs.csv`, `segments.csv` and
   `batsim.csv` (docs/records.md). evalys loads the Batsim table; the maximum of its
   utilisation is at most the machine's processors, and its area (processor-seconds)
   equals the pieces' own; every piece lies inside its job's start and finish; and
   for a preemptive model (the service level) the pieces of every finished job add
   up to its work.
3. Each `--export FILE`, the JSON lines of `replay export`: every line one object,
   valid against its kind's part of `export.schema.json` (each kind's first 2,000
   lines, so that every kind is checked at a bounded cost).
4. Each `--summary NAME FILE`, the standard output of a `--json` run: one line, one
   JSON object, valid against `NAME.schema.json` of `--schemas` (which refers to
   `core.schema.json` there).

Exit 0 when all hold; otherwise each failure is printed and the exit status is 1.
"""

import argparse
import csv
import functools
import json
import pathlib
import sys

import jsonschema
import pandas as pd
import referencing
from evalys.jobset import JobSet

FAILURES = []


def fail(message):
    FAILURES.append(message)
    print(f"FAIL: {message}")


def check_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return fail(f"{path}: empty, not even a header")
    width = len(rows[0])
    for number, row in enumerate(rows[1:], 2):
        if len(row) != width:
            return fail(f"{path}:{number}: {len(row)} fields under a header of {width}")
    frame = pd.read_csv(path)
    if frame.shape != (len(rows) - 1, width):
        fail(f"{path}: pandas reads {frame.shape}, the file has {(len(rows) - 1, width)}")


def processors(header):
    """The processors of a log's machine, from its JSON header."""
    model = header["model"]
    if model == "ServiceLevel":
        return header["machines"]
    (name, part), = model.items()
    if name == "Tiers":
        return sum(r["nodes"] for r in part["resources"])
    return part["config"]["nodes"]


def check_model(name, folder):
    folder = pathlib.Path(folder)
    header = json.loads((folder / "header.jsonl").read_text().splitlines()[0])
    capacity = processors(header)
    jobs = pd.read_csv(folder / "jobs.csv", dtype={"start": "Int64", "finish": "Int64"})
    pieces = pd.read_csv(folder / "segments.csv")
    table = JobSet.from_csv(str(folder / "batsim.csv"))
    load = table.utilisation
    peak = int(load["load"].max())
    area = float(load["area"].sum())
    ours = float(((pieces["end"] - pieces["start"]) * pieces["size"]).sum())
    print(f"{name}: {len(jobs)} jobs, {len(pieces)} pieces, {len(table.df)} Batsim rows; "
          f"evalys peak {peak} of {capacity} processors, area {area:.0f} (ours {ours:.0f})")
    if peak > capacity:
        fail(f"{name}: evalys's utilisation peaks at {peak} on {capacity} processors")
    if abs(area - ours) > 1e-6 * max(ours, 1.0):
        fail(f"{name}: evalys's area {area} is not the pieces' {ours}")
    by_job = jobs.set_index(["window", "job"])
    spans = pieces.groupby(["window", "job"]).agg(first=("start", "min"), last=("end", "max"),
                                                  ran=("end", "sum"), began=("start", "sum"))
    joined = spans.join(by_job[["start", "finish", "work", "outcome"]], how="left")
    early = joined[joined["first"] < joined["start"]]
    if len(early):
        fail(f"{name}: {len(early)} jobs have a piece before their start, e.g. {early.index[0]}")
    done = joined[joined["outcome"] == "accepted"]
    past = done[done["last"] > done["finish"]]
    if len(past):
        fail(f"{name}: {len(past)} jobs have a piece after their finish, e.g. {past.index[0]}")
    if name == "service_level":
        short = done[(done["ran"] - done["began"]) != done["work"]]
        if len(short):
            fail(f"{name}: {len(short)} finished jobs' pieces do not add up to their work")
        preempted = int((jobs["pieces"] > 1).sum())
        print(f"{name}: {preempted} jobs ran in more than one piece, each adding up to its work")


@functools.cache
def registry_of(schemas):
    registry = referencing.Registry()
    for file in pathlib.Path(schemas).glob("*.schema.json"):
        schema = json.loads(file.read_text())
        registry = registry.with_resource(schema["$id"], referencing.Resource.from_contents(schema))
    return registry


def check_export(schemas, path):
    schema = json.loads((pathlib.Path(schemas) / "export.schema.json").read_text())
    registry = registry_of(schemas)
    seen, validators = {}, {}
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            record = json.loads(line)
            kind = record.get("kind")
            if kind not in schema["$defs"]:
                return fail(f"{path}:{number}: kind {kind!r} is not in export.schema.json")
            if seen.get(kind, 0) >= 2000:
                continue
            seen[kind] = seen.get(kind, 0) + 1
            if kind not in validators:
                part = {"$ref": f"{schema['$id']}#/$defs/{kind}"}
                validators[kind] = jsonschema.Draft202012Validator(part, registry=registry)
            error = jsonschema.exceptions.best_match(validators[kind].iter_errors(record))
            if error is not None:
                return fail(f"{path}:{number}: {kind}: {error.message[:200]}")
    print(f"{path}: {sum(seen.values())} lines of {len(seen)} kinds valid against export.schema.json")


def check_summary(schemas, name, path):
    lines = pathlib.Path(path).read_text().splitlines()
    if len(lines) != 1:
        return fail(f"{path}: {len(lines)} lines, not one JSON line")
    registry = registry_of(schemas)
    schema = json.loads((pathlib.Path(schemas) / f"{name}.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema, registry=registry)
    errors = sorted(validator.iter_errors(json.loads(lines[0])), key=lambda e: list(e.path))
    for error in errors[:5]:
        fail(f"{path}: {'/'.join(map(str, error.path)) or 'top'}: {error.message[:200]}")
    if not errors:
        print(f"{path}: valid against {name}.schema.json")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv-under", nargs="*", default=[])
    parser.add_argument("--model", nargs=2, action="append", default=[], metavar=("NAME", "FOLDER"))
    parser.add_argument("--schemas")
    parser.add_argument("--export", action="append", default=[])
    parser.add_argument("--summary", nargs=2, action="append", default=[], metavar=("NAME", "FILE"))
    args = parser.parse_args()
    files = sorted(p for folder in args.csv_under for p in pathlib.Path(folder).rglob("*.csv"))
    for path in files:
        check_csv(path)
    print(f"{len(files)} CSV files read by pandas, every row as wide as its header")
    for name, folder in args.model:
        check_model(name, folder)
    for path in args.export:
        check_export(args.schemas, path)
    for name, path in args.summary:
        check_summary(args.schemas, name, path)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
