"""Peers: the authenticated connections between the processes of a real cluster.

Glossary:
  Peers       -- one process's connections to every other task of the cluster, made from
                 the TF_CONFIG addresses: it listens on its own, accepts the tasks after it
                 and connects to the tasks before it (so no two processes wait on each other).
  authkey     -- the shared secret of ``multiprocessing.connection``: both ends prove they
                 hold it by an HMAC challenge-response on raw bytes before any object is
                 exchanged, so nothing from a process outside the cluster is ever unpickled;
                 a wrong key is refused (``AuthenticationError``) and the cluster goes on.
  message     -- ``("data", tag, payload)`` for one step of a schedule between two tasks, or
                 ``("abort", reason)`` when a task learned that another one is lost.
  lost task   -- a peer whose connection closed or that sent nothing within ``timeout``
                 seconds: the waiting task raises ``UnavailableError`` naming it, and tells
                 every other peer, so they all fail within the same bound.

Why ``multiprocessing.connection`` and not gRPC (TF's own transport): it is in the standard
library (no compiled dependency), it authenticates before unpickling, and its
length-prefixed messages carry NumPy arrays bit for bit.

Mirrors what tensorflow/core/distributed_runtime (gRPC channels, the coordination
service's heartbeats) provides to collectives: reachability and failure detection.
"""

from __future__ import annotations

import threading
import time
from multiprocessing.connection import AuthenticationError, Client, Listener

from simdist.framework import errors

ACCEPT_POLL_S = 0.2  # how often a blocked accept re-checks its deadline


def split_address(address: str) -> tuple[str, int]:
    """``"host:port"`` -> ``(host, port)`` (ValueError for anything else)."""
    host, sep, port = str(address).rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"A task address must be 'host:port', got {address!r}.")
    return host or "127.0.0.1", int(port)


class Peers:
    """Authenticated connections from task ``me`` to every other task of ``addresses``."""

    def __init__(self, addresses, me: int, names, authkey: bytes, timeout: float):
        self._names, self._me, self._timeout = list(names), me, float(timeout)
        self._conns: dict[int, object] = {}
        self._refused = 0
        self._lock = threading.Lock()
        self._listener = Listener(split_address(addresses[me]), authkey=authkey)
        deadline = time.monotonic() + self._timeout
        acceptor = threading.Thread(target=self._accept_later_tasks,
                                    args=(len(addresses), deadline), daemon=True)
        acceptor.start()
        for peer in range(me):
            self._conns[peer] = self._connect(addresses[peer], peer, authkey, deadline)
        acceptor.join(max(0.0, deadline - time.monotonic()) + 1.0)
        missing = [p for p in range(len(addresses)) if p != me and p not in self._conns]
        if missing:
            self.close()
            raise errors.UnavailableError(
                None, None, f"Task {self._names[missing[0]]} did not join the cluster within "
                f"{self._timeout:g} s (its address is {addresses[missing[0]]}); start every "
                "task of TF_CONFIG, or raise SIMDIST_CLUSTER_TIMEOUT.")

    @property
    def refused(self) -> int:
        """How many connections were refused for a wrong key."""
        return self._refused

    def _connect(self, address, peer, authkey, deadline):
        while True:
            try:
                conn = Client(split_address(address), authkey=authkey)
                conn.send_bytes(str(self._me).encode())
                return conn
            except AuthenticationError:
                raise errors.UnauthenticatedError(
                    None, None, f"Task {self._names[peer]} refused this task's key: every "
                    "task of a cluster needs the same SIMDIST_CLUSTER_KEY.") from None
            except OSError:
                if time.monotonic() > deadline:
                    raise errors.UnavailableError(
                        None, None, f"Task {self._names[peer]} at {address} could not be "
                        f"reached within {self._timeout:g} s.") from None
                time.sleep(0.05)

    def _accept_later_tasks(self, n, deadline):
        # The listening socket polls so the deadline ends a wait for a task never started.
        self._listener._listener._socket.settimeout(ACCEPT_POLL_S)
        while len([p for p in self._conns if p > self._me]) < n - 1 - self._me:
            if time.monotonic() > deadline:
                return
            try:
                conn = self._listener.accept()
            except TimeoutError:
                continue
            except AuthenticationError:
                self._refused += 1  # not of this cluster: nothing it sent was unpickled
                continue
            except OSError:
                return
            if not conn.poll(max(0.0, deadline - time.monotonic())):
                conn.close()
                continue
            peer = int(conn.recv_bytes(16))
            with self._lock:
                self._conns[peer] = conn

    @property
    def timeout(self) -> float:
        """How long a task waits on a peer before it counts it lost (seconds)."""
        return self._timeout

    def send(self, peer: int, tag, payload) -> None:
        """Send one step's payload to ``peer``."""
        try:
            self._conns[peer].send(("data", tag, payload))
        except (OSError, EOFError):
            self.lost(peer, "closed its connection")

    def recv(self, peer: int, tag):
        """The payload ``peer`` sent for ``tag``, waiting at most ``timeout`` seconds."""
        conn = self._conns[peer]
        try:
            if not conn.poll(self._timeout):
                self.lost(peer, f"sent nothing for {self._timeout:g} s")
            kind, *rest = conn.recv()
        except (OSError, EOFError):
            self.lost(peer, "closed its connection")
        if kind == "abort":
            self._raise(rest[0])
        if rest[0] != tag:
            self._raise(f"Task {self._names[peer]} is at collective step {rest[0]!r}, this "
                        f"task at {tag!r}: the workers ran different programs.")
        return rest[1]

    def lost(self, peer: int, how: str):
        """Raise UnavailableError for ``peer`` (it ``how``), after telling every other
        peer to abort too."""
        reason = (f"Task {self._names[peer]} is unavailable: it {how} (a worker died or "
                  "hung); the collective is aborted on every worker.")
        for other, conn in self._conns.items():
            if other != peer:
                try:
                    conn.send(("abort", reason))
                except (OSError, EOFError):
                    pass
        self._raise(reason)

    @staticmethod
    def _raise(reason):
        raise errors.UnavailableError(None, None, reason)

    def close(self) -> None:
        """Close every connection and the listener."""
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()
        self._listener.close()
