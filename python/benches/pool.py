"""Two figures of the Python package, measured side by side in one run (medians of
A B A B rounds), never asserted by a test:

1. threads: ten KTH runs (the five machine-choice policies on 4 and 8 machines) one
   after another, against the same ten in a pool of ten threads. The GIL is released
   while a model runs, so the pool should use every core.
2. overhead: one KTH run (the service level on 4 machines, its log written) as the
   host-sim binary makes it, as the native call makes it (the command line run in
   process, nothing else), and as `admission_kernel.run` makes it (options into a
   command line, the summary into a dict, the Run); then the per-job frame of that run
   (the log verified, exported, read by pandas), which `run` makes only when asked.

Usage: python pool.py KTH HOST_SIM [ROUNDS]; `cargo xtask bench --python` runs it.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import admission_kernel as ak
from admission_kernel import _native

MACHINES = (4, 8)


def timed(work):
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def side_by_side(named, rounds):
    """Each of `named`'s works once per round, in turn; the medians, in seconds."""
    times = {name: [] for name, _ in named}
    for _ in range(rounds):
        for name, work in named:
            times[name].append(timed(work))
    return {name: statistics.median(spent) for name, spent in times.items()}


def threads(kth, rounds):
    configs = [(p, m) for m in MACHINES for p in ak.POLICIES]

    def one(config):
        policy, machines = config
        return ak.run("service_level", trace=kth, machines=machines, policy=policy).summary["counts"]

    def serial():
        return [one(c) for c in configs]

    def pool():
        with ThreadPoolExecutor(max_workers=len(configs)) as workers:
            return list(workers.map(one, configs))

    assert serial() == pool(), "the pool's results differ from the serial ones"
    return side_by_side([("serial", serial), ("pool", pool)], rounds)


def overhead(kth, host_sim, rounds):
    folder = tempfile.mkdtemp(prefix="admission-kernel-bench-")
    log = os.path.join(folder, "kth.log")

    def fresh():
        if os.path.exists(log):
            os.remove(log)

    def binary():
        fresh()
        args = [host_sim, "run", "--trace", kth, "--machines", "4", "--log", log, "--json"]
        subprocess.run(args, check=True, capture_output=True)

    def native():
        fresh()
        _native.command(["run", "--trace", kth, "--machines", "4", "--log", log, "--json"])

    def package():
        fresh()
        ak.run("service_level", trace=kth, machines=4, log=log)

    def jobs():
        ak.read_log(log).jobs

    named = [("binary", binary), ("native", native), ("package", package), ("jobs frame", jobs)]
    return side_by_side(named, rounds)


def main():
    kth, host_sim = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    pool = threads(kth, rounds)
    cost = overhead(kth, host_sim, rounds * 4)
    speedup = pool["serial"] / pool["pool"]
    extra = (cost["package"] - cost["native"]) / cost["native"]
    print(f"cores: {os.cpu_count()}; medians of {rounds} rounds (overhead: {rounds * 4})")
    print(f"ten KTH runs one after another  {pool['serial']:8.3f} s")
    print(f"the same in a pool of ten threads {pool['pool']:6.3f} s   speed-up {speedup:.2f}x (goal: 1.6x or more)")
    print(f"one KTH run, host-sim binary     {cost['binary'] * 1e3:8.1f} ms")
    print(f"one KTH run, native call         {cost['native'] * 1e3:8.1f} ms")
    print(f"one KTH run, admission_kernel.run {cost['package'] * 1e3:7.1f} ms   Python's part {extra:+.1%} (goal: under 10%)")
    print(f"its jobs frame (verify, export, pandas) {cost['jobs frame'] * 1e3:.1f} ms, made only when asked")
    figures = {"pool_speedup": speedup, "python_overhead": extra, **{k: v for k, v in cost.items()}}
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
