"""The console's inputs for what the table cannot see, with the real rules engine behind the hub
(no device): the ball stopped in a small area (000 Art. 16) from its button, and an expulsion whose
disc is not known answered with the number field of "A confirmar" (000 Art. 26 §1 F)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from phone_console import open_phone, watched
from rules_table import RulesTable, kicked_off, rules_served

from futmesa.hub import StateHub
from futmesa.matchbook.answer import answer_words
from futmesa.matchbook.citations import announcement
from futmesa.matchbook.live import in_words
from futmesa.matchbook.live_log import LiveLog
from futmesa.rules import Engine, load_ruleset
from futmesa.store import StoredEntry
from futmesa_testkit.liveserver import TOKEN, make_state, serving

pytestmark = pytest.mark.browser


def test_ball_stopped_and_expelled_disc_from_the_console(browser: Any, output_dir: Path) -> None:
    with rules_served(RulesTable, "cbfm-1toque") as (live, table):
        kicked_off(live, table, "t")
        console = browser.new_page()
        try:
            console.goto(live.url + f"/console?token={TOKEN}")
            console.click("[data-sheet=sheet-foul]")
            console.click("#sheet-foul .side[data-side=B]")
            console.click("#sheet-foul button[data-act=ball_stopped]")
            console.wait_for_function(
                "document.getElementById('result').textContent.startsWith('✓ bola parada')")
            restart = table.state.to_dict()["restart"]
            assert (restart["kind"], restart["side"]) == ("reposicao", "B")

            # three disciplinary fouls for B and no lance entered: which disc goes?
            # the ball stopped closed its sheet: the reposição's card shows (walk 45h-a A8)
            console.wait_for_selector("#sheet-foul", state="hidden")
            for _ in range(3):
                # after each action the buttons serve the team with the lance again (issue 31
                # §1): the referee names Botafogo for each of its fouls; each foul closes the
                # sheet (its kick or question on the first screen)
                console.click("[data-sheet=sheet-discipline]")
                console.click("#sheet-discipline .side[data-side=B]")
                console.click("#sheet-discipline button[data-discipline=disciplinary]")
                console.wait_for_function(
                    "document.getElementById('result').textContent.startsWith('✓ disciplina')")
                console.wait_for_selector("#sheet-discipline", state="hidden")
            # the first foul, as B was to take its reposição: A's bico first (000 Art. 26 §2 II B)
            console.wait_for_selector("#pending li button")
            assert "bico de área" in console.text_content("#pending li")
            console.click("#pending li button >> nth=0")
            console.wait_for_selector("#pending input.pending-disc")
            assert "Qual botão" in console.text_content("#pending li")
            console.fill("#pending input.pending-disc", "7")
            console.click("#pending li button")
            console.wait_for_function("document.getElementById('pending').textContent"
                                      ".includes('nada pendente')")
            assert table.state.to_dict()["expelled"]["B"] == [7]
            console.screenshot(path=str(output_dir / "console-expel-disc.png"))
        finally:
            console.close()


# ---- the inputs of docs/rulesets.md "Entradas do árbitro", each a control on the phone --------

WAIT_MS = 60_000
DOC = Path(__file__).resolve().parents[2] / "docs" / "operating.md"
MARK = "<!-- taps: tests/browser/test_console_rules_inputs.py -->"
# the taps each control takes from the first screen, counted below; the rows of the table in
# docs/operating.md §5 (its first column -> key here)
ROWS = {
    "Who takes a restart the team chooses (a disc)": "taker",
    "The goalkeeper takes it (A mesa está posta: the chutão)": "goalkeeper",
    "The side of a goal kick / corner whose side is the team's choice": "side",
    "Advantage: the favoured team waives the restart": "waive",
    "Discs moved before a goal kick (Gaúcha, A mesa está posta)": "moved",
    "The goalkeeper's chutão hit an opponent (A mesa está posta)": "hit",
    "The first lance of a lateral cedida was a pass (Gaúcha)": "pass",
    "Offside (Gaúcha)": "offside",
    "Foul on the goalkeeper by the other team": "keeper_foul",
    "A goal the goal line's sensor missed": "goal_by_hand",
    "Ball resting on the corner arc (Gaúcha)": "arc",
    "Grade a disciplinary foul (Pastilha, 003 Art. 87)": "grade",
    "Direct or indirect: the favoured team's choice (Gaúcha, Pastilha)": "kick",
    "Straight out without rolling (Regra 1 Toque)": "straight",
    "A kick's first lance touched an opponent (Regra 1 Toque, Gaúcha)": "off_opponent",
    "Ball stopped in the big area off the goalkeeper (Pastilha)": "big_area",
    "The offside disc named (Gaúcha, 001 Art. XXXII §2)": "offside_disc",
    "The kicker under 1 cm from the ball (Regra 1 Toque, 000 Art. 26 §1 E)": "distance",
    "A disc moved before a restart (A mesa está posta, Pastilha 8x2)": "disc_moved",
    "A part of a team arranged in the rule's order (Pastilha 8x2, A mesa está posta)": "arranged",
    "The goalkeeper on the shoot-out keypad (Pastilha, 003 Art. 37 §3)": "shootout_keeper",
    "The asked shot struck by another disc (Pastilha, 003 Art. 54 §2)": "other_disc",
    "Where a technical foul is taken (Gaúcha, 001 Art. XXIX b, m)": "spot",
    "The favoured team's bico of a big area (Regra 1 Toque, 000 Art. 26 §2 II B)": "bico",
    "A lance from the opponent's half (Gaúcha, 001 Art. XXIX d)": "from_attack",
    "The corner cedido's 1st lance short of the big area (Gaúcha, 001 XXVIII §2 a)": "short",
    "The ball stopped off the other team's disc: its ball (Pastilha, 003 Art. 47 §4)":
        "ball_passed",
    "A throw-in that reached no team-mate (A mesa está posta, 004 Bola fora)": "throw_in_passed",
    "The restart taken: the ball in play, the clock runs (A mesa está posta, 004 A partida)":
        "taken",
}


def documented_taps() -> dict[str, int]:
    """The table of docs/operating.md §5 for these inputs: key -> taps."""
    text = DOC.read_text(encoding="utf-8")
    assert MARK in text, f"{DOC} has lost the rule inputs' taps table (marked {MARK})"
    out: dict[str, int] = {}
    for line in text.split(MARK, 1)[1].lstrip().splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] in ROWS, f"a row this test does not play: {cells[0]}"
        out[ROWS[cells[0]]] = int(cells[1])
    return out


TAPS = documented_taps()


def test_the_taps_table_names_every_control() -> None:
    assert sorted(TAPS) == sorted(ROWS.values())


TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}


class NamedRulesTable(RulesTable):
    """The real engine; its log carries the teams, so the súmula's sentences name them; an
    input is answered as the daemon answers it (table/referee.py): with the rules' words."""

    async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        entry_id = self.apply(kind, data, "referee", author)
        # and the new state, as the daemon answers: the console takes the goals of its own
        # answer as its answer's, never as the table's news (G9)
        return {"entry_id": entry_id, "state": self.published,
                "effects": [announcement({"kind": e.kind, **e.data}) for e in self.effects],
                "said": self.said(entry_id)}

    def publish(self) -> None:
        # the match in words, as the daemon's state_json publishes it (the restart's words)
        m = self.state.to_dict()
        st = make_state(score=m["score"], teams=m["teams"], period=m["period"],
                        status=m["status"], finished=m["finished"])
        st["match"] = in_words(m)
        self.published = st
        self.hub.publish("sim-1", st)

    def said(self, entry_id: int) -> dict[str, str] | None:
        """What the rules stored, in the Registro's words (matchbook/answer.py), as the
        daemon answers (walk 45h-b B6)."""
        live = LiveLog(1)
        live.rebuild([StoredEntry(id=e["id"], match_id=1, source=e["source"], kind=e["kind"],
                                  data=e["data"], period=e["period"], clock_ms=0, ticks=0,
                                  author=e["author"], created_at=0.0, occurred_at=float(e["id"]))
                      for e in self.entries], self.state.to_dict())
        return answer_words(live.record(entry_id))

    def match_record(self, match_id: int) -> dict[str, Any]:
        record = super().match_record(match_id)
        m = self.state.to_dict()
        record["state"] = {"finished": m["finished"], "teams": m["teams"]}
        return record


class Thumb:
    """The referee's thumb on the phone console: every tap counted, every answer awaited."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.taps += 1

    def answered(self, start: str = "✓") -> str:
        """Waits for the host's answer to the last press; returns the result line."""
        self.page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
        # the answer's own line: never the table's news of the goal it made (walk #45g G9)
        self.page.wait_for_function(
            "/^[✓✗⚽]/.test(document.getElementById('result').textContent)", timeout=WAIT_MS)
        text = self.page.text_content("#result") or ""
        assert text.startswith(start), text
        return text

    def press(self, selector: str, *, via: str | None = None, disc: int | None = None,
              label: str | None = None, shot: Path | None = None, taps: str | None = None,
              start: str = "✓") -> str:
        """One control the engine offers, as the referee reaches it: the keypad's `disc`
        (typed before the tap `via` that opens a sheet over the keypad, else once the control
        shows), its `label` read, a screenshot, one tap, the host's answer (starting `start`);
        the taps counted since the first screen are the `taps` row of docs/operating.md §5."""
        if via:
            self.key(disc)
            self.tap(via)
        self.page.wait_for_selector(selector, state="visible", timeout=WAIT_MS)
        if not via:
            self.key(disc)
        if label is not None:
            assert self.page.text_content(selector) == label
        if shot is not None:
            self.page.screenshot(path=str(shot))
        self.tap(selector)
        said = self.answered(start)
        if taps is not None:
            assert self.taps == TAPS[taps], (self.taps, taps)
        return said

    def key(self, disc: int | None) -> None:
        if disc is not None:
            self.tap(f".lance [data-key='{disc}']")  # the first screen's (a sheet has its own)


Entry = tuple[str, dict[str, Any], str]
START: tuple[Entry, ...] = (("set_up", {"kickoff": "A", "teams": TEAMS}, "referee"),
                            ("start_period", {}, "referee"), ("clock_started", {}, "device"))


def _put(live: Any, table: RulesTable, kind: str, data: dict[str, Any] | None = None,
         source: str = "referee") -> None:
    """One entry to the engine, as the hub's caller makes it."""
    live.call(table.apply, kind, dict(data or {}), source, "t")


# a Gaúcha kick-off's touch is from the centre, no offside after it (001 Art. XXXII §1 b):
# then Alvorada's pass from its own field, after which «Impedimento de Alvorada» is offered
PASSED_FROM_DEFENCE: tuple[Entry, ...] = (("touch", {"side": "A", "disc": 4}, "referee"),
                                          ("touch", {"side": "A", "disc": 5}, "referee"))


@contextmanager
def _phone_match(browser: Any, ruleset: str, *entries: Entry, start: tuple[Entry, ...] = START,
                 options: dict[str, Any] | None = None
                 ) -> Iterator[tuple[Any, NamedRulesTable, Any, Thumb]]:
    """The real engine of `ruleset` (its `options`) behind a live server: the match under way
    (Alvorada kicks off), `entries` applied, the console open on a phone; yields (live, table,
    page, thumb). The phone is closed however the test ends; then no page error may be left."""
    hub = StateHub()
    table = NamedRulesTable(hub, ruleset)
    if options is not None:
        table.engine = Engine(load_ruleset(ruleset), options)
        table.state = table.engine.initial_state()
    with serving(hub, history=table) as live:
        for kind, data, source in start + entries:
            _put(live, table, kind, data, source)
        ctx, page, thumb = _console(browser, live)
        try:
            yield live, table, page, thumb
        finally:
            ctx.close()
        assert page.js_errors == []


def _console(browser: Any, live: Any) -> tuple[Any, Any, Thumb]:
    ctx, page = open_phone(browser, live.url + f"/console?token={TOKEN}")
    page.wait_for_function("document.getElementById('token-status').textContent.includes('✓')",
                           timeout=WAIT_MS)
    page.wait_for_function("document.getElementById('c-name-A').textContent === 'Alvorada'",
                           timeout=WAIT_MS)
    return ctx, page, Thumb(page)


def _last_sentence(live: Any) -> str:
    """The súmula's sentence of the newest entry, as the console's log shows it."""
    import httpx

    body = httpx.get(live.url + "/api/log?match=1", timeout=20).json()
    return str(body["entries"][-1]["text"])


def _fresh(page: Any) -> Thumb:
    """Back to the first screen, with a new count of taps."""
    page.goto(page.url.split("?")[0])
    page.wait_for_function("document.getElementById('c-name-A').textContent === 'Alvorada'",
                           timeout=WAIT_MS)
    return Thumb(page)


def test_cbfm_taker_waive_keeper_foul_and_corner_side(browser: Any, output_dir: Path) -> None:
    """000 Art. 16 §1 (who takes a reposição: a disc, from the keypad), Art. 24 (waived),
    Art. 15 §1 (the corner's side is the favoured team's choice), the foul on the goalkeeper."""
    with _phone_match(browser, "cbfm-1toque",
                      ("ball_stopped", {"side": "B", "area": "small"}, "referee")
                      ) as (live, table, page, thumb):
        # a reposição for Botafogo: "who takes it" on the first screen, the keypad's disc
        page.wait_for_selector("#rc-taker", state="visible", timeout=WAIT_MS)
        # the kick as the rules announce it, the TV's words (walk 45h-b B2)
        assert page.text_content("#restart-title") == "Reposição para Botafogo"
        assert not page.is_visible("#rc-goalkeeper")  # 000 Art. 13 §1: never the keeper
        thumb.press("#rc-taker", disc=7, label="Cobra o nº 7",
                    shot=output_dir / "console-rules-taker.png", taps="taker")
        assert table.state.to_dict()["restart"]["taker"] == {"disc": 7, "goalkeeper": False}
        assert _last_sentence(live) == "Cobrador escolhido: o botão 7"

        # the favoured team lets it go: one tap, a normal lance for Botafogo
        _fresh(page).press("#rc-waive", taps="waive")
        m = table.state.to_dict()
        assert m["restart"] is None and m["turn"] == "B"
        page.wait_for_selector("#restart-card", state="hidden", timeout=WAIT_MS)
        assert _last_sentence(live).startswith("Cobrança dispensada")

        # a foul by Alvorada on Botafogo's goalkeeper: Falta / toque, the keeper's foul
        thumb = _fresh(page)
        thumb.tap("[data-sheet=sheet-foul]")
        thumb.press("#act-keeper-foul", via="#sheet-foul .side[data-side=A]",
                    label="Falta de Alvorada no goleiro",
                    shot=output_dir / "console-rules-keeper-foul.png",
                    taps="keeper_foul")  # one less for the side on turn
        r = table.state.to_dict()["restart"]
        # not a penalty: the goalkeeper's team kicks in its big area, in two lances (000
        # Art. 19 §1; Art. 20 is a foul in the offender's own area)
        assert (r["kind"], r["side"]) == ("falta_indireta", "B")
        assert _last_sentence(live) == "Falta de Alvorada no goleiro"

        # a corner after a ball in the goal: the favoured team picks the side (Art. 15 §1)
        _put(live, table, "restart", {"side": "A", "kind": "escanteio"})
        thumb = _fresh(page)
        page.wait_for_selector("#rc-left", state="visible", timeout=WAIT_MS)
        assert page.is_visible("#rc-right")
        thumb.press("#rc-left", taps="side")
        assert table.state.to_dict()["restart"]["flank"] == "left"
        assert _last_sentence(live) == "Cobrança pelo lado esquerdo"

        # Alvorada's lance went straight out over its own end line, without rolling, from
        # Botafogo's field (000 Art. 23 VI C): one tap on the corner's card
        _put(live, table, "touch", {"side": "A", "disc": 3})
        _put(live, table, "last_touch", {"side": "A"})
        _put(live, table, "ball_out", {"zone": 5, "line": "end", "end": 0}, "device")
        _fresh(page).press("#rc-straight",
                           label="Saiu direto, sem rolar: falta técnica de Alvorada",
                           shot=output_dir / "console-rules-straight-out.png", taps="straight")
        r = table.state.to_dict()["restart"]
        assert (r["kind"], r["side"], r["rule"]) == ("falta_tecnica", "B", "000 Art. 23 VI C")
        assert _last_sentence(live) == "A bola saiu direto, sem rolar"

        # a free kick in two lances whose first lance touched an opponent (Art. 18 §1)
        _put(live, table, "touch", {"side": "B", "disc": 4})
        _put(live, table, "foul", {"side": "A", "type": "falta", "where": "own_half"})
        _put(live, table, "touch", {"side": "B", "disc": 5})
        _fresh(page).press("#rc-off-opponent", label="1º lance de Botafogo tocou no adversário",
                           taps="off_opponent")
        assert table.state.to_dict()["turn"] == "A"
        assert _last_sentence(live) == "O primeiro lance da cobrança tocou no adversário"

        # walk #45 M7: the ball went in and the faulty sensor did not see it; Alvorada had
        # asked the shot: the referee's goal counts as the sensor's would (000 Art. 12 §1)
        _put(live, table, "shot_asked", {"side": "A", "disc": 6})
        thumb = _fresh(page)
        thumb.tap("[data-sheet=sheet-foul]")
        thumb.press("#act-goal-by-hand", via="#sheet-foul .side[data-side=A]",
                    label="Gol de Alvorada (o sensor não viu)",
                    shot=output_dir / "console-rules-goal-by-hand.png", taps="goal_by_hand")
        assert table.state.to_dict()["score"] == {"A": 1, "B": 0}
        assert _last_sentence(live) == "Árbitro: bola no gol de Botafogo (o sensor não viu)"


def test_gaucha_offside_corner_arc_goal_kick_side_taker_and_moved_discs(
        browser: Any, output_dir: Path) -> None:
    """001 Art. XXXII (offside, one tap), XXXVI (the ball on the corner arc), XXXIII §1–§2
    (the goal kick's side and taker, discs moved before it), XXIII §6 (waived)."""
    with _phone_match(browser, "gaucha", *PASSED_FROM_DEFENCE) as (live, table, page, thumb):
        # offside: on the first screen, named for the team that played the last lance
        thumb.press("#act-offside", label="Impedimento de Alvorada",
                    shot=output_dir / "console-rules-offside.png", taps="offside")
        r = table.state.to_dict()["restart"]
        assert (r["kind"], r["side"]) == ("tiro_livre", "B")
        assert _last_sentence(live) == "Impedimento de Alvorada"

        # the free kick may be waived (XXIII §6): one tap; "considerada como vencida"
        Thumb(page).press("#rc-waive", label="Dispensar (considerada vencida)")
        assert table.state.to_dict()["restart"] is None
        assert table.state.to_dict()["turn"] == "A"  # as if taken: the opponent plays

        # the ball rests on the corner arc on Alvorada's side, Botafogo played last
        _put(live, table, "touch", {"side": "B", "disc": 3})
        arc = f"#act-arc-{table.state.to_dict()['ends']['A']}"
        _fresh(page).press(arc, via="[data-sheet=sheet-foul]",
                           label="Bola no quarto de círculo, lado de Alvorada",
                           shot=output_dir / "console-rules-arc.png", taps="arc")
        r = table.state.to_dict()["restart"]
        assert (r["kind"], r["side"]) == ("tiro_de_meta", "A")
        assert _last_sentence(live).startswith("Bola parada sobre o quarto de círculo")

        # Alvorada's goal kick: the side, then the taker, from the first screen
        thumb = _fresh(page)
        page.wait_for_selector("#rc-right", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#rc-waive")  # a goal kick is not an infraction
        page.screenshot(path=str(output_dir / "console-rules-goal-kick.png"))
        thumb.press("#rc-right")
        assert table.state.to_dict()["restart"]["flank"] == "right"
        thumb.key(5)
        thumb.tap("#rc-taker")
        thumb.answered()
        assert thumb.taps == TAPS["side"] + TAPS["taker"]
        assert table.state.to_dict()["restart"]["taker"] == {"disc": 5, "goalkeeper": False}

        # the taker moved discs before kicking (XXXIII §1): a technical foul for Botafogo
        Thumb(page).press("#rc-moved", label="Alvorada moveu botões no tiro de meta",
                          taps="moved")
        r = table.state.to_dict()["restart"]
        assert r["side"] == "B", r
        assert _last_sentence(live) == "Alvorada moveu botões antes do tiro de meta"

        # a lateral cedida (XXXIV §1 a): its first lance was a pass, so disc 4 may play
        # the second (XXIX l)
        _put(live, table, "restart", {"side": "A", "kind": "lateral_cedida"})
        _fresh(page).press("#rc-pass", disc=4, label="1º lance de Alvorada: passe do nº 4",
                           shot=output_dir / "console-rules-pass.png", taps="pass")
        r = table.state.to_dict()["restart"]
        assert (r["passed"], r["first_disc"], r["taker_lances"]) == (True, 4, 1)
        page.wait_for_selector("#rc-pass", state="hidden", timeout=WAIT_MS)
        technical = table.state.to_dict()["fouls"]["A"]["technical"]
        _put(live, table, "touch", {"side": "A", "disc": 4})
        assert table.state.to_dict()["fouls"]["A"]["technical"] == technical
        assert _last_sentence(live) == "Toque de Alvorada, botão 4"

        # Botafogo's disc 7 left the field (XXXVII §1): the chosen team, the keypad's
        # disc, one tap in the fouls sheet; its touch is refused until Botafogo has played
        thumb = _fresh(page)
        thumb.tap("#side-B")
        thumb.press("#act-disc-out", via="[data-sheet=sheet-foul]", disc=7,
                    label="Botão nº 7 de Botafogo fora de campo")
        assert table.state.to_dict()["discs_out"]["B"] == [7]
        assert _last_sentence(live) == "Botão 7 de Botafogo fora de campo"

        # a rebound over the halfway line (XXXVIII): one tap; no shot on the next lance
        _fresh(page).press("#act-rebound", via="[data-sheet=sheet-foul]")
        assert table.state.to_dict()["no_shot_next_lance"] is True
        assert _last_sentence(live) == ("Rebote passou do meio-campo: sem chute no próximo "
                                        "lance")

        # a foul in the offender's field (XXIII §2): the favoured técnico chooses direct or
        # indirect, one tap on the restart's card; the card then offers the other one
        _put(live, table, "foul", {"side": "B", "type": "falta", "where": "opponent_half"})
        _fresh(page).press("#rc-kick", label="Alvorada: indireta (passe e chute)",
                           shot=output_dir / "console-rules-kick-choice.png", taps="kick")
        assert table.state.to_dict()["restart"]["kind"] == "falta_indireta"
        assert _last_sentence(live) == "O time favorecido cobra a falta indireta"
        page.wait_for_function(
            "document.querySelector('#rc-kick').textContent === 'Alvorada: direta'",
            timeout=WAIT_MS)
        _put(live, table, "touch", {"side": "A", "disc": 5, "pass": True})
        page.wait_for_selector("#rc-kick", state="hidden", timeout=WAIT_MS)


def test_mesa_posta_keeper_kick_and_the_penalty_keeper_choice_first(
        browser: Any, output_dir: Path) -> None:
    """004 Tiros de meta (discs moved go back; the goalkeeper's chutão, one tap on the card
    that takes it — walk52a finding 7: «Goleiro cobra» only named the taker and left the clock
    stopped; the kick hitting an opponent) and 004 Pênaltis (the defending goalkeeper chooses
    first, in secret, on the keeper page; the console never shows the choice)."""
    with _phone_match(browser, "mesa-posta",
                      ("restart", {"side": "A", "kind": "tiro_de_meta"}, "referee")
                      ) as (live, table, page, thumb):
        page.wait_for_selector("#rc-moved", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#rc-taker")  # 004: the chutão is the goalkeeper's
        assert page.query_selector("#rc-goalkeeper") is None  # no taker step of its own
        thumb.tap("#rc-moved")
        thumb.answered()
        codes = [a.get("code") for a in table.state.to_dict()["announcements"]]
        assert "discs_back" in codes

        # the chutão, one tap: the restart taken, his touch with no disc (he has no number)
        thumb = _fresh(page)
        thumb.press("#rc-taken", label="▶ Cobrança dada: chutão do goleiro (bola em jogo)",
                    shot=output_dir / "console-rules-keeper-chutao.png", taps="goalkeeper")
        assert table.state.to_dict()["restart"]["taken"]
        assert table.entries[-1]["kind"] == "touch"
        assert table.entries[-1]["data"] == {"side": "A", "disc": None}
        # it hits Botafogo's disc: the ball is Botafogo's
        thumb = _fresh(page)
        page.wait_for_selector("#rc-hit", state="visible", timeout=WAIT_MS)
        assert "Cobrado" in page.text_content("#restart-title")
        thumb.press("#rc-hit", shot=output_dir / "console-rules-keeper-kick.png", taps="grade")
        assert table.state.to_dict()["turn"] == "B"
        assert _last_sentence(live) == "O chutão do goleiro acertou um botão adversário"

        # a penalty for Alvorada: Botafogo's goalkeeper chooses first, on another device: the
        # card shows his page as a QR code to read on his phone, and a button that opens it in
        # a new tab to hand him this one; the referee's page stays on the console (issue #45)
        _put(live, table, "restart", {"side": "A", "kind": "penalti"})
        thumb = _fresh(page)
        page.wait_for_selector("#rc-keeper-qr svg", state="visible", timeout=WAIT_MS)
        assert "goleiro de Botafogo" in page.text_content("#rc-keeper")
        assert "goleiro de Botafogo" in page.text_content("#rc-keeper-hand")
        assert "leia o QR" in page.text_content("#rc-keeper-hand")
        page.screenshot(path=str(output_dir / "console-rules-penalty-keeper.png"))
        href = page.get_attribute("#rc-keeper", "href") or ""
        assert "side=B" in href and TOKEN not in href  # never the referee's key
        console_at = page.url
        with page.context.expect_page(timeout=WAIT_MS) as opened:
            thumb.tap("#rc-keeper")
        keeper = watched(opened.value)  # the keeper's page, in a tab of its own
        assert page.url == console_at
        keeper.wait_for_function("document.querySelector('[data-side=B]').textContent"
                                 ".includes('Botafogo')", timeout=WAIT_MS)
        assert keeper.get_attribute("[data-side=B]", "aria-pressed") == "true"
        # the page asks only what it shows: his corner (walk 50a L8, 17: "Escolha a equipe
        # que defende, depois o canto" beside one goalkeeper's button)
        assert keeper.text_content("#intro-one") == (
            "Escolha o canto. A escolha fica oculta até a cobrança.")
        assert keeper.is_visible("#intro-one") and not keeper.is_visible("#intro")
        keeper.click("[data-choice=left]")
        keeper.wait_for_function("document.getElementById('out').textContent"
                                 ".includes('registrada')", timeout=WAIT_MS)
        # the referee's phone keeps the referee's key (the keeper's tab kept its own)
        assert page.evaluate("localStorage.getItem('futmesa.token')") == TOKEN
        assert keeper.js_errors == []
        keeper.close()
        assert table.state.to_dict()["restart"]["keeper_choice_recorded"] is True
        page.wait_for_function("document.getElementById('rc-keeper-note').textContent"
                               ".includes('registrada')", timeout=WAIT_MS)
        assert not page.is_visible("#rc-keeper")
        text = page.evaluate("document.body.innerText").lower()
        assert "esquerd" not in text  # the secret stays secret on the referee's phone
        page.screenshot(path=str(output_dir / "console-rules-penalty-chosen.png"))

        # the link's key read from the QR on the player's own phone: the console refuses it
        player, stolen = open_phone(browser, urljoin(live.url, href.replace("/console/keeper",
                                                                           "/console")))
        try:
            stolen.wait_for_function("document.getElementById('token-status').textContent"
                                     ".includes('✗')", timeout=WAIT_MS)
            assert "goleiro" in stolen.text_content("#token-status")
        finally:
            player.close()


def test_pastilha_discipline_grade_is_asked_with_two_clear_answers(
        browser: Any, output_dir: Path) -> None:
    """003 Art. 87: a disciplinary foul is graded by the referee (indirect free kick or
    disqualification), asked in "A confirmar"."""
    with _phone_match(browser, "pastilha-8x2") as (live, table, page, thumb):
        # the ball stopped in the big area of the team on turn, off its goalkeeper (003
        # Art. 43, 44 b): the fouls sheet, one tap; the goalkeeper's ball from that spot
        side = table.state.to_dict()["turn"]
        team = TEAMS[side]["name"]
        thumb.press("#act-stopped-big", via="[data-sheet=sheet-foul]",
                    label=f"Bola parou na grande área de {team}, vinda do goleiro",
                    taps="big_area")
        r = table.state.to_dict()["restart"]
        assert (r["kind"], r["side"], r["spot"]) == ("bola_do_goleiro", side, "big_area")
        assert _last_sentence(live) == f"Bola parou na grande área de {team}"
        thumb = _fresh(page)
        thumb.tap("[data-sheet=sheet-discipline]")
        thumb.tap("#sheet-discipline .side[data-side=B]")
        thumb.tap("#sheet-discipline button[data-discipline=disciplinary]")
        thumb.answered()  # the foul closed its sheet: the question is on the first screen
        page.wait_for_selector("#pending [data-choice=disqualify]", timeout=WAIT_MS)
        assert "Botafogo" in page.text_content("#pending li")
        answers = page.eval_on_selector_all("#pending [data-choice]",
                                            "bs => bs.map(b => b.textContent)")
        assert answers == ["tiro livre indireto sugerido", "desclassificação"]
        page.screenshot(path=str(output_dir / "console-rules-discipline-grade.png"))
        Thumb(page).press("#pending [data-choice=free_kick]", taps="goalkeeper")
        m = table.state.to_dict()
        assert m["pending"] == [] and m["fouls"]["B"]["disciplinary"] == 1
        assert not m["finished"]
        assert _last_sentence(live).endswith("tiro livre indireto")


def test_no_kickoff_button_once_the_draw_decided_it(browser: Any) -> None:
    """003 Art. 30 §1: the draw's winner chose the field, the kick-off is the other team's; a
    later "Saída de jogo" would only be refused, so the clock sheet no longer offers it (the
    draw's entry is corrected in the log instead)."""
    with _phone_match(browser, "pastilha-8x2",
                      start=(("set_up", {"teams": TEAMS}, "referee"),)
                      ) as (live, table, page, thumb):
        thumb.tap("[data-sheet=sheet-clock]")
        assert page.is_visible("#act-kickoff")
        page.select_option("#draw-choice", "field")
        thumb.tap("#sheet-clock [data-act=draw_choice]")
        thumb.answered()
        assert table.state.to_dict()["kickoff"]["draw"] == 2
        page.wait_for_selector("#act-kickoff", state="hidden", timeout=WAIT_MS)
        assert page.is_visible("#sheet-clock [data-act=start]")


def test_the_kick_off_card_says_what_its_button_records(browser: Any, output_dir: Path) -> None:
    """Issue 45 (blind walk, kick-off): 004 Saída de bola, "Antes da saída, esse time pode mover
    até dois botões para qualquer lugar do próprio campo" — the card's only button read
    "Alvorada moveu um botão (digite o nº)" and a referee took it for the kick-off taken. The
    card says what the button records, and that the kick-off is not taken yet; the button
    names the moment ("antes da saída"). A goal kick's card says it too (walk51a M2)."""
    with _phone_match(browser, "mesa-posta") as (live, table, page, thumb):
        page.wait_for_selector("#rc-disc-moved", state="visible", timeout=WAIT_MS)
        note = page.text_content("#rc-moves-note") or ""
        assert note == ("Antes da saída, Alvorada pode mudar botões de lugar: toque uma vez para "
                        "cada botão movido. A saída ainda não foi dada."), note
        assert page.text_content("#rc-disc-moved") == (
            "Alvorada moveu um botão antes da saída (digite o nº)")
        page.screenshot(path=str(output_dir / "console-kickoff-disc-moved.png"))
        thumb.press("#rc-disc-moved", disc=4,
                    label="Alvorada moveu o botão nº 4 antes da saída")
        restart = table.state.to_dict()["restart"]
        assert (restart["moved"], restart["taken"]) == ({"A": [4]}, False)
        # walk51a M2: a goal kick's card says who moves (004 Tiros de meta: "Quem pôs a bola
        # para fora move até quatro botões; o outro time não move nenhum"), and which of its
        # two buttons records the infraction — it showed them side by side, unexplained
        _put(live, table, "touch", {"side": "A", "disc": 4})
        _put(live, table, "restart", {"side": "A", "kind": "tiro_de_meta"})
        _fresh(page)
        page.wait_for_selector("#rc-disc-moved", state="visible", timeout=WAIT_MS)
        note = page.text_content("#rc-moves-note") or ""
        assert note == ("No tiro de meta, Botafogo pode mover até 4 botões (toque uma vez por "
                        "botão); Alvorada não move nenhum — «Alvorada moveu botões no tiro de "
                        "meta» registra a infração."), note
        assert page.text_content("#rc-disc-moved") == "Botafogo moveu um botão (digite o nº)"
        page.screenshot(path=str(output_dir / "console-goal-kick-moves-note.png"))


def test_the_restart_taken_in_one_tap_on_its_card(browser: Any, output_dir: Path) -> None:
    """Walk48a M1: 004 A partida, "num relógio que só corre com a bola rolando" — the clock
    waits for the restart taken, which no sensor sees, and the referee had to find "Toque" in a
    sheet. The card's "▶ Cobrança dada (bola em jogo)" is the taker's touch, offered while the
    engine says it (possession.restart_tap): the kick-off, one tap; a goal kick's is the
    goalkeeper's chutão (no disc, whatever number is keyed: 004 Tiros de meta); a free kick's
    names the keypad's disc (004 O cobrador waits for him); a penalty's kick is its asked shot
    (004 Pênaltis), never this button."""
    with _phone_match(browser, "mesa-posta") as (live, table, page, thumb):
        page.wait_for_selector("#rc-taken", state="visible", timeout=WAIT_MS)
        assert "cobrança de Alvorada (saída de jogo) — toque «▶ Cobrança dada» quando for " \
               "dada" in page.text_content("#pending")
        thumb.press("#rc-taken", label="▶ Cobrança dada (bola em jogo)",
                    shot=output_dir / "console-rules-restart-taken.png", taps="taken")
        m = table.state.to_dict()
        assert m["restart"]["taken"] and m["clock_running"], m["restart"]
        assert table.entries[-1]["kind"] == "touch"
        assert table.entries[-1]["data"] == {"side": "A", "disc": None}
        page.wait_for_selector("#rc-taken", state="hidden", timeout=WAIT_MS)

        _put(live, table, "restart", {"side": "B", "kind": "tiro_de_meta"})
        thumb = _fresh(page)
        page.wait_for_selector("#rc-taken", state="visible", timeout=WAIT_MS)
        thumb.key(5)  # Botafogo's disc keyed: the chutão is still the goalkeeper's
        assert page.text_content("#rc-taken") == ("▶ Cobrança dada: chutão do goleiro (bola em "
                                                  "jogo)")
        thumb.press("#rc-taken")
        assert table.entries[-1]["data"] == {"side": "B", "disc": None}
        assert table.state.to_dict()["restart"]["taken"]

        _put(live, table, "foul", {"side": "B", "type": "falta", "where": "opponent_half"})
        thumb = _fresh(page)
        _result_lines(page)
        thumb.press("#rc-taken", disc=7, label="▶ Cobrança dada pelo nº 7 (bola em jogo)")
        assert table.entries[-1]["data"] == {"side": "A", "disc": 7}
        # answered as the kick it took, by its disc, never "Toque de Alvorada, botão 7"
        # (walk 50a L5, 04: the Registro's words of the touch the rules read so)
        line = _said(page, "✓ ")
        assert line.startswith("✓ Tiro livre para Alvorada: cobrança dada pelo botão 7"), line
        r = table.state.to_dict()["restart"]
        assert (r["kind"], r["taken"], r["taker_disc"]) == ("tiro_livre", True, 7), r

        _put(live, table, "foul", {"side": "B", "type": "falta", "where": "box"})
        _fresh(page)
        page.wait_for_selector("#rc-keeper", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#rc-taken")


def test_the_blind_cases_inputs_on_a_phone(browser: Any, output_dir: Path) -> None:
    """The inputs the blind cases lacked (issue 44), each offered only when the engine offers
    it: the offside disc (001 Art. XXXII §2), the kicker under 1 cm from the ball (000 Art. 26
    §1 E), a disc moved before a goal kick or a corner (004 Tiros de meta, Escanteios) and the
    goalkeeper key on the shoot-out keypad, refused with its reason (003 Art. 37 §3)."""
    # the kick-off not yet taken: the kicker under 1 cm, from the discipline sheet
    with _phone_match(browser, "cbfm-1toque") as (live, table, page, thumb):
        thumb.press("#act-distance", via="[data-sheet=sheet-discipline]", disc=3,
                    label="Cobrador de Alvorada, nº 3, a menos de 1 cm da bola",
                    shot=output_dir / "console-rules-distance.png", taps="distance")
        assert table.state.to_dict()["distance_warned"]["A"] is True
        assert _last_sentence(live) == "Cobrador de Alvorada, botão 3, a menos de 1 cm da bola"
        # once the kick-off is taken, nothing to offer
        _put(live, table, "touch", {"side": "A", "disc": 3})
        thumb = _fresh(page)
        thumb.tap("[data-sheet=sheet-discipline]")
        page.wait_for_selector("#act-distance", state="hidden", timeout=WAIT_MS)

    # gaúcha: the keypad's number goes with Impedimento
    with _phone_match(browser, "gaucha", *PASSED_FROM_DEFENCE) as (live, table, page, thumb):
        page.wait_for_selector("#act-offside", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#act-distance")  # not in 001
        thumb.press("#act-offside", disc=6, label="Impedimento de Alvorada, nº 6",
                    shot=output_dir / "console-rules-offside-disc.png", taps="offside_disc")
        assert table.entries[-1]["data"] == {"side": "A", "disc": 6}
        assert _last_sentence(live) == "Impedimento de Alvorada, botão 6"

    # a mesa-posta goal kick for Alvorada: Botafogo (who put the ball out) moves a disc
    with _phone_match(browser, "mesa-posta",
                      ("restart", {"side": "A", "kind": "tiro_de_meta"}, "referee")
                      ) as (live, table, page, thumb):
        thumb.press("#rc-disc-moved", disc=2, label="Botafogo moveu o botão nº 2",
                    shot=output_dir / "console-rules-disc-moved.png", taps="disc_moved")
        assert table.state.to_dict()["restart"]["moved"] == {"B": [2]}
        assert _last_sentence(live) == "Botafogo moveu o botão 2 antes do reinício"
        _put(live, table, "taker", {"goalkeeper": True})
        _put(live, table, "touch", {"side": "A"})
        thumb = _fresh(page)
        page.wait_for_selector("#rc-disc-moved", state="hidden", timeout=WAIT_MS)
        # a corner (004 Escanteios): the attack's button first, then one per team
        _put(live, table, "restart", {"side": "A", "kind": "escanteio"})
        page.wait_for_selector("#rc-disc-moved", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#rc-disc-moved-2")
        thumb.press("#rc-disc-moved", disc=9, label="Alvorada moveu o botão nº 9")
        page.wait_for_selector("#rc-disc-moved-2", state="visible", timeout=WAIT_MS)
        assert "Botafogo" in page.text_content("#rc-disc-moved-2")
        assert table.state.to_dict()["restart"]["moved"] == {"A": [9]}
        # 004 Escanteios: then the defence's goalkeeper in the small area, one tap
        _fresh(page).press("#rc-arranged",
                           label="Goleiro de Botafogo posicionado na pequena área",
                           taps="arranged")
        assert table.state.to_dict()["restart"]["arranged"] == ["B:goalkeeper"]
        page.wait_for_selector("#rc-arranged", state="hidden", timeout=WAIT_MS)

    # pastilha-8x2: the shot asked for no. 9 struck by no. 8 (003 Art. 54 §2: no goal from it)
    with _phone_match(browser, "pastilha-8x2", ("touch", {"side": "A", "disc": 6}, "referee")
                      ) as (live, table, page, thumb):
        assert not page.is_visible("#act-other-disc")  # no shot asked yet
        _put(live, table, "shot_asked", {"side": "A", "disc": 9})
        thumb.press("#act-other-disc", disc=8, label="Chute batido pelo nº 8, não pelo nº 9",
                    shot=output_dir / "console-rules-other-disc-shot.png", taps="other_disc")
        assert table.state.to_dict()["shot_asked"]["struck_by"] == 8
        assert _last_sentence(live) == "Chute batido por Alvorada, botão 8"
        page.wait_for_selector("#act-other-disc", state="hidden", timeout=WAIT_MS)

    # pastilha-8x2: Botafogo disqualified losing 1 × 0 — the score is the referee's (003 Art.
    # 83 §3), its two answers in words
    with _phone_match(browser, "pastilha-8x2",
                      ("touch", {"side": "A", "disc": 6}, "referee"),
                      ("shot_asked", {"side": "A", "disc": 7}, "referee"),
                      ("touch", {"side": "A", "disc": 7}, "referee"),
                      ("goal_line", {"goal": 1}, "device"),
                      ("discipline", {"side": "B", "type": "disqualify"}, "referee")
                      ) as (live, table, page, thumb):
        page.wait_for_selector("#pending li button", timeout=WAIT_MS)
        answers = page.locator("#pending li button").all_text_contents()
        assert answers == ["2 × 0 sugerido", "o placar do momento"], answers
        page.screenshot(path=str(output_dir / "console-rules-final-score.png"))
        thumb.press("#pending li button >> nth=1")
        assert table.state.to_dict()["score"] == {"A": 1, "B": 0}
        assert _last_sentence(live).endswith(": o placar do momento"), _last_sentence(live)

    # pastilha-8x2, a knockout drawn: the shoot-out's goalkeeper key is refused with the reason
    with _phone_match(browser, "pastilha-8x2",
                      ("clock_started", {}, "device"), ("alarm", {}, "device"),
                      ("start_period", {}, "referee"), ("clock_started", {}, "device"),
                      ("alarm", {}, "device"),
                      start=(("set_up", {"kickoff": "A", "teams": TEAMS}, "referee"),),
                      options={"kickoff": "A", "competition": "knockout", "extra_time": False}
                      ) as (live, table, page, thumb):
        assert table.state.to_dict()["phase"] == "shootout"
        said = thumb.press("#act-kick-keeper", start="✗", taps="shootout_keeper")
        assert "goleiro não cobra" in said and "003 Art. 37" in said, said
        page.screenshot(path=str(output_dir / "console-rules-shootout-keeper.png"))
        assert table.state.to_dict()["shootout"]["kicks"] == []


def test_where_a_kick_is_taken_on_a_phone(browser: Any, output_dir: Path) -> None:
    """The restart card says where the kick is taken and a penalty's set-up; a technical foul's
    place, which only the referee knows, is one tap (001 Art. XXIX b, m: the penalty mark),
    offered only while the kick waits; the favoured team's bico is asked (000 Art. 26 §2 II B)
    with answers in words."""
    with _phone_match(browser, "gaucha", ("touch", {"side": "A", "disc": 4}, "referee"),
                      ("foul", {"side": "B", "type": "tecnica"}, "referee")
                      ) as (live, table, page, thumb):
        page.wait_for_selector("#rc-spot-penalty_mark", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#rc-spot")  # where the ball is: the usual place
        assert not page.is_visible("#rc-spot-ball")  # the place it has now
        thumb.press("#rc-spot-penalty_mark", taps="spot")
        restart = table.state.to_dict()["restart"]
        assert (restart["spot"], restart["spot_of"]) == ("penalty_mark", "B")
        page.wait_for_function("document.getElementById('rc-spot').textContent === "
                               "'Local: na marca do pênalti (Botafogo)'", timeout=WAIT_MS)
        assert _last_sentence(live) == "Cobrança na marca do pênalti"
        page.screenshot(path=str(output_dir / "console-rules-kick-spot.png"))
        # taken: nothing to offer; a penalty: its set-up on the card
        _put(live, table, "touch", {"side": "A", "disc": 9})
        _put(live, table, "foul", {"side": "B", "type": "falta", "where": "box"})
        page.wait_for_selector("#rc-setup", state="visible", timeout=WAIT_MS)
        assert not page.is_visible("#rc-spot-penalty_mark")
        assert page.text_content("#rc-setup") == (
            "Preparação: todos os botões afastados para fora da grande área; o goleiro com "
            "a frente tocando a linha de gol")

    # cbfm-1toque: Botafogo's disciplinary foul as it was to take a goal kick
    with _phone_match(browser, "cbfm-1toque",
                      ("touch", {"side": "A", "disc": 10}, "referee"),
                      ("touch", {"side": "A", "disc": 8}, "referee"),
                      ("last_touch", {"side": "A"}, "referee"),
                      ("ball_out", {"line": "end", "end": 1}, "device"),
                      ("discipline", {"side": "B", "type": "disciplinary"}, "referee")
                      ) as (live, table, page, thumb):
        page.wait_for_selector("#pending li button", timeout=WAIT_MS)
        answers = page.locator("#pending li button").all_text_contents()
        assert answers == ["Área de Alvorada, bico esquerdo", "Área de Alvorada, bico direito",
                           "Área de Botafogo, bico esquerdo sugerido",
                           "Área de Botafogo, bico direito"], answers
        page.screenshot(path=str(output_dir / "console-rules-bico.png"))
        _result_lines(page)
        thumb.press("#pending li button >> nth=3", taps="bico")
        restart = table.state.to_dict()["restart"]
        assert (restart["spot"], restart["spot_of"], restart["flank"]) == (
            "big_area_corner", "B", "right")
        # the answer's line says the foul and the button tapped, no stored number nor code
        # (walk46a M1: "«Árbitro decide sobre o registro nº 41: falta» …: A left")
        line = _said(page, "✓ Árbitro decide sobre")
        assert line.startswith("✓ Árbitro decide sobre «Falta disciplinar: Botafogo»"), line
        assert "): Área de Botafogo, bico direito · " in line, line


def test_where_the_ball_was_and_the_corners_short_lance(browser: Any, output_dir: Path) -> None:
    """Gaúcha: a lance played from the opponent's half (001 Art. XXIX d: back over its own end
    line untouched, a technical foul) and the escanteio cedido's first lance short of the big
    area (XXVIII §2 a: no shot on the second), each one control offered when the engine offers
    it, its taps counted against docs/operating.md."""
    # the kick-off's lances; A's lance
    with _phone_match(browser, "gaucha", *(("touch", {"side": side, "disc": disc}, "referee")
                                           for disc, side in ((10, "A"), (8, "A"), (4, "B")))
                      ) as (live, table, page, thumb):
        thumb.press("#act-from-attack", via="[data-sheet=sheet-foul]", disc=9,
                    label="Toque de Alvorada, nº 9, do campo adversário",
                    shot=output_dir / "console-rules-from-attack.png", taps="from_attack")
        assert table.entries[-1]["data"] == {"side": "A", "disc": 9, "ball": "opponent_half"}
        assert _last_sentence(live) == "Toque de Alvorada, botão 9 do campo adversário"
        assert table.state.to_dict()["played_from_attack"] == "A"

        # an escanteio cedido for Alvorada: its first lance stopped short of the big area
        _put(live, table, "restart", {"side": "A", "kind": "escanteio_cedido"})
        _fresh(page).press("#rc-short", disc=7,
                           label="1º lance de Alvorada pelo nº 7: não chegou à grande área",
                           shot=output_dir / "console-rules-corner-short.png", taps="short")
        r = table.state.to_dict()["restart"]
        assert (r["short"], r["first_disc"], r["taker_lances"]) == (True, 7, 1)
        assert _last_sentence(live) == ("Toque de Alvorada, botão 7 — não chegou à grande "
                                        "área")
        page.wait_for_selector("#rc-short", state="hidden", timeout=WAIT_MS)


def _result_lines(page: Any) -> None:
    """Every text the result line shows from now on, kept in ``window.__lines`` (the table's
    news may follow the answer's own line within the same second)."""
    page.evaluate("""() => { window.__lines = []; const r = document.getElementById('result');
        new MutationObserver(() => window.__lines.push(r.textContent || ''))
            .observe(r, {childList: true, characterData: true, subtree: true}); }""")


def _said(page: Any, start: str) -> str:
    """The answer's last line starting ``start`` (its "✓ …" comes first, then what the rules
    made of it), once the host answered."""
    page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
    page.wait_for_function(f"window.__lines.some(l => l.startsWith({start!r}))",
                           timeout=WAIT_MS)
    return str(page.evaluate(
        f"window.__lines.filter(l => l.startsWith({start!r})).pop()"))


def test_an_answer_says_what_the_rules_stored(browser: Any, output_dir: Path) -> None:
    """Issue 45 (walk45g, G7/G10, 48–50-*, 76-gol-contra.png): the answer's line read "✓
    confirmado: falta" after the cera question (which foul? which kick?) and "✓ confirmado:
    gol contra" (whose?). An answer's line says what the rules made of it, in their words."""
    warned = (("lance_expired", {"side": "A", "warning": False, "count": 1}, "device"),
              ("touch", {"side": "A", "disc": 4}, "referee"),
              ("lance_started", {"side": "A"}, "device"),
              ("lance_expired", {"side": "A", "warning": False, "count": 1}, "device"))
    with _phone_match(browser, "pastilha-8x2", *warned) as (live, table, page, thumb):
        page.wait_for_selector("#pending [data-where=own_half]", timeout=WAIT_MS)
        # each answer names its kick: no bare "✓ falta" beside the two cera buttons (G7)
        answers = page.locator("#pending li button").all_text_contents()
        assert len(answers) == 3 and all("cera" in a for a in answers[:2]), answers
        # each field named by whose it is, the kick by who takes it (walk45i-a, 08-ph: "cera —
        # bola no campo de defesa de Botafogo" when Alvorada was late)
        assert answers[:2] == ["cera — bola no campo de Botafogo: indireta para Botafogo",
                               "cera — bola no campo de Alvorada: direta ou indireta para "
                               "Botafogo"], answers
        assert answers[2] == "sem falta", answers
        _result_lines(page)
        thumb.tap("#pending [data-where=own_half]")
        # the Registro's words: the answer, the foul and its count, the kick (walk 45h-b B6)
        line = _said(page, "✓ Árbitro decide sobre")
        assert "Cera de Alvorada: falta disciplinar (1ª)" in line, line
        assert "cobrança indireta) para Botafogo" in line, line
        page.screenshot(path=str(output_dir / "console-answer-cera.png"))
    with _phone_match(browser, "cbfm-1toque") as (live, table, page, thumb):
        ends = table.state.to_dict()["ends"]
        _put(live, table, "goal_line", {"goal": ends["A"]}, "device")
        page.wait_for_selector("#pending [data-choice=own_goal]", timeout=WAIT_MS)
        _result_lines(page)
        thumb.tap("#pending [data-choice=own_goal]")
        line = _said(page, "✓ Árbitro decide sobre")
        assert "Gol contra de Alvorada, ponto para Botafogo" in line, line
        page.screenshot(path=str(output_dir / "console-answer-own-goal.png"))


def test_an_act_that_stops_the_play_closes_the_foul_sheet(browser: Any, output_dir: Path) -> None:
    """Walk 45h-a A8: "Gol de Alvorada (o sensor não viu)" left the Falta / toque sheet open
    over the kick-off question (000 Art. 6 §1), its team already switched to Botafogo, so a
    second tap entered a goal for the other team. An act after which a restart or a question
    follows closes the sheet: the first screen shows it, and no second tap lands in the sheet."""
    with _phone_match(browser, "cbfm-1toque",
                      ("touch", {"side": "A", "disc": 4}, "referee"),  # the kick-off first
                      ("shot_asked", {"side": "A", "disc": 6}, "referee")
                      ) as (live, table, page, thumb):
        thumb.tap("[data-sheet=sheet-foul]")
        thumb.press("#act-goal-by-hand", via="#sheet-foul .side[data-side=A]",
                    label="Gol de Alvorada (o sensor não viu)")
        page.wait_for_selector("#sheet-foul", state="hidden", timeout=WAIT_MS)
        page.wait_for_selector("#pending li button", state="visible", timeout=WAIT_MS)
        assert "saída" in (page.text_content("#pending") or "")
        page.screenshot(path=str(output_dir / "console-sheet-closes-after-goal-by-hand.png"))
        assert table.state.to_dict()["score"] == {"A": 1, "B": 0}

        # a foul and a restart given from the sheet close it too; a touch does not
        asked = table.state.to_dict()["pending"][0]
        _put(live, table, "confirm", {"target": asked["id"], "choice": "B"})
        for act in ("#sheet-foul [data-act=foul]", "#sheet-foul [data-restart=lateral]"):
            thumb = _fresh(page)
            thumb.tap("[data-sheet=sheet-foul]")
            if act.endswith("foul]"):  # a foul says where it was (walk45h-b B3)
                thumb.tap("#sheet-foul [data-field=foul-where] [data-value=opponent_half]")
            thumb.press(act)
            page.wait_for_selector("#sheet-foul", state="hidden", timeout=WAIT_MS)
        thumb = _fresh(page)
        thumb.tap("[data-sheet=sheet-foul]")
        thumb.press("#sheet-foul [data-act=touch]")
        assert page.is_visible("#sheet-foul")


def test_after_a_voided_goal_the_first_screen_agrees(browser: Any, output_dir: Path) -> None:
    """Walk 45h-a A5 (27-after-void-main.png): after "Gol … (o sensor não viu)" was voided the
    first screen said "Vez: Alvorada » Não há confirmação pendente com esse número" under a
    "Cobrado: falta direta para Botafogo" card. The ball went in and is no goal: Botafogo's
    asked shot is over (walk46a H1: left pending, it reopened the 1st half in the interval) and
    Alvorada restarts with a goal kick (000 Art. 13) — its card, nothing to confirm, no refusal,
    the goal kick's words on the "Vez:" line."""
    with _phone_match(browser, "cbfm-1toque",
                      ("touch", {"side": "A", "disc": 4}, "referee"),
                      ("foul", {"side": "B", "type": "falta", "where": "opponent_half"},
                       "referee"),
                      ("shot_asked", {"side": "A", "disc": 8}, "referee"),
                      ("shot_result", {"outcome": "post"}, "referee"),
                      ("shot_asked", {"side": "B", "disc": 9}, "referee"),
                      ("goal_by_hand", {"side": "B"}, "referee")) as (live, table, page, thumb):
        goal = next(e["id"] for e in table.entries if e["kind"] == "goal_by_hand")
        _put(live, table, "confirm", {"target": goal, "choice": "A"})
        page.wait_for_selector("#pending li button", state="hidden", timeout=WAIT_MS)
        _put(live, table, "void", {"target": goal, "reason": "bola não entrou"})
        page.wait_for_function("document.getElementById('c-score').textContent === '0 × 0'",
                               timeout=WAIT_MS)
        page.screenshot(path=str(output_dir / "console-after-voided-goal.png"))
        card = page.text_content("#restart-card") or ""
        assert page.is_visible("#restart-card") and "Alvorada" in card, card
        assert not page.is_visible("#pending li button")
        said = page.text_content("#c-announce") or ""
        assert "tiro de meta para Alvorada" in said and "pendente" not in said, said
        assert "chute pendente" not in (page.text_content("#act-shot-team") or "")


def test_the_ball_passes_to_the_other_team_from_the_console(
        browser: Any, output_dir: Path) -> None:
    """Walk45i-a M1: "A bola é de Alvorada: Botafogo só toca nela depois que ela passar … registre
    isso antes (…)" named no control on the console: only the table's turn button moved the
    ball. Now the refusal names the button by its words and the button is there, naming the
    team that gets the ball (003 Art. 47 §4); 004 Bola fora's throw-in that reached no
    team-mate the same way."""
    passed = "Bola de Botafogo: parou depois de tocar em botão ou goleiro de Botafogo"
    with _phone_match(browser, "pastilha-8x2", ("touch", {"side": "A", "disc": 10}, "referee"),
                      ("touch", {"side": "A", "disc": 5}, "referee")
                      ) as (live, table, page, thumb):
        thumb.tap("[data-sheet=sheet-foul]")
        thumb.tap("#sheet-foul .side[data-side=B]")
        thumb.tap("#sheet-foul button[data-act=touch]")
        said = thumb.answered("✗")
        assert f"«{passed}» (Falta / toque)" in said, said
        page.wait_for_selector("#act-ball-passed", state="visible", timeout=WAIT_MS)
        assert page.text_content("#act-ball-passed") == passed  # Botafogo chosen or not
        thumb = _fresh(page)
        thumb.press("#act-ball-passed", via="[data-sheet=sheet-foul]", label=passed,
                    shot=output_dir / "console-rules-ball-passed.png", taps="ball_passed")
        assert table.state.to_dict()["turn"] == "B"
        assert _last_sentence(live) == "Árbitro dá a bola para Botafogo"
        # the ball is Botafogo's now: the button offers it back to Alvorada
        page.wait_for_function("document.getElementById('act-ball-passed').textContent"
                               ".startsWith('Bola de Alvorada')", timeout=WAIT_MS)
    with _phone_match(browser, "mesa-posta", ("touch", {"side": "A", "disc": 9}, "referee"),
                      ("last_touch", {"side": "A"}, "referee"),
                      ("ball_out", {"zone": 2, "line": "side", "end": 1}, "device"),
                      ("touch", {"side": "B", "disc": 4}, "referee")  # the throw-in
                      ) as (live, table, page, thumb):
        thumb.press("#act-ball-passed", via="[data-sheet=sheet-foul]",
                    label="Bola de Alvorada: o lateral de Botafogo não chegou a um companheiro",
                    taps="throw_in_passed")
        assert table.state.to_dict()["turn"] == "A"
