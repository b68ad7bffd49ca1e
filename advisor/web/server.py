"""``camelup serve``: start the workers and serve the page at once, while
the kernels the cache lacks compile in a process of their own
(:mod:`advisor.web.ready`).

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

from advisor import warm
from advisor.errors import AdvisorError

__all__ = ["serve", "bind", "is_loopback", "IDLE_SECONDS", "lan_address", "phone_url", "qr_text"]

#: Seconds a connection may stay open without a whole request head: a new
#: connection that sends nothing, one that trickles its headers, or one
#: kept alive idle after an answer (uvicorn's own keep-alive timeout,
#: KEEP_ALIVE_SECONDS, closes the last sooner) is then closed.
IDLE_SECONDS = 10.0
KEEP_ALIVE_SECONDS = 5


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


def _idle_closing_protocol():
    """uvicorn's HTTP/1.1 protocol (h11), closing a connection that has not
    sent a whole request head within :data:`IDLE_SECONDS` of opening or of
    its last answer (uvicorn itself only times out keep-alive connections)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class IdleClosing(H11Protocol):
        _head_timer = None

        def _arm_head(self) -> None:
            self._disarm_head()
            self._head_timer = self.loop.call_later(IDLE_SECONDS, self._idle)

        def _disarm_head(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _idle(self) -> None:
            self._head_timer = None
            if self.cycle is None or self.cycle.response_complete:
                if not self.transport.is_closing():
                    self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm_head()  # a request is being served

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.cycle is None or self.cycle.response_complete:
                self._arm_head()

        def connection_lost(self, exc) -> None:
            self._disarm_head()
            super().connection_lost(exc)

    return IdleClosing


def server_config(app):
    """uvicorn's configuration of ``camelup serve`` for ``app``: warnings
    only, no access log, idle connections closed."""
    import uvicorn

    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=3,
                          timeout_keep_alive=KEEP_ALIVE_SECONDS, http=_idle_closing_protocol())


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

    from advisor.web.app import create_app

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
    def prepared(group: str, state: str, seconds: float | None) -> None:
        title = warm._BY_NAME[group].title if group in warm._BY_NAME else group
        if state == "ready" and seconds:
            print(f"  compiled: {title} ({seconds:.0f} s)", file=out, flush=True)

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

    logging.getLogger("uvicorn.error").addFilter(_no_cancel_notice)
    if not logging.getLogger("advisor.web").handlers:
        handler = logging.StreamHandler(err)
        handler.setFormatter(logging.Formatter("camelup serve: %(levelname)s: %(message)s"))
        logging.getLogger("advisor.web").addHandler(handler)
        logging.getLogger("advisor.web").setLevel(logging.INFO)
    print(f"Starting {workers or 'one per core'} worker process(es) per lane; the kernels the cache lacks "
          "compile in the background, leg odds first (the page says what is still being prepared)...",
          file=out, flush=True)
    app = create_app(workers=workers, on_ready=ready, prepare=True, on_prepared=prepared, loopback=is_loopback(host))
    config = server_config(app)
    # uvicorn shuts down on Ctrl-C / SIGTERM, then raises the signal again:
    # both end the command normally, after the workers are stopped
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    cut = getattr(app, "cut_short", 0)
    print(f"Stopped; {cut} request(s) still computing were answered 503." if cut else "Stopped.", file=out, flush=True)


def _no_cancel_notice(record: logging.LogRecord) -> bool:
    """uvicorn's error line on cancelling the requests still running after
    its grace period: the requests are answered 503 and counted in the
    last line instead (:class:`advisor.web.app.OwnPageOnly`)."""
    return "timeout graceful shutdown exceeded" not in record.getMessage()


class _Stopped(Exception):
    pass


def _stop(signum, frame):
    raise _Stopped()
