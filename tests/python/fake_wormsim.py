#!/usr/bin/python3
"""A stand-in for `wormsim run BASE [--set KEY=VALUE]... --out DIR --quiet` for sweep tests
that are about the sweep, not the simulation: it writes a small consistent output set (the
three CSVs, then summary.json with its "outputs" block) in milliseconds. Its metrics follow
from schedule.flits so different points have different rows. FAKE_WORMSIM_LOG=FILE appends
"OUT PID" to FILE when it starts; FAKE_WORMSIM_SLEEP=S then sleeps S seconds.

`config check BASE [--set KEY=VALUE]...` accepts every config except one with a value
"invalid" (exit 1, an error naming the key), as the sweep's check before running needs.
"""

import json
import os
import sys
import time
import zlib


def config_check(argv):
    for i, a in enumerate(argv):
        if a == "--set" and i + 1 < len(argv) and argv[i + 1].split("=", 1)[1] in ("invalid", '"invalid"'):
            key = argv[i + 1].split("=", 1)[0]
            print(f"error: {argv[2]}: {key} (from --set): invalid value", file=sys.stderr)
            return 1
    print(f"{argv[2]}: ok: fake")
    return 0


def main(argv):
    if argv[:2] == ["config", "check"]:
        return config_check(argv)
    if not argv or argv[0] != "run":
        print("fake_wormsim: only `run` is supported", file=sys.stderr)
        return 2
    sets, out = {}, None
    i = 2
    while i < len(argv):
        if argv[i] == "--set":
            k, v = argv[i + 1].split("=", 1)
            sets[k] = v
            i += 2
        elif argv[i] == "--out":
            out = argv[i + 1]
            i += 2
        else:
            i += 1
    if os.environ.get("FAKE_WORMSIM_LOG"):
        with open(os.environ["FAKE_WORMSIM_LOG"], "a", encoding="utf-8") as f:
            f.write(f"{out} {os.getpid()}\n")
    time.sleep(float(os.environ.get("FAKE_WORMSIM_SLEEP", "0")))
    flits = int(sets.get("schedule.flits", "4"))
    os.makedirs(out, exist_ok=True)
    files = {
        "messages.csv": "id,step,index,src,dst,packet,flits,hops,release,delivered,latency\n"
                        f"0,0,0,0,1,0,{flits},1,0,{flits + 2},{flits + 2}\n",
        "links.csv": "link,src,dst,dim,dir,wrap,busy_cycles,utilisation\n"
                     f"0,0,1,0,1,0,{flits},0.5\n",
        "steps.csv": "step,messages,delivered,start,end,duration\n"
                     f"0,1,1,0,{flits + 2},{flits + 2}\n",
    }
    outputs = {}
    for name, text in files.items():
        data = text.encode()
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        outputs[name] = {"bytes": len(data), "crc32": f"{zlib.crc32(data) & 0xFFFFFFFF:08x}"}
    summary = {
        "wormsim_version": "fake",
        "status": "completed",
        "config": {"schedule": {"flits": flits}},
        "schedule": {"name": "fake", "algorithm": "fake", "steps": 1, "messages": 1},
        "metrics": {"completion_cycles": flits + 2, "messages": 1, "tcd": 1,
                    "latency": {"mean": (flits + 2) / 3, "max": flits + 2}},
        "invariants": {"flits_conserved": True},
        "outputs": outputs,
        "warnings": [],
    }
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
