"""AccaSim on one SWF trace, for `cargo xtask bench`: FIFO dispatcher, first-fit
allocator, one node of one core per processor of the trace (its `MaxProcs` header
line, else `MaxNodes`), no dispatching plan, no statistics file.

Usage: accasim_driver.py TRACE.swf RESULTS_DIR

TRACE.swf must be plain text (AccaSim 1.1.3 does not read gzip). RESULTS_DIR receives
the system configuration AccaSim needs and nothing else. The last line on stdout is
one JSON object: jobs loaded, dispatched and rejected, the processor count, and the
seconds spent in the simulation proper (the caller times the whole process).
"""

import collections
import collections.abc
import json
import os
import re
import sys
import time

# AccaSim 1.1.3 imports `collections.Mapping`, which Python 3.10 removed.
collections.Mapping = collections.abc.Mapping

from accasim.base.allocator_class import FirstFit  # noqa: E402
from accasim.base.scheduler_class import FirstInFirstOut  # noqa: E402
from accasim.base.simulator_class import Simulator  # noqa: E402

HEADER_PROCESSORS = re.compile(r"^\s*;\s*Max(Procs|Nodes)\s*:\s*(\d+)")


def processors(trace):
    """The trace's processor count from its header comments (MaxProcs before MaxNodes)."""
    found = {}
    with open(trace) as lines:
        for line in lines:
            if not line.lstrip().startswith(";"):
                break
            match = HEADER_PROCESSORS.match(line)
            if match:
                found[match.group(1)] = int(match.group(2))
    count = found.get("Procs") or found.get("Nodes")
    if not count:
        sys.exit(f"{trace}: no MaxProcs or MaxNodes header line")
    return count


def system_config(results, count):
    """One group of single-core nodes, `count` of them, as AccaSim's JSON config."""
    path = os.path.join(results, "sys_config.json")
    with open(path, "w") as out:
        json.dump({"groups": {"node": {"core": 1}}, "resources": {"node": count}}, out)
    return path


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    trace, results = sys.argv[1], sys.argv[2]
    os.makedirs(results, exist_ok=True)
    count = processors(trace)
    config = system_config(results, count)
    start = time.perf_counter()
    simulator = Simulator(
        trace,
        config,
        FirstInFirstOut(FirstFit()),
        scheduling_output=False,
        statistics_output=False,
        show_statistics=False,
        RESULTS_FOLDER_PATH=results,
        LOG_LEVEL="WARNING",
    )
    simulator.start_simulation()
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "jobs_loaded": simulator.loaded_jobs,
                "jobs_dispatched": simulator.dispatched_jobs,
                "jobs_rejected": simulator.rejected_jobs,
                "processors": count,
                "simulation_s": seconds,
            }
        )
    )


if __name__ == "__main__":
    main()
