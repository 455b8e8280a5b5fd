#!/usr/bin/env python3
"""Runs the test command (`swift test ...`) so that a hang fails the run with evidence instead of
running until CI's own limit kills it silently.

The output passes through line by line (the test runner's stdio is made line-buffered with
stdbuf, so a kill loses nothing it printed). The tests that started and have not ended are
followed. When the whole run passes --limit-minutes, or nothing is printed for --quiet-minutes,
the run is declared stalled: the tests still running are listed, every thread of every test
process is dumped with gdb (when installed), the process group is killed and the exit status is
124. The list is printed again last, because CI logs show their tail.

A stalled run is started once more from the beginning (--attempts, 2 by default): the run
passes only if that attempt passes, and the stall report stays in the log above it, so a hang
that depends on timing is both survived and on record. Test failures are never retried.

Usage: python3 scripts/run-tests.py [--limit-minutes N] [--quiet-minutes N] [--attempts N] -- swift test [args]
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"^\S* ?Test (?!case passing)(.+?) started\.$")
ENDED = re.compile(r"^\S* ?Test (?!case passing)(.+?) (passed|failed|skipped)")
PARAMETERIZED_END = re.compile(r"^\S* ?Test (?!case passing)(.+?) with \d+ test cases? (passed|failed)")


def descendants(pid):
    """Every process below `pid`, from /proc (no psutil on a fresh machine)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


FRAME_AT = re.compile(r" at (\S*/(?:Sources|Tests)/\S+:\d+)")


def our_frames(dump):
    """Each thread's frames that are in the project's Sources or Tests, as file:line."""
    threads, name, frames = [], None, []
    for line in dump.splitlines():
        if line.startswith("Thread "):
            if name and frames:
                threads.append((name, frames))
            name, frames = line.split(" (")[0], []
        elif m := FRAME_AT.search(line):
            path = m.group(1)
            frames.append(path[path.rfind("/", 0, path.rfind("/")) + 1:])
    if name and frames:
        threads.append((name, frames))
    return threads


def kill_run(process, sig):
    """Signals every process of the run. `swift test` starts the test bundle in a process group
    of its own, so signalling the run's group alone left a stalled test process running (and
    taking a core from the next attempt)."""
    groups = set()
    for pid in [process.pid] + descendants(process.pid):
        try:
            groups.add(os.getpgid(pid))
        except ProcessLookupError:
            pass
    for group in groups:
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            pass


def report_stall(process, running, started_at, reason):
    out = sys.stdout
    out.write(f"\n==== TEST RUN STALLED: {reason} ====\n")
    now = time.monotonic()
    for name, since in sorted(running.items(), key=lambda kv: kv[1]):
        out.write(f"  still running after {now - since:.0f} s: {name}\n")
    pids = [process.pid] + descendants(process.pid)
    out.write("processes of the run:\n")
    for pid in pids:
        out.write(f"  {pid} {command_line(pid)[:200]}\n")
    out.flush()
    summaries = []
    gdb = shutil.which("gdb")
    if gdb is None:
        out.write("gdb is not installed: no thread dump (apt-get install gdb)\n")
    for pid in pids:
        line = command_line(pid)
        if gdb is None or not (".xctest" in line or "swiftpm-testing-helper" in line or "shipquote" in line):
            continue
        out.write(f"---- threads of {pid}: {line[:200]}\n")
        out.flush()
        try:
            dump = subprocess.run([gdb, "-p", str(pid), "-batch", "-nx", "-ex", "set pagination off",
                                   "-ex", "thread apply all bt 40"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180)
            text = dump.stdout.decode(errors="replace")
            out.write(text)
            summaries.append((pid, our_frames(text)))
        except subprocess.TimeoutExpired:
            out.write("gdb did not finish within 180 s\n")
        out.flush()
    kill_run(process, signal.SIGKILL)
    for pid, threads in summaries:
        out.write(f"\n==== threads of {pid} inside the project's code (innermost first) ====\n")
        for thread, frames in threads[:60]:
            out.write(f"  {thread}: {' <- '.join(frames[:6])}\n")
    out.write(f"\n==== TEST RUN STALLED: {reason}; killed after {now - started_at:.0f} s. Tests still running: ====\n")
    for name, since in sorted(running.items(), key=lambda kv: kv[1]):
        out.write(f"  {name} (for {now - since:.0f} s)\n")
    out.flush()


def attempt(command, limit_minutes, quiet_minutes):
    """One run of the command; its exit status, or None when it stalled (and was killed)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    started_at = time.monotonic()
    last_output = [started_at]
    running = {}
    lock = threading.Lock()

    def pump():
        for raw in process.stdout:
            text = raw.decode(errors="replace")
            sys.stdout.write(text)
            sys.stdout.flush()
            line = text.rstrip("\n")
            with lock:
                last_output[0] = time.monotonic()
                if (m := STARTED.match(line)) and m.group(1) != "run":  # "Test run started." is the whole run
                    running[m.group(1)] = time.monotonic()
                elif m := (PARAMETERIZED_END.match(line) or ENDED.match(line)):
                    running.pop(m.group(1), None)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        while process.poll() is None:
            time.sleep(1)
            now = time.monotonic()
            with lock:
                quiet = now - last_output[0]
                snapshot = dict(running)
            reason = None
            if now - started_at > limit_minutes * 60:
                reason = f"the run passed its limit of {limit_minutes:g} minutes"
            elif quiet > quiet_minutes * 60:
                reason = f"nothing printed for {quiet_minutes:g} minutes"
            if reason:
                report_stall(process, snapshot, started_at, reason)
                process.wait()
                reader.join(timeout=5)
                return None, sorted(snapshot)
    except KeyboardInterrupt:
        kill_run(process, signal.SIGTERM)
        process.wait()
        raise
    reader.join(timeout=30)
    return process.returncode, []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit-minutes", type=float, default=float(os.environ.get("TEST_LIMIT_MINUTES", 30)))
    parser.add_argument("--quiet-minutes", type=float, default=float(os.environ.get("TEST_QUIET_MINUTES", 8)))
    parser.add_argument("--attempts", type=int, default=int(os.environ.get("TEST_ATTEMPTS", 2)))
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no test command given (… -- swift test)")
    if shutil.which("stdbuf"):
        command = ["stdbuf", "-oL", "-eL"] + command

    stalls = []
    for number in range(1, max(1, args.attempts) + 1):
        if number > 1:
            print(f"\n==== RUNNING THE TESTS AGAIN (attempt {number} of {args.attempts}) after the stall above ====", flush=True)
        try:
            status, stalled = attempt(command, args.limit_minutes, args.quiet_minutes)
        except KeyboardInterrupt:
            return 130
        if status is None:
            stalls.append((number, stalled))
            continue
        for at, names in stalls:
            print(f"==== attempt {at} stalled while running: {', '.join(names) or '(no test named)'}; "
                  f"attempt {number} ended with status {status} ====", flush=True)
        return status
    return 124


if __name__ == "__main__":
    sys.exit(main())
