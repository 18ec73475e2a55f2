"""`wonderforge lsp` under broken messages (tools/lspframes.py): the real server, over its stdin, sent
raw bytes. Each broken message is skipped with one error line on standard error and the next
message is served; a gigabyte Content-Length is skipped unread; the input ending inside a message
ends the server cleanly. Each case counts as one "faults" row of the trust report.
"""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from trust import count

pytest.importorskip("pygls")
from wonderforge.dsl.limits import MAX_HEADER_BYTES, MAX_MESSAGE_BYTES  # noqa: E402
from wonderforge.tools.cli.commands import main  # noqa: E402
from wonderforge.tools.editor.lspframes import Frames  # noqa: E402

pytestmark = pytest.mark.slow  # a real language server or editor per test: -m "not slow" leaves it out

SERVER = [sys.executable, "-m", "wonderforge.tools.cli.commands", "lsp"]
WAIT = 30  # seconds an answer may take on a loaded machine


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def framed(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(n: int, method: str, params: dict | None) -> bytes:
    return frame({"jsonrpc": "2.0", "id": n, "method": method, "params": params})


def notification(method: str, params: dict | None) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


INITIALIZE = request(0, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})

# (what, the bytes sent before a good message, the error line the server writes for them)
BROKEN = [
    ("a header without Content-Length",
     b'Content-Type: application/vscode-jsonrpc\r\n\r\n{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}',
     "94 bytes that are not a message header ('Content-Type: application/vscode-jsonrpc\\r\\n\\r\\n{"),
    ("a Content-Length of a gigabyte", b"Content-Length: 1000000000\r\n\r\n{}",
     "a message of 1,000,000,000 bytes, more than the 16,777,216 allowed: skipped"),
    ("a Content-Length just past the limit", b"Content-Length: %d\r\n\r\n{}" % (MAX_MESSAGE_BYTES + 1),
     "a message of 16,777,217 bytes, more than the 16,777,216 allowed: skipped"),
    ("a Content-Length that is not a number", b"Content-Length: ten\r\n\r\n{}",
     "25 bytes that are not a message header ('Content-Length: ten\\r\\n\\r\\n{}')"),
    ("a negative Content-Length", b"Content-Length: -2\r\n\r\n{}",
     "24 bytes that are not a message header ('Content-Length: -2\\r\\n\\r\\n{}')"),
    ("a Content-Length of 30 digits", b"Content-Length: " + b"9" * 30 + b"\r\n\r\n{}",
     "52 bytes that are not a message header ('Content-Length: " + "9" * 30 + "\\r\\n\\r\\n{}')"),
    ("a header line without a colon", b"Content-Length: 2\r\nnonsense\r\n\r\n{}",
     "a header line that is not 'Name: value' ('nonsense\\r\\n'): skipped"),
    ("a body with no blank line after its header", b'Content-Length: 36\r\n{"jsonrpc": "2.0", "method": "x"}\r\n',
     "a header line that is not 'Name: value' ('{\"jsonrpc\": \"2.0\", \"method\": \"x\"}\\r\\n'): skipped"),
    ("a header line without a colon before the Content-Length", b"nonsense\r\n",
     "10 bytes that are not a message header ('nonsense\\r\\n')"),
    ("a header longer than 4 KiB", b"Content-Length: 2\r\nX-Padding: " + b"a" * 5000 + b"\r\n\r\n{}",
     "a message header longer than 4,096 bytes: skipped"),
    ("garbage between messages, with a terminal's escape", b"\x00\xff\x1b[2J garbage",
     "14 bytes that are not a message header ('\\x00\\xff\\x1b[2J garbage')"),
    ("blank lines between messages, then garbage", b"\r\n\n\r\n!",
     "6 bytes that are not a message header ('\\r\\n\\n\\r\\n!')"),
    ("a body that is not JSON", framed(b"{not json"), "a message body that is not JSON ('{not json'): skipped"),
    ("a body that is not UTF-8", framed(b'"\xff\xfe"'), "a message body that is not JSON ('\"\\xff\\xfe\"')"),
    ("a body nested 100,000 deep", framed(b"[" * 100_000), "a message body that is not JSON ('[[[["),
    ("an empty body", framed(b""), "a message body that is not JSON (''): skipped"),
    ("JSON that is not an object", framed(b"[1, 2]"), "a message that is not JSON-RPC 2.0 ('[1, 2]')"),
    ("an object without jsonrpc", framed(b'{"id": 9, "method": "shutdown"}'), "a message that is not JSON-RPC 2.0"),
    ("JSON-RPC 1.0", framed(b'{"jsonrpc": "1.0", "id": 9, "method": "shutdown"}'), "not JSON-RPC 2.0"),
    ("a method that is not a string", framed(b'{"jsonrpc": "2.0", "id": 9, "method": 5}'), "not JSON-RPC 2.0"),
    ("neither a method nor an id", framed(b'{"jsonrpc": "2.0", "result": 1}'), "not JSON-RPC 2.0"),
    ("a body shorter than its Content-Length, the next message inside the length",
     b'Content-Length: 1000\r\n\r\n{"jsonrpc": "2.0", ',
     "a message body of 19 bytes where its Content-Length says 1,000 ('{\"jsonrpc\": \"2.0\", ')"),
    ("a body longer than its Content-Length", b'Content-Length: 5\r\n\r\n{"jsonrpc": "2.0", "method": "x"}',
     "a message body that is not JSON ('{\"jso'): skipped"),
]


class Server:
    """`wonderforge lsp` as a process, written raw bytes; threads read its messages and its error lines."""

    def __init__(self):
        self.process = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read_messages, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read_messages(self):
        out = self.process.stdout
        while True:
            length = None
            while (line := out.readline()).strip():
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line or length is None:
                return
            self.messages.put(json.loads(out.read(length)))

    def _read_errors(self):
        for line in self.process.stderr:
            self.errors.append(line.decode("utf-8", "replace"))

    def send(self, raw: bytes) -> None:
        self.process.stdin.write(raw)
        self.process.stdin.flush()

    def received(self, wanted) -> dict:
        """The next message the server sends for which `wanted` holds (the others are passed over)."""
        deadline = time.monotonic() + WAIT
        while True:
            message = self.messages.get(timeout=max(0.1, deadline - time.monotonic()))
            if wanted(message):
                return message

    def answer(self, n: int) -> dict:
        return self.received(lambda m: m.get("id") == n and "method" not in m)

    def error_lines(self, n: int) -> list[str]:
        """The first `n` lines of its standard error, once it has written them."""
        deadline = time.monotonic() + WAIT
        while len(self.errors) < n and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.errors[:n]

    def end(self) -> tuple[int, str]:
        """Closes its input: its exit status and its whole standard error."""
        self.process.stdin.close()
        try:
            self.process.wait(timeout=WAIT)
        finally:
            self.process.kill()
        time.sleep(0.1)  # the reader thread reaches the end of the pipe
        return self.process.returncode, "".join(self.errors)


@pytest.fixture
def cards(tmp_path: Path) -> tuple[str, str]:
    """The URI and text of the cards.yaml of a pack extending 7 Wonders, a misspelt resource added."""
    assert main(["new", "my-mod", "--extends", "7-wonders", "--out", str(tmp_path / "my-mod")]) == 0
    path = tmp_path / "my-mod" / "cards.yaml"
    added = "- id: clay_pool\n  name: Clay Pool\n  colour: brown\n  copies: {1: [3]}\n  cost: 2 stonee\n" \
            "  effect: |\n    on build: produce wood\n"
    return path.resolve().as_uri(), path.read_text() + added


def opened(uri: str, text: str) -> bytes:
    return notification("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                                  "text": text}})


def hover(n: int, uri: str, text: str) -> bytes:
    """A hover on the word `produce` of the text."""
    line = next(i for i, content in enumerate(text.splitlines()) if "produce wood" in content)
    column = text.splitlines()[line].index("produce") + 2
    return request(n, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": line, "character": column}})


def test_each_broken_message_is_skipped_with_an_error_line_and_the_next_one_is_served(cards):
    uri, text = cards
    server = Server()
    try:
        server.send(INITIALIZE)
        assert "hoverProvider" in server.answer(0)["result"]["capabilities"]
        server.send(notification("initialized", {}) + opened(uri, text))
        diagnostics = server.received(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                      and m["params"]["uri"] == uri)["params"]["diagnostics"]
        assert [d["code"] for d in diagnostics] == ["E-DSL-PARSE"]
        for n, (what, raw, said) in enumerate(BROKEN, 1):
            server.send(raw + hover(n, uri, text))
            answer = server.answer(n)
            assert "produce [private] [N] <resources>" in answer["result"]["contents"]["value"], what
            assert server.process.poll() is None, what
            *_, line = server.error_lines(n)
            assert line.startswith("wonderforge lsp: error: ") and said in line, (what, line)
            count("faults")
        # a notification after a broken message is served too: the fixed text has no diagnostics
        fixed = notification("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                        "contentChanges": [{"text": text.replace("stonee", "stone")}]})
        server.send(b"Content-Length: 1000000000\r\n\r\n" + fixed)
        assert server.received(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                               and m["params"]["uri"] == uri)["params"]["diagnostics"] == []
        count("faults")
    finally:
        status, errors = server.end()
    assert status == 0 and "Traceback" not in errors
    assert len(errors.splitlines()) == len(BROKEN) + 1, "one line for each broken message, no more"


def _peak_memory(pid: int) -> int:
    """The most memory the process has held (its resident set's high-water mark), in bytes."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1]) * 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the memory of a process from /proc")
def test_a_gigabyte_message_is_skipped_unread_in_bounded_memory():
    """64 MiB sent after a Content-Length of a gigabyte: the server does not hold them, and answers the
    message after them."""
    server = Server()
    try:
        server.send(INITIALIZE)
        server.answer(0)
        before = _peak_memory(server.process.pid)
        server.send(b"Content-Length: 1000000000\r\n\r\n")
        filler = b'{"jsonrpc": "2.0", "method": "x", "params": "' + b"a" * (1 << 20)
        for _ in range(64):
            server.send(filler)
        server.send(request(1, "shutdown", None))
        assert server.answer(1)["result"] is None
        grown = _peak_memory(server.process.pid) - before
        server.send(notification("exit", None))
    finally:
        status, errors = server.end()
    assert grown < 16 << 20, f"the server's memory grew by {grown:,} bytes"
    assert status == 0 and errors.count("wonderforge lsp: error: ") == 1 and "1,000,000,000 bytes" in errors
    count("faults")


@pytest.mark.parametrize("cut, said", [
    (b"Content-Length: 50\r\nContent-Type: application/vs", "the input ended inside a message ('Content-Length: 50"),
    (b'Content-Length: 50\r\n\r\n{"jsonrpc": "2.0", "id": 3', "the input ended inside a message ('{\"jsonrpc\": \"2.0\", \"id\": 3')"),
])
def test_the_input_ending_inside_a_message_ends_the_server_cleanly(cut, said):
    server = Server()
    try:
        server.send(INITIALIZE + cut)
        server.answer(0)
    finally:
        status, errors = server.end()
    (line,) = errors.splitlines()
    assert status == 0 and line.startswith(f"wonderforge lsp: error: {said}") and line.endswith(": the server ends")
    count("faults")


class _Trickle(io.RawIOBase):
    """Bytes that arrive a few at a time, as from a slow pipe."""

    def __init__(self, data: bytes, step: int):
        self.data, self.step = memoryview(data), step

    def readable(self) -> bool:
        return True

    def read1(self, n: int = -1) -> bytes:
        chunk, self.data = bytes(self.data[:self.step]), self.data[self.step:]
        return chunk


def _read_all(frames: Frames) -> list[bytes]:
    bodies = []
    while (line := frames.readline()):
        assert line.startswith(b"Content-Length: ") and frames.readline() == b"\r\n"
        bodies.append(frames.read(int(line[16:])))
    return bodies


@pytest.mark.parametrize("step", [1, 7, 64, 1 << 16])
def test_messages_split_anywhere_read_the_same(step):
    """The whole table, each case followed by a good message, arriving in pieces of `step` bytes:
    the same messages served, the same errors said."""
    good = [framed(b'{"jsonrpc": "2.0", "id": %d, "method": "x"}' % n) for n in range(len(BROKEN))]
    data = b"".join(raw + message for (_, raw, _), message in zip(BROKEN, good))
    said: list[str] = []
    assert _read_all(Frames(_Trickle(data, step), said.append)) == [g.split(b"\r\n\r\n", 1)[1] for g in good]
    assert len(said) == len(BROKEN) and all(expected in line for line, (_, _, expected) in zip(said, BROKEN))


@pytest.mark.parametrize("tail, said", [
    (b"", None),
    (b"\r\n", None),
    (b"garbage", "the input ended inside a message ('garbage'): the server ends"),
    (b"Content-Length: 1000000000\r\n\r\n{", "the input ended inside a message ('{'): the server ends"),
])
def test_what_the_input_ends_with(tail, said):
    """After the last whole message: nothing, a blank line (said nothing of), or part of a message."""
    messages: list[str] = []
    good = b'{"jsonrpc": "2.0", "method": "exit"}'
    assert _read_all(Frames(_Trickle(framed(good) + tail, 1 << 16), messages.append)) == [good]
    assert [m for m in messages if "ended" in m] == ([said] if said else [])


def test_docs_editors_gives_the_server_s_limits():
    text = (Path(__file__).parent.parent / "docs" / "editors.md").read_text(encoding="utf-8")
    assert f"at most {MAX_MESSAGE_BYTES >> 20} MiB" in text and f"at most {MAX_HEADER_BYTES >> 10} KiB" in text
