"""A text progress bar with ETA on stderr (tqdm when it is installed)."""

import sys
import time


def _fmt(seconds):
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return "--:--"
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class Progress:
    """update() after each finished point; close() at the end.

    On a terminal the bar is redrawn in place; otherwise (logs, CI) a line is printed
    at most every `interval` seconds and at the end.
    """

    def __init__(self, total, done=0, stream=None, enabled=True, width=30, interval=5.0, label="points"):
        self.total = total
        self.done = done            # finished before this session (skipped)
        self.ran = 0                # finished in this session
        self.failed = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.width = width
        self.interval = interval
        self.label = label
        self.start = time.monotonic()
        self.last = 0.0
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._tqdm = None
        if enabled and self.tty:
            try:
                from tqdm import tqdm
                self._tqdm = tqdm(total=total, initial=done, unit="pt", file=self.stream, dynamic_ncols=True)
            except ImportError:
                pass
        if enabled and self._tqdm is None:
            self._draw(force=True)

    def update(self, failed=False):
        self.ran += 1
        if failed:
            self.failed += 1
        if not self.enabled:
            return
        if self._tqdm is not None:
            self._tqdm.update(1)
            if failed:
                self._tqdm.set_postfix(failed=self.failed)
            return
        self._draw()

    def eta(self):
        elapsed = time.monotonic() - self.start
        remaining = self.total - self.done - self.ran
        if self.ran == 0:
            return None if remaining else 0.0
        return elapsed / self.ran * remaining

    def line(self):
        n = self.done + self.ran
        frac = n / self.total if self.total else 1.0
        filled = int(round(frac * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        failed = f", {self.failed} failed" if self.failed else ""
        skipped = f", {self.done} done before" if self.done else ""
        return (f"[{bar}] {n}/{self.total} {self.label} ({frac * 100:3.0f}%{skipped}{failed}) "
                f"elapsed {_fmt(time.monotonic() - self.start)} ETA {_fmt(self.eta())}")

    def _draw(self, force=False):
        now = time.monotonic()
        finished = self.done + self.ran >= self.total
        if self.tty:
            if force or finished or now - self.last >= 0.1:
                self.stream.write("\r" + self.line() + "\x1b[K")
                self.stream.flush()
                self.last = now
        elif force or finished or now - self.last >= self.interval:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last = now

    def close(self):
        if not self.enabled:
            return
        if self._tqdm is not None:
            self._tqdm.close()
            return
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K\n")
        elif self.done + self.ran < self.total:   # stopped early: say where it stopped
            self.stream.write(self.line() + "\n")
        self.stream.flush()
