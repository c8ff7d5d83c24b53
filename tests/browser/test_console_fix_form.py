"""The Registro's correction form on a phone (walk #45 M10): voiding a goal-line trip names
the goal it gave, and undoing that void is one action, said as such — no "Anular" / "Corrigir"
choice in it. Real parts: the simulated table (firmware under micropython on a pty), the
daemon, SQLite and uvicorn (LiveTable); headless Chromium at 390×844."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from phone_console import ALVORADA, LONG_LANCE, answered, phone_on, stored

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


@contextmanager
def _goal_in_the_registro(browser: Any) -> Iterator[tuple[LiveTable, Any, int]]:
    """Alvorada's goal on a live table (its shot asked by botão 9, the ball on Botafogo's goal
    line), then the console open on a phone at its Registro: (the table, the page, the
    goal_line entry's id); the phone closed, then the table stopped, however the test ends."""
    with LiveTable(speed=10, settings=LONG_LANCE) as live:
        live.start_match(teams=ALVORADA)
        live.give_lance("A")
        live.referee("shot_asked", {"side": "A", "disc": 9})
        live.sim.goal(live.match()["ends"]["B"])
        live.wait(lambda: live.match()["score"]["A"] == 1, 60, "the goal")
        d = live.daemon
        goal = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "goal_line")
        with phone_on(browser, live) as page:
            page.tap("[data-sheet=sheet-log]")
            yield live, page, goal


@contextmanager
def _wrong_entry_voided_on_a_phone(browser: Any, kind: str, data: dict[str, Any]
                                   ) -> Iterator[tuple[LiveTable, Any, int]]:
    """«A mesa está posta», the kick-off taken and the ball rolling; the referee's `kind`
    entry (a tap by mistake) stops the table's clock; the console open on a phone at that
    entry's «Anular»: (the table, the page, the entry's id)."""
    with LiveTable(speed=10, ruleset="mesa-posta", settings=LONG_LANCE) as live:
        live.start_match(teams=ALVORADA)
        d = live.daemon
        live.referee("touch", {"side": "A", "disc": 9})
        # the kick-off taken: the clock, held since the start (004 A partida), runs
        live.wait(lambda: d.status.running, 60, "the clock to run from the kick-off")
        live.referee(kind, data)
        wrong = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == kind)
        live.wait(lambda: (live.match().get("void_gives_back") or {}).get("entry") == wrong
                  and not d.status.running, 60, "the table's clock stopped on the wrong entry")
        with phone_on(browser, live) as page:
            page.tap("[data-sheet=sheet-log]")
            void_it = f"#log li[data-id='{wrong}'] [data-fix=void]"
            page.wait_for_selector(void_it, timeout=WAIT_MS)
            page.tap(void_it)
            yield live, page, wrong


def _void_sent(page: Any, reason: str, shot: Path) -> str:
    """The open void form sent with `reason` (the form pictured first): the console's answer."""
    page.fill("#fix-reason", reason)
    page.screenshot(path=str(shot))
    page.tap("#fix-send")
    return answered(page)


def test_void_names_the_goal_and_its_undo_offers_only_the_undo(
        browser: Any, output_dir: Path) -> None:
    with _goal_in_the_registro(browser) as (live, page, goal):
        void_it = f"#log li[data-id='{goal}'] [data-fix=void]"
        page.wait_for_selector(void_it, timeout=WAIT_MS)
        page.tap(void_it)
        page.wait_for_selector("#fix[open]", timeout=WAIT_MS)
        what = page.text_content("#fix-what") or ""
        assert what.startswith("Gol de Alvorada (1 × 0"), what
        assert "Sensor: bola na linha do gol de Botafogo" in what, what
        assert page.is_visible("#fix-amend") and page.is_checked("#fix-void")
        page.screenshot(path=str(output_dir / "console-fix-void-goal.png"))
        page.tap("#fix-send")
        assert answered(page).startswith("✓"), page.text_content("#result")
        live.wait(lambda: live.match()["score"]["A"] == 0, 60, "the void")
        # the voided row keeps the goal it was as its (struck) headline (walk45h-b B7)
        page.wait_for_function(
            f"((document.querySelector(\"#log li.voided[data-id='{goal}'] .fact\") || {{}})"
            ".textContent || '').startsWith('Gol de Alvorada (1 × 0')", timeout=WAIT_MS)

        d = live.daemon
        void = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "void")
        undo = f"#log li[data-id='{void}'] [data-fix=void]"
        page.wait_for_selector(undo, timeout=WAIT_MS)
        assert page.text_content(undo) == "Desfazer anulação"
        page.tap(undo)
        page.wait_for_selector("#fix[open]", timeout=WAIT_MS)
        assert not page.is_visible("#fix-void") and not page.is_visible("#fix-amend")
        assert page.text_content("#fix-send") == "Desfazer anulação"
        page.screenshot(path=str(output_dir / "console-fix-undo-void.png"))
        page.tap("#fix-send")
        page.wait_for_function("(document.getElementById('result').textContent || '')"
                               ".startsWith('✓ Anulação desfeita: Gol de Alvorada (1 × 0')",
                               timeout=WAIT_MS)  # the Registro's words (walk 45h-b B6)
        live.wait(lambda: live.match()["score"]["A"] == 1, 60, "the goal back")
        assert not page.js_errors, page.js_errors


def test_a_goals_boton_is_corrected_on_the_goal_row(browser: Any, output_dir: Path) -> None:
    """Walk45h-b B5 (66-mp-corrigir-goal.png): Corrigir on a goal's row offered only the team;
    it offers the Botão of the goal's scorer, and sending 7 makes the goal botão 7."""
    with _goal_in_the_registro(browser) as (live, page, goal):
        fix = f"#log li[data-id='{goal}'] [data-fix=amend]"
        page.wait_for_selector(fix, timeout=WAIT_MS)
        page.tap(fix)
        page.wait_for_selector("#fix[open] [data-key=disc]", timeout=WAIT_MS)
        assert page.is_checked("#fix-amend")
        assert page.input_value("#fix-fields [data-key=disc]") == "9"
        assert "Botão" in (page.text_content("#fix-fields") or "")
        _disc_sent(page, live, 7, output_dir / "console-fix-goal-boton.png")
        page.wait_for_function(
            f"(document.querySelector(\"#log li[data-id='{goal}'] .fact\") || {{}})"
            ".textContent === \"Gol de Alvorada (1 × 0, 1', botão 7)\"", timeout=WAIT_MS)
        assert not page.js_errors, page.js_errors


def test_a_fouls_onde_corrected_on_a_foul_with_no_disc(browser: Any, output_dir: Path) -> None:
    """Walk45i-b M-b (m27-correct-form.png, m28-corrected.png): a mesa-posta foul entered with
    no botão, its Onde corrected to "no campo de quem sofreu a falta", read "Falta de Botafogo,
    botão no campo …": the form sent the empty Botão box as "". It sends none, and the row
    reads as the foul entered so (004 Faltas: the free kick)."""
    with LiveTable(speed=10, ruleset="mesa-posta") as live:
        live.start_match(teams=ALVORADA)
        # as the console sends it: the Botão box left empty (m14-foul.png)
        live.referee("foul", {"side": "B", "disc": None, "type": "falta",
                              "where": "opponent_half"})
        d = live.daemon
        foul = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "foul")
        with phone_on(browser, live) as page:
            page.tap("[data-sheet=sheet-log]")
            fix = f"#log li[data-id='{foul}'] [data-fix=amend]"
            page.wait_for_selector(fix, timeout=WAIT_MS)
            page.tap(fix)
            page.wait_for_selector("#fix[open] [data-key=where]", timeout=WAIT_MS)
            # the foul said once (walk 50a L3, 32: "Falta de Botafogo, botão 4 no campo do
            # infrator: Tiro livre para Alvorada — Falta de Botafogo, botão 4 no campo …")
            assert page.text_content("#fix-what") == (
                "Falta de Botafogo no campo do infrator: Tiro livre para Alvorada")
            assert page.input_value("#fix-fields [data-key=disc]") == ""
            page.select_option("#fix-fields [data-key=where]",
                               label="no campo de quem sofreu a falta")
            page.fill("#fix-reason", "a falta foi no campo de Alvorada")
            page.screenshot(path=str(output_dir / "console-fix-foul-where.png"))
            page.tap("#fix-send")
            assert answered(page).startswith("✓"), page.text_content("#result")
            amend = max((r for r in d.store.entries(d.match["id"]) if r.kind == "amend"),
                        key=lambda r: r.id)
            assert amend.data["data"]["disc"] is None, amend.data
            assert amend.data["data"]["where"] == "own_half", amend.data
            meant = "Falta de Botafogo no campo de quem sofreu a falta: Tiro livre para Alvorada"
            page.wait_for_function(
                f"(document.querySelector(\"#log li[data-id='{foul}'] .fact\") || {{}})"
                f".textContent === \"{meant}\"", timeout=WAIT_MS)
            what = page.text_content(f"#log li[data-id='{foul}'] .what") or ""
            assert what.startswith("Falta de Botafogo no campo de quem sofreu a falta"), what
            assert not page.js_errors, page.js_errors


def test_a_void_that_would_count_dead_ball_time_asks_first(browser: Any, output_dir: Path) -> None:
    """Walk49a M3 (18-, 19-, 21-*.png): a «Bola parada na pequena área» entered by mistake
    stopped the mesa-posta's ball-in-play clock; voided some 40 s later, the clock jumped
    00:38 → 01:22 and the answer said only «✓ Anula «Bola parada…»». The form says, before it
    is sent, that the void counts the time since the stop as played and asks whether the ball
    was rolling; «Não» keeps the clock stopped (the ball stayed dead: it was a foul)."""
    with _wrong_entry_voided_on_a_phone(browser, "ball_stopped",
                                        {"side": "A", "area": "small"}) as (live, page, _):
        d = live.daemon
        stopped = d.clock_now_ms()
        page.wait_for_selector("#fix[open] #fix-clock-row", state="visible",
                               timeout=WAIT_MS)
        asked = page.text_content("#fix-clock-text") or ""
        assert asked.startswith("Anular isto conta 00:"), asked
        assert asked.endswith("como jogados: a bola estava rolando?"), asked
        assert page.is_checked("#fix-clock-count")
        assert (page.text_content("#fix-clock-count-text") or "").startswith(
            "Sim: contar 00:")
        page.tap("#fix-clock-keep")
        said = _void_sent(page, "toque errado: era pênalti",
                          output_dir / "console-fix-void-keeps-clock.png")
        assert said.startswith("✓ Anula «Bola parada na pequena área de Alvorada"), said
        assert "relógio mantido parado: a bola seguia morta" in said, said
        assert stored(live, "void")[-1]["keep_clock"] is True
        live.wait(lambda: live.match().get("void_gives_back") is None, 60, "the void")
        # nothing given back: the table's clock stands where it stopped
        assert not d.status.running and d.clock_now_ms() == stopped
        assert not page.js_errors, page.js_errors


def test_a_goal_entered_by_mistake_is_voided_as_a_ball_that_never_went_in(
        browser: Any, output_dir: Path) -> None:
    """Walk50a H1 (45–48): «Gol de Botafogo (o sensor não viu)» tapped by mistake with the
    ball rolling, voided with «Sim: contar 00:15 como jogados»: the clock stayed stopped and the
    TV gave a goal kick nobody took. The form says the ball did not go in (ticked for a goal
    entered by hand; unticked, a goal disallowed, the time not offered) and sends it: the entry
    is erased, the clock runs again with the time counted, no restart (rules/corrections.py)."""
    with _wrong_entry_voided_on_a_phone(browser, "goal_by_hand", {"side": "B"}) as (
            live, page, _):
        d = live.daemon
        page.wait_for_selector("#fix[open] #fix-trip-hand", state="visible",
                               timeout=WAIT_MS)
        assert page.is_checked("#fix-false-trip") and page.is_hidden("#fix-trip-sensor")
        assert "não entrou (toque errado)" in (page.text_content("#fix-trip-hand") or "")
        page.wait_for_selector("#fix-clock-row", state="visible", timeout=WAIT_MS)
        page.tap("#fix-false-trip")  # the ball went in: a dead ball, no time to count
        page.wait_for_selector("#fix-clock-row", state="hidden", timeout=WAIT_MS)
        page.tap("#fix-false-trip")
        said = _void_sent(page, "toque errado no celular",
                          output_dir / "console-fix-void-goal-by-hand.png")
        assert said.startswith("✓ Anula «Árbitro: bola no gol de Alvorada"), said
        assert "contados como jogados" in said and "tiro de meta" not in said, said
        assert stored(live, "void")[-1]["false_trip"] is True
        live.wait(lambda: d.status.running, 60, "the clock to run again")
        m = live.match()
        assert m["restart"]["taken"] and not m["pending"], m["restart"]
        assert not page.js_errors, page.js_errors


def test_the_goalkeepers_secret_choice_is_only_asked_again(browser: Any, output_dir: Path) -> None:
    """Walk51a H1: before the penalty is kicked, the Registro's row of the goalkeeper's secret
    choice offered «Corrigir» (its corner a text box reading «secreta») and «Anular», whose
    words put the corner on the TV. Now it offers one thing, «Pedir nova escolha ao goleiro»,
    and nothing on the phone names the corner; the goalkeeper then chooses again."""
    with LiveTable(speed=10, ruleset="mesa-posta", settings=LONG_LANCE) as live:
        live.start_match(teams=ALVORADA)
        live.referee("foul", {"side": "A", "where": "box"})  # a penalty for Botafogo
        live.referee("keeper_choice", {"side": "A", "choice": "right"})
        d = live.daemon
        choice = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "keeper_choice")
        with phone_on(browser, live) as page:
            page.tap("[data-sheet=sheet-log]")
            row = f"#log li[data-id='{choice}']"
            page.wait_for_selector(f"{row} [data-fix]", timeout=WAIT_MS)
            assert page.locator(f"{row} [data-fix]").all_text_contents() == [
                "Pedir nova escolha ao goleiro"]
            page.tap(f"{row} [data-fix=void]")
            page.wait_for_selector("#fix[open]", timeout=WAIT_MS)
            assert not page.is_visible("#fix-void") and not page.is_visible("#fix-amend")
            assert page.text_content("#fix-send") == "Pedir nova escolha ao goleiro"
            page.screenshot(path=str(output_dir / "console-fix-keeper-ask-again.png"))
            page.tap("#fix-send")
            assert answered(page).startswith("✓"), page.text_content("#result")
            live.wait(lambda: not live.match()["restart"]["keeper_choice_recorded"], 60,
                      "the goalkeeper to be asked again")
            text = page.evaluate("document.body.innerText").lower()
            assert "direit" not in text and "right" not in text, text
            assert not page.js_errors, page.js_errors


# 1-minute halves at speed 5 (12 s): the 1st half runs out by itself; the 2nd is lengthened
# at its start by added time (000 Art. 8 §10), so the goal and its correction are in it
SHORT_HALVES = {**LONG_LANCE, "period_ms": 60_000, "interval_ms": 600_000}


def _disc_sent(page: Any, live: LiveTable, disc: int, shot: Path) -> None:
    """The open form's botão set to `disc` and sent (a reason given, a picture of the form
    first): its ✓, then the match's one goal with that botão."""
    page.fill("#fix-fields [data-key=disc]", str(disc))
    page.fill("#fix-reason", f"foi o botão {disc}")
    page.screenshot(path=str(shot))
    page.tap("#fix-send")
    assert answered(page).startswith("✓"), page.text_content("#result")
    live.wait(lambda: [g["disc"] for g in live.match()["goals"]] == [disc], 60,
              f"the goal's botão {disc}")


def _amend_choice(page: Any, entry: int, key: str) -> tuple[list[str], str]:
    """Registro → Corrigir on `entry`: its form's choice `key` as (the options' words, the one
    chosen when the form opens)."""
    page.tap("[data-sheet=sheet-log]")
    fix = f"#log li[data-id='{entry}'] [data-fix=amend]"
    page.wait_for_selector(fix, timeout=WAIT_MS)
    page.tap(fix)
    select = f"#fix-fields select[data-key={key}]"
    page.wait_for_selector(f"#fix[open] {select}", timeout=WAIT_MS)
    return (page.evaluate(f"[...document.querySelector('{select}').options]"
                          ".map(o => o.textContent)"),
            page.evaluate(f"document.querySelector('{select}').selectedOptions[0].textContent"))


def _second_half(live: LiveTable) -> None:
    """The 1st half played out (its last lance, 000 Art. 8 §10), the 2nd started by the
    referee, the teams at the other ends (000 Art. 8 §9), 20 minutes added to it."""
    live.start_match(teams=ALVORADA)
    live.wait(lambda: live.match().get("status") in ("last_lance", "interval"), 120,
              "the 1st half to run out")
    if live.match()["status"] == "last_lance":
        live.referee("lance_done")
    live.wait(lambda: live.match().get("status") == "interval", 60, "the interval")
    live.referee("start_period")
    live.wait(lambda: live.match().get("status") == "running" and live.match()["period"] == 2,
              60, "the 2nd half")
    live.referee("added_time", {"ms": 1_200_000})
    assert live.match()["ends"] == {"A": 1, "B": 0}


def test_a_2nd_half_goals_disc_corrected_keeps_the_goal(browser: Any, output_dir: Path) -> None:
    """Walk52b H1 (40-m2-amend-goal-form-phone.png, 42-m2-after-amend-tv.png): in the 2nd half
    the form's «Linha de gol» named the lines by the 1st-half ends — Botafogo's goal on
    Alvorada's line opened as «gol de Botafogo» while the Registro said «bola na linha do gol
    de Alvorada»; picking the Registro's line made it Botafogo's own goal, «não é gol», 0 × 1
    → 0 × 0. The form names the lines by the ends of the goal's half, opens on its own line,
    and a correction of the disc only keeps the goal."""
    with LiveTable(speed=5, settings=SHORT_HALVES) as live:
        _second_half(live)
        live.give_lance("B")
        live.referee("shot_asked", {"side": "B", "disc": 8})
        live.sim.goal(live.match()["ends"]["A"])
        live.wait(lambda: live.match()["score"] == {"A": 0, "B": 1}, 60, "Botafogo's goal")
        d = live.daemon
        goal = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "goal_line")
        with phone_on(browser, live) as page:
            named, chosen = _amend_choice(page, goal, "goal")
            what = page.text_content("#fix-what") or ""
            assert "Sensor: bola na linha do gol de Alvorada" in what, what
            assert named == ["gol de Botafogo", "gol de Alvorada"], named  # goal 0, goal 1
            assert chosen == "gol de Alvorada"  # the Registro's line
            _disc_sent(page, live, 9, output_dir / "console-fix-2nd-half-goal-form.png")
            assert live.match()["score"] == {"A": 0, "B": 1}
            assert stored(live, "amend")[-1]["data"]["goal"] == 1
            # its minute as the clock had it (a busy machine: 1' or 2')
            page.wait_for_function(
                f"(t => /^Gol de Botafogo \\(0 × 1, \\d+', botão 9\\)$/.test(t || ''))(("
                f"document.querySelector(\"#log li[data-id='{goal}'] .fact\") || {{}})"
                ".textContent)", timeout=WAIT_MS)
            what = page.text_content(f"#log li[data-id='{goal}']") or ""
            assert "bola na linha do gol de Alvorada" in what, what
            page.screenshot(path=str(output_dir / "console-fix-2nd-half-goal-after.png"))
            assert not page.js_errors, page.js_errors


def test_an_answer_is_corrected_among_its_questions_answers(browser: Any,
                                                            output_dir: Path) -> None:
    """Walk52a F4, F5 (46-corrigir-decisao-phonefull.png, 48-pergunta-voltou-tv.png): Corrigir
    on the answer «chute pedido (não registrado)» to the goal sensor's question showed a text
    box holding «shot_asked»; «sem gol» typed took a ✓ and did nothing, and the goal it had
    counted vanished unsaid. The form offers the question's three answers in its buttons'
    words, the current one chosen; «sem gol» chosen annuls the goal, said so (004 «Só vale
    gol de chute pedido»)."""
    with LiveTable(speed=10, ruleset="mesa-posta", settings=LONG_LANCE) as live:
        live.start_match(teams=ALVORADA)
        d = live.daemon
        live.referee("touch", {"side": "A", "disc": 9})  # the kick-off taken
        live.wait(lambda: d.status.running, 60, "the clock to run from the kick-off")
        live.referee("touch", {"side": "A", "disc": 10})
        live.sim.goal(live.match()["ends"]["B"])  # no shot asked: the rules ask
        live.wait(lambda: any(p["kind"] == "goal_no_shot" for p in live.match()["pending"]),
                  60, "the goal question")
        asked = live.match()["pending"][0]["id"]
        live.referee("confirm", {"target": asked, "choice": "shot_asked"})
        live.wait(lambda: live.match()["score"]["A"] == 1, 60, "the goal counted")
        answer = max(r.id for r in d.store.entries(d.match["id"]) if r.kind == "confirm")
        with phone_on(browser, live) as page:
            named, chosen = _amend_choice(page, answer, "choice")
            assert named == ["sem gol", "chute pedido (não registrado)", "falso acionamento"], \
                named
            assert chosen == "chute pedido (não registrado)"
            form = page.text_content("#fix") or ""
            assert "Resposta" in form and "shot_asked" not in form, form
            page.screenshot(path=str(output_dir / "console-fix-answer-form.png"))
            page.select_option("#fix-fields select[data-key=choice]", label="sem gol")
            page.fill("#fix-reason", "não houve chute pedido")
            page.tap("#fix-send")
            said = answered(page)
            assert said.startswith("✓ Gol de Alvorada (1 × 0"), said
            assert "anulado pelo árbitro: a resposta passa a ser «sem gol»" in said, said
            live.wait(lambda: live.match()["score"]["A"] == 0, 60, "the goal annulled")
            assert not live.match()["pending"], live.match()["pending"]  # no question back
            page.wait_for_function("(document.getElementById('log').textContent || '')"
                                   ".includes('anulado pelo árbitro: a resposta passa a ser')",
                                   timeout=WAIT_MS)
            page.screenshot(path=str(output_dir / "console-fix-answer-after.png"))
            assert not page.js_errors, page.js_errors
