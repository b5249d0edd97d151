#!/usr/bin/env python3
"""Strict checker of the Prometheus text exposition format (version 0.0.4),
written from the format's specification for corebox's --prom files.

    python3 tests/e2e/promcheck.py FILE

Exit 0 and print the samples as one JSON object {"name{a=\"x\",...}": value}
(labels sorted) when FILE is valid; exit 1 with "promcheck: LINE: why".

Checked: line syntax (metric and label names, quoted and escaped label
values, float values, optional integer timestamps); HELP/TYPE at most once
per family and TYPE before its samples; each family's lines in one group;
no duplicate series; counters non-negative; histograms: only _bucket/_sum/
_count samples, every bucket series has le, le values increasing, counts
non-decreasing, a +Inf bucket equal to _count.
"""
import json
import math
import re
import sys

NAME = re.compile(r'[a-zA-Z_:][a-zA-Z0-9_:]*')
LABEL = re.compile(r'[a-zA-Z_][a-zA-Z0-9_]*')
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


class Bad(Exception):
    pass


def parse_float(s):
    if s in ("+Inf", "Inf"):
        return math.inf
    if s == "-Inf":
        return -math.inf
    if s == "NaN":
        return math.nan
    if not re.fullmatch(r'[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)', s):
        raise Bad("bad value %r" % s)
    return float(s)


def parse_labels(s, i):
    """s[i] == '{'; returns (labels dict, index after '}')."""
    labels = {}
    i += 1
    while True:
        if i < len(s) and s[i] == '}':
            return labels, i + 1
        m = LABEL.match(s, i)
        if not m:
            raise Bad("bad label name at column %d" % (i + 1))
        name = m.group(0)
        if name.startswith("__"):
            raise Bad("reserved label name %r" % name)
        i = m.end()
        if s[i:i + 2] != '="':
            raise Bad("expected =\" after label %r" % name)
        i += 2
        val = []
        while True:
            if i >= len(s):
                raise Bad("unterminated label value")
            c = s[i]
            if c == '\\':
                if i + 1 >= len(s) or s[i + 1] not in '\\"n':
                    raise Bad("bad escape in label value")
                val.append({'\\': '\\', '"': '"', 'n': '\n'}[s[i + 1]])
                i += 2
                continue
            if c == '"':
                i += 1
                break
            if c == '\n':
                raise Bad("newline in label value")
            val.append(c)
            i += 1
        if name in labels:
            raise Bad("label %r twice" % name)
        labels[name] = ''.join(val)
        if i < len(s) and s[i] == ',':
            i += 1
        elif i < len(s) and s[i] == '}':
            continue
        else:
            raise Bad("expected , or } after label value")


def family_of(name, types):
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix) and types.get(name[:-len(suffix)]) in ("histogram", "summary"):
            return name[:-len(suffix)]
    return name


def check(text):
    types, helps, samples = {}, {}, {}
    done = set()        # families whose group has ended
    current = None      # family of the group being read
    hist = {}           # (family, labels without le) -> [(le, count)], count, sum
    if text and not text.endswith('\n'):
        raise Bad("last line not terminated by a newline")
    for n, line in enumerate(text.split('\n')[:-1] if text else [], 1):
        try:
            if not line.strip():
                continue
            if line.startswith('#'):
                parts = line.split(None, 3)
                if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                    name = parts[2]
                    if not NAME.fullmatch(name):
                        raise Bad("bad metric name %r" % name)
                    if name in done or (current and current != name and name in types):
                        raise Bad("%s of %s outside its group" % (parts[1], name))
                    if parts[1] == "TYPE":
                        if len(parts) != 4 or parts[3] not in TYPES:
                            raise Bad("bad TYPE line")
                        if name in types:
                            raise Bad("second TYPE for %s" % name)
                        if any(family_of(k.split('{')[0], {}) == name for k in samples):
                            raise Bad("TYPE of %s after its samples" % name)
                        types[name] = parts[3]
                    else:
                        if name in helps:
                            raise Bad("second HELP for %s" % name)
                        helps[name] = parts[3] if len(parts) > 3 else ""
                    if current != name:
                        if current:
                            done.add(current)
                        current = name
                continue
            m = NAME.match(line)
            if not m:
                raise Bad("bad metric name")
            name = m.group(0)
            i = m.end()
            labels = {}
            if i < len(line) and line[i] == '{':
                labels, i = parse_labels(line, i)
            rest = line[i:].split()
            if not line[i:i + 1].isspace() or len(rest) not in (1, 2):
                raise Bad("expected ' value [timestamp]'")
            value = parse_float(rest[0])
            if len(rest) == 2 and not re.fullmatch(r'-?\d+', rest[1]):
                raise Bad("bad timestamp %r" % rest[1])
            fam = family_of(name, types)
            if fam in done:
                raise Bad("sample of %s outside its group" % fam)
            if current != fam:
                if current:
                    done.add(current)
                current = fam
            key = name + '{' + ','.join('%s="%s"' % (k, labels[k]) for k in sorted(labels)) + '}'
            if key in samples:
                raise Bad("duplicate series %s" % key)
            samples[key] = value
            t = types.get(fam, "untyped")
            if t == "counter" and not value >= 0:
                raise Bad("counter %s is %r" % (key, value))
            if t == "histogram":
                rest_labels = tuple(sorted((k, v) for k, v in labels.items() if k != 'le'))
                h = hist.setdefault((fam, rest_labels), {"buckets": [], "count": None, "sum": None})
                if name == fam + "_bucket":
                    if 'le' not in labels:
                        raise Bad("bucket without le")
                    le = parse_float(labels['le'])
                    if h["buckets"] and le <= h["buckets"][-1][0]:
                        raise Bad("le %s not increasing" % labels['le'])
                    if h["buckets"] and value < h["buckets"][-1][1]:
                        raise Bad("bucket counts decrease at le=%s" % labels['le'])
                    h["buckets"].append((le, value))
                elif name == fam + "_count":
                    h["count"] = value
                elif name == fam + "_sum":
                    h["sum"] = value
                else:
                    raise Bad("%s is not a sample of histogram %s" % (name, fam))
        except Bad as e:
            raise Bad("%d: %s" % (n, e))
    for (fam, lab), h in hist.items():
        where = "%s%s" % (fam, dict(lab) if lab else "")
        if not h["buckets"] or h["buckets"][-1][0] != math.inf:
            raise Bad("histogram %s has no +Inf bucket" % where)
        if h["count"] is None:
            raise Bad("histogram %s has no _count" % where)
        if h["buckets"][-1][1] != h["count"]:
            raise Bad("histogram %s: +Inf bucket %r != _count %r" % (where, h["buckets"][-1][1], h["count"]))
    return samples


def main():
    if len(sys.argv) != 2:
        print("usage: promcheck.py FILE", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            samples = check(f.read())
    except (OSError, UnicodeDecodeError) as e:
        print("promcheck: %s" % e, file=sys.stderr)
        return 1
    except Bad as e:
        print("promcheck: %s" % e, file=sys.stderr)
        return 1
    print(json.dumps(samples, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
