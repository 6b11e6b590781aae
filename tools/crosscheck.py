#!/usr/bin/env python3
"""An independent implementation of the admission rules, to cross-check the kernel.

Reads a trace (SWF, plain or gzipped) and the JSON-lines export of a host-sim log
made from it, and checks, without any of the project's Rust code:

1. the submits in the log are the trace's usable jobs (run time > 0, submit >= 0),
   in (submit time, line) order, with times relative to the first usable job;
2. re-running the rules (docs/models/service_level.md, "The model") on those submits,
   under the machine-choice policy the header names (the same guide's "Policies"), gives the same
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


POLICIES = {
    "FirstFit": "first-fit",
    "BestFit": "best-fit",
    "WorstFit": "worst-fit",
    "LeastLoaded": "least-loaded",
    "RoundRobin": "round-robin",
}


class Machines:
    """The machines' queues as remaining work, re-added from the head at every test.

    The machine-choice policies, as docs/models/service_level.md's "Policies" states them:
    - first-fit: the first machine, in index order, that passes the test and has room;
    - best-fit / worst-fit: the one whose queue, with the job inserted, has the
      smallest / largest minimum over its jobs of (deadline - finish time);
    - least-loaded: the one with the least remaining work before the job;
    - round-robin: the first, trying machines from the one after the last machine
      that admitted a job (from 0 at the start of each window).
    Ties go to the lowest index.
    """

    def __init__(self, count, capacity, policy):
        self.capacity = capacity
        self.policy = policy
        # Per machine: deadlines and remaining work, in queue order.
        self.deadlines = [[] for _ in range(count)]
        self.remaining = [[] for _ in range(count)]
        self.clocks = [0] * count
        self.last = None

    def advance(self, t):
        for i, rem in enumerate(self.remaining):
            clock = self.clocks[i]
            dl = self.deadlines[i]
            while rem:
                if clock + rem[0] <= t:
                    clock += rem[0]
                    del rem[0]
                    del dl[0]
                else:
                    rem[0] -= t - clock
                    break
            self.clocks[i] = t

    def test(self, i, t, p, deadline):
        """Where the job goes on machine i, or None if it or a job behind would be late."""
        dl, rem = self.deadlines[i], self.remaining[i]
        pos = bisect.bisect_right(dl, deadline)
        finish = t + sum(rem[:pos]) + p
        if finish > deadline:
            return None
        for d, r in zip(dl[pos:], rem[pos:]):
            finish += r
            if finish > d:
                return None
        return pos

    def slack_after(self, i, t, pos, p, deadline):
        dl = self.deadlines[i][:pos] + [deadline] + self.deadlines[i][pos:]
        rem = self.remaining[i][:pos] + [p] + self.remaining[i][pos:]
        finish, least = t, None
        for d, r in zip(dl, rem):
            finish += r
            least = d - finish if least is None else min(least, d - finish)
        return least

    def submit(self, t, job, p, deadline):
        count = len(self.remaining)
        start = 0
        if self.policy == "round-robin" and self.last is not None:
            start = (self.last + 1) % count
        order = list(range(start, count)) + list(range(0, start))
        full_seen = False
        chosen = None  # (score, machine, pos)
        for i in order:
            pos = self.test(i, t, p, deadline)
            if pos is None:
                continue
            if len(self.remaining[i]) >= self.capacity:
                full_seen = True
                continue
            if self.policy in ("first-fit", "round-robin"):
                chosen = (0, i, pos)
                break
            if self.policy == "least-loaded":
                score = sum(self.remaining[i])
            elif self.policy == "best-fit":
                score = self.slack_after(i, t, pos, p, deadline)
            else:  # worst-fit: the most slack is the least of its negation
                score = -self.slack_after(i, t, pos, p, deadline)
            if chosen is None or score < chosen[0]:
                chosen = (score, i, pos)
        if chosen is None:
            return ("reject", "queue_full" if full_seen else "no_feasible_machine")
        _, i, pos = chosen
        self.deadlines[i].insert(pos, deadline)
        self.remaining[i].insert(pos, p)
        self.last = i
        return ("accept", i)


def main(trace_path, export_path):
    trace = read_trace(trace_path)
    with open(export_path) as f:
        header = json.loads(f.readline())
        records = [json.loads(line) for line in f]
    levels = header["levels"]
    policy = POLICIES.get(header.get("policy", "FirstFit"))
    if policy is None:
        print(f"header: policy {header.get('policy')!r} is not one this script implements")
        return 1

    def fresh():
        return Machines(header["machines"], header["queue_capacity"], policy)

    machines = fresh()
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
            machines = fresh()
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
    print(
        f"ok: {policy}: {checked} decisions match ({accepted} accepted), "
        f"submits match the trace: {not windowed}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
