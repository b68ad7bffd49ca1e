"""``camelup serve``: load the kernels, start the workers, serve the page.

The port is bound before anything else (a port in use fails at once with
one line); ``--port 0`` takes a free port and prints it.  Binding beyond
the loopback interface (``--host 0.0.0.0``) prints a warning: the page and
its API are then reachable from other machines on the network.  It then also
prints the address a phone on the same network opens, and a QR code of it
(drawn by segno) for the phone's camera.
"""

from __future__ import annotations

import ipaddress
import logging
import signal
import socket
import sys
from typing import TextIO

from ..errors import AdvisorError

__all__ = ["serve", "bind", "is_loopback", "lan_address", "phone_url", "qr_text"]


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0].split("%")[0]).is_loopback for info in infos)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise AdvisorError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise AdvisorError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.setblocking(False)
    return sock


def _url_host(host: str, family: int) -> str:
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if family == socket.AF_INET6 and ":" in host else host


def lan_address() -> str | None:
    """This machine's address on the local network: the one its packets to
    the outside leave from (a UDP socket is connected, nothing is sent), or
    None when it has no network beyond the loopback."""
    for target in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 1))
                address = probe.getsockname()[0]
        except OSError:
            continue
        if address and not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return address
    return None


def phone_url(host: str, port: int) -> str | None:
    """The address another machine on the network opens: the LAN address
    when bound to every interface, the host itself when it names one, None
    on the loopback (no other machine can reach it)."""
    if is_loopback(host):
        return None
    if host in ("0.0.0.0", "", "::"):
        address = lan_address()
        return None if address is None else f"http://{address}:{port}/"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with text blocks for a terminal."""
    import io

    import segno

    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True)
    return buffer.getvalue()


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False, workers: int | None = None,
          out: TextIO | None = None, err: TextIO | None = None) -> None:
    """Serve the page until Ctrl-C (see the module docstring)."""
    import uvicorn

    from .app import create_app
    from .warm import warm_server

    out = out or sys.stdout
    err = err or sys.stderr
    if workers is not None and workers < 1:
        raise AdvisorError("--workers must be at least 1")
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    url = f"http://{_url_host(host, sock.family)}:{real_port}/"
    if not is_loopback(host):
        print(f"WARNING: --host {host} serves the page and its API to every machine that can reach this one on "
              f"the network (phones on the same Wi-Fi, and anyone else there). There is no login. Use the "
              f"default --host 127.0.0.1 to keep it on this machine.", file=err, flush=True)
    try:
        warm_server(out)
    except BaseException:
        sock.close()
        raise

    def ready() -> None:
        print(f"Camel Up advisor ready at {url}  (Ctrl-C stops it)", file=out, flush=True)
        if not is_loopback(host):
            lan = phone_url(host, real_port)
            if lan is None:
                print(f"No network address found: a phone on the same network opens "
                      f"http://<this computer's address>:{real_port}/", file=out, flush=True)
            else:
                print(f"On a phone on the same network, open {lan} or scan this code:", file=out, flush=True)
                print(qr_text(lan), file=out, flush=True)
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    if not logging.getLogger("advisor.web").handlers:
        handler = logging.StreamHandler(err)
        handler.setFormatter(logging.Formatter("camelup serve: %(levelname)s: %(message)s"))
        logging.getLogger("advisor.web").addHandler(handler)
    print(f"Starting {workers or 'one per core'} worker process(es) per lane...", file=out, flush=True)
    app = create_app(workers=workers, on_ready=ready)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=3)
    # uvicorn shuts down on Ctrl-C / SIGTERM, then raises the signal again:
    # both end the command normally, after the workers are stopped
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    print("Stopped.", file=out, flush=True)


class _Stopped(Exception):
    pass


def _stop(signum, frame):
    raise _Stopped()
