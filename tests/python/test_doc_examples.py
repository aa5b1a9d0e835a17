"""The documentation's examples are run, so they cannot drift from the binary.

A fenced block in README.md or docs/**/*.md that follows a marker line

    <!-- example: ARGS | WHAT -->

is checked: `wormsim ARGS` runs in a fresh folder, where ARGS may use {repo}
for the repository's path and {out} for an output folder, and WHAT says what
the block shows (a first line "$ COMMAND" in the block, the command as a
reader would type it, is not part of the output). ARGS starting with `scripts/NAME` run that script of the
repository with Debian's python3 instead; `A && B` runs A first (it must
succeed) and checks B:

  stdout / stderr   the stream, line by line; a line "..." stands for any lines
                    and a "..." inside a line for any text
  exit N            (combinable: "stderr, exit 1") the exit code
  file NAME         a JSON file in {out}: every key the block gives must have the
                    value it shows ("..." matches any value); a CSV file: the
                    block's header names some columns, and its rows must equal
                    the file's rows restricted to them

A marker whose command or comparison is malformed fails the test, as does a
marker with no block after it.
"""

import csv
import glob
import io
import json
import os
import re
import shlex
import subprocess

import pytest

from conftest import REPO

MARKER = re.compile(r"^<!-- example: (.*?) \| (.*?) -->$")
ELLIPSIS = "..."


def _doc_files():
    files = [os.path.join(REPO, "README.md")]
    files += sorted(glob.glob(os.path.join(REPO, "docs", "**", "*.md"), recursive=True))
    return files


def _examples():
    found = []
    for path in _doc_files():
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            m = MARKER.match(line.strip())
            if not m:
                continue
            start = i + 1
            while start < len(lines) and not lines[start].startswith("```"):
                start += 1
            end = start + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            body = lines[start + 1:end]
            if body and body[0].startswith("$ "):
                body = body[1:]
            block = "\n".join(body) if end < len(lines) else None
            where = f"{os.path.relpath(path, REPO)}:{i + 1}"
            found.append(pytest.param(m.group(1), m.group(2), block, id=where))
    return found


def _line_matches(pattern, line):
    parts = [re.escape(p) for p in pattern.split(ELLIPSIS)]
    return re.fullmatch(".*".join(parts), line) is not None


def _text_matches(expected, actual):
    """Line-wise match where a line "..." stands for any number of lines."""
    exp, act = expected.rstrip("\n").split("\n"), actual.rstrip("\n").split("\n")

    def match(i, j):
        if i == len(exp):
            return j == len(act)
        if exp[i] == ELLIPSIS:
            return any(match(i + 1, k) for k in range(j, len(act) + 1))
        return j < len(act) and _line_matches(exp[i], act[j]) and match(i + 1, j + 1)

    return match(0, 0)


def _json_subset(expected, actual, path="$"):
    """Problems where `expected` (the documented JSON) is not a part of `actual`."""
    if expected == ELLIPSIS:
        return []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: documented an object, got {actual!r}"]
        problems = []
        for k, v in expected.items():
            if k not in actual:
                problems.append(f"{path}.{k}: documented but not in the output")
            else:
                problems += _json_subset(v, actual[k], f"{path}.{k}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: documented {expected!r}, got {actual!r}"]
        return [p for i, (e, a) in enumerate(zip(expected, actual)) for p in _json_subset(e, a, f"{path}[{i}]")]
    return [] if expected == actual else [f"{path}: documented {expected!r}, got {actual!r}"]


def _argv(command, wormsim, out):
    argv = [a.replace("{out}", out).replace("{repo}", REPO) for a in shlex.split(command)]
    if argv and argv[0].startswith("scripts/"):
        return ["/usr/bin/python3", os.path.join(REPO, argv[0]), *argv[1:]]
    return [wormsim, *argv]


def _csv_rows(text):
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("args,what,block", _examples())
def test_documented_example(args, what, block, wormsim, tmp_path):
    assert block is not None, "marker without a fenced block after it"
    out = str(tmp_path / "out" / "default")
    env = dict(os.environ, WORMSIM_BIN=wormsim)
    *setup, checked = args.split(" && ")
    for command in setup:
        done = subprocess.run(_argv(command, wormsim, out), cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, env=env)
        assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr}"
    proc = subprocess.run(_argv(checked, wormsim, out), cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env=env)
    checks = [c.strip() for c in what.split(",")]
    for check in checks:
        kind, _, arg = check.partition(" ")
        if kind == "exit":
            assert proc.returncode == int(arg), f"exit {proc.returncode}\n{proc.stderr}"
        elif kind in ("stdout", "stderr"):
            got = proc.stdout if kind == "stdout" else proc.stderr
            # Help texts name the binary by the path it was run as.
            got = got.replace(out, "{out}").replace(f"Usage: {wormsim} ", "Usage: wormsim ").replace(REPO, "{repo}")
            assert _text_matches(block, got), f"documented:\n{block}\n--- actual {kind}:\n{got}"
        elif kind == "file":
            assert "exit" in what or proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr}"
            path = os.path.join(out, arg)  # without --out, output.dir "out/default" is there too
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if arg.endswith(".json"):
                doc = json.loads(block)
                problems = _json_subset(doc, json.loads(text))
                assert not problems, "\n".join(problems)
            elif arg.endswith(".csv"):
                doc, actual = _csv_rows(block), _csv_rows(text)
                cols = [actual[0].index(c) for c in doc[0]]
                shown = [[row[c] for c in cols] for row in actual]
                assert doc == shown, f"documented:\n{block}\n--- actual (those columns):\n{shown}"
            else:
                pytest.fail(f"file {arg}: only .json and .csv files can be compared")
        else:
            pytest.fail(f"unknown check {check!r} (expected stdout, stderr, exit N or file NAME)")


def test_the_docs_have_checked_examples():
    # The markers are found: a typo in the marker syntax would otherwise check nothing.
    assert len(_examples()) >= 8


def test_the_matchers_can_fail():
    assert not _text_matches("a\nb", "a\nc")
    assert _text_matches("a\n...\nd", "a\nb\nc\nd")
    assert _text_matches("x: ... cycles", "x: 12 cycles")
    assert not _text_matches("x: ... cycles", "x: 12 flits")
    assert _json_subset({"a": {"b": 1}}, {"a": {"b": 2}}) == ["$.a.b: documented 1, got 2"]
    assert _json_subset({"a": ELLIPSIS, "c": [1]}, {"a": {"z": 0}, "c": [1], "d": 3}) == []
