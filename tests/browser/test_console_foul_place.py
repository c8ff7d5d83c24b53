"""A foul's place is the one the referee tapped for that foul (walk 45h-b B3: a second foul,
entered with only the team and "Falta da equipe escolhida", was stored "no campo do infrator",
the place of the foul before). No place is pressed until he taps one; after each foul the
sheet starts afresh; a foul with no place is not sent, and the line says what to tap. The place
is asked only for the kinds whose kick it chooses, as the engine publishes them
(`possession.foul_place`): a two-touch throw-in / corner (000 Art. 22 §único, always indirect) was
refused "tap where it was" though its place changed nothing, or sent "in the box" and made a
penalty (issue #44/#45). Real parts: the simulated table, the daemon, SQLite, uvicorn
(LiveTable); Chromium at 390×844."""

from __future__ import annotations

from typing import Any

import pytest
from phone_console import alvorada_on_the_phone, phone_console

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser

WAIT_MS = 60_000
PLACES = "#sheet-foul [data-field=foul-where] button"


def _fouls(live: LiveTable) -> list[dict[str, Any]]:
    store, mid = live.running.store, live.running.daemon.match["id"]
    return [e.data for e in store.entries(mid) if e.kind == "foul"]


def _pressed(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        PLACES, "bs => bs.filter(b => b.getAttribute('aria-pressed') === 'true')"
                ".map(b => b.dataset.value)")


def test_a_fouls_place_is_never_the_last_fouls(browser: Any) -> None:
    with alvorada_on_the_phone(browser, {"lance_ms": 3_600_000}) as (live, page):
        live.give_lance("A")
        page.tap("[data-sheet=sheet-foul]")
        assert _pressed(page) == [], "a place chosen before the referee tapped one"
        page.tap("#sheet-foul .side[data-side=B]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=own_half]")
        page.tap("#sheet-foul [data-act=foul]")
        live.wait(lambda: len(_fouls(live)) == 1, 60, "the first foul stored")
        assert _fouls(live)[0]["where"] == "own_half"
        # the next foul: the sheet shows no place, and sends none it did not show
        page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
        page.tap("[data-sheet=sheet-foul]")  # the foul closed its sheet
        assert _pressed(page) == [], "the last foul's place carried over"
        page.tap("#sheet-foul .side[data-side=A]")
        page.tap("#sheet-foul [data-act=foul]")
        page.wait_for_function("/^✗ .*no campo do infrator/.test("
                               "document.getElementById('result').textContent)",
                               timeout=WAIT_MS)
        assert len(_fouls(live)) == 1, _fouls(live)
        # the sheet stays open for the place
        assert page.is_visible("#sheet-foul [data-field=foul-where]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=opponent_half]")
        page.tap("#sheet-foul [data-act=foul]")
        live.wait(lambda: len(_fouls(live)) == 2, 60, "the second foul stored")
        assert _fouls(live)[1]["where"] == "opponent_half" and _fouls(live)[1]["side"] == "A"
        assert not page.js_errors, page.js_errors


def test_the_place_is_asked_only_where_the_engine_says_it_matters(browser: Any) -> None:
    with alvorada_on_the_phone(browser, {"lance_ms": 3_600_000}) as (live, page):
        live.give_lance("A")
        page.tap("[data-sheet=sheet-foul]")
        assert page.is_visible("#sheet-foul [data-field=foul-where]")  # a foul: asked
        page.tap("#sheet-foul .side[data-side=B]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=box]")
        page.tap("#sheet-foul [data-field=foul-type] [data-value=dois_toques]")
        page.wait_for_selector("#sheet-foul [data-field=foul-where]", state="hidden",
                               timeout=WAIT_MS)
        page.tap("#sheet-foul [data-act=foul]")
        live.wait(lambda: len(_fouls(live)) == 1, 60, "the two-touch foul stored")
        assert _fouls(live)[0]["type"] == "dois_toques" and "where" not in _fouls(live)[0]
        restart = live.match()["restart"]
        assert (restart["kind"], restart["side"]) == ("falta_indireta", "A"), restart
        # the next foul: the usual kind again, and its place asked again
        page.wait_for_function("Referee.queued().length === 0", timeout=WAIT_MS)
        page.tap("[data-sheet=sheet-foul]")
        assert page.is_visible("#sheet-foul [data-field=foul-where]")
        assert not page.js_errors, page.js_errors


KINDS = "#sheet-foul [data-field=foul-type] button"


def _wait_shown(page: Any, selector: str, key: str, want: list[str]) -> None:
    """Wait until the buttons of `selector` the sheet shows are `want` (each by its
    `data-<key>`), in that order: the sheet follows the engine's state, which comes over the
    link."""
    shown_js = ("bs => bs.filter(b => !b.hidden && b.offsetParent !== null)"
                f".map(b => b.dataset.{key})")
    page.wait_for_function(
        f"want => JSON.stringify(({shown_js})([...document.querySelectorAll('{selector}')]))"
        " === JSON.stringify(want)", arg=want, timeout=WAIT_MS)
    assert page.eval_on_selector_all(selector, shown_js) == want


@pytest.mark.parametrize(("ruleset", "kinds"), [
    ("cbfm-1toque", ["falta", "tecnica", "toque", "dois_toques", "penalti"]),
    ("gaucha", ["falta", "tecnica", "toque", "mao", "penalti"]),
    ("mesa-posta", ["falta", "penalti"]),
])
def test_the_sheet_offers_the_foul_kinds_of_the_rulesets_document(browser: Any, ruleset: str,
                                                                   kinds: list[str]) -> None:
    """Issue #45: "dois toques" is 000 Art. 22's alone; 001 Art. XXIII has no such foul, 004
    only "Faltas" and "Pênaltis". The sheet shows the kinds the engine publishes
    (`possession.foul_kinds`), and only those."""
    with phone_console(browser, ruleset) as (live, page):
        live.give_lance("A")
        page.tap("[data-sheet=sheet-foul]")
        _wait_shown(page, KINDS, "value", kinds)


RESTARTS = "#sheet-foul #restarts [data-restart]"


@pytest.mark.parametrize(("ruleset", "kinds"), [
    ("mesa-posta", ["lateral", "escanteio", "tiro_de_meta", "penalti", "tiro_livre", "saida",
                    "bola_do_goleiro"]),
    ("gaucha", ["tiro_de_meta", "falta_direta", "falta_indireta", "falta_tecnica", "penalti",
                "tiro_livre", "saida", "bola_do_goleiro", "lateral_cedida", "lateral_cavada",
                "escanteio_cedido", "escanteio_cavado"]),
])
def test_the_sheet_offers_the_restarts_of_the_rulesets_document(browser: Any, ruleset: str,
                                                                kinds: list[str]) -> None:
    """Walk46b M1 (issue #45): in "A mesa está posta" the sheet offered "reposição",
    "Reinício: falta direta", "lateral cavada" …, and a tap on "lateral cavada" was taken. The
    sheet shows the restarts the engine publishes (`possession.restart_kinds`), in the sheet's
    order, and only those."""
    with phone_console(browser, ruleset) as (live, page):
        live.give_lance("A")
        page.tap("[data-sheet=sheet-foul]")
        _wait_shown(page, RESTARTS, "restart", kinds)
        # a restart the sheet shows is taken, for the team chosen, and said with its article
        page.tap("#sheet-foul .side[data-side=B]")
        page.tap(f"#sheet-foul [data-restart={kinds[0]}]")
        live.wait(lambda: (live.match().get("restart") or {}).get("kind") == kinds[0], 60,
                  f"the {kinds[0]}")
        assert live.match()["restart"]["rule"], live.match()["restart"]


@pytest.mark.parametrize(("ruleset", "discipline", "others"), [
    ("mesa-posta", [], []),
    ("cbfm-1toque", ["disciplinary", "cera", "expel", "end_match"],
     ["touch_out_of_turn", "restart_failed"]),
])
def test_the_sheets_offer_only_the_acts_of_the_rulesets_document(
        browser: Any, ruleset: str, discipline: list[str], others: list[str]) -> None:
    """Walk49a M5: «A mesa está posta» offered «Toque fora da vez», the failed-restart block and
    every disciplinary act, and took «Falta disciplinar de Botafogo» with no article: 004 has no
    discipline, no foul for a touch out of turn, no failed restart. The sheets show what the
    engine publishes (`possession.discipline_kinds`, `out_of_turn`, `failed_restarts`)."""
    with phone_console(browser, ruleset) as (live, page):
        live.give_lance("A")
        page.tap("[data-sheet=sheet-foul]")
        _wait_shown(page, "#sheet-foul [data-act=touch_out_of_turn], "
                          "#sheet-foul [data-act=restart_failed]", "act", others)
        assert page.is_visible("#failed-reason") is bool(others)
        page.tap("#sheet-foul [data-close]")
        page.tap("[data-sheet=sheet-discipline]")
        _wait_shown(page, "#disc-types [data-discipline]", "discipline", discipline)
        assert page.is_visible("#sub-out")  # the substitution stays
