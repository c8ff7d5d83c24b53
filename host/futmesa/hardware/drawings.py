"""Generates the checked-in drawings in `hardware/drawings/` from the board files and the rules.

- `wiring-<board>.svg`: every connection of one board file (`pico`, `esp32`, `rpi`).
- `placement-<ruleset>.svg`: top view of the table with the goal-line sensors, side-net
  zones and palheta switches, dimensioned from the rules.
- `goal-<ruleset>.svg`: the goal mouth from above and from the side: where the goal-line
  beam goes so that only a ball wholly past the line breaks it.

Run `futmesa drawings` or `python -m futmesa.hardware.drawings` to regenerate;
`--check` exits 1 and names the stale files (the test suite does the same).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from futmesa.hardware.boardfile import Board, hardware_dir, load_board
from futmesa.hardware.svg import Svg
from futmesa.i18n import _

WIRING_BOARDS = ("pico", "esp32", "rpi")
PLACEMENT_BOARD = "pico"  # zone numbering shown on the placement drawings
BEAM_MARGIN_MM = 3  # beyond one ball diameter behind the line: beam width + build tolerance


@dataclass(frozen=True)
class Geometry:
    """Table, field, goal and ball sizes of one ruleset, in mm, with the articles they come from."""

    key: str
    title: str
    table: tuple[int, int]
    field: tuple[int, int]
    goal_width: int
    goal_height: int
    ball_diameter: int
    ball_height: int
    palheta_length: int
    cite: str


GEOMETRIES = (
    Geometry(
        key="cbfm", title="Regra 1 Toque (CBFM, 000)", table=(2200, 1600), field=(2000, 1400),
        goal_width=150, goal_height=60, ball_diameter=10, ball_height=2, palheta_length=90,
        cite="000 Rule 1 §2 (table), §3 (palheta 0.09 m), §4 (goal 0.15 × 0.06 m), "
             "Art. 2 (field 2.0 × 1.4 m), Art. 7 (ball 10 × 2 mm)",
    ),
    Geometry(
        key="pastilha", title="Pastilha 8x2 (003)", table=(1870, 1210), field=(1690, 1040),
        goal_width=110, goal_height=45, ball_diameter=11, ball_height=4, palheta_length=90,
        cite="003 Art. 2 (ideal table 1.87 × 1.21 m), Art. 3 (field 1.69 × 1.04 m), "
             "Art. 6 (goal 11 × 4.5 cm), Art. 11 §1 (pastilha 11 × 4 mm); "
             "palheta length from 000 Rule 1 §3",
    ),
)


def beam_offset_mm(g: Geometry) -> int:
    """Distance of the beam behind the rear edge of the goal line."""
    return g.ball_diameter + BEAM_MARGIN_MM


def pin_name(board: Board, pin: Any) -> str:
    prefix = {"RP2040": "GP", "ESP32": "GPIO", "BCM2711": "GPIO"}.get(board["mcu"], "P")
    return f"{prefix}{pin}"


# --------------------------------------------------------------------- wiring

_NETS = ("3V3", "GND", "SDA", "SCL")
_NET_COLOURS = {"3V3": "#d00000", "GND": "#000000", "SDA": "#0060c0", "SCL": "#e08000"}


def _wiring_groups(board: Board) -> list[tuple[str, list[tuple[str, Any]]]]:
    """(title, [(terminal, net-or-pin)]); a str net is shared, an int (or str pin) is a GPIO."""
    groups: list[tuple[str, list[tuple[str, Any]]]] = []
    for g in board.goal_sensors:
        groups.append((
            f"Goal line {g['id']}: VL53L0X time-of-flight, address {g['address']}"
            + ("" if g["type"] == "vl53l0x" else " (not fitted: board file says beam)"),
            [("VIN", "3V3"), ("GND", "GND"), ("SDA", "SDA"), ("SCL", "SCL"),
             ("XSHUT", ("pin", g["xshut"]))],
        ))
    for g in board.goal_sensors:
        groups.append((
            f"Goal line {g['id']}: IR break-beam (alternative build, type \"beam\")",
            [("receiver OUT", ("pin", g["beam_pin"])), ("receiver VCC", "3V3"),
             ("receiver GND", "GND"), ("emitter VCC", "3V3"), ("emitter GND", "GND")],
        ))
    for z in board.side_net:
        groups.append((
            f"Side-net zone {z['zone']}: {z.get('label', z['line'])} (switch to GND)",
            [("NO", ("pin", z["pin"])), ("COM", "GND")],
        ))
    pal = board["palheta"]
    groups.append((
        "Palheta divisória switch (A closed: towards A; B closed: towards B; none: centre)",
        [("A", ("pin", pal["pin_a"])), ("B", ("pin", pal["pin_b"])), ("COM", "GND")],
    ))
    for name, pin in sorted(board["buttons"].items()):
        groups.append((f"Button {name} (push to GND)", [("NO", ("pin", pin)), ("COM", "GND")]))
    groups.append((
        f"Piezo buzzer (PWM, {board['buzzer'].get('freq', 2700)} Hz)",
        [("+", ("pin", board["buzzer"]["pin"])), ("-", "GND")],
    ))
    groups.append((
        "Status LED (through 330 Ω)",
        [("anode", ("pin", board["led"]["pin"])), ("cathode", "GND")],
    ))
    return groups


def wiring_svg(board: Board) -> str:
    groups = _wiring_groups(board)
    row, gap, top = 17, 30, 150
    n_rows = sum(len(t) for _, t in groups)
    height = top + n_rows * row + len(groups) * gap + 150
    svg = Svg(1100, height, f"futmesa wiring: {board['name']}")
    svg.text(20, 28, f"futmesa wiring — {board['name']}", size=18, bold=True)
    svg.text(20, 48, f"Generated from hardware/boards/{board.name}.json by "
             "`futmesa drawings`; do not edit by hand.", size=11, fill="#555")
    i2c = board["i2c"]
    svg.text(20, 66, f"I2C bus {i2c['id']}: SDA {pin_name(board, i2c['sda'])}, SCL "
             f"{pin_name(board, i2c['scl'])}, {i2c['freq'] // 1000} kHz. Inputs: internal "
             f"pull-{board.data.get('input_pull', 'up')}, active level "
             f"{board.data.get('input_active', 0)}.", size=11)
    ext = board.data.get("external_pullups") or []
    note = ("Fit 10 kΩ from 3V3 to " + ", ".join(pin_name(board, p) for p in ext)
            + " (no internal pull-up). ") if ext else ""
    svg.text(20, 82, note + "Keep 4.7 kΩ pull-ups from SDA and SCL to 3V3 "
             "(fitted on most VL53L0X breakouts; one set per bus is enough).", size=11)
    ch = board["data_channel"]
    svg.text(20, 98, f"Data channel to the host: {ch['type']}"
             + (f" at {ch['baud']} baud" if ch.get("baud") else ""), size=11)

    bx, bw = 30, 200
    pin_x = bx + bw
    bus_x = {net: 290 + 28 * i for i, net in enumerate(_NETS)}
    comp_x = 560
    y = top
    board_top = y - 10
    svg.text(bx + bw / 2, top - 18, board["name"][:34], size=11, anchor="middle", bold=True)
    # the board's own pins for the shared nets
    shared_pins = {"3V3": "3V3", "GND": "GND",
                   "SDA": pin_name(board, i2c["sda"]), "SCL": pin_name(board, i2c["scl"])}
    for net in _NETS:
        svg.line(pin_x, y, bus_x[net], y, stroke=_NET_COLOURS[net], sw=1.4)
        svg.circle(bus_x[net], y, 2.5, fill=_NET_COLOURS[net], stroke=_NET_COLOURS[net])
        svg.text(pin_x - 6, y + 4, f"{shared_pins[net]} ({net})" if net in ("SDA", "SCL")
                 else net, size=11, anchor="end")
        y += row
    y += gap / 2
    bus_top = top
    rows_out: list[tuple[float, str, Any]] = []
    for title, terms in groups:
        svg.text(comp_x, y - 6, title, size=11, bold=True)
        box_top = y
        for term, net in terms:
            y += row
            rows_out.append((y, term, net))
        svg.rect(comp_x, box_top + 4, 110, y - box_top + 2, fill="#f4f4f4", stroke="#888")
        y += gap
    bus_bottom = max(r[0] for r in rows_out if isinstance(r[2], str))
    for net in _NETS:
        svg.line(bus_x[net], bus_top, bus_x[net], bus_bottom, stroke=_NET_COLOURS[net], sw=1.4)
        svg.text(bus_x[net], bus_top - 6, net, size=9, anchor="middle", fill=_NET_COLOURS[net])
    for ry, term, net in rows_out:
        svg.text(comp_x + 6, ry + 4, term, size=10)
        if isinstance(net, str):
            svg.line(bus_x[net], ry, comp_x, ry, stroke=_NET_COLOURS[net], sw=1)
            svg.circle(bus_x[net], ry, 2.5, fill=_NET_COLOURS[net], stroke=_NET_COLOURS[net])
        else:
            svg.line(pin_x, ry, comp_x, ry, stroke="#208020", sw=1.2)
            svg.text(pin_x - 6, ry + 4, pin_name(board, net[1]), size=11, anchor="end")
    svg.rect(bx, board_top, bw, y - board_top - gap + 10, fill="none", stroke="#204080", sw=2)
    svg.text(20, height - 40, "Green: a GPIO of the board to one terminal. Coloured verticals: "
             "shared 3V3, GND, SDA, SCL (a dot is a joint).", size=11, fill="#555")
    return svg.render()


# ------------------------------------------------------------------ placement

def placement_svg(g: Geometry, board: Board) -> str:
    tl, tw = g.table
    fl, fw = g.field
    scale = 900 / tl
    ox, oy = 90, 130
    W, H = tl * scale + 200, tw * scale + 290
    svg = Svg(W, H, f"futmesa sensor placement: {g.title}")
    svg.text(20, 28, f"Sensor placement — {g.title}", size=18, bold=True)
    svg.text(20, 48, f"Sizes: {g.cite}.", size=10, fill="#555")
    svg.text(20, 64, f"Zone numbers from hardware/boards/{board.name}.json. Top view, "
             "end 0 on the left. Generated by `futmesa drawings`.", size=10, fill="#555")

    def X(mm: float) -> float:
        return ox + mm * scale

    def Y(mm: float) -> float:
        return oy + mm * scale

    svg.rect(X(0), Y(0), tl * scale, tw * scale, fill="#d9c09a", stroke="#6b4f2a", sw=2)
    fx0, fy0 = (tl - fl) / 2, (tw - fw) / 2
    svg.rect(X(fx0), Y(fy0), fl * scale, fw * scale, fill="#3c9a4a", stroke="#fff", sw=1.5)
    svg.line(X(tl / 2), Y(fy0), X(tl / 2), Y(fy0 + fw), stroke="#fff", sw=1.5)
    svg.circle(X(tl / 2), Y(tw / 2), 150 * scale, stroke="#fff", sw=1.2)
    # goals, just outside each end line (000 Rule 1 §4: "tangenciando por fora a linha de fundo")
    depth = 40
    for end, gx in ((0, fx0 - depth), (1, fx0 + fl)):
        svg.rect(X(gx), Y(tw / 2 - g.goal_width / 2), depth * scale, g.goal_width * scale,
                 fill="#ffffff", stroke="#000", sw=1.5)
        sx = fx0 - beam_offset_mm(g) if end == 0 else fx0 + fl + beam_offset_mm(g)
        svg.line(X(sx), Y(tw / 2 - g.goal_width / 2), X(sx), Y(tw / 2 + g.goal_width / 2),
                 stroke="#c00000", sw=2)
        lx = X(fx0) + 8 if end == 0 else X(fx0 + fl) - 8
        anchor = "start" if end == 0 else "end"
        svg.text(lx, Y(tw / 2) - 4, f"goal sensor {end}", size=11, anchor=anchor,
                 fill="#ffffff", bold=True)
        svg.text(lx, Y(tw / 2) + 10, f"(goal line {end})", size=10, anchor=anchor,
                 fill="#ffffff")
    # side-net zones along the table edge (the net stands on the edge)
    net_off = 14
    for z in board.side_net:
        colour = "#7030a0" if z["line"] == "end" else "#0060c0"
        if z["line"] == "end":
            x = X(0) - net_off if z["end"] == 0 else X(tl) + net_off
            svg.line(x, Y(0), x, Y(tw), stroke=colour, sw=4)
            svg.text(x + (-6 if z["end"] == 0 else 6), Y(tw / 2) + 48, f"zone {z['zone']}",
                     size=11, anchor="end" if z["end"] == 0 else "start", fill=colour, bold=True)
        else:
            north = "north" in str(z.get("label", ""))
            y = Y(0) - net_off if north else Y(tw) + net_off
            x0, x1 = (X(0), X(tl / 2) - 6) if z["end"] == 0 else (X(tl / 2) + 6, X(tl))
            svg.line(x0, y, x1, y, stroke=colour, sw=4)
            svg.text((x0 + x1) / 2, y + (-8 if north else 18), f"zone {z['zone']}: "
                     f"{z.get('label', '')}", size=11, anchor="middle", fill=colour, bold=True)
    # palheta divisória: inside the net at the midline, one each side (000 Rule 1 §3)
    for y in (Y(0) + 3, Y(tw) - 3):
        svg.rect(X(tl / 2) - g.palheta_length * scale / 2, y - 3, g.palheta_length * scale, 6,
                 fill="#ffd000", stroke="#806000")
    svg.text(X(tl / 2), Y(0) + 22, f"palheta ({g.palheta_length} mm) + switch",
             size=10, anchor="middle", fill="#000")
    # dimensions
    svg.dim(X(0), Y(tw) + 70, X(tl), Y(tw) + 70, f"table {tl} mm", offset=-14)
    svg.dim(X(fx0), Y(tw) + 105, X(fx0 + fl), Y(tw) + 105, f"field {fl} mm", offset=-14)
    svg.dim(X(tl) + 60, Y(0), X(tl) + 60, Y(tw), f"table {tw} mm", offset=-14)
    svg.dim(X(fx0 + fl * 0.75), Y(fy0), X(fx0 + fl * 0.75), Y(fy0 + fw), f"field {fw} mm",
            offset=14)
    svg.text(20, H - 24, f"Red lines: goal-line beams, {beam_offset_mm(g)} mm behind each goal "
             f"line (see goal-{g.key}.svg). Purple: end-line zones; blue: side-line zones.",
             size=11, fill="#555")
    return svg.render()


def goal_svg(g: Geometry) -> str:
    s = 4.0  # px per mm
    b = beam_offset_mm(g)
    depth = 40
    W, H = 1120, 300 + g.goal_width * s
    svg = Svg(W, H, f"futmesa goal-line sensor: {g.title}")
    svg.text(20, 28, f"Goal-line sensor — {g.title}", size=18, bold=True)
    svg.text(20, 48, f"Goal {g.goal_width} × {g.goal_height} mm, ball {g.ball_diameter} mm "
             f"across, {g.ball_height} mm high ({g.cite}).", size=10, fill="#555")

    # top view
    ox, oy = 60, 110
    svg.text(ox, oy - 24, "From above", size=13, bold=True)
    line_x = ox + 60 * s  # rear edge of the goal line
    svg.rect(ox, oy, 60 * s, g.goal_width * s, fill="#3c9a4a", stroke="none")
    svg.rect(line_x - 2 * s, oy, 2 * s, g.goal_width * s, fill="#fff", stroke="none")
    svg.rect(line_x, oy, depth * s, g.goal_width * s, fill="#eeeeee", stroke="#000", sw=1.5)
    svg.text(line_x - 4, oy - 6, "goal line", size=10, anchor="end")
    beam_x = line_x + b * s
    svg.line(beam_x, oy, beam_x, oy + g.goal_width * s, stroke="#c00000", sw=2, dash="6 3")
    svg.rect(beam_x - 10, oy - 18, 20, 16, fill="#204080", stroke="#000")
    svg.text(beam_x + 14, oy - 6, "sensor (VL53L0X or IR emitter) in the post/side wall",
             size=10)
    svg.rect(beam_x - 10, oy + g.goal_width * s + 2, 20, 12, fill="#999", stroke="#000")
    svg.text(beam_x + 14, oy + g.goal_width * s + 12,
             "opposite wall: IR receiver, or matte black target for the ToF", size=10)
    # the ball just tripping the beam: trailing edge past the line by the margin
    r = g.ball_diameter / 2 * s
    cy = oy + g.goal_width * s * 0.55
    svg.circle(beam_x - r, cy, r, fill="#ffee55", stroke="#000")
    svg.dim(line_x, oy + g.goal_width * s + 40, beam_x, oy + g.goal_width * s + 40,
            f"{b} mm", offset=0)
    svg.dim(ox - 20, oy, ox - 20, oy + g.goal_width * s, f"goal {g.goal_width} mm", offset=0)
    svg.text(ox, oy + g.goal_width * s + 78,
             f"Beam {b} mm behind the rear edge of the line = one ball ({g.ball_diameter} mm) "
             f"+ {BEAM_MARGIN_MM} mm: when the ball first breaks it, the ball is wholly past.",
             size=11)
    svg.text(ox, oy + g.goal_width * s + 94,
             "A ball that stops closer than that to the line is not seen: the referee enters it.",
             size=11)

    # side view
    sx, sy = 560, 110 + g.goal_height * s + 20
    svg.text(sx, 86, "From the side", size=13, bold=True)
    svg.rect(sx, sy, 360, 10, fill="#d9c09a", stroke="#6b4f2a")
    post_x = sx + 120
    svg.line(post_x, sy, post_x, sy - g.goal_height * s, stroke="#000", sw=3)
    svg.line(post_x, sy - g.goal_height * s, post_x + depth * s, sy - g.goal_height * s,
             stroke="#000", sw=3)
    svg.text(post_x - 6, sy - g.goal_height * s - 6, "crossbar", size=10, anchor="end")
    bx = post_x + b * s
    svg.rect(bx - 2 * r, sy - g.ball_height * s, 2 * r, g.ball_height * s, fill="#ffee55",
             stroke="#000")
    svg.line(bx - 2 * r - 30, sy - g.ball_height * s / 2, bx + 70,
             sy - g.ball_height * s / 2, stroke="#c00000", sw=1.5, dash="6 3")
    svg.text(bx + 74, sy - g.ball_height * s / 2 + 4,
             f"beam at {g.ball_height / 2:g} mm (half the ball height)", size=10)
    svg.dim(post_x + depth * s + 30, sy, post_x + depth * s + 30, sy - g.goal_height * s,
            f"{g.goal_height} mm", offset=0)
    svg.text(sx, sy + 34, "Recess the emitter/receiver (or the ToF window) into the floor",
             size=10)
    svg.text(sx, sy + 48, "or wall so the beam's centre is at half the ball height.", size=10)
    return svg.render()


# ---------------------------------------------------------------- generation

def drawings_dir() -> Path:
    return hardware_dir() / "drawings"


def render_all() -> dict[str, str]:
    """File name → SVG text for every generated drawing."""
    out: dict[str, str] = {}
    for name in WIRING_BOARDS:
        out[f"wiring-{name}.svg"] = wiring_svg(load_board(name))
    placement_board = load_board(PLACEMENT_BOARD)
    for g in GEOMETRIES:
        out[f"placement-{g.key}.svg"] = placement_svg(g, placement_board)
        out[f"goal-{g.key}.svg"] = goal_svg(g)
    return out


def stale(directory: Path | None = None) -> list[str]:
    """Names of drawings that are missing, different or no longer generated."""
    d = directory or drawings_dir()
    want = render_all()
    bad = [name for name, text in want.items()
           if not (d / name).is_file() or (d / name).read_text(encoding="utf-8") != text]
    extra = [p.name for p in d.glob("*.svg") if p.name not in want] if d.is_dir() else []
    return sorted(bad + extra)


def write_all(directory: Path | None = None) -> list[Path]:
    d = directory or drawings_dir()
    d.mkdir(parents=True, exist_ok=True)
    want = render_all()
    for p in d.glob("*.svg"):
        if p.name not in want:
            p.unlink()
    paths = []
    for name, text in sorted(want.items()):
        path = d / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m futmesa.hardware.drawings",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report stale drawings")
    ap.add_argument("--out", type=Path, default=None, help="folder (default hardware/drawings)")
    args = ap.parse_args(argv)
    if args.check:
        bad = stale(args.out)
        if bad:
            print(_("drawings out of date: {files}; run `futmesa drawings` and commit them")
                  .format(files=", ".join(bad)), file=sys.stderr)
            return 1
        print(_("the drawings are up to date"))
        return 0
    for p in write_all(args.out):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
