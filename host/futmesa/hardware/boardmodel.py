"""The shape of a board file (hardware/boards/*.json), key by key, as pydantic models.

Unknown keys are refused with a "did you mean" (a typo such as "treshold_mm" would otherwise
silently keep the default). What one key means for another (pins used twice, goal ids,
addresses) is checked in futmesa.hardware.boardfile.check_board.
"""

from __future__ import annotations

import difflib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from futmesa.config import where_of
from futmesa.i18n import _

Pin = int | str  # a GPIO number, or a name such as "GP4" on a custom board


class _Board(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DataChannel(_Board):
    type: Literal["usb_cdc", "usb_uart", "uart", "pty", "none"]
    baud: int | None = Field(default=None, ge=0, le=4_000_000)  # 0: not a serial line
    uart_id: int | None = Field(default=None, ge=0, le=3)
    tx: Pin | None = None
    rx: Pin | None = None


class I2c(_Board):
    id: int = Field(ge=0, le=3)
    sda: Pin
    scl: Pin
    freq: int = Field(ge=10_000, le=1_000_000)


class Tof(_Board):
    default_address: str | None = None
    timing_budget_us: int | None = Field(default=None, ge=20_000, le=1_000_000)
    boot_delay_ms: int | None = Field(default=None, ge=0, le=1000)


class GoalSensor(_Board):
    id: int = Field(ge=0, le=1)
    type: Literal["vl53l0x", "beam"]
    xshut: Pin | None = None
    address: str | None = None
    beam_pin: Pin | None = None
    beam_blocked: int | None = Field(default=None, ge=0, le=1)
    threshold_mm: int | None = Field(default=None, ge=10, le=2000)
    hysteresis_mm: int | None = Field(default=None, ge=0, le=500)


class SideNetZone(_Board):
    zone: int = Field(ge=0)
    pin: Pin
    line: Literal["side", "end"]
    end: int = Field(ge=0, le=1)
    label: str | None = None


class Palheta(_Board):
    pin_a: Pin
    pin_b: Pin


class Buttons(_Board):
    turnA: Pin | None = None  # noqa: N815 - the board file's key
    turnB: Pin | None = None  # noqa: N815
    referee: Pin | None = None


class Buzzer(_Board):
    pin: Pin
    freq: int | None = Field(default=None, ge=100, le=20_000)


class Led(_Board):
    pin: Pin
    active: int | None = Field(default=None, ge=0, le=1)


class Power(_Board):
    supply: str | None = None
    sensor_vcc: str | None = None
    logic: str | None = None


class BoardModel(_Board):
    format: int
    board: str = Field(min_length=1, max_length=40)
    mcu: str
    name: str | None = None
    data_channel: DataChannel
    input_pull: Literal["up", "down", "none"] | None = None
    input_active: int | None = Field(default=None, ge=0, le=1)
    external_pullups: list[Pin] = []
    i2c: I2c
    tof: Tof
    goal_sensors: list[GoalSensor]
    side_net: list[SideNetZone]
    palheta: Palheta
    buttons: Buttons
    buzzer: Buzzer
    led: Led
    power: Power | None = None


_BOARD_PARTS: dict[str, type[BaseModel]] = {
    "data_channel": DataChannel, "i2c": I2c, "tof": Tof, "goal_sensors": GoalSensor,
    "side_net": SideNetZone, "palheta": Palheta, "buttons": Buttons, "buzzer": Buzzer,
    "led": Led, "power": Power,
}


def board_file_problem(data: Any) -> str | None:
    """The first problem in a board file's shape, as one line (None when it is fine)."""
    try:
        BoardModel.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        where = where_of(loc)
        if err["type"] == "extra_forbidden":
            parents = [p for p in loc[:-1] if isinstance(p, str)]
            model = _BOARD_PARTS.get(parents[-1], BoardModel) if parents else BoardModel
            known = list(model.model_fields)
            close = difflib.get_close_matches(str(loc[-1]), known, n=1, cutoff=0.6)
            hint = (_('; did you mean "{word}"?').format(word=close[0]) if close
                    else _("; known: {keys}").format(keys=", ".join(known)))
            return _("unknown key {where}{hint}").format(where=repr(where), hint=hint)
        if err["type"] == "missing":
            return _("missing key {where}; add it").format(where=repr(where))
        return _("{where}: {problem} (got {given})").format(
            where=where, problem=err["msg"], given=repr(err.get("input")))
    return None
