"""The one guard on every file WonderForge writes (`play --log`, `simulate --out` and `--report`,
the files of `new`).

- Never into a pack: a target inside a folder holding pack.yaml (at any depth), inside the folder
  of the shipped packs, or a file the command reads (a bot file) is refused, judged where its links
  lead: a link into a pack is refused as the pack's own path is (`guard`).
- Whole or not at all: lines go to a temporary file beside the target, moved into place when the
  run ends well. A run that fails never truncates an existing file, and two runs on one target
  never interleave (the last to end wins, whole). A run that stops early keeps its temporary file,
  whole lines only, and says where it is. A link to a file is followed (the link stays, the file it
  leads to is replaced).
- A device only when it is one: a target that `stat` calls a character device or a pipe
  (`/dev/null`, a terminal, `/dev/stdout` when it is a pipe) is written directly; any path that is a
  file or none yet (`/dev/shm/x`, a folder of files) is a file; anything else (a folder, a socket, a
  disk) is refused.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ...interpreter.packs.folders import CONTENT

KEEP_OUT = "give a path outside the packs' folders: WonderForge reads packs and never writes in them"


class OutError(Exception):
    """The target cannot be written: the message says why, in one line; `hint` what to do, if anything."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class Refused(OutError):
    """The target is one WonderForge never writes (a pack's, or a file the command reads): a bad
    command line, whatever the command."""


def guard(target: str | os.PathLike, reading: Iterable[str | os.PathLike] = ()) -> Path:
    """Where `target` leads, once its links are followed; raises Refused when that is inside a pack
    folder, the shipped packs' folder or one of the files `reading`, OutError for a loop of links."""
    try:
        real = Path(target).resolve()
    except RuntimeError:  # a loop of links (an OSError from Python 3.13)
        raise OutError(f"cannot write {target}: its links go round in a loop") from None
    except OSError as err:
        raise OutError(f"cannot write {target}: {_reason(err)}") from None
    linked = real != Path(os.path.abspath(target))
    inside = "leads through a link into" if linked else "is inside"
    pack = next((f for f in real.parents if os.path.isfile(f / "pack.yaml")), None)
    if pack is not None:
        raise Refused(f"cannot write {target}: it {inside} the pack folder {pack}", KEEP_OUT)
    shipped = CONTENT.resolve()
    if real == shipped or real.is_relative_to(shipped):
        raise Refused(f"cannot write {target}: it {inside} the folder of the shipped packs {shipped}", KEEP_OUT)
    for path in reading:
        if Path(path).resolve() == real:
            raise Refused(f"cannot write {target}: it {'leads through a link to' if linked else 'is'} {path}, "
                          "which this command reads", "give another path: WonderForge never writes over a file it reads")
    return real


class OutFile:
    """Whole lines written to `target` (a path), through a temporary file when it is a file; raises
    Refused or OutError when it may not or cannot be written (see the module's doc)."""

    def __init__(self, target: str, reading: Iterable[str | os.PathLike] = ()):
        self.given = target
        self.written = 0           # bytes of whole lines written so far
        self.lines = 0
        real = guard(target, reading)
        try:
            kind = _kind(target)
            if kind in ("device", "pipe"):
                self.target, self.temp = Path(target), None  # `/dev/stdout` opened as itself: the link stays
                self.file = _open_device(self.target)
            elif kind not in ("file", None):
                raise OutError(f"cannot write {target}: it is {kind}")
            else:
                self.target = real
                fd, temp = tempfile.mkstemp(prefix=f".{real.name[:40]}.", suffix=".partial", dir=real.parent)
                self.temp = Path(temp)
                os.chmod(fd, _mode(real))
                self.file = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as err:
            raise OutError(f"cannot write {target}: {_reason(err)}") from None

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
                self.temp = None  # in place: nothing left to discard
        except OSError as err:
            raise OutError(f"cannot write {self.given}: {_reason(err)}") from None

    def abandon(self) -> str:
        """The run stopped: keep the lines written (or nothing) and say where they are."""
        try:
            self.file.close()
        except OSError:
            self._cut()
        temp, self.temp = self.temp, None  # kept or removed: not for `discard` to remove
        if temp is None:
            return f"{self.lines} whole lines were written to {self.given}"
        if not self.lines:
            temp.unlink(missing_ok=True)
            return f"{self.given} is left as it was"
        return f"{self.given} is left as it was; the {self.lines} lines written are in {temp}"

    def discard(self) -> None:
        """Nothing written is worth keeping (a page half made, a game stopped): the target is left
        as it was. Nothing to do after `commit` or `abandon`."""
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


def _kind(target: str) -> str | None:
    """What `target` is, as `stat` says once every link is followed (`/dev/stdout`'s to the pipe or
    terminal it stands for): "file", "device" (a character device), "pipe", or what else it is in
    words; None when there is nothing there yet."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode):
        return "device"
    if stat.S_ISFIFO(mode):
        return "pipe"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "neither a file, a pipe nor a character device"


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
    if err.errno == errno.ELOOP:
        return "its links go round in a loop"
    return err.strerror or str(err)
