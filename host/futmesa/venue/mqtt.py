"""MQTT plumbing shared by the tables and the desk: topics, credentials, the client.

Topics (``futmesa/`` prefix):

| topic | from | QoS | retained | payload |
|---|---|---|---|---|
| ``futmesa/table/<id>/status`` | table (and its last will) | 1 | yes | ``online`` / ``offline`` |
| ``futmesa/table/<id>/state`` | table | 0 | yes | the table's slim state (score, clock…) |
| ``futmesa/table/<id>/result`` | table | 1 | no | a finished match, ``uid`` = ``<id>:<match>`` |
| ``futmesa/desk/assign/<id>`` | desk | 1 | yes | the next match for that table, or ``{}`` |
| ``futmesa/desk/ack/<id>`` | desk | 1 | yes | ``{"acked": {uid: digest}}`` (stored) |

The broker's ACL lets table ``<id>`` write only under ``futmesa/table/<id>/`` and
read only its own ``assign`` and ``ack``; only the desk may assign. The broker binds each
client id to its user name, so no one's credentials can knock another client off.

Every client runs under :class:`Supervised`: its network loop is a thread of ours that
outlives any error in a message handler (the error is logged, that message is lost, the
loop goes on) and keeps reconnecting; a handler wrapped by :func:`guarded` never lets an
exception reach paho at all.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import paho.mqtt.client as mqtt

from futmesa.i18n import _

log = logging.getLogger("futmesa.venue")

PREFIX = "futmesa"
DESK_USER = "desk"
OBSERVER_USER = "observer"  # reads every topic, writes none (tests, benchmarks, debugging)
KEEPALIVE_S = 2  # a silent broker is noticed within 2 keepalives (4 s)


def t_status(table: str) -> str:
    return f"{PREFIX}/table/{table}/status"


def t_state(table: str) -> str:
    return f"{PREFIX}/table/{table}/state"


def t_result(table: str) -> str:
    return f"{PREFIX}/table/{table}/result"


def t_assign(table: str) -> str:
    return f"{PREFIX}/desk/assign/{table}"


def t_ack(table: str) -> str:
    return f"{PREFIX}/desk/ack/{table}"


def table_of(topic: str) -> tuple[str, str]:
    """(table id, last part) of a table or desk topic."""
    parts = topic.split("/")
    if len(parts) == 4 and parts[1] == "table":
        return parts[2], parts[3]
    if len(parts) == 4 and parts[1] == "desk":
        return parts[3], parts[2]
    return "", ""


class VenueConfigError(ValueError):
    """A broker address or credentials file that cannot be used; says what to fix."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool = False
    ca: str | None = None  # the broker's certificate (PEM), from the credentials file

    @classmethod
    def parse(cls, url: str) -> Broker:
        """``mqtt://host:port`` (or ``host:port``), ``mqtts://host:port`` for TLS."""
        u = urlparse(url if "://" in url else f"mqtt://{url}")
        if u.scheme not in ("mqtt", "mqtts") or not u.hostname:
            raise VenueConfigError(_("broker address {url}: write mqtt://HOST:PORT (or "
                                     "mqtts://HOST:PORT with TLS)").format(url=repr(url)))
        try:
            port = u.port
        except ValueError:
            raise VenueConfigError(_("broker address {url}: the port must be a number from 1 "
                                     "to 65535").format(url=repr(url))) from None
        tls = u.scheme == "mqtts"
        return cls(u.hostname, port or (8883 if tls else 1883), tls)

    def with_credentials(self, creds: dict[str, Any]) -> Broker:
        """This address with the broker certificate a credentials file carries (TLS)."""
        ca = creds.get("ca")
        if self.tls and not ca:
            raise VenueConfigError(_("mqtts:// needs the broker's certificate in the credentials "
                                     "file: write it with `futmesa venue broker-config "
                                     "--certfile …`"))
        return Broker(self.host, self.port, self.tls, ca if isinstance(ca, str) else None)


def load_credentials(path: str | Path) -> dict[str, Any]:
    """A credentials file written by ``futmesa venue broker-config``: {"desk"?, "tables"?}."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise VenueConfigError(_("cannot read the credentials file {path}: {problem}").format(
            path=path, problem=exc.strerror)) from exc
    except json.JSONDecodeError as exc:
        raise VenueConfigError(_("{path} is not a credentials file written by "
                                 "`futmesa venue broker-config`").format(path=path)) from exc
    if not isinstance(data, dict) or not ({"desk", "tables"} & set(data)):
        raise VenueConfigError(_("{path} is not a credentials file written by "
                                 "`futmesa venue broker-config`").format(path=path))
    return data


def client(client_id: str, user: str, password: str, *, clean: bool = True,
           broker: Broker | None = None) -> mqtt.Client:
    """A paho client that reconnects by itself (quickly: a venue's broker is on the LAN).

    The broker replaces ``client_id`` with the user name (``use_username_as_clientid``).
    Over TLS (``mqtts://``) the broker's certificate from the credentials file is the only
    one trusted, and its name must match the address dialled.
    """
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                    clean_session=clean, protocol=mqtt.MQTTv311)
    c.username_pw_set(user, password)
    c.reconnect_delay_set(min_delay=1, max_delay=2)
    c.max_queued_messages_set(10000)
    if broker is not None and broker.tls:
        ctx = ssl.create_default_context(cadata=broker.ca) if broker.ca else \
            ssl.create_default_context()
        c.tls_set_context(ctx)
    return c


def guarded(what: str, handler: Callable[..., None],
            on_error: Callable[[str], None] | None = None) -> Callable[..., None]:
    """``handler`` as a paho callback that never raises: an error is logged (and passed to
    ``on_error`` as one line), that message is dropped, and the client goes on."""

    def run(*args: Any) -> None:
        try:
            handler(*args)
        except Exception as exc:  # noqa: BLE001 - nothing a peer sends may stop the loop
            log.exception(_("%s: a message could not be handled; it is dropped"), what)
            if on_error is not None:
                try:
                    on_error(f"{type(exc).__name__}: {exc}"[:200])
                except Exception:  # noqa: BLE001
                    log.exception(_("%s: reporting a failed message failed"), what)

    return run


class Supervised:
    """A paho client's network loop in a thread that survives anything and reconnects.

    ``on_down`` is called (from that thread) whenever the loop failed or the connection is
    gone, so the owner can show "no connection" at once.
    """

    def __init__(self, c: mqtt.Client, name: str, on_down: Callable[[], None]) -> None:
        self.client = c
        self.name = name
        self.on_down = on_down
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.restarts = 0

    def start(self, broker: Broker) -> None:
        self.client.connect_async(broker.host, broker.port, keepalive=KEEPALIVE_S)
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.client.loop_forever(retry_first_connection=True)
            except Exception:  # noqa: BLE001 - the loop must outlive any error
                self.restarts += 1
                log.exception(_("%s: the MQTT loop failed; it starts again"), self.name)
                self._down()
                if self._stop.wait(1.0):
                    return
                try:
                    self.client.reconnect()
                except Exception as exc:  # noqa: BLE001 - loop_forever retries it
                    log.warning(_("%s: reconnecting failed (%s); retrying"), self.name, exc)
            else:
                if not self._stop.is_set():
                    self._down()
                    self._stop.wait(1.0)

    def _down(self) -> None:
        try:
            self.on_down()
        except Exception:  # noqa: BLE001
            log.exception(_("%s: marking the connection down failed"), self.name)

    def stop(self) -> None:
        self._stop.set()
        try:
            self.client.disconnect()
        except Exception:  # noqa: BLE001 - stopping anyway
            pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
