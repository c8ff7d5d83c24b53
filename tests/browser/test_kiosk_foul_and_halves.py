"""Issue 31 §7 and §10 on the TV: an ordinary foul has a frame of its own (the rules announce
it by the kick it gives), the goal list marks the half of each goal (the minutes restart each
half; issue 45: every goal, never a minute past the half's length), and a long status stays
inside the middle column."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from kiosk_states import LONG_A, goal, match_state
from screen_checks import VIEWPORTS, check_screen, wait_names_fitted

from futmesa_testkit.liveserver import LiveServer

pytestmark = pytest.mark.browser


def test_a_foul_has_its_frame_and_goals_say_their_half(live: LiveServer, page: Any) -> None:
    second = {**goal("A", 5, 2, 40), "period": 2}
    st = match_state(score={"A": 2, "B": 0}, goals=[goal("A", 9, 19, 10), second])
    live.publish(st)
    page.goto(live.url + "/")
    page.wait_for_function("document.querySelectorAll('#goals-A li').length === 2")
    items = page.eval_on_selector_all("#goals-A li", "els => els.map(e => e.textContent)")
    assert items == ["3' 2ºT · botão 5", "20' 1ºT · botão 9"], items
    # issue 45: a goal at 1:50 of a 2-minute half, and one at the alarm, are in its 2nd minute;
    # walk52b L1: one at 2:30, in added time, is in the 1st minute past it, as the súmula says
    short = match_state(score={"A": 3, "B": 0},
                        goals=[{**goal("A", 9, 1, 10), "clock_ms": 110_000},
                               {**goal("A", 5, 2, 11), "clock_ms": 120_000, "period": 2},
                               {**goal("A", 7, 2, 12), "clock_ms": 150_000, "period": 2}])
    short["match"]["clock_profile"] = {"periods": 2, "period_ms": 120_000}
    live.publish(short)
    page.wait_for_function("document.querySelector('#goals-A li').textContent.startsWith(\"2'+1\")")
    items = page.eval_on_selector_all("#goals-A li", "els => els.map(e => e.textContent)")
    assert items == ["2'+1 2ºT · botão 7", "2' 2ºT · botão 5", "2' 1ºT · botão 9"], items
    foul = {"id": 9, "entry": 60, "code": "restart_falta_direta", "rule": "000 Art. 19 §2–§3",
            "pt": f"Tiro livre (direto ou indireto) para {LONG_A} (000 Art. 19 §2–§3)",
            "en": "x"}
    live.publish(match_state(score={"A": 2, "B": 0}, goals=st["match"]["goals"],
                             announcements=[foul]))
    page.wait_for_function("document.getElementById('announce').textContent"
                           ".startsWith('Tiro livre')")
    assert page.get_attribute("#announce", "data-kind") == "foul"


@pytest.mark.parametrize("size", ["hd", "tv"])
def test_a_long_status_never_crowds_the_team_cards(live: LiveServer, browser: Any,
                                                   output_dir: Path, size: str) -> None:
    """Issue 31 §7: "ÚLTIMO LANCE · ⚑ A CONFIRMAR PELO ÁRBITRO" made the middle column take
    the cards' width ("Grê mi…", "NA / VEZ"); each part is a line of its own, inside it."""
    st = match_state(score={"A": 1, "B": 1}, status="last_lance")
    st["match"].update(status="last_lance", pending=[
        {"id": 3, "kind": "goal_no_shot", "pt": "?", "options": ["counts"], "default": "counts"}])
    page = browser.new_page(viewport=VIEWPORTS[size])
    try:
        live.publish(st)
        page.goto(live.url + "/")
        page.wait_for_function("document.getElementById('status').textContent.includes('⚑')")
        wait_names_fitted(page)
        width = VIEWPORTS[size]["width"]
        for side in ("A", "B"):
            box = page.locator(f"#team-{side}").bounding_box()
            assert box and box["width"] >= 0.25 * width, (side, box)
        check_screen(page, f"kiosk-{size}-long-status", output_dir)
    finally:
        page.close()


def test_a_card_does_not_wait_behind_routine_words(live: LiveServer, page: Any) -> None:
    """Issue 31 §8: a yellow card reached the TV 6.6 s after the tap, behind the words waiting
    before it; a card is shown at once and the routine words before it are dropped."""
    def said(i: int, code: str, pt: str) -> dict[str, Any]:
        return {"id": i, "entry": 100 + i, "code": code, "rule": "", "pt": pt, "en": pt}

    base = match_state(score={"A": 0, "B": 0})
    live.publish(base)
    page.goto(live.url + "/")
    page.wait_for_function("window.futmesaAnnouncements.match !== undefined")
    routine = [said(1, "ball_out", "Bola fora"), said(2, "restart_lateral", "Lateral para A"),
               said(3, "turn", "Vez de A"), said(4, "shot_over", "Chute de A: para fora")]
    live.publish(match_state(score={"A": 0, "B": 0}, announcements=routine))
    page.wait_for_function("document.getElementById('announce').textContent === 'Bola fora'")
    card = said(5, "disciplinary", "Falta disciplinar: Botafogo da Mesa")
    live.publish(match_state(score={"A": 0, "B": 0}, announcements=[*routine, card]))
    page.wait_for_function("window.futmesaAnnouncements.lastId >= 5")
    # as soon as the card's state is taken, nothing waits before it
    left = page.evaluate("""() => { const a = window.futmesaAnnouncements;
        return [a.current, ...a.queue].filter(Boolean).map((x) => x.a.code); }""")
    assert left == ["disciplinary"], left
    page.wait_for_function("document.getElementById('announce').textContent"
                           ".startsWith('Falta disciplinar')")


def test_the_half_ends_on_screen_after_a_void_undone(live: LiveServer, page: Any) -> None:
    """Walk #45 M6: the rules renumber their words when a correction re-runs the match — a
    void said two more (nº 17), its undo took them back (nº 15) — and the TV, waiting for a
    number past 17, kept "Anulação desfeita" up through the interval: "Fim do 1º tempo" (16)
    and "Troca de lado" (17) never appeared."""
    def said(i: int, entry: int, code: str, pt: str) -> dict[str, Any]:
        return {"id": i, "entry": entry, "code": code, "rule": "", "pt": pt, "en": pt}

    story = [said(i, 10 + i, "turn", f"Vez nº {i}") for i in range(1, 16)]
    live.publish(match_state(announcements=story))
    page.goto(live.url + "/")
    page.wait_for_function("window.futmesaAnnouncements.lastId === 15")
    voided = [*story[:13], said(14, 19, "goal_disallowed", "Gol anulado pelo árbitro"),
              said(15, 19, "restart_tiro_de_meta", "Tiro de meta"), *[
                  {**a, "id": a["id"] + 2} for a in story[13:]]]
    live.publish(match_state(announcements=voided))
    page.wait_for_function("window.futmesaAnnouncements.lastId === 17")
    live.publish(match_state(announcements=story))  # the void undone: 15 again
    end = [said(16, 42, "period_end", "Fim do 1º tempo"), said(17, 42, "change_ends", "Troca")]
    live.publish(match_state(announcements=[*story, *end]))
    page.wait_for_function("document.getElementById('announce').textContent"
                           ".startsWith('Fim do 1º tempo')", timeout=15_000)


def test_the_end_of_the_half_takes_the_screen_at_once(live: LiveServer, page: Any) -> None:
    """Walk 49a L3 (29-bola-fora-fim-1t-tv.png): in «A mesa está posta» the ball out after
    time up ends the half, and the TV said only "Bola fora" over "Intervalo 00:57": the end of
    the period, said on the same entry after it, waited its turn. The period's end, as the
    final whistle, takes the screen at once; the routine words before it are old news."""
    def said(i: int, code: str, pt: str) -> dict[str, Any]:
        return {"id": i, "entry": 80, "code": code, "rule": "", "pt": pt, "en": pt}

    live.publish(match_state())
    page.goto(live.url + "/")
    page.wait_for_function("window.futmesaAnnouncements.match !== undefined")
    live.publish(match_state(announcements=[
        said(1, "ball_out", "Bola fora"), said(2, "period_end", "Fim do 1º tempo"),
        said(3, "change_ends", "Troca de lado")]))
    page.wait_for_function("window.futmesaAnnouncements.lastId === 3")
    left = page.evaluate("""() => { const a = window.futmesaAnnouncements;
        return [a.current, ...a.queue].filter(Boolean).map((x) => x.a.code); }""")
    assert left[0] == "period_end" and "ball_out" not in left, left
    page.wait_for_function("document.getElementById('announce').textContent"
                           ".startsWith('Fim do 1º tempo')")


def test_the_kick_a_card_gives_keeps_the_card(live: LiveServer, page: Any) -> None:
    """Walk #45 M6 (g07-tv-disc.png): gaúcha's disciplinary foul showed its card 3 s, then
    only "Falta técnica para Estrela do Norte" in a plain foul frame, no card: the kick the
    card gives keeps the card's frame."""
    def said(i: int, code: str, pt: str) -> dict[str, Any]:
        return {"id": i, "entry": 217, "code": code, "rule": "", "pt": pt, "en": pt}

    live.publish(match_state())
    page.goto(live.url + "/")
    page.wait_for_function("window.futmesaAnnouncements.match !== undefined")
    live.publish(match_state(announcements=[
        said(1, "disciplinary", "Falta disciplinar de Botafogo da Mesa: punida com falta técnica"),
        said(2, "restart_falta_tecnica", "Falta técnica para Estrela do Norte")]))
    page.wait_for_function("document.getElementById('announce').textContent"
                           ".startsWith('Falta técnica para')", timeout=15_000)
    assert page.locator("#announce").get_attribute("data-kind") == "card"


def test_the_tv_shows_what_stands_now(live: LiveServer, page: Any) -> None:
    """Walk 45j-b (26, 28, 58-*-tv.png): the TV's words went stale. "Arrumação das equipes;
    saída para Botafogo" stayed up with the clock running after the kick-off; at full time it
    said "Bola fora com a bola parada: sem efeito" instead of the result; after a foul's place
    was corrected it kept "cobrança indireta". A restart's words leave once it is taken, a
    sensor event the rules ignored is no words at all, corrected words follow the correction."""
    def said(i: int, entry: int, code: str, pt: str) -> dict[str, Any]:
        return {"id": i, "entry": entry, "code": code, "rule": "", "pt": pt, "en": pt}

    def at(*words: dict[str, Any], restart: dict[str, Any] | None = None) -> dict[str, Any]:
        st = match_state(announcements=list(words))
        st["match"]["restart"] = restart
        return st

    shown = "document.getElementById('announce').textContent"
    live.publish(at())
    page.goto(live.url + "/")
    page.wait_for_function("window.futmesaAnnouncements.match !== undefined")
    kickoff = {"kind": "saida", "side": "B", "taken": False}
    arrange = said(1, 10, "rearrange", "Arrumação das equipes; saída para Botafogo")
    live.publish(at(arrange, restart=kickoff))
    page.wait_for_function(f"{shown}.startsWith('Arrumação')")
    live.publish(at(arrange, restart={**kickoff, "taken": True}))  # the kick-off played
    page.wait_for_function("document.getElementById('announce').classList.contains('hidden')",
                            timeout=10_000)
    ignored = said(2, 12, "ball_out_ignored", "Bola fora com a bola parada: sem efeito")
    same = said(3, 13, "turn_unchanged", "A vez já era de Botafogo: a vez não muda")
    live.publish(at(arrange, ignored, same))
    page.wait_for_function("window.futmesaAnnouncements.lastId === 3")
    assert page.is_hidden("#announce"), page.text_content("#announce")
    end = said(4, 14, "match_end", "Fim de jogo: 2 × 1")
    live.publish(at(arrange, ignored, same, end))
    page.wait_for_function(f"{shown}.startsWith('Fim de jogo')")
    late = said(5, 15, "ball_out_ignored", "Bola fora com a bola parada: sem efeito")
    live.publish(at(arrange, ignored, same, end, late))
    page.wait_for_function("window.futmesaAnnouncements.lastId === 5 && "
                           "Date.now() - window.futmesaAnnouncements.current.shownAt > 3500",
                           timeout=10_000)
    assert page.text_content("#announce").startswith("Fim de jogo")
    # a foul's place corrected: the rules re-run the match and its words change
    live.publish(at(said(1, 20, "restart_falta", "Falta de Alvorada (cobrança indireta)"),
                    restart={"kind": "falta", "side": "B", "taken": False}))
    page.wait_for_function(f"{shown}.includes('cobrança indireta')")
    live.publish(at(said(1, 20, "restart_falta", "Falta de Alvorada (direta ou indireta)"),
                    restart={"kind": "falta", "side": "B", "taken": False}))
    page.wait_for_function(f"{shown}.includes('direta ou indireta')", timeout=5_000)
