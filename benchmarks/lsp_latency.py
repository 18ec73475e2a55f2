"""How long `wonderforge lsp` takes to answer an edit with its diagnostics, per shipped pack.

    python benchmarks/lsp_latency.py [--edits N]

Starts the server over stdio (as an editor does), opens a card or component file of a copy of
each shipped pack, then types N edits (a sentence broken, then mended, in turn) and measures, for
each, the time from the change sent to the diagnostics received. Prints the median and the
slowest per pack; the issue's target is 300 ms. Needs `pip install 'wonderforge[lsp]'`.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from wonderforge.interpreter.packs.folders import CONTENT

FILES = {"7-wonders": "cards.yaml", "architects": "cards.yaml", "architects-medals": "medals.yaml",
         "dice": "buildings.yaml"}


async def measure(folder: Path, file: str, edits: int) -> list[float]:
    """Seconds from each change to its diagnostics."""
    client = LanguageClient("latency", "1")
    arrived: asyncio.Queue = asyncio.Queue()
    client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: arrived.put_nowait(params))
    await client.start_io(sys.executable, "-m", "wonderforge.tools.cli.commands", "lsp")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    path = folder / file
    uri, text = path.resolve().as_uri(), path.read_text(encoding="utf-8")
    broken = text.replace("vp ", "vpp ", 1)  # an unknown word: a diagnostic to find, then none
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "yaml", 1, text)))
    await _diagnostics_of(arrived, uri)
    times = []
    for version in range(2, edits + 2):
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [types.TextDocumentContentChangeWholeDocument(broken if version % 2 == 0 else text)]))
        await _diagnostics_of(arrived, uri)
        times.append(time.perf_counter() - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


async def _diagnostics_of(arrived: asyncio.Queue, uri: str):
    while True:
        params = await arrived.get()
        if params.uri == uri:
            return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    print(f"{'pack':<18} {'file':<15} {'median ms':>9} {'slowest ms':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        for pack, file in FILES.items():
            folder = Path(tmp, pack)
            shutil.copytree(CONTENT / pack, folder)
            if pack == "architects-medals":  # its base, beside it as `extends` finds it
                shutil.copytree(CONTENT / "architects", Path(tmp, "architects"), dirs_exist_ok=True)
            times = asyncio.run(measure(folder, file, args.edits))
            print(f"{pack:<18} {file:<15} {1000 * statistics.median(times):9.0f} {1000 * max(times):10.0f}")


if __name__ == "__main__":
    main()
