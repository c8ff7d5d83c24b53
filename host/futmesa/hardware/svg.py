"""A very small SVG writer with deterministic output (the drawings are checked in and diffed)."""

from __future__ import annotations

from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Arial, sans-serif"


def _n(v: float) -> str:
    """Numbers printed the same way on every machine."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


class Svg:
    def __init__(self, width: float, height: float, title: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.items: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str = "#000", sw: float = 1, rx: float = 0) -> None:
        extra = f' rx="{_n(rx)}"' if rx else ""
        self.items.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{_n(sw)}"{extra}/>'
        )

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000",
             sw: float = 1, dash: str = "") -> None:
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
            f'stroke="{stroke}" stroke-width="{_n(sw)}"{d}/>'
        )

    def circle(self, cx: float, cy: float, r: float, fill: str = "none",
               stroke: str = "#000", sw: float = 1) -> None:
        self.items.append(
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{_n(sw)}"/>'
        )

    def text(self, x: float, y: float, s: str, size: float = 12, anchor: str = "start",
             fill: str = "#000", bold: bool = False, rotate: float = 0) -> None:
        weight = ' font-weight="bold"' if bold else ""
        rot = f' transform="rotate({_n(rotate)} {_n(x)} {_n(y)})"' if rotate else ""
        self.items.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-family="{FONT}" font-size="{_n(size)}" '
            f'text-anchor="{anchor}" fill="{fill}"{weight}{rot}>{escape(s)}</text>'
        )

    def arrow_head(self, x: float, y: float, dx: float, dy: float, size: float = 6) -> None:
        # a filled triangle pointing along (dx, dy) with its tip at (x, y)
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / length, dy / length
        bx, by = x - ux * size, y - uy * size
        px, py = -uy * size * 0.4, ux * size * 0.4
        pts = f"{_n(x)},{_n(y)} {_n(bx + px)},{_n(by + py)} {_n(bx - px)},{_n(by - py)}"
        self.items.append(f'<polygon points="{pts}" fill="#c00000"/>')

    def dim(self, x1: float, y1: float, x2: float, y2: float, label: str,
            offset: float = 14, size: float = 11) -> None:
        """A dimension line with arrows at both ends and its label, parallel to (x1,y1)-(x2,y2)."""
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        nx, ny = -dy / length * offset, dx / length * offset
        a1x, a1y, a2x, a2y = x1 + nx, y1 + ny, x2 + nx, y2 + ny
        red = "#c00000"
        self.line(x1, y1, a1x + nx * 0.3, a1y + ny * 0.3, stroke=red, sw=0.6)
        self.line(x2, y2, a2x + nx * 0.3, a2y + ny * 0.3, stroke=red, sw=0.6)
        self.line(a1x, a1y, a2x, a2y, stroke=red, sw=0.8)
        self.arrow_head(a1x, a1y, -dx, -dy)
        self.arrow_head(a2x, a2y, dx, dy)
        mx, my = (a1x + a2x) / 2 + nx * 0.35, (a1y + a2y) / 2 + ny * 0.35
        vertical = abs(dx) < abs(dy)
        self.text(mx, my + (4 if not vertical else 0), label, size=size, anchor="middle",
                  fill=red, rotate=-90 if vertical else 0)

    def render(self) -> str:
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(self.width)}" '
            f'height="{_n(self.height)}" viewBox="0 0 {_n(self.width)} {_n(self.height)}">\n'
            f"<title>{escape(self.title)}</title>\n"
            f'<rect x="0" y="0" width="{_n(self.width)}" height="{_n(self.height)}" fill="#fff"/>\n'
        )
        return head + "\n".join(self.items) + "\n</svg>\n"
