"""Host side of the serial link: the protocol state machine, its serial transport, time sync."""

from futmesa.link.messages import DeviceInfo, Status
from futmesa.link.protocol import LinkProtocol, LinkSink, LiveSink, Transport
from futmesa.link.serial_link import HostLink, SerialTransport

__all__ = ["DeviceInfo", "HostLink", "LinkProtocol", "LinkSink", "LiveSink", "SerialTransport",
           "Status", "Transport"]
