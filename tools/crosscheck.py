#!/usr/bin/env python3
"""An independent implementation of the admission rules, to cross-check the kernel.

Reads a trace (SWF, plain or gzipped) and the JSON-lines export of a host-sim log
made from it, and checks, without any of the project's Rust code:

1. the submits in the log are the trace's usable jobs (run time > 0, submit >= 0),
   in (submit time, line) order, with times relative to the first usable job;
2. re-running the rules (README, "The model") on those submits gives the same
   accept/reject decision and the same machine for every job.

Usage: crosscheck.py TRACE EXPORT.jsonl
Exit 0 when everything matches; otherwise the first mismatch is printed.
Windows (reset records) are supported: each window restarts from an empty system.
"""

import bisect
import gzip
import json
import sys


def read_trace(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    jobs = []
    with opener(path, "rt") as f:
        for line_no, line in enumerate(f, 1):
            fields = line.split()
            if not fields or line.lstrip().startswith(";"):
                continue
            job, submit, run = int(fields[0]), float(fields[1]), float(fields[3])
            submit, run = round_half_away(submit), round_half_away(run)
            if run <= 0 or submit < 0:
                continue
            jobs.append((submit, line_no, job, run))
    jobs.sort()
    first = jobs[0][0] if jobs else 0
    return [(job, submit - first, run) for submit, _, job, run in jobs]


def round_half_away(x):
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


class Machines:
    def __init__(self, count, capacity):
        self.capacity = capacity
        self.queues = [[] for _ in range(count)]  # entries [deadline, remaining, job]
        self.clocks = [0] * count

    def advance(self, t):
        for i, q in enumerate(self.queues):
            clock = self.clocks[i]
            while q:
                head = q[0]
                if clock + head[1] <= t:
                    clock += head[1]
                    q.pop(0)
                else:
                    head[1] -= t - clock
                    break
            self.clocks[i] = t

    def submit(self, t, job, p, deadline):
        full_seen = False
        for i, q in enumerate(self.queues):
            deadlines = [e[0] for e in q]
            pos = bisect.bisect_right(deadlines, deadline)
            finish = t + sum(e[1] for e in q[:pos]) + p
            ok = finish <= deadline
            if ok:
                for e in q[pos:]:
                    finish += e[1]
                    if finish > e[0]:
                        ok = False
                        break
            if not ok:
                continue
            if len(q) >= self.capacity:
                full_seen = True
                continue
            q.insert(pos, [deadline, p, job])
            return ("accept", i)
        return ("reject", "queue_full" if full_seen else "no_feasible_machine")


def main(trace_path, export_path):
    trace = read_trace(trace_path)
    with open(export_path) as f:
        header = json.loads(f.readline())
        records = [json.loads(line) for line in f]
    levels = header["levels"]
    machines = Machines(header["machines"], header["queue_capacity"])
    submits = [r for r in records if r["kind"] == "submit"]
    windowed = header.get("window_ticks") is not None
    if not windowed:
        logged = [(r["job"], r["t"], r["p"]) for r in submits]
        if logged != trace:
            first = next(i for i, (a, b) in enumerate(zip(logged + [None] * len(trace), trace)) if a != b)
            print(f"submit {first}: log has {logged[first] if first < len(logged) else None}, trace gives {trace[first]}")
            return 1
    pending = None
    checked = accepted = 0
    for r in records:
        kind = r["kind"]
        if kind == "reset":
            machines = Machines(header["machines"], header["queue_capacity"])
        elif kind == "advance":
            machines.advance(r["t"])
        elif kind == "submit":
            t, job, p, level = r["t"], r["job"], r["p"], r["level"]
            machines.advance(t)
            sf = levels[level]["slack_milli"]
            deadline = t + (sf * p + 999) // 1000
            pending = (job, machines.submit(t, job, p, deadline))
        elif kind in ("accept", "reject"):
            job, expected = pending
            got = ("accept", r["machine"]) if kind == "accept" else ("reject", r["reason"])
            if r["job"] != job or got != expected:
                print(f"record {r['seq']}: job {r['job']}: log says {got}, the rules give {expected} for job {job}")
                return 1
            checked += 1
            accepted += kind == "accept"
    print(f"ok: {checked} decisions match ({accepted} accepted), submits match the trace: {not windowed}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
