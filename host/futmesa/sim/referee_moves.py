"""What a scripted referee enters next, read from the rules' published state.

The demo, the venue's simulated referees and the test kit's light tables play scripted
matches; each needs the same few moves a real referee makes at the console, decided from
the engine's state (never from a ruleset's name): the lances that bring the ball to the team
about to shoot (only the team with the lance asks for a shot, 000 Art. 12 §3 A; none from a
kick-off not taken where the rules say so), and the
kicks of a penalty shoot-out (003 Art. 28, 004 Disputa de pênaltis). Each function returns
one referee input as ``(kind, data)``, or None when there is nothing to enter.
"""

from __future__ import annotations

from typing import Any

Move = tuple[str, dict[str, Any]]
SIDES = ("A", "B")


def free_disc(pos: dict[str, Any], side: str, disc: int) -> int:
    """`disc`, or the next disc the state does not bar for `side` (sent off, out of the field,
    a kicker who waits for another touch: rules/possession.py)."""
    barred = set((pos.get("barred") or {}).get(side) or [])
    for _ in range(10):
        if disc not in barred:
            break
        disc = disc % 10 + 1
    return disc


def lance_towards(m: dict[str, Any], side: str, disc: int = 6) -> Move | None:
    """The lance to enter so that the ball goes towards `side`, or None when `side` has the
    lance already (its kick-off first where no shot is asked from it: :func:`kick_off_first`)
    or the rules name no team: a touch by `side` where it may play now (it
    takes the ball), else by the team that has the lance (it plays and the lance passes; where
    touches are counted per vez, a touch that misses the ball, which passes it at once)."""
    pos = m.get("possession") or {}
    holder = pos.get("side")
    if holder == side:
        return kick_off_first(m, side, disc)
    if holder not in SIDES:
        return None
    if keeper_takes(m):
        return keeper_takes(m)
    allowed = (pos.get("allowed") or {}).get(side) or []
    if "touch" in allowed:
        return "touch", {"side": side, "disc": free_disc(pos, side, disc)}
    disc = free_disc(pos, holder, disc)
    shot = m.get("shot_asked") or {}
    if shot.get("side") == holder and shot.get("disc") is not None:
        disc = int(shot["disc"])  # only the disc named for the holder's asked shot plays
    if pos.get("touches_remaining") is not None:
        # touches are counted per vez: a touch that misses the ball passes it (004 Sua vez);
        # in 003 the ball passes when it stops off the opponent's disc (Art. 47 §4)
        return "touch", {"side": holder, "disc": disc, "hit": False, "opponent_last": True}
    return "touch", {"side": holder, "disc": disc}


def kick_off_first(m: dict[str, Any], side: str, disc: int = 6) -> Move | None:
    """`side`'s kick-off touch, when `side` has the lance at its kick-off not yet taken and the
    rules ask no shot from it (the ball on the centre spot: 004 «Chute pedido», 001 Art. XXI
    a; possession.allowed); else None."""
    pos = m.get("possession") or {}
    r = m.get("restart") or {}
    allowed = (pos.get("allowed") or {}).get(side) or []
    if r.get("kind") == "saida" and not r.get("taken") and r.get("side") == side \
            and "touch" in allowed and "shot_asked" not in allowed:
        return "touch", {"side": side, "disc": free_disc(pos, side, disc)}
    return None


def shootout_kick(m: dict[str, Any], misses_every: int = 3) -> Move | None:
    """The shoot-out's next input: the result of a kick being taken, or the next kick, by a
    disc of the kicking team that has not kicked yet. The team that kicks first always
    scores and the other misses every `misses_every`-th kick, so the shoot-out ends."""
    sh = m.get("shootout") or {}
    if m.get("status") != "shootout" or m.get("finished"):
        return None
    if sh.get("in_progress"):
        return "shootout_result", {"scored": True}
    first = sh.get("first") or (m.get("kickoff") or {}).get("first") or "A"
    side = sh.get("next") or first
    used = (sh.get("used") or {}).get(side) or []
    expelled = (m.get("expelled") or {}).get(side) or []
    discs = [d for d in range(2, 12) if d not in used and d not in expelled] or [2]
    scored = side == first or len(used) % misses_every != misses_every - 1
    return "shootout_kick", {"side": side, "disc": discs[0], "scored": scored}


def back_in_play(m: dict[str, Any], disc: int = 6) -> Move | None:
    """Where the clock runs only with the ball in play (004 A partida) and it stands for a
    restart not yet taken: the restart's taker plays it, and the clock runs again."""
    if m.get("status") != "running" or m.get("clock_running"):
        return None
    if (m.get("clock_profile") or {}).get("clock_mode") != "ball-in-play":
        return None
    restart = m.get("restart") or {}
    side = restart.get("side") if not restart.get("taken") else None
    return (keeper_takes(m) or ("touch", {"side": side, "disc": disc})) if side in SIDES \
        else None


def keeper_takes(m: dict[str, Any]) -> Move | None:
    """A restart only the goalkeeper takes (his chutão, 004 Bola do goleiro, Tiros de meta)
    and not yet said to be his: the referee's tap that lets its kick be entered."""
    restart = m.get("restart") or {}
    if restart.get("taken") or restart.get("taker_choice") != "goalkeeper" \
            or (restart.get("taker") or {}).get("goalkeeper"):
        return None
    return "taker", {"goalkeeper": True}
