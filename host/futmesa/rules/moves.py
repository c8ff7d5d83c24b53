"""Discs moved before a restart is taken (`disc_moved {side, disc[, to_half]}`): which team may
move, how many discs, in what order and where, per restart kind, as each document says
(004 Saída de bola, Escanteios, Faltas, Tiros de meta; 003 Art. 44 a, 64, 72, 73); and the
teams' arrangement in the order a document gives (`positions {side, part}`: 003 Art. 64 §6
before a goal kick; 004 Escanteios, the defence's goalkeeper in the small area). The counts and
orders are the ruleset's data (`restart_moves`, `restart_positions`); one check each
(`move_refusal`, `arrange_next`) serves the entry, the console's offer and its buttons
(possession's `movers`, `arrange`)."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from futmesa.i18n import N_, NP_

from .context import SIDES, Ctx, Labels, Refused, other
from .core import RESTART_NAMES, RulesCore

# the parts of a team arranged in turn (`positions part`)
PARTS = Labels({
    "attack": NP_("team part", "attack"),
    "defence": NP_("team part", "defence"),
    "goalkeeper": NP_("team part", "goalkeeper"),
})


def _team(m: dict[str, Any], side: str) -> str:
    return str(m["teams"][side]["name"])


class Moves(NamedTuple):
    """Who may move discs before one restart kind, and how many."""

    who: str  # "taker" (the restart's team), "other" (its opponent), "both" or "none"
    limit: int | None  # discs per team (the same disc again counts once); None: not counted
    rule: str  # the article, cited in every refusal
    taker_first: bool = False  # 004 Escanteios: "o ataque primeiro"
    own_half: bool = False  # 004 Saída de bola: "para qualquer lugar do próprio campo"


class Arrange(NamedTuple):
    """The order the teams' parts are arranged in before one restart kind."""

    order: tuple[tuple[str, str], ...]  # (who: "taker" | "other", part), in turn
    rule: str
    area: str | None = None  # where the goalkeeper stands ("small": 004 Escanteios)


class MoveRules(RulesCore):
    """`disc_moved`: one disc moved before a restart, counted against the ruleset's data."""

    # restart kind -> Moves; a kind not listed: no team moves a disc before it
    restart_moves: ClassVar[dict[str, Moves]] = {}
    # restart kind -> Arrange; a kind not listed: no arrangement to enter (`positions` refused)
    restart_positions: ClassVar[dict[str, Arrange]] = {}

    def move_refusal(self, m: dict[str, Any], side: str, disc: int | None = None,
                     to_half: str | None = None) -> Refused | None:
        """Why `side` may not move `disc` now (None: it may); `disc` None asks whether it may
        move one more."""
        r = m.get("restart")
        if not self.restart_moves:
            return Refused(N_("Not in this ruleset"))
        if not r or r.get("taken") or not self.in_play(m):
            return Refused(N_("Only before a restart is taken: no disc is moved now"))
        spec = self.restart_moves.get(r["kind"])
        restart = RESTART_NAMES.word(r["kind"], capital=True)
        if spec is None or spec.who == "none":
            return Refused(N_("{restart}: no disc is moved before it"),
                           rule=spec.rule if spec else "", restart=restart)
        mover = {"taker": r["side"], "other": other(r["side"])}.get(spec.who)
        if mover is not None and side != mover:
            return Refused(N_("{restart}: only {team} moves discs before it"), rule=spec.rule,
                           team=_team(m, mover), restart=restart)
        moved: dict[str, list[int]] = r.get("moved") or {}
        if spec.taker_first and side != r["side"] and not moved.get(r["side"]):
            return Refused(N_("{team} moves its discs first, then {other_team}"), rule=spec.rule,
                           team=_team(m, r["side"]),
                           other_team=_team(m, side))
        if spec.own_half and to_half is not None and to_half != side:
            return Refused(N_("{team} moves its discs only within its own field"),
                           rule=spec.rule, team=_team(m, side))
        mine = moved.get(side, [])
        if spec.limit is not None and disc not in mine and len(mine) >= spec.limit:
            return Refused(N_("{restart}: {team} has moved the discs it may ({n})"),
                           rule=spec.rule, team=_team(m, side), n=spec.limit,
                           restart=restart)
        return None

    def movers(self, m: dict[str, Any]) -> list[str]:
        """The teams that may move one more counted disc now (the console's buttons; where
        the document counts none, as at a 003 arrangement, nothing needs entering)."""
        r = m.get("restart")
        spec = self.restart_moves.get(r["kind"]) if r else None
        if spec is None or spec.limit is None:
            return []
        return [s for s in SIDES if self.move_refusal(m, s) is None]

    def move_rule(self, m: dict[str, Any]) -> dict[str, Any] | None:
        """Before the restart waiting, the teams its document lets move counted discs (however
        many they moved already) and how many each: {"sides": [...], "limit": n}, the card's
        note of who moves and who does not (walk51a M2; 004 Tiros de meta "Quem pôs a bola para
        fora move até quatro botões; o outro time não move nenhum"); None: no counted moves."""
        r = m.get("restart")
        spec = self.restart_moves.get(r["kind"]) if r and not r.get("taken") else None
        if spec is None or spec.limit is None or spec.who == "none" or not self.in_play(m):
            return None
        who = {"taker": [r["side"]], "other": [other(r["side"])]}.get(spec.who, list(SIDES))
        return {"sides": who, "limit": spec.limit}

    def on_disc_moved(self, ctx: Ctx) -> None:
        """`disc_moved {side, disc, to_half?}`: one disc of `side` moved before the restart;
        `to_half` (A | B), where it was put, is checked where the document says "do próprio
        campo" (004 Saída de bola)."""
        side, disc = ctx.side(), ctx.disc(required=True)
        to_half = ctx.entry.data.get("to_half")
        if to_half is not None and to_half not in SIDES:
            raise Refused(N_("to_half: A or B (the field the disc was put in)"))
        refusal = self.move_refusal(ctx.m, side, disc, to_half)
        if refusal is not None:
            raise refusal
        mine = ctx.m["restart"].setdefault("moved", {}).setdefault(side, [])
        if disc not in mine:
            mine.append(disc)

    def arrange_next(self, m: dict[str, Any]) -> tuple[str, str] | None:
        """The (side, part) to be arranged next before the restart, or None (none is due)."""
        r = m.get("restart")
        spec = self.restart_positions.get(r["kind"]) if r else None
        if spec is None or r.get("taken") or not self.in_play(m):
            return None
        done = r.get("arranged") or []
        for who, part in spec.order:
            side = r["side"] if who == "taker" else other(r["side"])
            if f"{side}:{part}" not in done:
                return side, part
        return None

    def on_positions(self, ctx: Ctx) -> None:
        """`positions {side, part}` (attack | defence; `disc: GK` the goalkeeper, with its
        `area`): that part of `side` was arranged before the restart, in the document's order
        (003 Art. 64 §6: "caberá ao cobrador do lance arrumar primeiro o seu ataque e o
        adversário também o seu ataque, em seguida a defesa do cobrador e após a defesa do
        adversário"; 004 Escanteios: "Depois, o goleiro da defesa é posicionado em qualquer
        ponto da pequena área")."""
        m, d = ctx.m, ctx.entry.data
        side = ctx.side()
        part = "goalkeeper" if str(d.get("disc", "")).upper() == "GK" else d.get("part")
        if part not in PARTS:
            raise Refused(N_("part: attack or defence (the goalkeeper: disc GK)"))
        r = m.get("restart")
        spec = self.restart_positions.get(r["kind"]) if r else None
        if spec is None or r.get("taken") or not self.in_play(m):
            raise Refused(N_("No arrangement of the teams is due now"))
        restart = RESTART_NAMES.word(r["kind"], capital=True)
        if f"{side}:{part}" in (r.get("arranged") or []):
            return  # arranged again: the same step
        nxt = self.arrange_next(m)
        if nxt != (side, part):
            if nxt is None:
                raise Refused(N_("{restart}: the teams are arranged"), rule=spec.rule,
                              restart=restart)
            raise Refused(N_("{restart}: {team} arranges its {part} first"), rule=spec.rule,
                          restart=restart, team=_team(m, nxt[0]), part=PARTS.word(nxt[1]))
        if part == "goalkeeper" and spec.area and d.get("area") not in (None, spec.area):
            raise Refused(N_("{restart}: the goalkeeper stands in the small area"),
                          rule=spec.rule, restart=restart)
        r.setdefault("arranged", []).append(f"{side}:{part}")
