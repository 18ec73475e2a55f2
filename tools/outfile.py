"""An `--out` file that never loses a finished game and never half-writes a target.

Lines go to a temporary file beside the target, moved into place when the run ends well: a run
that fails never truncates an existing file, and two runs on one target never interleave (the last
to end wins, whole). A run that stops early keeps its temporary file, whole lines only, and says
where it is. A target that is not a regular file (a pipe, `/dev/stdout`) is written directly; a
link to a file is followed (the link stays, the file it leads to is replaced).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path


class OutError(Exception):
    """The target cannot be written: the message says why, in one line."""


class OutFile:
    """Whole lines written to `target` (a path), through a temporary file when it is a file."""

    def __init__(self, target: str):
        self.given = target
        self.written = 0           # bytes of whole lines written so far
        self.lines = 0
        try:
            real = Path(target).resolve()
            system = real.parts[1:2] in (("proc",), ("dev",))  # `/dev/stdout`, a link into /proc
            self.target = Path(target) if system else real  # a link to a file stays a link
            if self.target.is_dir():
                raise OutError(f"cannot write {target}: it is a folder")
            if system or self.target.exists() and not stat.S_ISREG(self.target.stat().st_mode):
                self.temp = None
                self.file = _open_device(self.target)
            else:
                fd, temp = tempfile.mkstemp(prefix=f".{self.target.name[:40]}.", suffix=".partial",
                                            dir=self.target.parent)
                self.temp = Path(temp)
                os.chmod(fd, _mode(self.target))
                self.file = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as err:
            raise OutError(f"cannot write {target}: {_reason(err)}") from None
        except RuntimeError:  # a loop of links
            raise OutError(f"cannot write {target}: its links go round in a loop") from None

    def write(self, text: str) -> None:
        """Write whole lines, at once; on an error, cut the file back to the last whole line and raise
        OutError."""
        try:
            self.file.write(text)
            self.file.flush()
        except OSError as err:
            self._cut()
            raise OutError(f"cannot write {self.given}: {_reason(err)}") from None
        self.written += len(text.encode("utf-8"))
        self.lines += text.count("\n")

    def flush(self) -> None:
        """Nothing to do: `write` flushes (a file object's interface)."""

    def commit(self) -> None:
        """The run ended well: the lines take the target's place."""
        try:
            self.file.close()
            if self.temp is not None:
                os.replace(self.temp, self.target)
        except OSError as err:
            raise OutError(f"cannot write {self.given}: {_reason(err)}") from None

    def abandon(self) -> str:
        """The run stopped: keep the lines written (or nothing) and say where they are."""
        try:
            self.file.close()
        except OSError:
            self._cut()
        if self.temp is None:
            return f"{self.lines} whole lines were written to {self.given}"
        if not self.lines:
            self.temp.unlink(missing_ok=True)
            return f"{self.given} is left as it was"
        return f"{self.given} is left as it was; the {self.lines} lines written are in {self.temp}"

    def discard(self) -> None:
        """Nothing written is worth keeping (a page half made): the target is left as it was."""
        try:
            self.file.close()
        except OSError:
            pass
        if self.temp is not None:
            self.temp.unlink(missing_ok=True)

    def _cut(self) -> None:
        """Drop a half-written last line (a full disk), so every line left is whole."""
        if self.temp is not None:
            try:
                os.truncate(self.temp, self.written)
            except OSError:
                pass


def _mode(target: Path) -> int:
    """The permissions the target has, or those a new file gets (a temporary file's are narrower)."""
    if target.exists():
        return stat.S_IMODE(target.stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _open_device(path: Path):
    """A pipe, a terminal or a device, opened for writing without waiting for a reader: a pipe
    nobody reads is an error at once, not a run that never starts."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "w", encoding="utf-8")


def _reason(err: OSError) -> str:
    if err.errno == errno.ENXIO:
        return "no program reads from that pipe"
    return err.strerror or str(err)
