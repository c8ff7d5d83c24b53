"""The referee's walk at the human pace (issue 44): per ruleset, `futmesa sim` and `futmesa
serve` as a club runs them (two commands, the sim's pty, the organiser's --settings file with
halves of 75–90 s at --speed 2), driven by taps on a 390×844 touch phone through both halves,
the clock running and a tap every ~1 s of wall time: each half's kick-off, a lance left to run
out in the first (the table's warning where the ruleset has one, then its question, answered
"✓ falta"), a saved shot (after the restart's first lance where the restart allows no shot
yet), and a shot tapped for the team WITHOUT the lance (the console answers with the engine's
reason, nothing is stored, and the tap does nothing else).

After every action the daemon's own SQLite file holds exactly that entry (its kind, team and
disc; a refused tap adds nothing) and the console's "na vez" is the team the engine lets play
(`/api/state`'s possession). The pace is a deliberate pause before each tap, never a wait for a
result: every result is waited for as a condition. Screenshots: test-output/walk44/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from futmesa_testkit.clubtable import ClubTable, Row

pytestmark = pytest.mark.browser

RULESETS = ("cbfm-1toque", "gaucha", "pastilha-8x2", "mesa-posta")
PACE_S = 1.0  # the referee's thumb: one tap a second, never faster
SPEED = 2     # the table's clock at twice real time: a 2-minute half is 60 s of wall time
# the first half's taps take ~25 s of wall time (~30 s in 001, where the falta técnica the
# lance overrun gives needs its pass before a shot; one tap more where no shot comes from the
# kick-off): halves with room for a busy machine — 75 s halves ran out before the 2nd half's
# shot at load ~10 (the browser run beside the walkers, cbfm-1toque, 2026-12-07)
HALF_MINUTES = {"gaucha": 2.25}
# the lance: the shortest the file takes, 5 s, so one runs out within the half (000 and 003
# warn or ask first); in 001 every expiry is a technical foul at once (Art. XXIX e), so its
# lance is long enough for the referee's five taps between two lances at this speed
LANCE_SECONDS = {"gaucha": 30}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
TEAMS = {"A": {"name": "Estrela do Norte", "color": "#c62828"},
         "B": {"name": "Botafogo da Mesa", "color": "#202020"}}
WAIT_S = 60
AGREE_S = 15  # the phone draws a new state within a second; a disagreement that lasts is one
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "walk44"


def settings(ruleset: str) -> dict[str, Any]:
    """The organiser's file: a league match (a draw ends it), short halves, no interval (the
    referee starts the 2nd half at once), and where the document times a lance a short one
    that runs out within the half (004 times no lance: mesa_posta.py, lance_ms 0)."""
    s: dict[str, Any] = {"teams": TEAMS, "kickoff": "A", "competition": "pontos corridos",
                         "half_minutes": HALF_MINUTES.get(ruleset, 2.0),
                         "interval_minutes": 0}
    if ruleset != "mesa-posta":
        s.update(lance_seconds=LANCE_SECONDS.get(ruleset, 5), lance_warn_seconds=2)
    else:
        # 004 sends a level match to penalties in any competition ("Partida empatada no fim
        # do tempo normal vai para os pênaltis"; docs/rulesets.md): the club turns them off
        s["shootout"] = False
    return s


def other(side: str) -> str:
    return "B" if side == "A" else "A"


class Thumb:
    """The referee's thumb on the phone, and what he checks after each tap that sends."""

    def __init__(self, page: Any, club: ClubTable, ruleset: str) -> None:
        self.page, self.club, self.ruleset = page, club, ruleset
        self.shots = 0

    def tap(self, *selectors: str) -> None:
        for selector in selectors:
            time.sleep(PACE_S)  # the human pace (a deliberate delay, not a wait for a result)
            self.page.tap(selector)

    def disc(self, number: int) -> None:
        self.tap(*(f"[data-key='{d}']" for d in str(number)))

    def screenshot(self, what: str) -> None:
        self.shots += 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{self.ruleset}-{self.shots:02d}-{what}.png"))

    def referee_rows(self) -> list[Row]:
        return [r for r in self.club.log() if r.source == "referee"]

    def act(self, selectors: tuple[str, ...], kind: str, **data: Any) -> Row:
        """Taps that send one input: the stored log gains exactly that entry (nothing else
        from the referee: a refused tap before it stored nothing), with the data meant."""
        before = len(self.referee_rows())
        self.tap(*selectors)
        try:
            new = self.club.wait(lambda: self.referee_rows()[before:], WAIT_S,
                                 f"the {kind} stored")
        except AssertionError as exc:
            self.screenshot(f"no-{kind}")
            m = self.club.match()
            raise AssertionError(f"{exc}; the phone says {self.page.text_content('#result')!r};"
                                 f" status {m.get('status')}, possession {m.get('possession')}"
                                 ) from None
        assert [r.kind for r in new] == [kind], f"meant one {kind}, stored {new}"
        for key, value in data.items():
            assert new[0].data.get(key) == value, f"{kind}: {key} meant {value}, stored {new[0]}"
        self.on_turn_agrees()
        return new[0]

    def on_turn_agrees(self) -> None:
        """The console's "na vez" is the team the engine lets play (its possession's side,
        the only team allowed to ask for a shot; where the ruleset fixes turns, its holder is
        the only team allowed a touch too), once the page has drawn the newest state."""
        seen: list[Any] = []

        def agree() -> bool:
            m = self.club.match()
            p = m.get("possession") or {}
            shown = self.page.evaluate("[...document.querySelectorAll('.side.on-turn[id]')]"
                                       ".map((b) => b.dataset.side)")
            allowed = p.get("allowed") or {}
            shooting = {s for s, plays in allowed.items() if "shot_asked" in plays}
            touching = {s for s, plays in allowed.items() if "touch" in plays}
            seen[:] = [m.get("status"), m.get("turn"), p.get("side"), p.get("holder"),
                       allowed, shown]
            if p.get("side") is None:  # the ball not in play: nobody's lance
                return not shooting and not touching
            return shown == [p["side"]] and m.get("turn") == p["side"] \
                and shooting <= {p["side"]} \
                and (p.get("holder") is None or touching <= {p["holder"]})
        try:
            self.club.wait(agree, AGREE_S, "the console's 'na vez' to be the engine's side")
        except AssertionError as exc:
            raise AssertionError(f"{exc}: status, turn, possession side, sides allowed to "
                                 f"play, 'na vez' on the phone = {seen}") from None

    def side_picked(self, side: str) -> None:
        if self.page.get_attribute(f"#side-{side}", "aria-pressed") != "true":
            self.tap(f"#side-{side}")
        self.page.wait_for_function(
            f"document.getElementById('side-{side}').getAttribute('aria-pressed') === 'true'")


def kick_off(w: Thumb, side: str, disc: int) -> None:
    """The kick-off: the restart the engine shows, its first lance a touch by `side`."""
    m = w.club.match()
    restart = m.get("restart") or {}
    assert (restart.get("kind"), restart.get("side"), restart.get("taken")) \
        == ("saida", side, False), f"the kick-off should be {side}'s: {m.get('restart')}"
    w.page.wait_for_function("t => document.getElementById('restart-title').textContent"
                             ".includes(t)", arg=TEAMS[side]["name"])
    w.screenshot(f"kickoff-{side}")
    w.disc(disc)
    w.tap("[data-sheet=sheet-foul]", f"#sheet-foul .side[data-side={side}]")
    w.act(("#sheet-foul [data-act=touch]",), "touch", side=side, disc=disc)
    w.tap("#sheet-foul [data-close]")
    restart = w.club.match().get("restart") or {}
    assert restart.get("kind") != "saida" or restart.get("taken"), restart


def lance_runs_out(w: Thumb) -> None:
    """Nobody plays: the table counts the lance out. Where the ruleset asks (000 Art. 26 §1:
    warned first, then a disciplinary foul to confirm; 003 Art. 71), the console shows the
    question and the referee answers "✓ falta"; where the expiry is the foul itself (001 Art.
    XXIX e: the technical foul at once, `lance_over`), the console says it. Either way the
    foul is counted for the team that held the ball too long."""
    club = w.club
    m = club.match()
    side = m["possession"]["side"]
    before = dict(m["fouls"][side])
    said_before = len(m.get("announcements") or [])

    def outcome() -> tuple[str, dict[str, Any]] | None:
        now = club.match()
        asked = [q for q in now["pending"] if q["kind"] == "lance_timeout"]
        if asked:
            return "asked", asked[0]
        given = [a for a in (now.get("announcements") or [])[said_before:]
                 if a.get("code") == "lance_over"]
        return ("given", given[-1]) if given else None

    how, what = club.wait(outcome, WAIT_S, "the lance to run out")
    expired = [r for r in club.log() if r.kind == "lance_expired"]
    assert expired and expired[-1].data.get("side") == side, expired
    if how == "given":
        assert club.match()["fouls"][side]["technical"] == before["technical"] + 1, what
        w.screenshot("lance-ran-out")
        w.on_turn_agrees()
        return
    question = what
    assert question["side"] == side, question
    counted = "technical" if question.get("foul") == "technical" else "disciplinary"
    w.page.wait_for_function("t => document.getElementById('pending').textContent.includes(t)",
                             arg=question["pt"])
    w.screenshot("lance-ran-out")
    w.act(("#pending [data-choice='foul']",), "confirm", target=question["id"], choice="foul")
    assert club.match()["fouls"][side][counted] == before[counted] + 1, question


def saved_shot(w: Thumb, disc: int) -> None:
    """A shot asked by the team with the lance, as the console offers it, and saved; where
    the restart in force allows no shot yet (001's falta técnica: a pass first), its first
    lance is played before, as the console's grey button says."""
    p = w.club.match()["possession"]
    side = p["side"]
    if "shot_asked" not in p["allowed"][side]:
        w.disc(8)
        w.tap("[data-sheet=sheet-foul]", f"#sheet-foul .side[data-side={side}]")
        w.act(("#sheet-foul [data-act=touch]",), "touch", side=side, disc=8)
        w.tap("#sheet-foul [data-close]")
        answer_open(w)
        side = w.club.match()["possession"]["side"]
    w.side_picked(side)
    w.page.wait_for_function("!document.getElementById('act-shot').hasAttribute('aria-disabled')")
    w.disc(disc)
    w.act(("#act-shot",), "shot_asked", side=side, disc=disc)
    w.screenshot(f"shot-{side}")
    w.act(("[data-outcome=saved]",), "shot_result", outcome="saved")


def refused_shot(w: Thumb, disc: int) -> None:
    """A shot tapped for the team without the lance: the console answers with the engine's
    reason (possession.why_not) and sends nothing (the next act() sees no extra entry)."""
    m = w.club.match()
    side = other(m["possession"]["side"])
    w.tap(f"#side-{side}")
    w.disc(disc)
    time.sleep(PACE_S)
    assert w.page.is_disabled("#act-shot")
    box = w.page.locator("#act-shot").bounding_box()
    assert box, "Chute pedido is not on the screen"
    w.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # the answer in the result line, in the engine's words (a phone has no tooltip): the
    # reason the engine gives now for that team's shot

    def answered() -> bool:
        why = w.club.match()["possession"]["why_not"].get(side, {}).get("shot_asked") or {}
        return bool(why) and why["pt"] in str(w.page.text_content("#result"))
    w.club.wait(answered, WAIT_S, "the engine's reason on the phone")
    w.screenshot(f"refused-{side}")
    # and nothing else: the answer grew the line above the thumb, and the tap's click must
    # not land on what moved under it (the ball's place, "linha central")
    pressed = w.page.get_attribute("[data-ball=opponent_half]", "aria-pressed")
    assert pressed == "true", "the refused tap also picked where the ball is"
    assert w.page.text_content("#disc-shown") == "nº —"  # the no. keyed for it is gone


def answer(w: Thumb) -> None:
    """The table's open question, answered as it stands: a lance overrun is let go (the walk
    meant one foul for it), any other question takes its default."""
    q = w.club.match()["pending"][0]
    choice = q["reject"] if q["kind"] == "lance_timeout" else q["default"]
    w.act((f"#pending [data-choice='{choice}']",), "confirm", target=q["id"], choice=choice)


def answer_open(w: Thumb) -> None:
    """The moment first: a question the table asked while the referee was busy (a lance
    overrun at the human pace) is answered before his next action."""
    while w.club.match().get("pending"):
        answer(w)


def to_the_end_of_the_half(w: Thumb) -> None:
    """On to the alarm and what follows it, by what the screen asks: a question answered,
    the last lance said over, the dead ball that ends a half on a ball-in-play clock (004),
    the restart's lance that runs that clock again."""
    club = w.club
    for _ in range(40):
        m = club.match()
        status, restart = m.get("status"), m.get("restart") or {}
        if status == "interval" or m.get("finished"):
            return
        if m.get("pending"):
            answer(w)
        elif status == "last_lance":
            w.screenshot("last-lance")
            w.act(("#lance-done-main",), "lance_done")
        elif status == "awaiting_dead_ball":
            club.at_the_table("out 0")
            club.wait(lambda: club.match().get("status") != "awaiting_dead_ball"
                      or club.match().get("pending"), WAIT_S, "the dead ball")
        elif (status == "running" and not m.get("clock_running") and restart
              and not restart.get("taken")
              and (m.get("clock_profile") or {}).get("clock_mode") == "ball-in-play"):
            w.tap("[data-sheet=sheet-foul]", f"#sheet-foul .side[data-side={restart['side']}]")
            w.act(("#sheet-foul [data-act=touch]",), "touch", side=restart["side"])
            w.tap("#sheet-foul [data-close]")
        else:
            seen = (status, len(m.get("pending") or []), m.get("clock_running"))
            club.wait(lambda seen=seen: (club.match().get("status"),
                                         len(club.match().get("pending") or []),
                                         club.match().get("clock_running")) != seen,
                      WAIT_S * 2, f"the half to move on from {seen}")
    raise AssertionError(f"the half never ended: {club.match().get('status')}")


def walk(w: Thumb) -> None:
    club, page = w.club, w.page
    page.goto(club.console_url)
    page.wait_for_function("document.documentElement.dataset.console === 'ready'"
                           " && !document.getElementById('start-main').classList"
                           ".contains('hidden')")
    w.screenshot("ready")
    for period, kicker in ((1, "A"), (2, "B")):
        if period == 2:
            club.wait(lambda: club.match().get("status") == "interval", WAIT_S, "the interval")
            page.wait_for_function("!document.getElementById('start-main').classList"
                                   ".contains('hidden')")
            w.screenshot("interval")
        w.act(("#start-main",), "start_period")  # ▶ Iniciar o 1º / 2º tempo
        club.wait(lambda period=period: club.match().get("period") == period
                  and club.match().get("status") == "running", WAIT_S, f"half {period}")
        kick_off(w, kicker, 9)
        if period == 1 and w.ruleset != "mesa-posta":  # 004 times no lance
            lance_runs_out(w)
        answer_open(w)
        refused_shot(w, 5)
        answer_open(w)
        saved_shot(w, 7)
        to_the_end_of_the_half(w)
    assert club.match().get("finished"), club.match().get("status")
    w.screenshot("final")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_referees_walk_at_the_human_pace(browser: Any, tmp_path: Path, ruleset: str) -> None:
    with ClubTable(tmp_path, ruleset, settings(ruleset), speed=SPEED) as club:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        started = time.monotonic()
        try:
            walk(Thumb(page, club, ruleset))
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{club.output()}") from None
        finally:
            context.close()
        print(f"{ruleset}: walked in {time.monotonic() - started:.0f} s")
        assert errors == []
