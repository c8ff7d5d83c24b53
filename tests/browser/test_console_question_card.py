"""A question card under the referee's thumb (walk #45g G9), on a 390×844 touch phone: a
question replaced between sight and tap never takes the tap as an answer to the new one (its
answers wait a moment, then take taps); and the answer's own line ("✓ …") is not overwritten
by the table's news of what that answer made (the goal). Real parts: the simulated table
(firmware under micropython on a pty), the daemon, SQLite and uvicorn (LiveTable); headless
Chromium; the page's WebSocket routed through the test only to hold the host's news back."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from phone_console import PHONE, WAIT_MS, stored, tap_settled

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

TEAMS = {"A": {"name": "Alvorada"}, "B": {"name": "Botafogo"}}
LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}


class HeldNews:
    """The page's WebSocket through the test: the host's messages pass, except while held
    (kept in order, then delivered on release)."""

    def __init__(self, page: Any) -> None:
        self.held: list[Any] | None = None
        self.lock = threading.Lock()
        self.route: Any = None
        page.route_web_socket(re.compile(r"/ws"), self._opened)

    def _opened(self, ws: Any) -> None:
        self.route = ws
        server = ws.connect_to_server()
        server.on_message(self._from_host)
        ws.on_message(lambda m: server.send(m))

    def _from_host(self, message: Any) -> None:
        with self.lock:
            if self.held is not None:
                self.held.append(message)
                return
        self.route.send(message)

    def hold(self) -> None:
        with self.lock:
            self.held = []

    def release(self) -> None:
        with self.lock:
            held, self.held = self.held or [], None
        for m in held:
            self.route.send(m)


def _phone(browser: Any, live: LiveTable) -> tuple[Any, Any, HeldNews]:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    news = HeldNews(page)
    page.goto(f"{live.base_url}/console?token={live.token}")
    page.wait_for_function("document.getElementById('c-name-A').textContent === 'Alvorada'",
                           timeout=WAIT_MS)
    return ctx, page, news


def _goal_without_shot(live: LiveTable, page: Any) -> Any:
    """Alvorada's lance, the ball in Botafogo's goal with no shot asked: the rules ask."""
    live.give_lance("A")
    # a lance after the kick-off: straight from it no shot is offered (walk52a M3)
    live.referee("touch", {"side": "A", "disc": 7})
    live.sim.goal(live.match()["ends"]["B"])
    page.wait_for_selector("#pending button[data-choice=shot_asked]", timeout=WAIT_MS)
    return live.match()["pending"][0]


def _result(page: Any) -> str:
    return page.text_content("#result") or ""


def test_a_question_replaced_under_the_thumb_takes_no_answer(browser: Any) -> None:
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, news = _phone(browser, live)
        try:
            asked = _goal_without_shot(live, page)
            # another console answers it: the next question (who kicks off) replaces it while
            # the referee's thumb is on its way to the first answer
            news.hold()
            live.referee("confirm", {"target": asked["id"], "choice": "shot_asked"})
            news.release()
            # the thumb lands on the new card's first answer while it is still arriving (its
            # buttons wait ARRIVE_MS): where it lands depends on the two cards' words (a longer
            # answer wraps), so the point is the new answer's, read the moment it is drawn
            new = page.wait_for_function(
                "(() => { const b = document.querySelector('#pending button[data-choice]');"
                " return document.getElementById('pending').textContent.includes('saída')"
                " && b && b.disabled ? (r => [r.x + r.width / 2, r.y + r.height / 2])"
                "(b.getBoundingClientRect()) : null; })()", timeout=WAIT_MS).json_value()
            page.touchscreen.tap(new[0], new[1])
            page.wait_for_function("/pergunta/.test(document.getElementById('result')"
                                   ".textContent)", timeout=WAIT_MS)
            assert page.evaluate("Referee.queued().length") == 0
            assert len(stored(live, "confirm")) == 1, stored(live, "confirm")
            assert "Quem dá a saída" in (page.text_content("#pending li") or "")
            # seen, the new question takes its answer
            page.locator("#pending button[data-choice=B]").tap()
            page.wait_for_function("document.getElementById('pending').textContent"
                                   ".includes('nada pendente')", timeout=WAIT_MS)
            assert len(stored(live, "confirm")) == 2
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def test_the_answer_line_outlives_the_goal_it_made(browser: Any) -> None:
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, news = _phone(browser, live)
        try:
            _goal_without_shot(live, page)
            # the host's news of the goal reaches the phone after its answer to the tap
            news.hold()
            page.locator("#pending button[data-choice=shot_asked]").tap()
            page.wait_for_function("Referee.queued().length === 0 && document"
                                   ".getElementById('result').textContent.startsWith('✓')",
                                   timeout=WAIT_MS)
            news.release()
            page.wait_for_function("document.getElementById('c-score').textContent"
                                   " === '1 × 0'", timeout=WAIT_MS)
            page.wait_for_function("document.getElementById('pending').textContent"
                                   ".includes('saída')", timeout=WAIT_MS)
            # the answer's own line, never the table's news of the goal it made (⚽)
            # in the Registro's words: the answer and the goal it gave (walk 45h-b B6)
            said = _result(page)
            assert said.startswith("✓") and "chute pedido" in said and "Gol" in said, said
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def test_a_question_that_goes_moves_nothing_under_the_thumb(browser: Any) -> None:
    """fx-j's note on G9: a card withdrawn (answered on another console) shrinks, and what was
    under it moves up — a tap aimed at the team button must not land on what took its place;
    it answers nothing and says why, and the next tap works."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, news = _phone(browser, live)
        try:
            asked = _goal_without_shot(live, page)
            target = page.locator("#act-shot").bounding_box()
            assert target is not None
            before = len(live.daemon.store.entries(live.daemon.match["id"]))
            news.hold()
            live.referee("confirm", {"target": asked["id"], "choice": "no_goal"})
            news.release()
            page.wait_for_function("document.getElementById('pending').textContent"
                                   ".includes('nada pendente')", timeout=WAIT_MS)
            # the thumb lands where Chute pedido was a moment ago
            page.touchscreen.tap(target["x"] + target["width"] / 2,
                                 target["y"] + target["height"] / 2)
            page.wait_for_function("/tela acabou de mudar/.test(document.getElementById("
                                   "'result').textContent)", timeout=WAIT_MS)
            assert page.evaluate("Referee.queued().length") == 0
            after = [e.kind for e in live.daemon.store.entries(live.daemon.match["id"])][before:]
            assert [k for k in after if k != "confirm"] == [] or all(
                k in ("lance_started", "lance_expired") for k in after if k != "confirm"), after
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def test_a_question_that_stays_takes_its_answer_when_another_joins_it(browser: Any) -> None:
    """walk45i-a M3: the question on the card stays while another joins it behind ("mais 1
    pergunta depois desta" grows the card below its answers): nothing moved under the thumb,
    so the tap on its answer is taken — never "a pergunta acabou de mudar"."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, news = _phone(browser, live)
        try:
            asked = _goal_without_shot(live, page)
            answer = page.locator("#pending button[data-choice=shot_asked]")
            box = answer.bounding_box()
            assert box is not None
            page.wait_for_timeout(800)  # (the card's own arrival is over: its answers take taps)
            live.sim.goal(live.match()["ends"]["A"])  # the table reports another ball in a goal
            page.wait_for_function("/depois desta/.test(document.getElementById('pending')"
                                   ".textContent)", timeout=WAIT_MS)
            assert answer.bounding_box() == box  # the answer did not move
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            live.wait(lambda: any(d.get("target") == asked["id"]
                                  for d in stored(live, "confirm")), 30, "the answer taken")
            assert "acabou de mudar" not in _result(page), _result(page)
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def test_the_shot_outcomes_rest_until_a_shot_is_asked(browser: Any) -> None:
    """walk45i-a M6: "Chute sem gol" looked ready with no shot asked (a tap only said "Não há
    chute pedido"): it rests dimmed and says when it serves, and wakes with the shot."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, _news = _phone(browser, live)
        try:
            live.give_lance("A")
            page.wait_for_function("document.getElementById('act-outcome').classList"
                                   ".contains('idle')", timeout=WAIT_MS)
            assert page.locator("#outcome-why").is_visible()
            assert page.text_content("#outcome-why") == "(depois do Chute pedido)"
            page.locator(".lance [data-key='9']").tap()  # the disc that shoots
            tap_settled(page, "#act-shot")  # (a tap the moving screen took is tapped again)
            live.wait(lambda: bool(stored(live, "shot_asked")), 30, "the shot asked")
            page.wait_for_function("!document.getElementById('act-outcome').classList"
                                   ".contains('idle')", timeout=WAIT_MS)
            assert not page.locator("#outcome-why").is_visible()
            tap_settled(page, "[data-outcome=saved]")
            live.wait(lambda: bool(stored(live, "shot_result")), 30, "the shot's outcome")
            page.wait_for_function("document.getElementById('act-outcome').classList"
                                   ".contains('idle')", timeout=WAIT_MS)
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def _pending_says(page: Any, words: str) -> None:
    page.wait_for_function("document.getElementById('pending').textContent.includes("
                           f"{words!r})", timeout=WAIT_MS)


def test_a_voided_answer_brings_its_question_back_saying_why(browser: Any,
                                                            output_dir: Path) -> None:
    """Issue 45 (blind walk, kick-off): the answer to "Quem dá a saída?" voided from the
    Registro, the question came back on the console with no word why. Its card says the
    answer was voided and asks again."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, _news = _phone(browser, live)
        try:
            asked = _goal_without_shot(live, page)
            live.referee("confirm", {"target": asked["id"], "choice": "shot_asked"})
            _pending_says(page, "Quem dá a saída")
            assert "anulada" not in (page.text_content("#pending li") or "")
            kickoff = live.match()["pending"][0]
            live.referee("confirm", {"target": kickoff["id"], "choice": "B"})
            _pending_says(page, "nada pendente")
            d = live.daemon
            answer = max(e.id for e in d.store.entries(d.match["id"]) if e.kind == "confirm")
            live.referee("void", {"target": answer, "reason": "engano"})
            _pending_says(page, "Quem dá a saída")
            card = page.text_content("#pending li") or ""
            assert "Resposta anulada no Registro: responda de novo" in card, card
            page.screenshot(path=str(output_dir / "console-question-reopened.png"))
            page.locator("#pending button[data-choice=A]").tap()
            _pending_says(page, "nada pendente")
            assert live.match()["restart"]["side"] == "A"
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def test_the_own_goal_answer_names_whose_own_goal_it_is(browser: Any,
                                                       output_dir: Path) -> None:
    """Issue 45 (blind walk): the button "gol contra" did not say whose own goal it was; it
    names the team that put the ball in its own goal, as the goal's line does."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, _news = _phone(browser, live)
        try:
            live.give_lance("A")
            live.sim.goal(live.match()["ends"]["A"])  # Alvorada's lance into its own goal
            button = page.locator("#pending button[data-choice=own_goal]")
            button.wait_for(timeout=WAIT_MS)
            page.screenshot(path=str(output_dir / "console-own-goal-answer.png"))
            said = (button.text_content() or "").removesuffix(" sugerido")  # the rules' default
            assert said.endswith("gol contra de Alvorada"), said
            button.tap()
            page.wait_for_function("document.getElementById('c-score').textContent"
                                   " === '0 × 1'", timeout=WAIT_MS)
            # the answer's own line (the table's news of the goal may come first)
            page.wait_for_function("document.getElementById('result').textContent"
                                   ".includes('Gol contra de Alvorada')", timeout=WAIT_MS)
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()


def test_the_suggested_answer_looks_suggested_not_recorded(browser: Any,
                                                          output_dir: Path) -> None:
    """Walk 48a L4: "✓ sem gol" in the question of a ball in the goal with no shot asked read
    as an answer already chosen (✓ is the console's "recorded"). The rules' suggestion is an
    outlined button with a "sugerido" badge; no answer carries a ✓ before it is tapped."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=TEAMS)
        ctx, page, _news = _phone(browser, live)
        try:
            pending = _goal_without_shot(live, page)
            answers = page.locator("#pending button[data-choice]")
            words = answers.all_text_contents()
            assert words and not any("✓" in w for w in words), words
            suggested = page.locator("#pending button.suggested")
            assert suggested.count() == 1
            assert suggested.get_attribute("data-choice") == pending["default"]
            assert suggested.locator(".suggested-badge").text_content() == "sugerido"
            page.screenshot(path=str(output_dir / "console-suggested-answer.png"))
            assert not page.js_errors, page.js_errors
        finally:
            ctx.close()
