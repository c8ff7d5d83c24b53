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
read only its own ``assign`` and ``ack``; only the desk may assign.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import paho.mqtt.client as mqtt

log = logging.getLogger("futmesa.venue")

PREFIX = "futmesa"
DESK_USER = "desk"


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

    @classmethod
    def parse(cls, url: str) -> Broker:
        """``mqtt://host:port`` (or ``host:port``)."""
        u = urlparse(url if "://" in url else f"mqtt://{url}")
        if u.scheme != "mqtt" or not u.hostname:
            raise VenueConfigError(f"broker address {url!r}: write it as mqtt://HOST:PORT")
        return cls(u.hostname, u.port or 1883)


def load_credentials(path: str | Path) -> dict[str, Any]:
    """A credentials file written by ``futmesa venue broker-config``: {"desk"?, "tables"?}."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise VenueConfigError(f"cannot read the credentials file {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise VenueConfigError(f"{path} is not a credentials file written by "
                               "`futmesa venue broker-config`") from exc
    if not isinstance(data, dict) or not ({"desk", "tables"} & set(data)):
        raise VenueConfigError(f"{path} is not a credentials file written by "
                               "`futmesa venue broker-config`")
    return data


def client(client_id: str, user: str, password: str, *, clean: bool = True) -> mqtt.Client:
    """A paho client that reconnects by itself (quickly: a venue's broker is on the LAN)."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                    clean_session=clean, protocol=mqtt.MQTTv311)
    c.username_pw_set(user, password)
    c.reconnect_delay_set(min_delay=1, max_delay=2)
    c.max_queued_messages_set(10000)
    return c


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
