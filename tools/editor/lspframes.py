"""The language server's input, one well-formed message at a time: a broken one is skipped with an
error line on standard error (the editor's log of the server), and the next one is served.

The protocol frames each JSON-RPC message with a header, `Content-Length: N` and a blank line, then N
bytes of JSON. pygls trusts that framing: a header without a length, or a length of a gigabyte, stops
it for good. `Frames` stands in for its stdin: it reads the editor's bytes itself and hands pygls only
whole messages, under a header of its own. Reading on after a broken message means finding the next
`Content-Length` line; a JSON text can never hold one (a string in JSON has no raw line end), so that
search never stops inside a sound message. What is skipped:

- bytes before a `Content-Length` line that are not header lines (`Name: value`) or blank lines;
- a message whose header goes wrong after its `Content-Length` line, or runs past MAX_HEADER_BYTES;
- a message longer than MAX_MESSAGE_BYTES, unread: the search for the next header goes through it;
- a body in which the next header starts (it was shorter than its length said): that message is served;
- a body that is not JSON, or JSON that is not a JSON-RPC 2.0 message (an object with `"jsonrpc":
  "2.0"` and a method, or an id for a response);
- what the editor sent last, if the input ends inside a message: the server then ends as usual.
"""

from __future__ import annotations

import json
import re
import sys
from typing import BinaryIO, Callable

from ...dsl.limits import MAX_HEADER_BYTES, MAX_MESSAGE_BYTES

# The line a message starts with. Its length is bounded, so a search that goes on in the next chunk
# of input need only keep the last OVERLAP bytes of this one.
_LENGTH = re.compile(rb"(?i:content-length):[ \t]{0,8}([0-9]{1,20})[ \t]{0,8}\r?\n")
OVERLAP = 64
_FIELD = re.compile(rb"[-!#$%&'*+.^_`|~0-9A-Za-z]+:[^\r\n]*\r?\n")  # any other header line (its name a token)
_FIELDS = re.compile(rb"(?:" + _FIELD.pattern + rb"|\r?\n)*")  # what may come before a Content-Length line
CHUNK = 1 << 16  # bytes read at a time
SHOWN = 60  # bytes of a broken message quoted in its error


class _Ended(Exception):
    """The input ended where more was needed."""


class Frames:
    """A reader for pygls (`readline` and `read`, as its stdin is read) over the editor's raw bytes."""

    def __init__(self, raw: BinaryIO, say: Callable[[str], None] | None = None):
        self.raw = raw
        self.say = say or _stderr
        self.buffer = bytearray()
        self.ahead: list[bytes] = []  # the lines and body of the message being handed to pygls
        self.quiet = False  # True after a skipped message: what follows it up to the next header goes with it

    def readline(self) -> bytes:
        """The next line of a well-formed header, b"" once the input has ended."""
        if not self.ahead:
            body = self.message()
            if body is None:
                return b""
            self.ahead = [b"Content-Length: %d\r\n" % len(body), b"\r\n", body]
        return self.ahead.pop(0)

    def read(self, n: int) -> bytes:
        """The body announced by the header just read (n bytes)."""
        return self.ahead.pop(0) if self.ahead else b""

    def message(self) -> bytes | None:
        """The body of the next well-formed message; None when the input ends."""
        try:
            while True:
                length = self.header()
                if length > MAX_MESSAGE_BYTES:
                    self.skipped(f"a message of {length:,} bytes, more than the {MAX_MESSAGE_BYTES:,} allowed")
                    continue
                body = self.body(length)
                if body is not None:
                    wrong = _not_a_message(body)
                    if wrong is None:
                        return body
                    self.skipped(f"{wrong} ({_shown(body)})")
        except _Ended:
            if self.buffer.strip():
                self.say(f"the input ended inside a message ({_shown(self.buffer)}): the server ends")
            return None

    def skipped(self, what: str) -> None:
        """Reports a message skipped; what follows it up to the next header goes unreported."""
        self.say(f"{what}: skipped, the server reads on from the next message")
        self.quiet = True

    def header(self) -> int:
        """Skips to the next Content-Length line and through its header: the length it gives."""
        while True:
            start = self.skip_to_length()
            length, at = int(start.group(1)), start.end()
            while True:  # the header's other lines, up to the blank line
                end = self.buffer.find(b"\n", at, MAX_HEADER_BYTES)
                if end < 0:
                    if len(self.buffer) >= MAX_HEADER_BYTES:
                        self.skipped(f"a message header longer than {MAX_HEADER_BYTES:,} bytes")
                        break
                    self.more()
                    continue
                line, at = self.buffer[at:end + 1], end + 1
                if line in (b"\n", b"\r\n"):
                    del self.buffer[:at]
                    return length
                if not _FIELD.fullmatch(line):
                    self.skipped(f"a header line that is not 'Name: value' ({_shown(line)})")
                    break
            del self.buffer[:start.end()]  # read on from after this Content-Length line

    def skip_to_length(self) -> re.Match:
        """Drops what comes before the next Content-Length line, which is then at the buffer's start.
        Dropped bytes that are not header lines are reported (but not those that follow a message
        just reported)."""
        dropped, seen = 0, bytearray()
        while True:
            found = _LENGTH.search(self.buffer)
            cut = found.start() if found else max(0, len(self.buffer) - OVERLAP)
            seen += self.buffer[:min(cut, MAX_HEADER_BYTES - len(seen))]
            dropped += cut
            del self.buffer[:cut]
            if found:
                break
            self.more()
        if not self.quiet and dropped and (dropped > len(seen) or not _FIELDS.fullmatch(seen)):
            self.skipped(f"{dropped:,} bytes that are not a message header ({_shown(seen)})")
        self.quiet = False
        return _LENGTH.match(self.buffer)

    def body(self, length: int) -> bytes | None:
        """The next `length` bytes; None, the bytes dropped, if the next header starts inside them."""
        checked = 0
        while True:
            found = _LENGTH.search(self.buffer, max(0, checked - OVERLAP), length + OVERLAP)
            if found and found.start() < length:
                self.skipped(f"a message body of {found.start():,} bytes where its Content-Length says {length:,} "
                             f"({_shown(self.buffer[:found.start()])})")
                del self.buffer[:found.start()]
                return None
            if len(self.buffer) >= length:
                body = bytes(self.buffer[:length])
                del self.buffer[:length]
                return body
            checked = len(self.buffer)
            self.more()

    def more(self) -> None:
        """Appends what the editor has sent since (waiting for it); _Ended at the end of the input."""
        chunk = self.raw.read1(CHUNK)
        if not chunk:
            raise _Ended
        self.buffer += chunk


def _not_a_message(body: bytes) -> str | None:
    """Why a body is not a JSON-RPC 2.0 message; None when it is one."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):  # not UTF-8 is a ValueError too
        return "a message body that is not JSON"
    if not (isinstance(message, dict) and message.get("jsonrpc") == "2.0"
            and (isinstance(message.get("method"), str) or "method" not in message and "id" in message)):
        return "a message that is not JSON-RPC 2.0"
    return None


def _shown(raw: bytes | bytearray) -> str:
    """The first bytes of what was skipped, escaped (Python's notation, printable ASCII only)."""
    return repr(bytes(raw[:SHOWN]))[1:] + ("..." if len(raw) > SHOWN else "")


def _stderr(what: str) -> None:
    sys.stderr.write(f"wonderforge lsp: error: {what}\n")
    sys.stderr.flush()
