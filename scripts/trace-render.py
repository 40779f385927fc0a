#!/usr/bin/env python3
"""Draws a trace in the Chrome trace event format as cuzk writes it (`--trace FILE`, `cuzk client
trace`, GET /trace; docs/DESIGN.md, "Traces") as a PNG picture: one row per track (devices and
lanes first, then the jobs), each span a bar at its time, nested spans drawn thinner inside their
parents, the widest spans labelled. For docs and reports, where Perfetto or chrome://tracing (the
interactive views) cannot be shown.

usage: trace-render.py TRACE.json OUT.png [--title TEXT] [--from S] [--to S] [--width INCHES]
needs python3-matplotlib (Debian), which `make` does not install: apt-get install python3-matplotlib
"""
import argparse
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    names, order, spans = {}, [], []
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[e["tid"]] = e["args"]["name"]
            order.append(e["tid"])
        elif e.get("ph") == "X":
            spans.append(e)
    for e in spans:  # tracks named by no metadata event still get a row
        if e["tid"] not in names:
            names[e["tid"]] = "track %s" % e["tid"]
            order.append(e["tid"])
    return names, order, spans


def depths(spans):
    """Nesting depth of each span on its own track (the writer keeps every track nested)."""
    out = {}
    by_track = {}
    for i, e in enumerate(spans):
        by_track.setdefault(e["tid"], []).append(i)
    for ids in by_track.values():
        ids.sort(key=lambda i: (spans[i]["ts"], -spans[i]["dur"]))
        stack = []
        for i in ids:
            e = spans[i]
            while stack and spans[stack[-1]]["ts"] + spans[stack[-1]]["dur"] <= e["ts"]:
                stack.pop()
            out[i] = len(stack)
            stack.append(i)
    return out


def main():
    ap = argparse.ArgumentParser(description="Draw a cuzk trace (Chrome trace event format) as a PNG.")
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title", default=None)
    ap.add_argument("--from", dest="t0", type=float, default=None, help="start of the view, seconds")
    ap.add_argument("--to", dest="t1", type=float, default=None, help="end of the view, seconds")
    ap.add_argument("--width", type=float, default=16.0)
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.patches
        import matplotlib.pyplot as plt
    except ImportError:
        print("trace-render: needs python3-matplotlib (apt-get install python3-matplotlib)", file=sys.stderr)
        return 2
    try:
        names, order, spans = load(a.trace)
    except (OSError, ValueError, KeyError, TypeError) as err:
        print("trace-render: %s: not a trace: %s" % (a.trace, err), file=sys.stderr)
        return 1
    if not spans:
        print("trace-render: %s: no spans" % a.trace, file=sys.stderr)
        return 1
    depth = depths(spans)
    end = max(e["ts"] + e["dur"] for e in spans) / 1e6
    t0 = a.t0 if a.t0 is not None else 0.0
    t1 = a.t1 if a.t1 is not None else end
    rows = {tid: r for r, tid in enumerate(order)}
    colours, total = {}, {}
    palette = plt.get_cmap("tab20").colors
    fig, ax = plt.subplots(figsize=(a.width, 0.45 * len(order) + 1.5))
    for i, e in enumerate(spans):
        s, d = e["ts"] / 1e6, e["dur"] / 1e6
        if s + d < t0 or s > t1:
            continue
        key = e["name"].split(" (")[0]
        colour = colours.setdefault(key, palette[len(colours) % len(palette)])
        h = 0.8 * (0.75 ** depth[i])
        y = rows[e["tid"]]
        ax.barh(y, d, left=s, height=h, color=colour, edgecolor="black", linewidth=0.2)
        total[key] = total.get(key, 0.0) + d
        if d > (t1 - t0) / 40 and depth[i] == 0:
            ax.text(s + d / 2, y, e["name"][:28], ha="center", va="center", fontsize=6, clip_on=True)
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels([names[t] for t in order], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(t0, t1)
    ax.set_xlabel("seconds from the trace's first span")
    ax.set_title(a.title or a.trace, fontsize=9)
    ax.grid(axis="x", linewidth=0.3)
    # the colours of the spans that take the most time, nested ones included
    top = sorted(total, key=lambda k: -total[k])[:14]
    handles = [matplotlib.patches.Patch(color=colours[k], label=k[:40]) for k in top]
    ax.legend(handles=handles, fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)
    print("trace-render: %d spans on %d tracks, %.3f s, drawn to %s" % (len(spans), len(order), end, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
