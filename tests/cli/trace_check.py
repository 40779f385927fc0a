#!/usr/bin/env python3
"""Checks a trace in the Chrome trace event format as cuzk writes it (docs/DESIGN.md, "Traces").

usage: trace_check.py FILE [--jobs N] [--track REGEX]... [--span NAME]... [--process REGEX]

The file is JSON with a "traceEvents" array; metadata events ("ph": "M") name the process and
every track (thread) an event is on; every complete event ("ph": "X") has a name, integer ts and
dur >= 0 (microseconds), the one pid, a tid and args {job, span, parent}; on every track the
events nest (none starts inside another and ends after it), and an event whose parent span is on
the same track lies within it. --jobs: that many jobs (distinct args.job); --track: some track's
name matches; --span: some event has that name; --process: the process's name matches. Prints
"trace ok: ..." and exits 0, or prints what is wrong and exits 1.
"""
import argparse
import json
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--jobs", type=int)
    ap.add_argument("--track", action="append", default=[])
    ap.add_argument("--span", action="append", default=[])
    ap.add_argument("--process")
    a = ap.parse_args()
    errors = []
    try:
        with open(a.file, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{a.file}: not JSON: {e}")
        return 1
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list):
        print(f"{a.file}: no traceEvents array")
        return 1
    threads, process, xs = {}, None, []
    for i, e in enumerate(events):
        ph = e.get("ph")
        if ph == "M":
            if e.get("name") == "process_name":
                process = e.get("args", {}).get("name")
            elif e.get("name") == "thread_name":
                threads[e.get("tid")] = e.get("args", {}).get("name")
        elif ph == "X":
            ok = (isinstance(e.get("name"), str) and isinstance(e.get("ts"), int) and isinstance(e.get("dur"), int)
                  and e["ts"] >= 0 and e["dur"] >= 0 and e.get("pid") == 1 and isinstance(e.get("tid"), int)
                  and isinstance(e.get("args"), dict)
                  and all(k in e["args"] for k in ("job", "span", "parent")))
            if not ok:
                errors.append(f"event {i} is not a complete event as expected: {e}")
            else:
                xs.append(e)
        else:
            errors.append(f"event {i}: phase {ph!r}, not X or M")
    if process is None:
        errors.append("no process_name metadata event")
    elif a.process and not re.search(a.process, process):
        errors.append(f"the process is named {process!r}, not matching {a.process!r}")
    for e in xs:
        if e["tid"] not in threads:
            errors.append(f"event {e['name']!r} is on track {e['tid']}, which no thread_name names")
    # nesting on each track: sorted by start (the longer first), each event ends within the
    # innermost one still open
    by_tid = {}
    for e in xs:
        by_tid.setdefault(e["tid"], []).append(e)
    for tid, evs in by_tid.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in evs:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"]:
                p = stack[-1]
                errors.append(f"track {threads.get(tid)!r}: {e['name']!r} [{e['ts']}, +{e['dur']}] overlaps "
                              f"{p['name']!r} [{p['ts']}, +{p['dur']}] without nesting in it")
            stack.append(e)
    # a parent on the same track holds its child
    spans = {(e["args"]["job"], e["args"]["span"]): e for e in xs}
    nested = 0
    for e in xs:
        p = spans.get((e["args"]["job"], e["args"]["parent"]))
        if p is None or p["tid"] != e["tid"]:
            continue
        nested += 1
        if e["ts"] < p["ts"] or e["ts"] + e["dur"] > p["ts"] + p["dur"]:
            errors.append(f"{e['name']!r} [{e['ts']}, +{e['dur']}] is not within its parent {p['name']!r} "
                          f"[{p['ts']}, +{p['dur']}] on track {threads.get(e['tid'])!r}")
    jobs = {e["args"]["job"] for e in xs}
    if a.jobs is not None and len(jobs) != a.jobs:
        errors.append(f"{len(jobs)} jobs ({sorted(jobs)}), {a.jobs} expected")
    names = set(threads.values())
    for t in a.track:
        if not any(re.search(t, n or "") for n in names):
            errors.append(f"no track matches {t!r} (tracks: {sorted(n for n in names if n)})")
    spannames = {e["name"] for e in xs}
    for s in a.span:
        if s not in spannames:
            errors.append(f"no span {s!r}")
    if not xs:
        errors.append("no complete events")
    if errors:
        for m in errors[:20]:
            print(m)
        return 1
    print(f"trace ok: {len(xs)} spans of {len(jobs)} job(s) on {len(by_tid)} tracks, {nested} nested in their parents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
