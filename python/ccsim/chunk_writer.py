"""Writes a run's series chunks on a thread of its own while the simulation goes on.

`ccsim run` used to convert and write each chunk on the main thread between two slices of
the core: time the simulation waited for (~0.07 s of seed004_grid's ~3 s; issue 14). Here
the main thread only queues the core's raw chunk; a writer thread waits for the background
imports (`ready`), then writes the chunks in order. An error in the writer is raised again by
:meth:`ChunkWriter.close`, in the main thread, so the caller's error handling is unchanged.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable

_DONE = object()


class ChunkWriter:
    """Calls `write(chunk)` for every chunk `put`, in order, on a thread that first joins
    `ready`. After the first error the remaining chunks are dropped (the run fails anyway)."""

    def __init__(self, ready: threading.Thread, write: Callable[[Any], None]) -> None:
        self._ready = ready
        self._write = write
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._error: BaseException | None = None
        # Held while a chunk is written; `cancel` takes it, so after `cancel` returns the
        # thread writes nothing more (it may still be waiting for `ready`).
        self._lock = threading.Lock()
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="ccsim-chunk-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self._ready.join()
        while (chunk := self._queue.get()) is not _DONE:
            with self._lock:
                if self._cancelled:
                    return
                if self._error is None:
                    try:
                        self._write(chunk)
                    except BaseException as e:  # noqa: BLE001 - handed to the main thread
                        self._error = e

    def put(self, chunk: Any) -> None:
        self._queue.put(chunk)

    def stop(self, wait: bool = True) -> None:
        """Ends the thread after the queued chunks; with `wait`, waits until every one is
        written (or dropped after an error)."""
        if self._thread.is_alive():
            self._queue.put(_DONE)
            if wait:
                self._thread.join()

    def cancel(self) -> None:
        """Drops every chunk not yet written and returns once none is being written, without
        waiting for `ready` (an interrupted run must not wait for the background imports:
        a first import of matplotlib can take longer than the user will)."""
        with self._lock:
            self._cancelled = True
        self._queue.put(_DONE)

    def close(self) -> None:
        """:meth:`stop`, then raises the writer's error, if any."""
        self.stop()
        if self._error is not None:
            raise self._error
