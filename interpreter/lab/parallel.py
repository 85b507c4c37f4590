"""Where the games of a run are played: this process, worker processes, or a Dask cluster.

Every backend plays chunks of game numbers with `games.run_chunk`, and a game depends only on the
run and its number (see job.py), so the stored games are the same whatever the backend, the number
of workers and the order in which chunks finish.

- `Serial`: this process (`--jobs 1`).
- `Processes`: worker processes on this machine (`--jobs N`, default: every core).
- `Cluster`: Dask distributed (`--cluster ADDRESS` of a running scheduler, or `--cluster local` to
  start one on this machine). Dask is the optional extra `lab` (`pip install 'cuttle-lab[lab]'`).
  Workers build the rulesets from the merged data sent with the run, so they need Cuttle Lab
  installed but none of the ruleset files.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import pickle
import re
import signal
import socket
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from interpreter.core.errors import CuttleError

from .columns import Row
from .games import run_chunk
from .job import Job, plain_random


class BackendError(CuttleError):
    """A backend that cannot be started or reached."""


def cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def workers(jobs: int, tasks: int) -> int:
    """The processes a pool asked for `jobs` starts for `tasks` tasks: never more than the tasks, nor
    than four per core (`--jobs 99999` once started hundreds of workers and ran out of memory)."""
    return max(1, min(jobs, tasks, 4 * cores()))


def chunks(indices: Sequence[int], workers: int, most: int) -> list[list[int]]:
    """Game numbers cut into chunks: several per worker (to balance and to show progress), none
    larger than `most` (a chunk that an interruption cuts short is played again on resuming)."""
    size = max(1, min(most, len(indices) // max(1, workers * 8)))
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


SLOW_CHUNK = 2  # games in a chunk of players other than random (seconds each): progress shows soon


def chunk_cap(job: Job, most: int) -> int:
    """The largest chunk of a run: `most` for random players (a game in under a millisecond, where
    a chunk's messages would cost more than its games), a couple of games for any other player."""
    return most if all(plain_random(p) for p in job.players) else min(most, SLOW_CHUNK)


class Serial:
    name = "this process"
    workers = 1

    def map(self, job: Job, work: Sequence[int]) -> Iterator[list[Row]]:
        for chunk in chunks(work, 1, chunk_cap(job, 8)):
            yield run_chunk(job, chunk)

    def close(self, cancel: bool = False) -> None:
        pass


def _serve(conn: Connection, job: Job) -> None:
    """A worker process: chunks of game numbers in, their rows out, until told to stop (None) or the
    parent is gone. Ctrl-C is the parent's business (it stops the workers and keeps what finished)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while (indices := conn.recv()) is not None:
            try:
                rows = run_chunk(job, indices)
            except CuttleError as e:  # a ruleset failing in a game: the parent says so and stops
                conn.send((False, e if _picklable(e) else CuttleError(str(e))))
                return
            conn.send((True, rows))
    except (EOFError, OSError):
        return


def _picklable(e: BaseException) -> bool:
    try:
        pickle.loads(pickle.dumps(e))
    except Exception:
        return False
    return True


class Processes:
    """Worker processes on this machine, fed chunks of game numbers through one pipe each; the parent
    waits on the pipes itself (`multiprocessing.connection.wait`). Not `multiprocessing.Pool`: its
    worker-handler thread wakes whenever a result is on its way and spins until it has been read, which
    cost the parent ~30 µs a game, a sixth of a core that the two workers of a 2-core machine need."""

    IN_FLIGHT = 2  # chunks sent ahead to each worker, so that the next is there when one is done
    BEAT = 1.0  # seconds without a finished chunk after which the caller hears (an empty list)

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self.name = f"{jobs} worker processes"
        self.procs: list[Any] = []
        self.conns: list[Connection] = []

    def map(self, job: Job, work: Sequence[int]) -> Iterator[list[Row]]:
        # fork shares the rulesets already loaded here; elsewhere workers build them from the run's data
        forks = "fork" in multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork") if forks else multiprocessing.get_context("spawn")
        todo = deque(chunks(work, self.workers, chunk_cap(job, 64)))
        with ctrl_c_ignored():
            for _ in range(min(self.workers, len(todo))):
                here, there = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(there, job), daemon=True)
                proc.start()
                there.close()
                self.procs.append(proc)
                self.conns.append(here)
        owner = dict(zip(self.conns, self.procs, strict=True))
        sent = dict.fromkeys(self.conns, 0)

        def feed(conn: Connection) -> None:
            if todo:
                try:
                    conn.send(todo.popleft())
                except OSError:  # the worker has stopped: its last message (or its end) says why, below
                    pass
                sent[conn] += 1

        for conn in self.conns:
            for _ in range(self.IN_FLIGHT):
                feed(conn)
        while any(sent.values()):
            ready_now = wait([c for c in self.conns if sent[c]], timeout=self.BEAT)
            if not ready_now:
                yield []  # nothing finished this second: the progress line still shows the time go by
            for ready in ready_now:
                conn = cast(Connection, ready)  # one of self.conns
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    proc = owner[conn]
                    proc.join(1)
                    raise BackendError(f"a worker process stopped unexpectedly (exit code {proc.exitcode})") from None
                if not ok:
                    raise value
                sent[conn] -= 1
                feed(conn)
                yield value

    def close(self, cancel: bool = False) -> None:
        for conn in self.conns:
            if not cancel:
                try:
                    conn.send(None)
                except OSError:
                    pass
        for proc in self.procs:
            if cancel:
                proc.terminate()
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []


def _cluster_chunk(indices: list[int], job: Job) -> list[Row]:
    return run_chunk(job, indices)


class Cluster:
    """Dask distributed: a scheduler at `address`, or a local cluster of `jobs` worker processes."""

    def __init__(self, address: str, jobs: int, timeout: float = 10.0) -> None:
        if address != "local":
            probe(address, timeout)
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise BackendError("--cluster needs Dask distributed: pip install 'cuttle-lab[lab]'") from None
        self.cluster: Any = None
        self.futures: list[Any] = []
        self._quiet = dask_quiet()  # until close(): the client logs a lost scheduler from its own thread
        self._quiet.__enter__()
        try:
            if address == "local":
                with ctrl_c_ignored():  # the worker processes inherit it: Ctrl-C is the lab's business
                    self.cluster = LocalCluster(**local_cluster_options(jobs))
                self.client = Client(self.cluster, set_as_default=False)
                self.name = f"a local Dask cluster of {jobs} workers"
            else:
                self.client = Client(address, timeout=timeout, set_as_default=False)
                self.name = f"the Dask cluster at {address}"
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            what = "start a local Dask cluster" if address == "local" else f"reach the Dask scheduler at '{address}'"
            raise BackendError(f"cannot {what}: {_first_line(e)}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def map(self, job: Job, work: Sequence[int]) -> Iterator[list[Row]]:
        from distributed import as_completed

        try:
            shared = self.client.scatter(job, broadcast=True, hash=False)
            self.futures = self.client.map(
                _cluster_chunk, chunks(work, self.workers, chunk_cap(job, 100)), job=shared, pure=False
            )
            for fut in as_completed(self.futures, loop=self.client.loop):
                yield fut.result()
        except (CuttleError, KeyboardInterrupt, GeneratorExit):
            raise
        except Exception as e:  # the cluster itself failed (a worker lost, the scheduler gone)
            raise BackendError(f"{self.name} {cluster_failure(e)}") from None

    def close(self, cancel: bool = False) -> None:
        try:
            if cancel and self.futures:
                self.client.cancel(self.futures)
            if getattr(self, "client", None) is not None:
                self.client.close()
        except Exception:  # a client whose scheduler is gone: nothing more to close there
            pass
        finally:
            if self.cluster is not None:
                self.cluster.close()
                self.cluster = None
            self._quiet.__exit__(None, None, None)


def cluster_failure(e: BaseException) -> str:
    """What went wrong with a cluster, in words: not Dask's task keys (`_cluster_chunk-5b95...-29`)."""
    text = str(e)
    if "scheduler-connection-lost" in text or type(e).__name__ in ("CommClosedError", "StreamClosedError"):
        return "lost its scheduler (the connection to it closed)"
    if "worker" in text.lower() and ("lost" in text.lower() or "died" in text.lower()):
        return "lost a worker while it played games"
    words = re.sub(r"\b[\w.]+-[0-9a-f]{8,}[-0-9a-f]*\b", "a batch of games", _first_line(e))
    return f"failed: {type(e).__name__}: {words}"


@contextmanager
def dask_quiet() -> Iterator[None]:
    """Dask's own log records (a lost scheduler is logged by its client with a traceback of some 20
    lines) kept off the terminal while a run uses a cluster: the run says what happened in one line."""
    loggers = [logging.getLogger(n) for n in ("distributed", "distributed.client", "distributed.core")]
    old = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, old, strict=True):
            lg.setLevel(level)


def local_cluster_options(jobs: int) -> dict[str, Any]:
    """How `--cluster local` starts its Dask cluster: `jobs` single-threaded worker processes, the
    scheduler and its HTTP server on free ports of this machine only, and no dashboard. (Dask's
    scheduler always serves HTTP, on port 8787 unless told otherwise: with another scheduler there it
    warned and moved, and the warning broke the one line a run prints.)"""
    return {
        "n_workers": jobs,
        "threads_per_worker": 1,
        "processes": True,
        "host": "127.0.0.1",
        "scheduler_port": 0,  # a free port
        "dashboard_address": "127.0.0.1:0",  # a free port for the scheduler's HTTP server ...
        "scheduler_kwargs": {"dashboard": False},  # ... which serves no dashboard
        "silence_logs": logging.CRITICAL,  # a worker losing its scheduler at shutdown is not news
    }


ADDRESS = re.compile(r"^(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def probe(address: str, timeout: float) -> None:
    """A scheduler address must be HOST:PORT (tcp:// or tls:// before it) and take connections:
    say so at once rather than after Dask's retries."""
    m = ADDRESS.match(address.strip())
    if not m:
        raise BackendError(
            f"--cluster '{address}' is not a scheduler address: write tcp://HOST:PORT "
            "(where `dask scheduler` listens, port 8786 by default), or 'local'"
        )
    host, port = m.group(2).strip("[]"), int(m.group(3))
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        raise BackendError(f"cannot reach the Dask scheduler at '{address}': {why}") from None


@contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """SIGINT ignored while processes are started (they keep ignoring it; Python then installs no
    KeyboardInterrupt handler in them), so a Ctrl-C reaches only this process, which stops the run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


def backend(jobs: int | None, cluster: str | None, tasks: int | None = None) -> Serial | Processes | Cluster:
    """The backend for `--jobs` and `--cluster`, for `tasks` games: never more workers than `workers`
    allows (`--jobs 99999` once started 61 processes for 60 games)."""
    n = cores() if jobs is None else jobs
    if tasks is not None:
        n = workers(n, tasks)
    if cluster:
        return Cluster(cluster, n)
    return Serial() if n == 1 else Processes(n)
