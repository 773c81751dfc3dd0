#!/usr/bin/env python3
"""Reason keys across the tree (part of make script-tests).

  keys.py agree ROOT         the engine's table (analysis/reasons.h), the list
                             in docs/events.md and the report's hint table
                             (scripts/transfold, `def hints`) name the same keys
  keys.py hints ROOT DIR     feeds `transfold report` a log with one event per
                             key, of the kind the table says carries it, and
                             checks the report prints that key's hint under it

Prints what differs; exits 1 when anything does.
"""
import json
import os
import re
import subprocess
import sys

# Section comments of TF_REASON_LIST -> the event that carries its keys.
SECTIONS = [
    ("refuse, what=transpose", ("refuse", "transpose")),
    ("refuse, what=operand", ("refuse", "operand")),
    ("refuse + materialize", ("refuse", "operand")),
    ("cause of library_rejected", ("cause", "library_rejected")),
    ("materialize", ("materialize", None)),
    ("drop", ("drop", None)),
    ("verify, result=skipped", ("verify", "skipped")),
    ("learn, what=rejected", ("learn", "rejected")),
    ("learn, what=evicted", ("learn", "evicted")),
    ("learn, what=cap", ("learn", "cap")),
]
# A drop before exit is what folding is for: the report counts it as saved
# and gives no hint.
UNLISTED = {"dst_freed", "dst_overwritten"}


def table_keys(root):
    """[(key, (event, detail))] in the table's order."""
    text = open(os.path.join(root, "analysis/reasons.h")).read()
    body = text[text.index("#define TF_REASON_LIST"):text.index("typedef enum tf_reason")]
    keys, kind = [], None
    for line in body.splitlines():
        c = re.match(r"\s*/\* (.*?) \*/", line)
        if c:
            kind = next((k for prefix, k in SECTIONS if c.group(1).startswith(prefix)), None)
            if kind is None:
                sys.exit(f"reasons.h: section '{c.group(1)}' unknown to {sys.argv[0]}")
            continue
        x = re.match(r"\s*X\((\w+),", line)
        if x:
            keys.append((x.group(1), kind))
    return keys


def doc_keys(root):
    text = open(os.path.join(root, "docs/events.md")).read()
    section = text[text.index("## Reason keys"):]
    return re.findall(r"^\| `(\w+)` \|", section, re.M)


def hint_table(root):
    text = open(os.path.join(root, "scripts/transfold")).read()
    body = re.search(r"^def hints: (\{.*?^\});$", text, re.M | re.S)
    return json.loads(body.group(1))


def differ(name, a, b):
    missing, extra = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    dups = sorted({k for k in b if b.count(k) > 1})
    for what, ks in (("missing", missing), ("not in the table", extra), ("twice", dups)):
        if ks:
            print(f"{name}: {what}: {' '.join(ks)}")
    return bool(missing or extra or dups)


def agree(root):
    table = [k for k, _ in table_keys(root)]
    bad = differ("docs/events.md", table, doc_keys(root))
    bad |= differ("scripts/transfold hints", table, list(hint_table(root)))
    return 1 if bad else 0


def events_for(i, key, kind):
    """The events that make the report list `key`, and the line it is on."""
    event, detail = kind
    reason = f"reason-of-{key}"
    shape = {"producer": "cublasSgeam", "name": f"site{i}", "dtype": "f32", "rows": 8 + i, "cols": 4, "batch": 1,
             "bytes": 256}
    rec = dict(shape, id=i)
    if event == "refuse" or event == "cause":
        ev = dict(shape, event="refuse", mode="log", what=detail if event == "refuse" else "operand",
                  key=key if event == "refuse" else detail, reason=reason, consumer=f"gemm{i}", operand="A")
        if event == "cause":
            ev["cause"] = key
        return [ev], reason
    if event == "materialize":
        return [dict(rec, event="transpose", mode="log", stream="0x0"),
                dict(rec, event="materialize", mode="log", key=key, reason=reason, trigger=f"call{i}",
                     folds=0)], reason
    if event == "drop":  # at exit with a fold, as the report lists it
        return [dict(rec, event="transpose", mode="log", stream="0x0"),
                dict(rec, event="fold", mode="log", consumer=f"gemm{i}", operand="A", op_from="N", op_to="T",
                     m=1, n=1, k=1),
                dict(rec, event="drop", mode="log", key=key, reason=reason, folds=1, launches=1)], reason
    if event == "verify":
        return [dict(event="verify", mode="log", consumer=f"gemm{i}", dtype="f32", m=1, n=1, k=1,
                     result="skipped", key=key, reason=reason)], reason
    ev = dict(event="learn", mode="log", what=detail, key=key, reason=reason)
    if detail != "cap":
        ev.update(name=f"kern{i}", sig=f"{i:016x}", rows=8, cols=4, batch=1, elem=4, verified=0, k=2)
    return [ev], reason


def expected_hint(hints, key, kind, i):
    trigger = f"call{i}" if kind[0] == "materialize" else f"gemm{i}"
    return hints[key].replace("{trigger}", trigger)


def check_hints(root, tmp):
    hints = hint_table(root)
    log = os.path.join(tmp, "keys.jsonl")
    lines = {}
    with open(log, "w") as f:
        for i, (key, kind) in enumerate(table_keys(root), 1):
            evs, marker = events_for(i, key, kind)
            for ev in evs:
                f.write(json.dumps(ev) + "\n")
            if key not in UNLISTED:
                lines[key] = (marker, expected_hint(hints, key, kind, i))
    out = subprocess.run([os.path.join(root, "scripts/transfold"), "report", log], capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stdout + out.stderr)
        return 1
    report = out.stdout.splitlines()
    bad = 0
    for key, (marker, hint) in lines.items():
        at = [n for n, line in enumerate(report) if line.endswith(marker) or f"{marker} " in line
              or line.endswith(f"{marker}:")]
        after = [report[n + 1].strip() for n in at if n + 1 < len(report)]
        if f"HINT: {hint}" not in after:
            bad += 1
            print(f"{key}: wanted 'HINT: {hint}' after the line ending '{marker}', got {after or 'no such line'}")
    print(f"{len(lines) - bad} of {len(lines)} keys get their hint")
    return 1 if bad else 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "agree":
        return agree(sys.argv[2])
    if len(sys.argv) >= 4 and sys.argv[1] == "hints":
        return check_hints(sys.argv[2], sys.argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
