"""Who the server is and who its players are: the host key, made on first start and kept
in the data folder (mode 600), and the names claimed by public keys (``--auth
publickey``): the first key that plays as a name owns it from then on."""

from __future__ import annotations

import json
import os
from enum import Enum
from pathlib import Path
from typing import Any

HOST_KEY_FILE = "host_key"
CLAIMS_FILE = "claims.json"


class Auth(Enum):
    """How a player proves who they are (``--auth``)."""

    NONE = "none"
    """Nobody proves anything: anyone plays, their scores marked unverified."""
    PUBLICKEY = "publickey"
    """A key: the first key to play as a name owns it."""


class IdentityError(Exception):
    """The host key or the claims file cannot be used; the message says which and why."""


def host_key(folder: Path) -> Any:
    """The server's private key (an asyncssh key), made and saved on first use."""
    import asyncssh

    path = folder / HOST_KEY_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if path.exists():
            if path.stat().st_mode & 0o077:
                raise IdentityError(f"{path}: the host key is readable by others; "
                                    f"run 'chmod 600 {path}'")
            return asyncssh.read_private_key(str(path))
        key = asyncssh.generate_private_key("ssh-ed25519")
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key.export_private_key())
        return key
    except (OSError, asyncssh.KeyImportError) as error:
        raise IdentityError(f"{path}: {error}") from error


class Claims:
    """Player names and the fingerprint of the key that claimed each, kept in a file that
    servers sharing the data folder share (a restart's old and new server run together
    for a while): each reads the others' claims when the file changes, and adds its own
    under a lock, so none is lost and a name claimed on one is claimed on all."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.owners: dict[str, str] = {}
        self._seen: tuple[int, int, int] | None = None  # the file as last read
        self._read(strict=True)

    def _read(self, strict: bool = False) -> None:
        """Take in the file's claims if it changed since it was read (a name claimed
        here stays this key's). A file that cannot be read stops the start (``strict``:
        IdentityError), and later leaves the claims as they were."""
        try:
            stat = self.path.stat()
            seen = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
            if seen == self._seen:
                return
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            if strict:
                raise IdentityError(f"{self.path}: {error}") from error
            return
        if not isinstance(loaded, dict):
            if strict:
                raise IdentityError(f"{self.path}: not a table of names and key fingerprints")
            return
        self._seen = seen
        for name, owner in loaded.items():
            self.owners.setdefault(str(name), str(owner))

    def allows(self, name: str, fingerprint: str) -> bool:
        """Whether this key may play as ``name``: it owns it, or nobody does yet."""
        self._read()
        owner = self.owners.get(name)
        return owner is None or owner == fingerprint

    def claim(self, name: str, fingerprint: str) -> None:
        """Give an unclaimed name to a key, and save the claims (a whole new file, moved
        into place, so a crash never leaves half of one), under the claims' lock."""
        import fcntl  # serve runs on Unix only

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self._read()
            if name in self.owners:
                return
            self.owners[name] = fingerprint
            temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(self.owners, indent=1, sort_keys=True),
                                 encoding="utf-8")
            os.replace(temporary, self.path)


def name_taken(name: str, host: str, port: int) -> str:
    """What a player whose key is refused a name is told: whose the name is, and how to
    come in under another (the address they reached, as ``ssh`` is given it)."""
    return (f"termgames: the name {name} is taken: another key played as {name} first.\r\n"
            f"Pick another name: ssh -p {port} othername@{host}\r\n")


def key_needed(host: str, port: int) -> str:
    """What a player who offered no key is told by an arcade that lets in only keys:
    that it does, and how to make one and come in."""
    return ("termgames: this arcade lets in players with an SSH key only.\r\n"
            "Make one once with ssh-keygen, then connect again: "
            f"ssh -p {port} yourname@{host}\r\n"
            "(the first key that plays as a name owns it)\r\n")
