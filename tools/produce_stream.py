#!/usr/bin/env python3
"""Make a device record stream from the JSON lines of `replay export`.

Usage: produce_stream.py EXPORT.jsonl STREAM     (EXPORT.jsonl may be `-`: standard input)

EXPORT.jsonl is what `replay export LOG` prints: the header as the first line, then
one object per record. STREAM is written as a device would write it
(docs/stream-format.md): the setup frame (the magic `ADMSTRM1`, then postcard `Setup`
made from the header's kernel version, its host version as the source, and its
model's part as the `DeviceModel`), one record frame per record (postcard `Record`,
the `Body` as "The record payload" gives it), and the end frame. Each frame is the
kind byte, the payload and the CRC-32C of both (little-endian), COBS-encoded and
ended by a zero byte. All four models have a device setup (`DeviceModel` 0 to 3).

This producer was written from docs/stream-format.md alone, and the JSON field names
of each record kind from `replay export`'s listing (replay/src/export*), as a check
that the spec is enough to write to. Only the Python 3 standard library is used.

What the stream does not carry, `replay import` cannot give back: the log it makes
has seed 0, no window, no settings, and as its one input the stream file's name and
hash. A service-level setup's `machine_capacity` and `level_capacity` (the kernel's
`M` and `L`, which decide nothing) are written as the header's machine and level
counts. Everything else, records included, comes back as it was:

    replay export LOG > a.jsonl
    python3 tools/produce_stream.py a.jsonl a.stream
    replay import a.stream --out b.log && replay verify b.log
"""

import json
import sys

MAGIC = b"ADMSTRM1"
KIND_SETUP, KIND_RECORD, KIND_END = 1, 2, 3
VERSION_MAX_BYTES, SOURCE_MAX_BYTES = 24, 48

# ---------------------------------------------------------------- postcard

LIMITS = {"u8": 0xFF, "u16": 0xFFFF, "u32": 0xFFFF_FFFF, "u64": 0xFFFF_FFFF_FFFF_FFFF}


def varint(n):
    """Unsigned LEB128: seven bits a byte, the low group first."""
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def unsigned(kind, value):
    """A `u8` as one raw byte, a wider unsigned integer as a varint."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= LIMITS[kind]:
        raise ValueError(f"{value!r} is not a {kind}")
    return bytes([value]) if kind == "u8" else varint(value)


def i32(value):
    """Zigzag, then as a `u32` varint."""
    if not -(2**31) <= value < 2**31:
        raise ValueError(f"{value!r} is not an i32")
    return varint(((value << 1) ^ (value >> 31)) & 0xFFFF_FFFF)


def boolean(value):
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not a bool")
    return b"\x01" if value else b"\x00"


def text(value, most):
    """A string: its UTF-8 length as a varint, then the bytes."""
    data = value.encode("utf-8")
    if len(data) > most:
        raise ValueError(f"{value!r} is longer than {most} bytes")
    return varint(len(data)) + data


def index(names, name):
    """An enum variant's index, by its name in the export."""
    if name not in names:
        raise ValueError(f"{name!r} is not one of {names}")
    return varint(names.index(name))


def field(kind, value):
    """One field of a record, by its type in the spec: a scalar name, `opt_u32`,
    or a list of an enum's variant names (unit variants, in index order)."""
    if isinstance(kind, list):
        return index(kind, value)
    if kind == "bool":
        return boolean(value)
    if kind == "opt_u32":
        return b"\x00" if value is None else b"\x01" + unsigned("u32", value)
    return unsigned(kind, value)


# ---------------------------------------------------------------- frames


def crc_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


CRC_TABLE = crc_table()


def crc32c(data):
    """CRC-32C (Castagnoli): reflected, initial value and final XOR 0xFFFFFFFF."""
    crc = 0xFFFF_FFFF
    for byte in data:
        crc = CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFF_FFFF


def cobs(data):
    """COBS: every zero taken out; a code byte n says n - 1 bytes follow, then a zero
    unless n is 255 or the frame ends."""
    out = bytearray([0])
    code_at, run = 0, 0
    for byte in data:
        if byte == 0:
            out[code_at] = run + 1
            code_at, run = len(out), 0
            out.append(0)
            continue
        out.append(byte)
        run += 1
        if run == 254:
            out[code_at] = 255
            code_at, run = len(out), 0
            out.append(0)
    out[code_at] = run + 1
    return bytes(out)


def frame(kind, payload):
    """One frame: COBS(kind | payload | CRC-32C LE) and the delimiter."""
    content = bytes([kind]) + payload
    content += crc32c(content).to_bytes(4, "little")
    return cobs(content) + b"\x00"


# ---------------------------------------------------------------- the setup

SL_POLICY = ["FirstFit", "BestFit", "WorstFit", "LeastLoaded", "RoundRobin"]
CRITERION = ["Fifo", "Edf", "LeastFlexibleFirst", "BiggestJobFirst", "Shuffle"]
FIXING = ["Never", "AtAcceptance", "Quarter", "Half", "ThreeQuarters"]
TIERS_POLICY = ["NoQos", "Qos", "QosRes"]
GROUP = ["High", "Low"]
DIRECTION = ["Min", "Max"]
TERM = ["Ts", "Tf", "Td", "Ncpu", "A", "Tt", "Tl"]
WEIGHT = ["Milli", "PlusInf", "MinusInf"]


def fields(spec, obj):
    """The fields `spec` names ((key, type) pairs), in order, from the object `obj`."""
    return b"".join(field(kind, obj[key]) for key, kind in spec)


def service_level_setup(header):
    levels = header["levels"]
    out = varint(0)
    out += unsigned("u32", header["machines"])  # machine_capacity: decides nothing
    out += unsigned("u32", header["queue_capacity"])
    out += unsigned("u32", len(levels))  # level_capacity: decides nothing
    out += unsigned("u16", header["machines"]) + index(SL_POLICY, header["policy"])
    out += varint(len(levels))
    for level in levels:
        out += fields([("slack_milli", "u32"), ("price_per_tick", "u32")], level)
    return out


def reservation_setup(part):
    config = [("nodes", "u32"), ("slot_ticks", "u64"), ("criterion", CRITERION),
              ("fixing", FIXING), ("offer_trials", "u16")]
    sizes = [("slots", "u32"), ("waiting", "u32"), ("running", "u32"), ("offers", "u32")]
    return varint(1) + fields(sizes, part) + fields(config, part["config"])


def tiers_setup(part):
    sizes = [("resource_capacity", "u32"), ("slots", "u32"), ("jobs", "u32")]
    config = [("slot_ticks", "u64"), ("policy", TIERS_POLICY),
              ("laxity_threshold_milli", "u64"), ("bronze_deadline", "u64")]
    out = varint(2) + fields(sizes, part) + fields(config, part["config"])
    out += varint(len(part["resources"]))
    for resource in part["resources"]:
        out += fields([("group", GROUP), ("nodes", "u32"), ("speed_milli", "u32")], resource)
    return out


def weighted_term(pair):
    """`Option<(Weight, Term)>`: serde gives `null` or `[weight, term]`, a weight
    being `{"Milli": n}`, `"PlusInf"` or `"MinusInf"`."""
    if pair is None:
        return b"\x00"
    weight, term = pair
    if isinstance(weight, dict):
        out = index(WEIGHT, "Milli") + i32(weight["Milli"])
    else:
        out = index(WEIGHT, weight)
    return b"\x01" + out + index(TERM, term)


def sla_order(order):
    if "Random" in order:
        return varint(1) + unsigned("u64", order["Random"]["seed"])
    h = order["Heuristic"]
    out = varint(0) + index(DIRECTION, h["direction"]) + index(TERM, h["h1"])
    return out + weighted_term(h["second"]) + weighted_term(h["third"])


def sla_setup(part):
    config = [("nodes", "u32"), ("slot_ticks", "u64"), ("step_ticks", "u64"), ("ticks_per_hour", "u64")]
    out = varint(3) + fields([("slots", "u32"), ("batch", "u32")], part)
    return out + fields(config, part["config"]) + sla_order(part["config"]["order"])


def setup_payload(header):
    """The setup frame's payload: the magic, then `Setup { kernel_version, source,
    model }` with the model made from the header's part."""
    model = header["model"]
    if model == "ServiceLevel":
        device = service_level_setup(header)
    else:
        (name, part), = model.items()
        makers = {"Reservation": reservation_setup, "Tiers": tiers_setup, "Sla": sla_setup}
        if name not in makers:
            raise ValueError(f"model {name!r} has no device setup")
        device = makers[name](part)
    version = text(header["kernel_version"], VERSION_MAX_BYTES)
    return MAGIC + version + text(header["host_version"], SOURCE_MAX_BYTES) + device


# ---------------------------------------------------------------- the records

T, JOB, START = ("t", "u64"), ("job", "u32"), ("start", "u64")
READY, DEADLINE, MACHINE = ("ready", "u64"), ("deadline", "u64"), ("machine", "u16")
SL_REASON = ["no_feasible_machine", "queue_full", "zero_processing_time", "unknown_level",
             "time_went_backwards", "overflow"]
RV_REASON = ["time_went_backwards", "zero_nodes", "too_many_nodes", "zero_estimate",
             "window_too_short", "kind_mismatch", "window_passed", "duplicate_job", "queue_full",
             "beyond_horizon", "no_room", "not_running"]
SLA_REASON = ["no_room", "batch_full", "invalid", "late", "horizon", "time_went_backwards", "dropped"]
TIERS_REASON = ["no_room", "table_full", "bad_request", "window_passed", "duplicate_job",
                "time_went_backwards", "not_running", "unknown_resource", "bad_availability", "overflow"]

# Flat export kinds: kind -> (Body index, variant index, fields in wire order). A
# variant that wraps a struct (`Request(Request)`, `Submit { t, request }`) has that
# struct's fields inline, as postcard writes them.
FLAT = {
    "submit": (0, 0, [T, JOB, ("p", "u64"), ("level", "u8")]),
    "advance": (0, 1, [T]),
    "reset": (0, 2, []),
    "accept": (1, 0, [JOB, MACHINE, DEADLINE, ("preempted", "opt_u32")]),
    "reject": (1, 1, [JOB, ("reason", SL_REASON)]),
    "start": (1, 2, [T, JOB, MACHINE]),
    "preempt": (1, 3, [T, JOB, MACHINE]),
    "complete": (1, 4, [T, JOB, MACHINE]),
    "request": (2, 0, [T, JOB, ("nodes", "u32"), ("estimate", "u64"), READY, DEADLINE,
                       ("request", ["strict", "relaxed", "flexible"]), ("shuffle_key", "u32")]),
    "resv_advance": (2, 1, [T]),
    "finish": (2, 2, [T, JOB]),
    "resv_reset": (2, 3, []),
    "resv_accept": (3, 0, [JOB, START]),
    "resv_reject": (3, 1, [JOB, ("reason", RV_REASON)]),
    "offer": (3, 2, [JOB, READY, DEADLINE, START]),
    "replan": (3, 3, [JOB, START]),
    "fix": (3, 4, [T, JOB]),
    "resv_start": (3, 5, [T, JOB]),
    "end": (3, 6, [T, JOB, ("early", "bool"), ("cut", "bool")]),
    "sla_submit": (6, 0, [T, JOB, ("ts", "u64"), ("tf", "u64"), ("td", "u64"), ("ncpu", "u32")]),
    "sla_plan": (6, 1, [T]),
    "sla_reset": (6, 2, [T]),
    "sla_accept": (7, 0, [JOB, START]),
    "sla_reject": (7, 1, [JOB, ("reason", SLA_REASON)]),
}

RESOURCE = ("resource", "u8")
FLAT.update({
    "tiers_submit": (4, 0, [T, JOB, ("tier", ["gold", "silver", "bronze"]), ("work", "u64"), READY, DEADLINE]),
    "tiers_advance": (4, 1, [T]),
    "tiers_finish": (4, 2, [T, JOB]),
    "tiers_leave": (4, 3, [T, RESOURCE]),
    "tiers_return": (4, 4, [T, RESOURCE]),
    "tiers_reset": (4, 5, []),
    "tiers_accept": (5, 0, [JOB, RESOURCE, START]),
    "tiers_reject": (5, 1, [JOB, ("reason", TIERS_REASON)]),
    "tiers_move": (5, 2, [JOB, RESOURCE, START, ("for_job", "u32")]),
    "tiers_start": (5, 3, [T, JOB]),
    "tiers_end": (5, 4, [T, JOB, ("late", "bool")]),
    "tiers_lost": (5, 5, [T, JOB, ("running", "bool")]),
    "tiers_replace": (5, 6, [JOB, RESOURCE, START]),
    "tiers_violate": (5, 7, [T, JOB, ("why", ["late", "lost"])]),
})


def body_bytes(obj):
    """The postcard `Body` of one exported record."""
    kind = obj.get("kind")
    if kind not in FLAT:
        raise ValueError(f"record kind {kind!r} is not known")
    body, variant, spec = FLAT[kind]
    return varint(body) + varint(variant) + fields(spec, obj)


# ---------------------------------------------------------------- the stream


def produce(lines):
    """The whole stream for the export's lines: setup, records, end."""
    header = json.loads(next(lines))
    if header.get("kind") != "header":
        raise ValueError("the first line is not the header")
    out = bytearray(frame(KIND_SETUP, setup_payload(header)))
    records = 0
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue
        obj = json.loads(line)
        if obj.get("seq") != records:
            raise ValueError(f"line {number}: seq {obj.get('seq')} where {records} was due")
        try:
            payload = unsigned("u64", records) + body_bytes(obj)
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"line {number}: {error}") from error
        out += frame(KIND_RECORD, payload)
        records += 1
    out += frame(KIND_END, varint(records))
    return bytes(out), records


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    source, target = argv[1], argv[2]
    try:
        if source == "-":
            stream, records = produce(iter(sys.stdin))
        else:
            with open(source, encoding="utf-8") as lines:
                stream, records = produce(lines)
    except (ValueError, KeyError, TypeError, StopIteration, OSError) as error:
        sys.stderr.write(f"produce_stream: {source}: {error}\n")
        return 1
    with open(target, "wb") as out:
        out.write(stream)
    print(f"{target}: {records} records, {len(stream)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
