"""The admin socket of ``termgames serve``: where it is (``serve/admin/socket`` in the data
folder, found as ``serve`` finds it, ``TERMGAMES_HOME`` included), who may open it (the
server's user: the socket is mode 0600 in a folder of mode 0700, and on Linux the server
checks the peer's uid as well), and what goes on it: one JSON request a line, one JSON
answer a line. Both ends use it: the server's console and ``termgames admin``, which
loads nothing else (no event loop), so it starts in a blink."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["ADMIN_FOLDER", "LONGEST_ANSWER", "LONGEST_LINE", "SOCKET_NAME", "admin_socket",
           "connect", "decode", "encode", "listen", "peer_allowed", "private_folder"]

ADMIN_FOLDER = "admin"
SOCKET_NAME = "socket"
LONGEST_LINE = 65536
"""The longest request line the server reads."""
LONGEST_ANSWER = 1 << 25
"""The longest answer line ``termgames admin`` reads (the list of 100,000 sessions, the
most ``--max-sessions`` allows, takes about 13 MB)."""
LONGEST_ADDRESS = 100
"""A Unix socket's path fits in about 104 to 108 bytes, depending on the system."""


def admin_socket(serve_folder: Path) -> Path:
    """Where the admin socket of a server keeping its files in ``serve_folder`` is."""
    return serve_folder / ADMIN_FOLDER / SOCKET_NAME


def private_folder(folder: Path) -> None:
    """Make ``folder`` (if it is not there) and leave it open to its owner only; OSError
    if it cannot be (another user's folder)."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)


@contextlib.contextmanager
def reachable(path: Path) -> Iterator[str]:
    """A name ``path`` is bound or reached by: itself where it fits in a socket's
    address, else (Linux) the same file through a descriptor of its folder, which
    ``/proc/self/fd`` names in a few bytes."""
    name = str(path)
    if len(os.fsencode(name)) <= LONGEST_ADDRESS or not sys.platform.startswith("linux"):
        yield name
        return
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{folder}/{path.name}"
    finally:
        os.close(folder)


def listen(path: Path) -> socket.socket:
    """A listening socket at ``path``, which only this user can open (what was there, a
    socket a server left or one a draining server still holds, is replaced: the newest
    server answers); OSError if it cannot be made."""
    private_folder(path.parent)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = os.umask(0o177)
    try:
        with reachable(path) as name:
            server.bind(name)
        server.listen(8)
    except OSError:
        server.close()
        raise
    finally:
        os.umask(previous)
    server.setblocking(False)
    return server


def connect(path: Path, timeout: float) -> socket.socket:
    """A connection to the server answering at ``path``; OSError if none answers."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.settimeout(timeout)
    try:
        with reachable(path) as name:
            client.connect(name)
    except OSError:
        client.close()
        raise
    return client


def peer_allowed(connection: Any) -> bool:
    """Whether the process at the other end of a Unix socket runs as this server's user
    (or as root, who can open any file anyway). Where the system cannot say (not
    Linux), the folder's mode alone keeps others out."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    try:
        _pid, uid, _gid = struct.unpack("3i", connection.getsockopt(
            socket.SOL_SOCKET, option, struct.calcsize("3i")))
    except OSError:
        return False
    return uid in (os.getuid(), 0)


def encode(message: dict[str, Any]) -> bytes:
    """A request or an answer, as its line."""
    return json.dumps(message, ensure_ascii=True).encode() + b"\n"


def decode(line: bytes) -> dict[str, Any]:
    """A line back into its request or answer; ValueError if it is none."""
    message = json.loads(line)
    if not isinstance(message, dict):
        raise ValueError("not a request")
    return message
