#!/usr/bin/env python3
"""Checks of what the daemon writes for tools (Debian's python3, json and re only):

  metrics_check.py format METRICS [MAX_LINES]   the Prometheus text format: every line a comment
      or a sample; each family's HELP and TYPE once, before its samples; at most MAX_LINES lines
  metrics_check.py dashboard DASHBOARD METRICS  every metric name in the Grafana dashboard's
      PromQL expressions is a family the daemon exports (its TYPE line in METRICS)
  metrics_check.py joblog LOG FIELD=VALUE...    every line of the job log is one JSON object with
      an RFC 3339 UTC "time" (milliseconds) and "parts" (seconds) that add up to "total_s"; some
      line has all the FIELD=VALUE pairs given
      (VALUE as JSON, or a string; FIELD=~REGEX matches a string field)

Prints what is wrong and exits 1; 0 when all holds."""
import json
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (\S+)$')
SUFFIXES = ("_bucket", "_sum", "_count")


def families(text):
    """{name: type} from the TYPE lines."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^# TYPE (\S+) (\S+)$", text, re.M)}


def check_format(text, max_lines):
    errs, helped, typed = [], set(), {}
    lines = text.split("\n")
    if lines[-1] != "":
        errs.append("no newline at the end")
    lines = lines[:-1]
    for n, line in enumerate(lines, 1):
        m = re.match(r"^# (HELP|TYPE) (\S+) (.+)$", line)
        if m:
            what, name = m.group(1), m.group(2)
            seen = helped if what == "HELP" else typed
            if name in seen:
                errs.append("line %d: a second %s of %s" % (n, what, name))
            if what == "HELP":
                helped.add(name)
            else:
                typed[name] = m.group(3)
            continue
        m = SAMPLE.match(line)
        if not m:
            errs.append("line %d: neither a comment nor a sample: %r" % (n, line))
            continue
        name = m.group(1)
        fam = name
        for s in SUFFIXES:
            if name.endswith(s) and typed.get(name[: -len(s)]) == "histogram":
                fam = name[: -len(s)]
        if fam not in typed or fam not in helped:
            errs.append("line %d: %s before its family's HELP and TYPE" % (n, name))
        try:
            float(m.group(3))
        except ValueError:
            errs.append("line %d: the value %r is not a number" % (n, m.group(3)))
    if max_lines and len(lines) > max_lines:
        errs.append("%d lines, at most %d expected" % (len(lines), max_lines))
    return errs


PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
                "offset", "inf", "nan"}


def promql_metrics(expr):
    """The metric names an expression reads: identifiers outside label matchers, strings,
    ranges and grouping lists that are not functions or keywords."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    names = set()
    for m in re.finditer(r"[a-zA-Z_:][a-zA-Z0-9_:]*", e):
        word = m.group(0)
        rest = e[m.end():].lstrip()
        if rest.startswith("(") or word.lower() in PROMQL_WORDS or word.startswith("$"):
            continue
        if e[max(0, m.start() - 1)] in "0123456789.":  # 1e3, 0.5 and the like
            continue
        names.add(word)
    return names


def check_dashboard(dash, text):
    fams, errs, used = families(text), [], set()
    exprs = []

    def walk(o):
        if isinstance(o, dict):
            if isinstance(o.get("expr"), str):
                exprs.append(o["expr"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(dash)
    if not exprs:
        errs.append("the dashboard has no PromQL expression")
    for expr in exprs:
        for name in promql_metrics(expr):
            used.add(name)
            fam = name
            for s in SUFFIXES:
                if name.endswith(s) and fams.get(name[: -len(s)]) == "histogram":
                    fam = name[: -len(s)]
            if fam not in fams:
                errs.append("%s (in %s) is not exported by the daemon" % (name, expr))
    ds = json.dumps(dash)
    if "${DS_PROMETHEUS}" not in ds:
        errs.append("the datasource is not the ${DS_PROMETHEUS} variable")
    return errs, used


RFC3339_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def check_joblog(raw, wants):
    errs, objs = [], []
    for n, line in enumerate(raw.split(b"\n")[:-1], 1):
        try:
            o = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            errs.append("line %d is not one JSON object: %s: %r" % (n, e, line[:200]))
            continue
        if not isinstance(o, dict):
            errs.append("line %d is not an object" % n)
            continue
        if not RFC3339_MS.match(str(o.get("time"))):
            errs.append("line %d: time %r is not RFC 3339 UTC with milliseconds" % (n, o.get("time")))
        parts = o.get("parts")
        if isinstance(parts, dict) and all(isinstance(v, (int, float)) and v >= 0 for v in parts.values()):
            if abs(sum(parts.values()) - o.get("total_s", -1)) > 1e-6:
                errs.append("line %d: parts %r do not add up to total_s %r" % (n, parts, o.get("total_s")))
        else:
            errs.append("line %d: parts %r is not an object of seconds" % (n, parts))
        objs.append(o)
    if not raw.endswith(b"\n"):
        errs.append("the log does not end with a newline")
    if not objs:
        errs.append("the log has no line")
    if wants:
        def holds(o, w):
            k, regex, v = w
            if k not in o:
                return False
            if regex:
                return isinstance(o[k], str) and re.search(v, o[k]) is not None
            return o[k] == v
        if not any(all(holds(o, w) for w in wants) for o in objs):
            errs.append("no line has %s" % ", ".join("%s%s%r" % (k, "=~" if r else "=", v) for k, r, v in wants))
    return errs


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    mode = argv[1]
    if mode == "format":
        text = open(argv[2], encoding="utf-8").read()
        errs = check_format(text, int(argv[3]) if len(argv) > 3 else 0)
        print("%d lines" % text.count("\n"))
    elif mode == "dashboard":
        dash = json.load(open(argv[2], encoding="utf-8"))
        errs, used = check_dashboard(dash, open(argv[3], encoding="utf-8").read())
        print("%d metric names in the dashboard: %s" % (len(used), " ".join(sorted(used))))
    elif mode == "joblog":
        wants = []
        for a in argv[3:]:
            k, _, v = a.partition("=")
            if v.startswith("~"):
                wants.append((k, True, v[1:]))
                continue
            try:
                v = json.loads(v)
            except ValueError:
                pass
            wants.append((k, False, v))
        errs = check_joblog(open(argv[2], "rb").read(), wants)
    else:
        print("unknown mode %s" % mode, file=sys.stderr)
        return 2
    for e in errs:
        print("FAIL: " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
