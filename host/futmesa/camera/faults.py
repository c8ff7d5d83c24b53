"""The camera's faults in the club's words: table faults on the kiosk and the console, the
match untouched (futmesa.health: a fault is shown, logged once, cleared once)."""

from __future__ import annotations

from futmesa.health import Fault
from futmesa.i18n import N_

CAMERA_LOST = "camera_lost"
CAMERA_FROZEN = "camera_frozen"
CAMERA_DISK_FULL = "camera_disk_full"
CAMERA_FAULTS = (CAMERA_LOST, CAMERA_FROZEN, CAMERA_DISK_FULL)

FAULTS = {
    CAMERA_LOST: Fault(CAMERA_LOST, N_("camera disconnected — the match goes on, without "
                                       "replays"),
                       N_("check the camera's cable and power (or its address); futmesa "
                          "takes it back by itself when it answers again")),
    CAMERA_FROZEN: Fault(CAMERA_FROZEN, N_("camera frozen (the picture does not change) — the "
                                           "match goes on, without replays"),
                         N_("unplug the camera and plug it back in; futmesa takes it back by "
                            "itself")),
    CAMERA_DISK_FULL: Fault(CAMERA_DISK_FULL, N_("disk full: replays are not being saved — the "
                                                 "match goes on"),
                            N_("free space on the disk that holds the database (delete old "
                               "clips or reports); the next clips are saved by themselves")),
}
