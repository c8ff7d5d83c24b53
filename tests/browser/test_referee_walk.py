"""A referee's walk (issue 31): a whole match by taps alone on a touch phone, per ruleset, with
the real firmware on a pseudo-terminal, the daemon and SQLite behind it — a shot for the team
with the lance (the other team's is not offered), its outcome, a foul by the team without the
lance, a question from the table answered, a void, a substitution at the interval where the
ruleset has them, both halves, the final whistle and the referee's signature — and then the
stored log is read back: it holds exactly the inputs meant (kind, team, disc), and the súmula
reads them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from futmesa.rules import RULESETS
from futmesa.sim.referee_moves import kick_off_first, shootout_kick
from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Grêmio", "color": "#1040c0"},
         "B": {"name": "Internacional", "color": "#c02020"}}
SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
WAIT_MS = 90_000
# halves of 100 s of table time (10 s at speed 10); the referee stops the clock while he
# enters the first half's facts, so they never race the alarm; a lance never runs out
SETTINGS = {"period_ms": 100_000, "interval_ms": 600_000, "lance_ms": 3_600_000,
            "lance_warn_ms": 5_000}
MEANT = ("shot_asked", "shot_result", "foul", "substitution", "void", "confirm",
         "shootout_kick", "shootout_result", "signature")


class Walk:
    """The referee's thumb on the console; each action waits until the host has stored it."""

    def __init__(self, page: Any, live: LiveTable) -> None:
        self.page, self.live = page, live
        self.taps = 0

    def referee_inputs(self) -> list[Any]:
        d = self.live.daemon
        return [e for e in d.store.entries(d.match["id"]) if e.source == "referee"]

    def tap(self, *selectors: str) -> None:
        for selector in selectors:
            self.page.tap(selector)
            self.taps += 1

    def act(self, *selectors: str) -> None:
        """Taps that send one input: waits until the host stored it."""
        before = len(self.referee_inputs())
        self.tap(*selectors)
        self.live.wait(lambda: len(self.referee_inputs()) > before, 60,
                       f"the input of {selectors[-1]}")

    def wait_js(self, expr: str) -> None:
        self.page.wait_for_function(expr, timeout=WAIT_MS)

    def disc(self, number: int) -> None:
        self.tap(*(f"[data-key='{d}']" for d in str(number)))

    def holder(self) -> str:
        return str(self.live.match()["possession"]["side"])

    def first_half(self) -> None:
        """▶ Iniciar o 1º tempo, once the console offers it; until the half runs."""
        self.wait_js("!document.getElementById('start-main').classList.contains('hidden')")
        self.tap("#start-main")
        self.live.wait(lambda: self.live.match().get("status") == "running", 60,
                       "the first half")

    def second_half(self) -> None:
        """▶ Iniciar o 2º tempo, once the console offers it; until the interval is over."""
        self.wait_js("!document.getElementById('start-main').classList.contains('hidden')")
        # the interval has not run out: the console asks first (walk 45i-b M-b)
        self.act("#start-main", "#ask-yes")
        self.live.wait(lambda: self.live.match().get("status") != "interval", 60,
                       "the second half")

    def shot(self, side: str, disc: int) -> None:
        """`side`'s shot by `disc`, once the console offers it to that team."""
        self.wait_js(f"document.getElementById('side-{side}').getAttribute('aria-pressed')"
                     " === 'true'"
                     " && !document.getElementById('act-shot').hasAttribute('aria-disabled')")
        self.disc(disc)
        self.act("#act-shot")

    def foul_in_the_offenders_field(self, disc: int) -> str:
        """A foul by `disc` of the team without the lance, "no campo do infrator"; that team,
        once the foul has closed its sheet."""
        side = self.holder()
        other = "B" if side == "A" else "A"
        self.disc(disc)
        self.tap("[data-sheet=sheet-foul]", f"#sheet-foul .side[data-side={other}]",
                 "#sheet-foul [data-field=foul-where] [data-value=opponent_half]")
        self.act("#sheet-foul [data-act=foul]")
        self.wait_js("document.getElementById('sheet-foul').hidden")  # a foul closes it
        return other

    def void_in_the_registro(self, entry: int) -> None:
        """The Registro opened and `entry`'s Anular tapped (the correction form then shows)."""
        self.tap("[data-sheet=sheet-log]")
        void = f"#log li[data-id='{entry}'] [data-fix=void]"
        self.page.wait_for_selector(void, timeout=WAIT_MS)
        self.tap(void)

    def substitution_at_interval(self) -> bool:
        """Botafogo's 5 out, 12 in, where the ruleset has substitutions: whether it has."""
        if not (self.live.match().get("competition") or {}).get("substitutions"):
            return False
        self.tap("[data-sheet=sheet-discipline]", "#sheet-discipline .side[data-side=B]")
        self.page.fill("#sub-out", "5")
        self.page.fill("#sub-in", "12")
        self.act("#sheet-discipline [data-act=substitution]")
        # a substitution sent closes its sheet (1b755cc, walk 47a M1): nothing left to close
        self.wait_js("document.getElementById('sheet-discipline').hidden")
        return True

    def restart_lance(self, side: str) -> None:
        """The restart's lance by `side`, which puts the ball back in play (and, on a
        ball-in-play clock, the clock running)."""
        self.tap("[data-sheet=sheet-foul]", f"#sheet-foul .side[data-side={side}]")
        self.act("#sheet-foul [data-act=touch]")
        self.tap("#sheet-foul [data-close]")

    def kick_off_before_a_shot(self, side: str) -> None:
        """The kick-off by `side`, when it is not taken and the engine offers no shot from it
        (its ball on the centre spot: 004 «Chute pedido», 001 Art. XXI a): one Toque first."""
        if kick_off_first(self.live.match(), side) is not None:
            self.restart_lance(side)

    def move_on(self, m: dict[str, Any]) -> None:
        """With no question open, what the screen asks of the referee in match state `m`: he
        says the last lance is over (001 Art. XXI §1), sees the ball out that ends a half on
        a ball-in-play clock (004 A partida), plays the restart's lance that puts the ball
        back in play there; else he waits for the match to move on."""
        live = self.live
        status = m.get("status")
        restart = m.get("restart") or {}
        if status == "last_lance":
            self.act("[data-sheet=sheet-clock]", "#sheet-clock [data-act=lance_done]")
            self.tap("#sheet-clock [data-close]")
        elif status == "awaiting_dead_ball":
            live.sim.ball_out(0)  # the next dead ball ends the half
            live.wait(lambda: live.match().get("status") != "awaiting_dead_ball"
                      or bool(live.match().get("pending")), 60, "the dead ball")
        elif (status == "running" and not m.get("clock_running") and restart
              and not restart.get("taken")
              and (m.get("clock_profile") or {}).get("clock_mode") == "ball-in-play"):
            # the clock runs with the ball in play only: the restart's lance restarts it
            self.restart_lance(restart["side"])
        else:
            seen = (status, len(m.get("pending") or []), m.get("clock_running"))
            live.wait(lambda: (live.match().get("status"), len(live.match().get("pending") or []),
                               live.match().get("clock_running")) != seen, 180,
                      "the half to move on")

    def play_out_the_half(self, step: Callable[[dict[str, Any]], None], tries: int) -> None:
        """`step` with each match state until the half is over (the interval, or the final
        whistle); at most `tries` steps."""
        for _ in range(tries):
            m = self.live.match()
            if m.get("status") == "interval" or m.get("finished"):
                return
            step(m)
        raise AssertionError(f"the half never ended: {self.live.match().get('status')}")


def set_up(live: LiveTable, teams: dict[str, Any]) -> None:
    """Once the table is connected and its match open: `teams`, A to kick off."""
    live.wait(lambda: live.running is not None and live.daemon.connected
              and live.daemon.match is not None, 90, "the table")
    live.referee("set_up", {"teams": teams, "kickoff": "A"})


def to_the_end_of_the_half(w: Walk, meant: list[tuple[str, str | None, int | None]]) -> None:
    """What the referee does until the half is over, by what the screen shows him: answers
    a question, plays a shoot-out's kicks, else what the match asks (Walk.move_on)."""
    def step(m: dict[str, Any]) -> None:
        if m.get("pending"):
            w.act(f"#pending [data-choice='{m['pending'][0]['default']}']")
            meant.append(("confirm", None, None))
        elif m.get("status") == "shootout":
            # a level match that goes to penalties (004 Disputa de pênaltis): each kick by
            # taps — the kicker's team and disc, "Cobrança de pênalti", then its result
            kind, data = shootout_kick(m) or ("", {})
            if kind == "shootout_result":
                w.act("[data-act=kick-goal]")
                meant.append(("shootout_result", None, None))
            elif kind == "shootout_kick":
                w.tap(f"#side-{data['side']}")
                w.disc(int(data["disc"]))
                w.act("#shootout-box [data-act=kick]")
                meant.append(("shootout_kick", data["side"], int(data["disc"])))
                w.act("[data-act=kick-goal]" if data["scored"] else "[data-act=kick-miss]")
                meant.append(("shootout_result", None, None))
        else:
            w.move_on(m)

    w.play_out_the_half(step, 20)


def walk_a_match(browser: Any, ruleset: str, size: str, output_dir: Path) -> None:
    with LiveTable(speed=10, ruleset=ruleset, settings=SETTINGS) as live:
        set_up(live, TEAMS)
        context = browser.new_context(viewport=SIZES[size], is_mobile=True, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        w = Walk(page, live)
        meant: list[tuple[str, str | None, int | None]] = []
        try:
            page.goto(f"{live.base_url}/console?token={live.token}")
            w.first_half()
            w.act("[data-sheet=sheet-clock]", "#sheet-clock [data-act=pause]")
            w.tap("#sheet-clock [data-close]")

            # the shot, by the team with the lance, as the console offers it
            side = w.holder()
            other = "B" if side == "A" else "A"
            w.kick_off_before_a_shot(side)
            w.shot(side, 9)
            meant.append(("shot_asked", side, 9))
            # the other team's shot is not offered
            w.tap(f"#side-{other}")
            w.wait_js("document.getElementById('act-shot')"
                      ".getAttribute('aria-disabled') === 'true'")
            # the outcome (the selection goes back to the lance by itself)
            w.act("[data-outcome=saved]")
            meant.append(("shot_result", None, None))

            # a foul by the team without the lance, with its disc
            other = w.foul_in_the_offenders_field(4)
            meant.append(("foul", other, 4))

            # the table asks: a ball out with no last touch called
            live.sim.ball_out(4)
            w.wait_js("document.querySelector('#pending [data-choice]') !== null")
            question = live.match()["pending"][0]
            answer = str(question["default"])
            w.act(f"#pending [data-choice='{answer}']")
            meant.append(("confirm", None, None))

            # the foul was a mistake: voided from the Registro
            foul_id = next(e.id for e in reversed(w.referee_inputs()) if e.kind == "foul")
            w.void_in_the_registro(foul_id)
            w.act("#fix-send")
            meant.append(("void", None, None))
            w.tap("#sheet-log [data-close]")
            page.screenshot(path=str(output_dir / f"walk-{ruleset}-{size}-first-half.png"))

            # the clock again, to the interval
            w.act("[data-sheet=sheet-clock]", "#sheet-clock [data-act=pause]")
            w.tap("#sheet-clock [data-close]")
            to_the_end_of_the_half(w, meant)
            assert live.match().get("status") == "interval"

            # a substitution at the interval, where the ruleset has them
            if w.substitution_at_interval():
                meant.append(("substitution", "B", None))

            w.second_half()
            to_the_end_of_the_half(w, meant)
            assert live.match().get("finished"), live.match().get("status")
            w.wait_js("document.getElementById('sign-link')"
                      " && getComputedStyle(document.getElementById('sign-link')).display"
                      " !== 'none'")
            page.screenshot(path=str(output_dir / f"walk-{ruleset}-{size}-final.png"))

            # the referee signs the súmula on the phone, with his finger
            # (in a tab of its own: the console stays for "Nova partida", fc4d160)
            with context.expect_page(timeout=WAIT_MS) as opened:
                w.tap("#sign-link")
            signing = opened.value
            signing.set_default_timeout(WAIT_MS)
            signing.wait_for_selector("#sign-card:not([hidden])", timeout=WAIT_MS)
            signing.select_option("#role", "referee")
            signing.fill("#name", "Rui Árbitro")
            # the summary lists every fact of the match: the pad may be below the fold
            signing.locator("#pad").scroll_into_view_if_needed()
            box = signing.locator("#pad").bounding_box()
            assert box
            signing.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
            signing.mouse.down()
            for i in range(1, 12):
                signing.mouse.move(box["x"] + 20 + i * (box["width"] - 40) / 11,
                                   box["y"] + box["height"] / 2 + (15 if i % 2 else -15))
            signing.mouse.up()
            before = len(w.referee_inputs())
            signing.tap("#send")
            live.wait(lambda: len(w.referee_inputs()) > before, 60, "the signature")
            meant.append(("signature", None, None))
            signing.wait_for_function(
                "document.getElementById('signed').textContent.includes('Rui Árbitro')",
                timeout=WAIT_MS)
            signing.screenshot(path=str(output_dir / f"walk-{ruleset}-{size}-signed.png"))
        finally:
            context.close()
        assert errors == []

        # read back: what is stored is what the referee meant
        named = ("shot_asked", "foul", "substitution", "shootout_kick")
        stored = [(e.kind, e.data.get("side") if e.kind in named else None,
                   e.data.get("disc") if e.kind in ("shot_asked", "foul", "shootout_kick")
                   else None)
                  for e in w.referee_inputs() if e.kind in MEANT]
        assert stored == meant
        sumula = httpx.get(f"{live.base_url}/report/{live.daemon.match['id']}",
                           timeout=60).text
        assert "Chute pedido por Grêmio, botão 9" in sumula, sumula[:400]
        assert "Falta de" in sumula and "botão 4" in sumula
        assert "Rui Árbitro" in sumula  # the signature, in the súmula's proof block


@pytest.mark.parametrize("ruleset", sorted(r for r in RULESETS if r != "pastilha-8x2-clube"))
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_referees_walk(browser: Any, output_dir: Path, ruleset: str, size: str) -> None:
    walk_a_match(browser, ruleset, size, output_dir)
