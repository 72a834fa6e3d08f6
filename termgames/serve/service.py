"""What the service manager is told of the server, by systemd's notify protocol (a unit
of ``Type=notify``): that it is ready once it listens, so a restart's new server is
started before the old one is stopped, and that it is stopping, with how the drain goes,
for ``systemctl status``. Without a manager nothing is sent."""

from __future__ import annotations

import contextlib
import socket

from termgames.settings import service_manager_socket

__all__ = ["tell_service_manager"]


def tell_service_manager(*assignments: str) -> None:
    """Send ``READY=1``, ``STOPPING=1``, ``STATUS=...`` to the service manager, if there
    is one; a manager that cannot be told is not told (the server serves on)."""
    path = service_manager_socket()
    if path is None or not assignments:
        return
    # A name starting with @ is in Linux's abstract namespace: a NUL byte there.
    address = "\0" + path[1:] if path.startswith("@") else path
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as link:
        link.sendto("\n".join(assignments).encode(), address)
