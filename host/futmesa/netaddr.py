"""The address a phone on the venue network can reach this host at.

``serve`` listens on every interface, but ``localhost`` in a QR code makes the referee's
phone open itself. ``public_base_url`` picks the LAN address: the interface that carries
the default route first, then private addresses (192.168/16, 10/8, 172.16/12) of real
interfaces before those of containers, VPNs and virtual bridges; never loopback or
link-local. ``--public-url`` overrides the choice (a name, a reverse proxy, a port
forward).
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from pathlib import Path

SIOCGIFADDR = 0x8915
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "tun", "tap", "wg",
                    "zt", "tailscale", "lxc", "lxd", "cni", "flannel", "podman")
ALL_INTERFACES = ("0.0.0.0", "", "::")
LOCAL_ONLY = ("127.0.0.1", "localhost", "::1")


def interface_addresses() -> list[tuple[str, str]]:
    """(interface name, IPv4 address) of every interface that has one (Linux)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            found.append((name, socket.inet_ntoa(packed[20:24])))
    return found


def default_route_interface() -> str | None:
    """The interface of the IPv4 default route, from /proc/net/route."""
    try:
        lines = Path("/proc/net/route").read_text().splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) > 2 and parts[1] == "00000000":
            return parts[0]
    return None


def _rank(name: str, address: str, default_iface: str | None) -> tuple[int, int, int] | None:
    ip = ipaddress.ip_address(address)
    if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
        return None
    virtual = name.startswith(VIRTUAL_PREFIXES)
    if ip in ipaddress.ip_network("192.168.0.0/16"):
        private = 0
    elif ip in ipaddress.ip_network("10.0.0.0/8"):
        private = 1
    elif ip in ipaddress.ip_network("172.16.0.0/12"):
        private = 2
    else:
        private = 3  # a public or carrier address: reachable, but rarely the venue's
    return (0 if name == default_iface and not virtual else 1, 1 if virtual else 0, private)


def choose_lan_address(addresses: list[tuple[str, str]],
                       default_iface: str | None = None) -> str | None:
    """The address a phone on the same network most likely reaches, or None (no network)."""
    ranked = []
    for order, (name, address) in enumerate(addresses):
        rank = _rank(name, address, default_iface)
        if rank is not None:
            ranked.append((rank, order, address))
    return min(ranked)[2] if ranked else None


def public_base_url(http_host: str, http_port: int, public_url: str | None = None) -> str:
    """The base URL to print and encode in the console QR code."""
    if public_url:
        url = public_url.rstrip("/")
        return url if "://" in url else f"http://{url}"
    if http_host in ALL_INTERFACES:
        try:
            lan = choose_lan_address(interface_addresses(), default_route_interface())
        except OSError:
            lan = None
        return f"http://{lan or 'localhost'}:{http_port}"
    if http_host in LOCAL_ONLY:
        return f"http://localhost:{http_port}"
    host = f"[{http_host}]" if ":" in http_host else http_host
    return f"http://{host}:{http_port}"
