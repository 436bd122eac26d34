"""ccsim run's background series writer: order, waiting for the imports, errors."""

from __future__ import annotations

import threading

import pytest

from ccsim.chunk_writer import ChunkWriter


def test_writes_in_order_only_after_ready() -> None:
    gate = threading.Event()
    ready = threading.Thread(target=gate.wait)
    ready.start()
    written: list[int] = []
    w = ChunkWriter(ready, written.append)
    for i in range(50):
        w.put(i)
    assert written == [], "nothing is written before the imports are done"
    gate.set()
    w.close()
    assert written == list(range(50))


def test_error_is_raised_by_close_and_later_chunks_dropped() -> None:
    ready = threading.Thread(target=lambda: None)
    ready.start()
    seen: list[int] = []

    def write(i: int) -> None:
        seen.append(i)
        if i == 2:
            raise OSError(28, "No space left on device")

    w = ChunkWriter(ready, write)
    for i in range(5):
        w.put(i)
    with pytest.raises(OSError, match="No space"):
        w.close()
    assert seen == [0, 1, 2]
