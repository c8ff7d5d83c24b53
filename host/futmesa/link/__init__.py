"""Host side of the serial link: pyserial transport, handshake, acknowledgements, time sync."""

from futmesa.link.messages import DeviceInfo, Status
from futmesa.link.serial_link import HostLink, LinkSink

__all__ = ["DeviceInfo", "HostLink", "LinkSink", "Status"]
