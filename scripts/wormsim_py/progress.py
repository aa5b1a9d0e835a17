"""The sweep's progress bar on stderr: tqdm, redrawn in place on a terminal; in a log
(stderr not a terminal) the same text as a line at most every `interval` seconds."""

import sys

from tqdm import tqdm


class _Lines:
    """A stream for tqdm that turns each in-place redraw ("\\r" + text) into a line of its own."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, s):
        text = s.replace("\r", "").replace("\x1b[A", "").strip()
        if text:
            self.stream.write(text + "\n")

    def flush(self):
        self.stream.flush()


class Progress:
    """update() after each finished point; close() at the end."""

    def __init__(self, total, done=0, stream=None, enabled=True, interval=5.0, label="points", delay=0.0):
        stream = stream or sys.stderr
        tty = hasattr(stream, "isatty") and stream.isatty()
        self.failed = 0
        self._bar = tqdm(total=total, initial=done, desc=label, unit="pt", file=stream if tty else _Lines(stream),
                         disable=not enabled, dynamic_ncols=tty, ascii=not tty,
                         mininterval=0.1 if tty else interval, maxinterval=interval, delay=delay)

    def update(self, failed=False):
        if failed:
            self.failed += 1
            self._bar.set_postfix(failed=self.failed, refresh=False)
        self._bar.update(1)

    def close(self):
        self._bar.close()
