"""The phone and the TV at the referee's own pace (issue 45, the screen points): what a
scripted demo never does. A lance that overruns, time up with a last lance, a goal the table
saw and then voided, a refusal under an open sheet, the interval, the final whistle — on a
390×844 touch phone and a 1920×1080 TV, in real headless Chromium, with the real rules engine
behind the hub where the match's course matters (published states where only the screen's
reading of one state is in question). Screenshots in test-output/pace-*.png."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from rules_table import RulesTable, kicked_off, rules_served
from screen_checks import wait_settled

from futmesa.hub import StateHub
from futmesa.matchbook.citations import plain
from futmesa.matchbook.live import in_words
from futmesa.rules import Entry
from futmesa.rules.answers import answer_words
from futmesa_testkit.liveserver import TOKEN, LiveServer, make_state, serving

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TV = {"viewport": {"width": 1920, "height": 1080}}
TEAMS = {"A": {"name": "Estrela do Norte", "color": "#c62828"},
         "B": {"name": "Botafogo da Mesa", "color": "#202020"}}


class PaceTable(RulesTable):
    """The real rules engine fed by the test (and by the console), publishing like the daemon:
    each entry a second after the last, by its author; a refusal's article in words; the match
    in words (matchbook.live) in the state every screen reads; ``extra`` adds the table's parts
    (clock, lance, event)."""

    def __init__(self, hub: StateHub, ruleset: str) -> None:
        self.extra: dict[str, Any] = {}
        self.said: dict[str, str] | None = None  # the answer's words, when a test gives them
        super().__init__(hub, ruleset, {"teams": TEAMS})

    def entry(self, entry_id: int, kind: str, data: dict[str, Any], source: str,
              author: str) -> Entry:
        period = self.state.to_dict().get("period", 1) or 1
        return Entry(id=entry_id, kind=kind, data=data, source=source, period=period,
                     clock_ms=1000 * entry_id, author=author)

    def refusal(self, pt: str) -> str:
        return plain(pt)  # the article in words

    def publish(self) -> None:
        m = in_words(self.state.to_dict())  # as the daemon publishes it (matchbook.live)
        st = make_state(score=m["score"], teams=m["teams"], period=m["period"],
                        status=m["status"], finished=m["finished"], ruleset=self.ruleset)
        st["match"] = m
        st.update(self.extra)
        self.published = st
        self.hub.publish("sim-1", st)

    async def handle(self, kind: str, data: dict[str, Any], author: str) -> dict[str, Any]:
        answer = await super().handle(kind, data, author)
        if self.said:  # what the daemon answers the rules stored (matchbook/answer.py)
            answer["said"] = self.said
        return answer


@pytest.fixture
def cbfm() -> Iterator[tuple[LiveServer, PaceTable]]:
    with rules_served(PaceTable, "cbfm-1toque") as served:
        yield served


def screens(browser: Any, live: LiveServer) -> tuple[Any, Any]:
    """The referee's phone (its console) and the TV (the kiosk), both open and drawn."""
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.url + f"/console?token={TOKEN}")
    phone.wait_for_function("document.documentElement.dataset.console === 'ready'"
                            " && document.getElementById('c-score').textContent !== ''")
    tv = browser.new_context(**TV).new_page()
    tv.goto(live.url + "/")
    tv.wait_for_function("window.futmesaKiosk && window.futmesaKiosk.state")
    return phone, tv


def close(*pages: Any) -> None:
    for p in pages:
        p.context.close()


def text_is(page: Any, selector: str, text: str) -> None:
    page.wait_for_function("([s, t]) => document.querySelector(s)"
                           " && document.querySelector(s).textContent.trim() === t",
                           arg=[selector, text])


def text_has(page: Any, selector: str, text: str) -> None:
    page.wait_for_function("([s, t]) => document.querySelector(s)"
                           " && document.querySelector(s).textContent.includes(t)",
                           arg=[selector, text])


def shown(page: Any, selector: str) -> bool:
    return bool(page.evaluate("s => { const el = document.querySelector(s);"
                              " return !!el && el.getClientRects().length > 0; }", selector))


@contextmanager
def overrun_on_both(browser: Any, clock_ms: int
                    ) -> Iterator[tuple[LiveServer, dict[str, Any], int, Any, Any]]:
    """A's lance of 15 s run out a second ago at `clock_ms` of a running match clock, published;
    the phone and the TV open on it, both reading "TEMPO!": (the server, that state, the
    moment it was made, phone, TV); both closed however the test ends."""
    with serving() as live:
        now = int(time.time() * 1000)
        over = make_state(lance={"ms": 15000, "running": True, "rate": 1.0, "at": now - 16000,
                                 "length_ms": 15000, "side": "A"})
        over["clock"].update(running=True, at=now, ms=clock_ms)
        live.publish(over)
        phone, tv = screens(browser, live)
        try:
            text_is(phone, "#c-lance", "TEMPO!")
            text_is(tv, "#lance-value", "TEMPO!")
            yield live, over, now, phone, tv
        finally:
            close(phone, tv)


def _overrun_lance_goes_on(live: Any, now: int, phone: Any) -> None:
    """The table's status after A's overrun: A's lance goes on, a new deadline 15 s on (the
    same player plays on); a second of the match clock later (several ticks drawn) the phone
    still says it ran out."""
    again = make_state(lance={"ms": 15000, "running": True, "rate": 1.0,
                              "at": now - 1000, "length_ms": 15000, "side": "A"})
    again["clock"].update(running=True, at=now, ms=60000)
    live.publish(again)
    first = phone.text_content("#c-clock")
    phone.wait_for_function("t => document.getElementById('c-clock').textContent"
                            " !== t", arg=first)
    assert phone.text_content("#c-lance") == "TEMPO!"


# ---- 3: an overrun lance, on the phone as on the TV -------------------------------------
def test_an_overrun_lance_reads_time_on_the_phone_as_on_the_tv(
    browser: Any, output_dir: Path
) -> None:
    with overrun_on_both(browser, 60000) as (live, _, now, phone, tv):
        # the table restarts the overrun lance's count (the same player goes on): both
        # screens keep "TEMPO!" instead of counting 15, 14… again
        _overrun_lance_goes_on(live, now, phone)
        assert tv.text_content("#lance-value") == "TEMPO!"
        phone.screenshot(path=str(output_dir / "pace-lance-over-phone.png"))
        # a new lance: a fresh count on both
        fresh = make_state(lance={"ms": 15000, "running": True, "rate": 1.0,
                                  "at": int(time.time() * 1000), "length_ms": 15000,
                                  "side": "B"})
        live.publish(fresh)
        phone.wait_for_function("/^1[0-5]$/.test(document.getElementById('c-lance')"
                                ".textContent)")
        # full time: no lance is counted on either screen
        done = make_state(status="finished", finished=True,
                          lance={"ms": 9000, "running": True, "rate": 1.0,
                                 "at": int(time.time() * 1000), "length_ms": 15000,
                                 "side": "A"})
        live.publish(done)
        text_is(phone, "#c-lance", "—")
        tv.wait_for_function("document.getElementById('lance').classList"
                             ".contains('hidden')")


def test_the_other_teams_lance_started_at_the_overrun_is_counted_on_both(
    browser: Any, output_dir: Path
) -> None:
    """Walk 52c finding 2: in gaúcha the overrun is the technical foul itself (001 Art. XXIX
    e), so the host gives the other team its lance the moment the table reports it: the
    table's status says A's lance goes on (a new deadline 15 s on) and, a few ms later, that
    B's lance started, its deadline within those ms of A's. Both screens kept «TEMPO!» over
    the whole of B's lance (no countdown, no 5 s warning, then B's own time foul): another
    team's lance is a new lance, however near its deadline."""
    with overrun_on_both(browser, 60000) as (live, _, now, phone, tv):
        _overrun_lance_goes_on(live, now, phone)
        # B's lance, started 5 ms after A's went on (the host's answer to the foul)
        other = make_state(lance={"ms": 15000, "running": True, "rate": 1.0,
                                  "at": now - 995, "length_ms": 15000, "side": "B"})
        other["clock"].update(running=True, at=now, ms=60000)
        live.publish(other)
        phone.wait_for_function("/^[0-9]+$/.test(document.getElementById('c-lance')"
                                ".textContent)")
        tv.wait_for_function("/^[0-9]+$/.test(document.getElementById('lance-value')"
                             ".textContent)")
        assert "over" not in (tv.get_attribute("#lance", "class") or "")
        tv.screenshot(path=str(output_dir / "pace-lance-other-team-tv.png"))


def test_a_lance_run_out_is_said_on_the_phone_as_on_the_tv(
    browser: Any, output_dir: Path
) -> None:
    """Walk 45i-b M-c: the table marked a gaúcha lance's overrun as the technical foul (001
    Art. XXIX e: "demorar mais de quinze segundos para efetuar um lance" is the foul) and the
    TV said "Alvorada passou de 15 s no lance: falta técnica", while the phone's result line
    kept the referee's older "✓ Toque de …" and the card only "Falta técnica para …": the
    table's newer fact takes the line at once."""
    with rules_served(PaceTable, "gaucha") as (live, table):
        kicked_off(live, table)
        phone, tv = screens(browser, live)
        try:
            phone.tap("[data-sheet=sheet-foul]")
            phone.tap("#sheet-foul .side[data-side=A]")
            phone.tap("#sheet-foul button[data-act=touch]")
            # (this stand-in answers in the button's words: "✓ toque Estrela do Norte")
            text_has(phone, "#result", "✓ toque Estrela do Norte")
            live.call(table.apply, "lance_started", {"side": "B"}, "device", "SIM")
            live.call(table.apply, "lance_expired", {"side": "B", "warning": True, "count": 0},
                      "device", "SIM")
            live.call(table.apply, "lance_expired", {"side": "B", "warning": False, "count": 1},
                      "device", "SIM")
            said = "Botafogo da Mesa passou de 15 s no lance: falta técnica"
            text_has(tv, "#announce", said)
            text_has(phone, "#result", said)
            assert "✓" not in phone.text_content("#result")
            phone.screenshot(path=str(output_dir / "pace-lance-run-out-phone.png"))
            # the referee's next act answers on the line again (the sheet is still open)
            phone.tap("#sheet-foul button[data-act=touch]")
            phone.wait_for_function("/^[✓✗]/.test(document.getElementById('result')"
                                    ".textContent.trim())")
            assert said not in phone.text_content("#result")
        finally:
            close(phone, tv)


def test_a_long_answer_never_covers_a_sheets_controls(
    cbfm: tuple[LiveServer, RulesTable], browser: Any, output_dir: Path
) -> None:
    """Walk 45i-b M-d: a 7-line answer (after "gol contra") sat over the Registro sheet's
    Fechar for more than 12 s, 21 px of it tappable. Over an open sheet the line keeps to the
    room above the sheet: every control of the sheet is tappable whole."""
    live, table = cbfm
    kicked_off(live, table)
    words = ("Árbitro decide sobre «Sensor: bola na linha do gol de Botafogo da Mesa» (1º tempo "
             "1'): gol contra · Gol contra de Botafogo da Mesa, ponto para Estrela do Norte — "
             "1 × 0 (CBFM 1 Toque, Art. 12 §2) · Arrumação das equipes; saída para Botafogo da "
             "Mesa, salvo escolha do árbitro")
    table.said = {"pt": words, "en": words}
    phone, tv = screens(browser, live)
    try:
        phone.tap("[data-sheet=sheet-foul]")
        phone.tap("#sheet-foul .side[data-side=A]")
        phone.tap("#sheet-foul button[data-act=touch]")
        text_has(phone, "#result", "saída para Botafogo")
        phone.tap("#sheet-foul [data-close]")
        for sheet in ("sheet-log", "sheet-foul", "sheet-more"):
            phone.tap(f"[data-sheet={sheet}]")
            phone.wait_for_selector(f"#{sheet}:not([hidden])")
            wait_settled(phone, f"#{sheet}")
            covered = phone.evaluate("""id => [...document.querySelectorAll(
                `#${id} button, #${id} input, #${id} select`)].filter((b) => {
                const r = b.getBoundingClientRect();
                if (!r.width || r.bottom <= 0 || r.top >= innerHeight) return false;
                const line = document.getElementById('result').getBoundingClientRect();
                return r.top < line.bottom && r.bottom > line.top; }).map((b) => b.textContent
                || b.name)""", sheet)
            if sheet == "sheet-log":
                phone.screenshot(path=str(output_dir / "pace-long-answer-over-sheet-phone.png"))
            assert covered == [], (sheet, covered)
            # the line is still there, what it can show of it
            assert "Árbitro decide" in phone.text_content("#result")
            phone.tap(f"#{sheet} [data-close]")
    finally:
        close(phone, tv)


def grey_tap(phone: Any, selector: str) -> None:
    """A thumb on a disabled button (Playwright's tap waits for it to be enabled)."""
    assert phone.is_disabled(selector)
    box = phone.locator(selector).bounding_box()
    phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


# ---- 6, 12, 19: the shot's reason, time up and the last lance, the final whistle ---------
def test_last_lance_and_final_whistle_on_the_phone(
    cbfm: tuple[LiveServer, PaceTable], browser: Any, output_dir: Path
) -> None:
    live, table = cbfm
    live.call(table.apply, "set_up", {"kickoff": "A"}, "referee")
    phone, tv = screens(browser, live)
    try:
        # before the kick-off: the disabled Chute pedido says why, in visible text
        text_is(phone, "#act-shot-team", "Estrela do Norte: sem chute agora")
        text_is(phone, "#act-shot-why", "A bola não está em jogo")
        assert shown(phone, "#act-shot-why")
        # a tap on the grey button answers in the result line, in the engine's words (walk 45 m2)
        grey_tap(phone, "#act-shot")
        text_is(phone, "#result", "✗ chute pedido Estrela do Norte — ação recusada:"
                " A bola não está em jogo")
        phone.screenshot(path=str(output_dir / "pace-shot-refused-phone.png"))
        live.call(table.apply, "start_period", {}, "referee")
        live.call(table.apply, "clock_started", {}, "device")
        phone.tap("#side-B")
        text_is(phone, "#act-shot-team", "Botafogo da Mesa: não é a vez desta equipe")
        # whose lance it is, written under the button (walk 45f, M9)
        text_is(phone, "#act-shot-why",
                "O lance é de Estrela do Norte: só quem tem o lance pede chute")
        assert shown(phone, "#act-shot-why")
        phone.tap('[data-key="7"]')
        grey_tap(phone, "#act-shot")  # the other team's: whose lance it is, with the no. keyed
        text_has(phone, "#result", "✗ chute pedido Botafogo da Mesa 7 — ação recusada: ")
        text_has(phone, "#result", "Estrela do Norte")
        # the kick-off first: no shot from it (000 Art. 12 §5)
        live.call(table.apply, "touch", {"side": "A", "disc": 6}, "referee")
        live.call(table.apply, "shot_asked", {"side": "A", "disc": 9}, "referee")
        phone.tap("#side-B")
        text_is(phone, "#act-shot-team", "Botafogo da Mesa: chute pendente")
        assert phone.is_disabled("#act-shot")
        phone.screenshot(path=str(output_dir / "pace-shot-pending-phone.png"))

        # the alarm with a shot asked: time is up, the last lance is played
        live.call(table.apply, "alarm", {}, "device")
        text_has(tv, "#status", "último lance")
        text_is(phone, "#c-timeup", "Tempo esgotado: último lance em jogo")
        assert shown(phone, "#lance-done-main")
        assert not shown(phone, "#start-main")
        phone.screenshot(path=str(output_dir / "pace-last-lance-phone.png"))
        text_has(tv, "#announce", "último lance para Estrela do Norte")
        wait_settled(tv, "#announce")
        tv.screenshot(path=str(output_dir / "pace-last-lance-tv.png"))
        # in Relógio the highlighted button is the one that applies now
        phone.tap("[data-sheet=sheet-clock]")
        assert "primary" in (phone.get_attribute("#act-lance-done", "class") or "")
        assert "primary" not in (phone.get_attribute("#act-start", "class") or "")
        phone.tap("#sheet-clock [data-close]")
        phone.tap("#lance-done-main")
        text_is(phone, "#c-period", "Intervalo")
        assert not shown(phone, "#lance-done-main") and not shown(phone, "#c-timeup")

        # the second half to its end: the keypad and "Chute sem gol" rest
        for kind, source in (("start_period", "referee"), ("clock_started", "device"),
                             ("period_over", "device")):
            live.call(table.apply, kind, {}, source)
        text_is(phone, "#c-period", "Fim de jogo")
        phone.wait_for_function("[...document.querySelectorAll('.keypad button,"
                                " #act-outcome button')]"
                                ".every((b) => b.getAttribute('aria-disabled') === 'true')")
        assert phone.is_disabled("#act-shot")
        text_has(phone, "#act-shot-team", ": partida encerrada")
        # walk 45j: "Chute sem gol:" lost its hint at the end; it rests dimmed and says why
        assert "idle" in (phone.get_attribute("#act-outcome", "class") or "")
        assert not shown(phone, "#outcome-why")
        text_is(phone, "#outcome-over", "(partida encerrada)")
        phone.tap("[data-key='7']", force=True)  # a thumb on the greyed key: its reason
        text_is(phone, "#result", "✗ nº 7 — ação recusada: A partida já terminou")
        assert phone.text_content("#disc-shown") == "nº —"
        phone.screenshot(path=str(output_dir / "pace-final-whistle-phone.png"))
    finally:
        close(phone, tv)


# ---- 4, 13: a goal the table saw, then voided -------------------------------------------
def test_a_sensor_goal_and_its_void_are_said_on_phone_and_tv(
    cbfm: tuple[LiveServer, PaceTable], browser: Any, output_dir: Path
) -> None:
    live, table = cbfm
    kicked_off(live, table)
    phone, tv = screens(browser, live)
    overlay = browser.new_context(**TV).new_page()  # a stream's overlay: the compact frame
    overlay.goto(live.url + "/?mode=overlay")
    overlay.wait_for_function("window.futmesaKiosk && window.futmesaKiosk.state")
    try:
        # the kick-off first: no shot from it (000 Art. 12 §5)
        live.call(table.apply, "touch", {"side": "A", "disc": 6}, "referee")
        live.call(table.apply, "shot_asked", {"side": "A", "disc": 9}, "referee")
        ends = table.state.to_dict()["ends"]
        goal = live.call(table.apply, "goal_line", {"goal": ends["B"]}, "device", "SIM")
        # the phone's result line says the goal, not the referee's last action
        text_is(phone, "#result", "⚽ Gol de Estrela do Norte (nº 9) — 1 × 0")
        text_is(tv, "#score-A", "1")
        # another console voids it: the TV says so, like a goal, then the score
        live.call(table.apply, "void", {"target": goal, "reason": "a bola não entrou"},
                  "referee")
        tv.wait_for_function("!document.getElementById('goal').classList.contains('hidden')"
                             " && document.getElementById('goal-word').textContent"
                             " === 'GOL ANULADO'", timeout=20_000)
        assert tv.text_content("#goal-team") == "Estrela do Norte"
        assert tv.text_content("#goal-score") == "0 × 0"
        assert "9" in tv.text_content("#goal-detail")
        # «GOL ANULADO» read plainly: a line through it read as the void cancelled (walk51b L2)
        assert tv.evaluate("getComputedStyle(document.getElementById('goal-word'))"
                           ".textDecorationLine") == "none"
        # the goal's own words still waiting (its kick-off) are not said after its void
        assert not tv.evaluate("g => window.futmesaKiosk.ann.queue.some((x) => x.a"
                               " && x.a.entry === g && x.a.code === 'rearrange')", goal)
        wait_settled(tv, "#goal")
        tv.screenshot(path=str(output_dir / "pace-goal-voided-tv.png"))
        # on a stream's overlay the same frame, compact, fits its strip
        overlay.wait_for_function("document.getElementById('goal-word').textContent"
                                  " === 'GOL ANULADO' && !document.getElementById('goal')"
                                  ".classList.contains('hidden')", timeout=20_000)
        wait_settled(overlay, "#goal")
        assert overlay.evaluate("(() => { const b = document.getElementById('goal');"
                                " return b.scrollWidth <= b.clientWidth + 1; })()")
        overlay.screenshot(path=str(output_dir / "pace-goal-voided-overlay-tv.png"))
        text_is(phone, "#result", "Gol anulado — 0 × 0")
        text_is(phone, "#c-score", "0 × 0")
        phone.screenshot(path=str(output_dir / "pace-goal-voided-phone.png"))
        # then the rules' words for it, and the score
        text_has(tv, "#announce", "Gol anulado pelo árbitro")
        text_is(tv, "#score-A", "0")
    finally:
        close(phone, tv, overlay)


# ---- 8, 11, 18: a refusal over an open sheet, its words, Sai/Entra after a substitution --
def test_a_refusal_stays_in_sight_over_an_open_sheet(
    cbfm: tuple[LiveServer, PaceTable], browser: Any, output_dir: Path
) -> None:
    live, table = cbfm
    kicked_off(live, table)
    phone, tv = screens(browser, live)
    try:
        phone.tap("[data-sheet=sheet-foul]")
        phone.tap("#sheet-foul .side[data-side=B]")
        phone.tap("#sheet-foul button[data-act=touch]")
        text_has(phone, "#result", "✗ toque Botafogo da Mesa — ação recusada: Não é a vez")
        assert "recusado" not in phone.text_content("#result")
        # in sight: nothing (the sheet, its scrim) covers the answer
        on_top = phone.evaluate("""() => { const r = document.getElementById('result')
            .getBoundingClientRect(); const el = document.elementFromPoint(r.left + r.width / 2,
            r.top + r.height / 2); return !!el && (el.id === 'result'
            || el.closest('#result') !== null) && r.bottom <= innerHeight && r.top >= 0; }""")
        assert on_top, "the refusal is hidden behind the open sheet"
        phone.screenshot(path=str(output_dir / "pace-refused-over-sheet-phone.png"))
        phone.tap("#sheet-foul [data-close]")

        # a substitution with no "Entra" keeps its sheet open and says what is missing
        phone.tap("[data-sheet=sheet-discipline]")
        phone.tap("#sheet-discipline .side[data-side=A]")
        phone.fill("#sub-out", "9")
        phone.tap("#sheet-discipline button[data-act=substitution]")
        text_has(phone, "#result", "✗ digite o botão que sai e o que entra")
        assert phone.is_visible("#sheet-discipline")
        # a substitution taken: Sai/Entra are empty again, and the sheet closes (walk 47a M1:
        # it stayed open over the bottom bar, the interval running out while the referee looked
        # for the way to the Registro)
        phone.fill("#sub-in", "12")
        phone.tap("#sheet-discipline button[data-act=substitution]")
        text_has(phone, "#result", "✓ substituição Estrela do Norte")
        phone.wait_for_function("document.getElementById('sub-out').value === ''"
                                " && document.getElementById('sub-in').value === ''")
        phone.wait_for_selector("#sheet-discipline", state="hidden")
        phone.tap("[data-sheet=sheet-log]")  # the bottom bar is in reach at once
        phone.wait_for_selector("#sheet-log", state="visible")
        assert [e["kind"] for e in table.entries].count("substitution") == 1
    finally:
        close(phone, tv)


def test_a_question_that_comes_while_a_sheet_is_open_is_in_sight(
    cbfm: tuple[LiveServer, PaceTable], browser: Any, output_dir: Path
) -> None:
    """Walk49b M2 (and walk48b M1): with Falta / toque open, the second overrun's question
    («… passou do tempo do lance: falta disciplinar?») stayed behind the sheet, dimmed, and the
    foul entered next closed it unanswered. A new question is never hidden under a sheet: the
    sheet closes and the card, its answers tappable, is what the referee sees."""
    live, table = cbfm
    kicked_off(live, table)
    phone, tv = screens(browser, live)
    try:
        phone.tap("[data-sheet=sheet-foul]")
        live.call(table.apply, "lance_started", {"side": "A"}, "device", "SIM")
        for count, warning in ((0, True), (1, False), (2, False)):
            live.call(table.apply, "lance_expired",
                      {"side": "A", "warning": warning, "count": count}, "device", "SIM")
        text_has(phone, "#pending li", "passou do tempo")
        answer = "#pending button[data-choice]"
        phone.wait_for_selector(answer, state="visible")
        in_sight = phone.evaluate("""s => { const b = document.querySelector(s)
            .getBoundingClientRect(); const el = document.elementFromPoint(b.left + b.width / 2,
            b.top + b.height / 2); return !!el && !!el.closest('#pending')
            && b.bottom <= innerHeight && b.top >= 0; }""", answer)
        phone.screenshot(path=str(output_dir / "pace-question-over-sheet-phone.png"))
        assert in_sight, "the new question is hidden behind the open sheet"
        assert not phone.is_visible("#sheet-foul")
    finally:
        close(phone, tv)


# ---- 9: "Mais" shows the current match ---------------------------------------------------
def test_more_shows_the_current_match(browser: Any, output_dir: Path) -> None:
    with serving() as live:
        # walk #45 M3: the referee and the settings' 3-minute period were missing from the form
        st = make_state(ruleset="gaucha", event="Copa do Clube 2026", referee="Árbitro Teste",
                        period_ms=180_000,
                        teams={"A": {"name": "Estrela do Norte", "color": "#C62828"},
                               "B": {"name": "Botafogo da Mesa", "color": "#202020"}})
        st["match"]["competition"] = {"type": "knockout"}
        live.publish(st)
        phone, tv = screens(browser, live)
        try:
            phone.tap("[data-sheet=sheet-more]")
            values = phone.evaluate("""() => Object.fromEntries([...new FormData(
                document.getElementById('setup')).entries()])""")
            assert values["nameA"] == "Estrela do Norte"
            assert values["nameB"] == "Botafogo da Mesa"
            assert values["colorA"] == "#c62828" and values["colorB"] == "#202020"
            assert values["event"] == "Copa do Clube 2026"
            assert values["ruleset"] == "gaucha" and values["competition"] == "knockout"
            assert values["referee"] == "Árbitro Teste" and values["half_min"] == "3"
            phone.screenshot(path=str(output_dir / "pace-more-phone.png"))
        finally:
            close(phone, tv)


# ---- 10: a ruleset's own input only where the engine offers it -------------------------
def test_midline_deflection_only_where_the_engine_offers_it(browser: Any) -> None:
    with serving() as live:
        st = make_state(ruleset="cbfm-1toque")
        st["match"]["possession"] = {"side": "A", "allowed": {"A": ["touch"], "B": []},
                                     "why_not": {}, "offers": []}
        live.publish(st)
        phone, tv = screens(browser, live)
        try:
            phone.tap("[data-sheet=sheet-foul]")
            assert not shown(phone, "#act-midline")
            st["match"]["possession"]["offers"] = ["midline_deflection"]
            live.publish(st)
            phone.wait_for_function("document.getElementById('act-midline')"
                                    ".getClientRects().length > 0")
        finally:
            close(phone, tv)


# ---- 14: the interval counted down -------------------------------------------------------
def test_the_interval_is_counted_down_on_phone_and_tv(browser: Any, output_dir: Path) -> None:
    with serving() as live:
        now = int(time.time() * 1000)
        st = make_state(status="interval", period=1)
        st["clock"].update(ms=180000, running=False, at=now, interval_at=now - 10000)
        st["match"]["clock_profile"] = {"interval_ms": 180000}
        st["lance"]["running"] = False
        live.publish(st)
        phone, tv = screens(browser, live)
        try:
            text_is(phone, "#c-period", "Intervalo")
            # 3 minutes, 10 s of them gone (and the seconds these pages took to open)
            counted = ("id => { const t = document.getElementById(id).textContent;"
                       " return t >= '02:20' && t <= '02:50' && t; }")
            on_phone = phone.wait_for_function(counted, arg="c-clock").json_value()
            on_tv = tv.wait_for_function(counted, arg="clock").json_value()
            # and it goes on counting down
            below = "([id, t]) => document.getElementById(id).textContent < t"
            phone.wait_for_function(below, arg=["c-clock", on_phone], timeout=10_000)
            tv.wait_for_function(below, arg=["clock", on_tv], timeout=10_000)
            phone.screenshot(path=str(output_dir / "pace-interval-phone.png"))
            tv.screenshot(path=str(output_dir / "pace-interval-tv.png"))
        finally:
            close(phone, tv)


@contextmanager
def _in_the_interval(browser: Any, began_ms_ago: int) -> Iterator[tuple[Any, Any, list[Any]]]:
    """A 1-minute interval that began ``began_ms_ago``: the phone and the TV on it, and what
    the console sends (kind, data), taken without a table."""
    sent: list[tuple[str, dict[str, Any]]] = []

    async def handle(kind: str, data: dict[str, Any], author: str,
                     pressed_at: float | None = None) -> dict[str, Any]:
        sent.append((kind, data))
        return {"entry_id": len(sent)}

    with serving() as live:
        live.hub.set_referee_handler("sim-1", handle)
        now = int(time.time() * 1000)
        st = make_state(status="interval", period=1)
        st["clock"].update(ms=120000, running=False, at=now, interval=True,
                           interval_at=now - began_ms_ago)
        st["match"]["clock_profile"] = {"interval_ms": 60000}
        st["lance"]["running"] = False
        live.publish(st)
        phone, tv = screens(browser, live)
        try:
            # the interval's time counted from now that both screens are up (a slow start on
            # a busy machine must not eat the seconds the test asks about)
            now = int(time.time() * 1000)
            st["clock"].update(at=now, interval_at=now - began_ms_ago)
            live.publish(st)
            yield phone, tv, sent
        finally:
            close(phone, tv)


def test_a_second_half_started_early_is_asked_and_said(browser: Any, output_dir: Path) -> None:
    """Walk 45i-b M-b: "▶ Iniciar o 2º tempo" started the 2nd half with 28 s of the interval
    still to go, with no question, and nothing said it was shortened. The page asks first (000
    Art. 8 §9: "no máximo, 5' de intervalo"); a "no" sends nothing, a "yes" sends the time
    still to go with the input, for the Registro's "2º tempo iniciado com 0:28 de intervalo
    por cumprir"."""
    with _in_the_interval(browser, 32000) as (phone, _tv, sent):
        text_is(phone, "#start-main", "▶ Iniciar o 2º tempo")
        phone.tap("#start-main")
        phone.wait_for_selector("#ask[open]")
        asked = phone.text_content("#ask-text") or ""
        assert asked.startswith("O intervalo ainda tem 00:2"), asked
        assert asked.endswith(". Iniciar o 2º tempo agora?"), asked
        # walk50c L5: the time asked is the header's, to the second ("ainda tem 0:05" over
        # a header at 00:04: one rounding up, the other down)
        phone.wait_for_function("""() => document.getElementById('ask-text').textContent
            .includes('ainda tem ' + document.getElementById('c-clock').textContent + '.')""",
                                timeout=5_000)
        phone.screenshot(path=str(output_dir / "pace-early-start-asked-phone.png"))
        phone.tap("#ask-no")
        assert phone.is_hidden("#ask")
        assert sent == []
        phone.tap("#start-main")
        phone.wait_for_selector("#ask[open]")
        # walk 45j: the question's time counts down while it is open, and the time sent
        # is the time it showed at the tap ("0:37" asked, "0:33" recorded)
        first = phone.text_content("#ask-text") or ""
        phone.wait_for_function("t => document.getElementById('ask-text').textContent !== t",
                                arg=first, timeout=5_000)
        shown = phone.evaluate("""() => { document.getElementById('ask-yes').click();
            return document.getElementById('ask-text').textContent; }""")
        phone.wait_for_function("/^✓/.test(document.getElementById('result').textContent)")
        assert [k for k, _d in sent] == ["start_period"]
        left = sent[0][1]["interval_left_ms"]
        assert 15_000 < left <= 28_000, left
        assert f"ainda tem {left // 60000:02d}:{left // 1000 % 60:02d}." in shown, (shown, left)
    # the Registro and the súmula say it (matchbook/wording.py, one sentence for both)
    from futmesa.matchbook.wording import sentence
    assert sentence("start_period", {"interval_left_ms": 28_400}, {}, "pt", period=1) == \
        "2º tempo iniciado com 0:28 de intervalo por cumprir"



def test_the_early_start_question_goes_when_the_interval_runs_out(
    browser: Any, output_dir: Path
) -> None:
    """Walk 45j-b (18-*.png): "O intervalo ainda tem 0:04" stayed up, frozen, after the
    interval had run out, still offering "Iniciar agora". The question counts down and, once
    the interval is over, it goes and the start goes through, with no time still to go."""
    with _in_the_interval(browser, 56500) as (phone, _tv, sent):
        phone.tap("#start-main")
        phone.wait_for_selector("#ask[open]")
        asked = phone.text_content("#ask-text") or ""
        assert asked.startswith("O intervalo ainda tem 00:0"), asked
        phone.wait_for_function("() => !document.getElementById('ask').open",
                                timeout=10_000)
        phone.wait_for_function("/^✓/.test(document.getElementById('result').textContent)")
        assert sent == [("start_period", {})], sent

# ---- 15: the TV's footer under a two-line CHUTE PEDIDO ----------------------------------
def test_the_tv_footer_stays_under_a_two_line_shot_banner(
    browser: Any, output_dir: Path
) -> None:
    with serving() as live:
        st = make_state(ruleset_title="Pastilha 8×2", table_name="Mesa 1",
                        teams={"A": {"name": "Associação Atlética Estrela do Norte",
                                     "color": "#c62828"},
                               "B": {"name": "Sociedade Esportiva Botafogo da Mesa",
                                     "color": "#202020"}})
        st["match"]["shot_asked"] = {"side": "B", "disc": 12}
        st["match"]["fouls"] = {"A": {"fouls": 2, "technical": 1, "disciplinary": 2},
                                "B": {"fouls": 3, "technical": 0, "disciplinary": 1}}
        st["match"]["goals"] = [{"side": "A", "disc": 9, "period": 1, "clock_ms": 60000,
                                 "entry": 3}, {"side": "A", "disc": 7, "period": 1,
                                               "clock_ms": 90000, "entry": 5}]
        st["score"] = {"A": 2, "B": 0}
        st["match"]["announcements"] = [{"id": 1, "entry": 6, "code": "shot_asked",
                                         "pt": "Sociedade Esportiva Botafogo da Mesa pede "
                                               "chute a gol com o botão 12"}]
        live.publish(st)
        tv = browser.new_context(**TV).new_page()
        try:
            tv.goto(live.url + "/")
            text_has(tv, "#shot", "CHUTE PEDIDO")
            lines = tv.evaluate("""() => { const el = document.getElementById('shot');
                return Math.round(el.getBoundingClientRect().height
                / parseFloat(getComputedStyle(el).lineHeight || '1')); }""")
            high = tv.evaluate("document.getElementById('shot').getBoundingClientRect().height")
            assert high > 0.1 * 1080 or lines >= 2, "the banner should wrap for this test"
            tv.screenshot(path=str(output_dir / "pace-shot-two-lines-tv.png"))
            foot = tv.evaluate("""() => { const r = document.querySelector('.foot')
                .getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }""")
            assert foot[1] <= foot[2] and foot[0] < foot[2], f"the footer is cut: {foot}"
            assert tv.text_content("#table-id") == "Mesa 1"
            assert tv.text_content("#ruleset") == "Pastilha 8×2"
            # the score keeps its size on the screen: at least a fifth of its height
            assert tv.evaluate("document.getElementById('score-A').getBoundingClientRect()"
                               ".height") >= 0.2 * 1080
            tv.screenshot(path=str(output_dir / "pace-shot-two-lines-tv.png"))
        finally:
            tv.context.close()


# ---- 4 with the real table: the void in the account's words -----------------------------
def test_a_real_goal_voided_is_told_in_the_accounts_words(
    browser: Any, output_dir: Path
) -> None:
    from futmesa_testkit.livetable import LiveTable

    with LiveTable(speed=30, settings={"lance_ms": 3_600_000, "lance_warn_ms": 5_000}) as live:
        live.start_match(teams=TEAMS)
        tv = browser.new_context(**TV).new_page()
        try:
            tv.goto(live.base_url + "/")
            text_is(tv, "#name-A", "Estrela do Norte")
            live.give_lance("A")  # the kick-off first: no shot from it (000 Art. 12 §5)
            live.referee("shot_asked", {"side": "A", "disc": 9})
            live.sim.goal(live.match()["ends"]["B"])
            tv.wait_for_function("document.getElementById('score-A').textContent === '1'",
                                 timeout=90_000)
            d = live.daemon
            goal = max(e.id for e in d.store.entries(d.match["id"]) if e.kind == "goal_line")
            live.referee("void", {"target": goal, "reason": "a bola não entrou"})
            tv.wait_for_function("document.getElementById('goal-word').textContent"
                                 " === 'GOL ANULADO'", timeout=20_000)
            assert tv.text_content("#goal-team") == "Estrela do Norte"
            # then the account's words: the goal as it was, and why
            text_has(tv, "#announce", "Gol de Estrela do Norte (1\u00a0×\u00a00")
            said = tv.text_content("#announce").replace("\u00a0", " ")
            assert "botão 9" in said and "anulado pelo árbitro: a bola não entrou" in said
            text_is(tv, "#score-A", "0")
            wait_settled(tv, "#announce")
            tv.screenshot(path=str(output_dir / "pace-real-goal-voided-account-tv.png"))
            # the void undone (a void of the void): that goal said restored, never a new GOL!
            # (walk50b L1: the TV played GOL! in the interval), then the account's words
            void = max(e.id for e in d.store.entries(d.match["id"]) if e.kind == "void")
            live.referee("void", {"target": void, "reason": "revisto"})
            tv.wait_for_function("document.getElementById('goal').classList.contains('restored')"
                                 " && !document.getElementById('goal').classList"
                                 ".contains('hidden')", timeout=20_000)
            assert tv.text_content("#goal-word") == "GOL VALIDADO"
            wait_settled(tv, "#goal")
            tv.screenshot(path=str(output_dir / "pace-real-goal-restored-tv.png"))
            assert tv.text_content("#goal-team") == "Estrela do Norte"
            assert "botão 9" in tv.text_content("#goal-detail")
            assert tv.text_content("#goal-score") == "1 × 0"
            text_has(tv, "#announce", "Anulação desfeita")
            text_is(tv, "#score-A", "1")
        finally:
            tv.context.close()


def test_a_tv_opened_after_a_void_says_it_as_the_one_that_saw_it(
    browser: Any, output_dir: Path
) -> None:
    """Issue 45 #4: what a void or a correction is said with was in the referee's answer
    (/api/referee) only; the TV fetched the account's words when it saw a goal leave the score,
    and a TV opened after the void — or any void of no goal — said nothing of it. The words
    are in the published state: every TV says them while they stand."""
    from futmesa_testkit.livetable import LiveTable

    with LiveTable(speed=30, settings={"lance_ms": 3_600_000, "lance_warn_ms": 5_000}) as live:
        live.start_match(teams=TEAMS)
        first = browser.new_context(**TV).new_page()
        later = browser.new_context(**TV).new_page()
        try:
            first.goto(live.base_url + "/")
            text_is(first, "#name-A", "Estrela do Norte")
            live.give_lance("A")  # the kick-off first: no shot from it (000 Art. 12 §5)
            live.referee("shot_asked", {"side": "A", "disc": 9})
            live.sim.goal(live.match()["ends"]["B"])
            text_is(first, "#score-A", "1")
            d = live.daemon
            goal = max(e.id for e in d.store.entries(d.match["id"]) if e.kind == "goal_line")
            live.referee("void", {"target": goal, "reason": "a bola não entrou"})
            said = "anulado pelo árbitro: a bola não entrou"
            text_has(first, "#announce", said)
            later.goto(live.base_url + "/")
            text_has(later, "#announce", said)
            text_has(later, "#announce", "Gol de Estrela do Norte (1\u00a0×\u00a00")
            # a void of no goal: both screens say it, in the same words
            foul = live.referee("foul", {"side": "B", "disc": 4, "where": "opponent_half"})[
                "entry_id"]
            live.referee("void", {"target": foul, "reason": "foi do outro time"})
            for tv in (first, later):
                text_has(tv, "#announce", "foi do outro time")
                assert "Anula «Falta de Botafogo da Mesa" in tv.text_content("#announce")
            wait_settled(later, "#announce")
            later.screenshot(path=str(output_dir / "pace-void-on-a-later-tv.png"))
        finally:
            first.context.close()
            later.context.close()


# ---- 14 with the real table: the daemon publishes when the interval began ---------------
def test_the_real_tables_interval_is_counted_down_on_the_phone(browser: Any) -> None:
    import httpx

    from futmesa_testkit.livetable import LiveTable

    settings = {"period_ms": 60_000, "interval_ms": 600_000, "lance_ms": 3_600_000,
                "lance_warn_ms": 5_000}
    with LiveTable(speed=30, settings=settings) as live:
        live.start_match(teams=TEAMS)
        live.wait(lambda: live.match().get("status") == "interval", 90, "the interval")
        live.wait(lambda: httpx.get(live.base_url + "/api/state").json()["clock"]
                  .get("interval_at") is not None, 30, "the interval's start in the state")
        phone = browser.new_context(**PHONE).new_page()
        try:
            phone.goto(f"{live.base_url}/console?token={live.token}")
            text_is(phone, "#c-period", "Intervalo")
            # ten minutes counted down at the table's pace (30× here): never the half's 01:00
            shown_ = phone.wait_for_function(
                "() => { const t = document.getElementById('c-clock').textContent;"
                " return t < '10:00' && t > '01:00' && t; }", timeout=30_000).json_value()
            phone.wait_for_function("t => document.getElementById('c-clock').textContent < t",
                                    arg=shown_, timeout=10_000)
        finally:
            phone.context.close()


# ---- walk 45 (1): an overrun never crosses into a new period; no lance where none is timed --
def test_an_overrun_does_not_carry_into_the_second_half(browser: Any) -> None:
    with overrun_on_both(browser, 170000) as (live, over, _, phone, tv):
        # the interval, then the 2nd half starts: the lance is the table's fresh one
        live.publish(make_state(status="interval", lance=dict(over["lance"])))
        text_is(phone, "#c-lance", "—")
        second = make_state(period=2, lance={"ms": 15000, "running": False, "rate": 1.0,
                                             "at": int(time.time() * 1000),
                                             "length_ms": 15000, "side": "A"})
        second["clock"].update(running=True, at=int(time.time() * 1000), ms=2000)
        live.publish(second)
        text_is(phone, "#c-lance", "15")
        tv.wait_for_function("document.getElementById('lance-value').textContent === '15'")
        assert "over" not in (tv.get_attribute("#lance", "class") or "")
        # mesa-posta times no lance (lance length 0): neither screen shows a lance count
        posta = make_state(ruleset="mesa-posta", period=2,
                           lance={"ms": 0, "running": False, "rate": 1.0,
                                  "at": int(time.time() * 1000), "length_ms": 0})
        live.publish(posta)
        text_is(phone, "#c-lance", "—")
        tv.wait_for_function("document.getElementById('lance').classList"
                             ".contains('hidden')")


# ---- walk 45 (2): the keypad never joins a number across a team switch or an unsent action --
def test_the_keypad_starts_afresh_after_a_switch_or_an_unsent_action(
    cbfm: tuple[LiveServer, PaceTable], browser: Any
) -> None:
    live, table = cbfm
    kicked_off(live, table)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(live.url + f"/console?token={TOKEN}")
    phone.wait_for_function("document.documentElement.dataset.console === 'ready'")
    try:
        phone.tap('[data-key="2"]')
        text_is(phone, "#disc-shown", "nº 2")
        phone.tap("#side-B")  # the team switched: the "2" keyed for A is gone
        text_is(phone, "#disc-shown", "nº —")
        phone.tap('[data-key="9"]')
        text_is(phone, "#disc-shown", "nº 9")
        # B has no lance: its Chute pedido is grey; a tap on it drops the number keyed for it
        phone.tap('[data-key="2"]')  # the keypad keeps the last two digits: "92"
        assert phone.is_disabled("#act-shot")
        box = phone.locator("#act-shot").bounding_box()
        phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        text_is(phone, "#disc-shown", "nº —")
        # a disc the team does not have in play (substituted out) is refused as keyed
        live.call(table.apply, "substitution", {"side": "A", "out": 9, "in": 12}, "referee")
        phone.tap("#side-A")
        phone.wait_for_function("document.querySelector('#side-A')"
                                ".getAttribute('aria-pressed') === 'true'")
        phone.tap('[data-key="9"]')
        text_has(phone, "#result", "nº 9")
        text_is(phone, "#disc-shown", "nº —")
        phone.tap('[data-key="1"]')
        phone.tap('[data-key="2"]')
        text_is(phone, "#disc-shown", "nº 12")
    finally:
        close(phone)


# ---- walk 45 (3): a result waiting for an answer is never a period the match does not have --
def test_a_result_awaiting_an_answer_offers_no_third_half(browser: Any) -> None:
    with serving() as live:
        question = "Bola no gol de Botafogo sem chute pedido: sem gol ou gol contra?"
        st = make_state(status="interval", period=2, periods=2)
        st["match"].update(status="interval", period=2, periods=2, decision_pending=True,
                           pending=[{"id": 7, "pt": question, "en": question,
                                     "options": ["no_goal", "own_goal"],
                                     "answers": {"pt": answer_words(["no_goal", "own_goal"],
                                                                    "pt_BR")}}])
        live.publish(st)
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live.url + f"/console?token={TOKEN}")
        phone.wait_for_function("document.documentElement.dataset.console === 'ready'")
        try:
            text_is(phone, "#c-timeup", f"Resultado aguarda a sua resposta: {question}")
            assert not shown(phone, "#start-main")
            # answered (the engine ends the match or opens the next period): the line goes
            st["match"].update(decision_pending=False, pending=[])
            st["periods"] = 3
            live.publish(st)
            text_is(phone, "#start-main", "▶ Iniciar o 3º tempo")
            assert not shown(phone, "#c-timeup")
        finally:
            close(phone)


# ---- walk 45 (4, 5): a stopped ball-in-play clock is said; the restart's foul is named so -----
def test_a_stopped_ball_in_play_clock_says_what_runs_it_again(browser: Any) -> None:
    with serving() as live:
        st = make_state(ruleset="mesa-posta",
                        lance={"ms": 0, "running": False, "rate": 1.0,
                               "at": int(time.time() * 1000), "length_ms": 0})
        st["clock"].update(running=False, ms=20000)
        st["match"].update(status="running", clock_profile={"clock_mode": "ball-in-play"},
                           restart={"kind": "falta_direta", "side": "A", "taken": False})
        live.publish(st)
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(live.url + f"/console?token={TOKEN}")
        phone.wait_for_function("document.documentElement.dataset.console === 'ready'")
        try:
            text_is(phone, "#pending li", "Relógio parado: volta a correr na cobrança de "
                                          "Alvorada (falta direta)")
            # the restart's button is never a second plain "falta" beside the foul's type
            assert phone.text_content('[data-restart="falta_direta"]').strip() == \
                "Reinício: falta direta"
            st["match"]["restart"] = None
            live.publish(st)
            text_is(phone, "#pending li",
                    "Relógio parado: volta a correr quando a bola voltar ao jogo")
            st["clock"].update(running=True, at=int(time.time() * 1000))
            live.publish(st)
            text_is(phone, "#pending li", "nada pendente")
        finally:
            close(phone)
