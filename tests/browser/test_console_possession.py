"""The console offers what the engine's possession allows (issue 30) and its input cannot
drift (issue 31): on a 390×844 touch phone, with the real firmware, daemon and SQLite
behind it, "Chute pedido" names the team it goes to, is not offered to the team without the
lance, and the API refuses it in words (no document number); the selected team follows the
lance after every action and a disc typed for one action is not carried to the next. What
is stored is read back."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone_console import phone_console, pressed, stored, wait_js

from futmesa_testkit.livetable import LiveTable

pytestmark = pytest.mark.browser


def post(live: LiveTable, kind: str, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A referee write as any client sends it (with its input id); the final answer."""
    headers = {"Authorization": f"Bearer {live.token}"}
    body = {"kind": kind, "data": data, "author": "teste", "input_id": uuid.uuid4().hex}
    r = httpx.post(live.base_url + "/api/referee", json=body, headers=headers, timeout=60)
    deadline = time.monotonic() + 60
    while r.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.1)
        r = httpx.get(f"{live.base_url}/api/referee/{r.json()['id']}", headers=headers,
                      timeout=60)
        if r.json().get("ok") is not None:
            return (200 if r.json()["ok"] else 409), r.json()
    return r.status_code, r.json()


def test_the_shot_goes_to_the_team_with_the_lance(browser: Any, output_dir: Path) -> None:
    with phone_console(browser, "cbfm-1toque") as (live, page):
        # Grêmio's kick-off's first lance (no shot from the kick-off not taken, 000 Art. 12
        # §5): its second is Grêmio's too, the shot offered to Grêmio, named on the button
        live.referee("touch", {"side": "A", "disc": 6})
        wait_js(page, "document.getElementById('act-shot-team').textContent === 'Grêmio'")
        assert page.is_enabled("#act-shot")
        # the referee picks Internacional: the button names it and is not offered
        page.tap("#side-B")
        wait_js(page, "document.getElementById('act-shot-team').textContent"
                      " === 'Internacional: não é a vez desta equipe'")
        assert not page.is_enabled("#act-shot")
        assert "Internacional" in (page.get_attribute("#act-shot", "title") or "")
        # and why, written under the button, short (a phone shows no tooltip; walk 45f, M9)
        wait_js(page, "document.getElementById('act-shot-why').textContent === 'O lance é de"
                      " Grêmio: só quem tem o lance pede chute'"
                      " && !document.getElementById('act-shot-why').hidden")
        box = page.locator("#act-shot-why").bounding_box()
        assert box and box["height"] <= 2 * 22 + 4, box  # two lines at most on a 390 px phone
        page.screenshot(path=str(output_dir / "console-phone-shot-not-offered.png"))
        # the API refuses it too, in words, naming who has the lance and what to do
        status, body = post(live, "shot_asked", {"side": "B", "disc": 5})
        assert status == 409, body
        assert "Grêmio" in body["error"] and "registre antes" in body["error"], body
        assert "000" not in body["error"], body
        assert stored(live, "shot_asked") == []

        # Grêmio plays its kick-off's second lance: the lance passes to Internacional and
        # the console follows it by itself
        live.referee("touch", {"side": "A", "disc": 9})
        wait_js(page, pressed("B"))
        wait_js(page, "!document.getElementById('act-shot').hasAttribute('aria-disabled')")
        page.tap("[data-key='8']")
        page.tap("#act-shot")
        live.wait(lambda: len(stored(live, "shot_asked")) == 1, 60, "the shot stored")
        # the disc was used by the shot: the keypad is empty again
        wait_js(page, "document.getElementById('disc').value === ''")
        # a foul for Grêmio entered next carries no disc of the shot
        page.tap("[data-sheet=sheet-foul]")
        page.tap("#sheet-foul .side[data-side=A]")
        page.tap("#sheet-foul [data-field=foul-where] [data-value=opponent_half]")
        page.tap("#sheet-foul [data-act=foul]")
        live.wait(lambda: len(stored(live, "foul")) == 1, 60, "the foul stored")
        # and the selection is back with the team with the lance
        wait_js(page, pressed("B"))
        shot, foul = stored(live, "shot_asked")[0], stored(live, "foul")[0]
        assert (shot["side"], shot["disc"]) == ("B", 8)
        assert foul["side"] == "A" and foul.get("disc") is None, foul


def test_a_new_match_starts_on_the_kick_off_team(browser: Any) -> None:
    """Walk50b L2: after «Nova partida» the phone kept the last match's team picked
    («Democrata: sem chute agora», Vez: —) though Cruzeiro do Sul kicks off. A new match
    starts with the buttons on the team the engine says kicks off."""
    with phone_console(browser, "cbfm-1toque") as (live, page):
        live.referee("touch", {"side": "A", "disc": 6})
        live.referee("touch", {"side": "A", "disc": 9})  # the lance is Internacional's
        wait_js(page, pressed("B"))
        first = live.daemon.match["id"]
        live.referee("new_match", {"ruleset": "cbfm-1toque", "settings": {
            "teams": {"A": {"name": "Cruzeiro do Sul"}, "B": {"name": "Democrata"}},
            "kickoff": "A", "lance_ms": 300_000}})
        live.wait(lambda: live.daemon.match["id"] != first, 60, "the new match")
        wait_js(page, "document.getElementById('c-name-A').textContent === 'Cruzeiro do Sul'")
        wait_js(page, pressed("A"))
        wait_js(page, "document.getElementById('act-shot-team').textContent"
                      ".startsWith('Cruzeiro do Sul')")


def test_a_touch_that_misses_passes_the_vez(browser: Any) -> None:
    """004 Sua vez: "Um toque que não acerta a bola passa a vez para o adversário" — a fact
    only the referee sees, entered from the phone; the console follows the vez by itself."""
    with phone_console(browser, "mesa-posta") as (live, page):
        # the kick-off not yet taken: no shot from it, the grey reason says why (004 Chute
        # pedido "peça o chute do campo do adversário"; walk49a M2: taken "do campo adversário")
        wait_js(page, "document.getElementById('act-shot-team').textContent"
                      " === 'Grêmio: sem chute agora'")
        wait_js(page, "document.getElementById('act-shot-why').textContent.startsWith("
                      "'Saída de bola: a bola está no centro, na linha divisória')")
        assert page.is_visible("#act-shot-why")
        page.tap("[data-key='6']")
        page.tap("[data-sheet=sheet-foul]")
        page.tap("#sheet-foul [data-act=touch_miss]")
        live.wait(lambda: live.match()["possession"]["side"] == "B", 60, "B's vez")
        wait_js(page, pressed("B"))
        assert stored(live, "touch") == [{"side": "A", "disc": 6, "hit": False}]


@pytest.mark.parametrize("ruleset", ["cbfm-1toque", "mesa-posta"])
def test_a_finger_on_the_grey_shot_is_answered_with_its_reason(browser: Any, ruleset: str,
                                                               output_dir: Path) -> None:
    """Walk 48b M2: in CBFM the grey "Chute pedido" of the team without the lance was an HTML
    `disabled` button: a finger's tap did nothing (mesa-posta's was answered). Every grey
    action button takes the tap and answers it in the result line with the rules' reason, as
    a refused tap (docs/operating.md §5 item 4); nothing is stored."""
    with phone_console(browser, ruleset) as (live, page):
        # no shot straight from the kick-off (000 Art. 12 §5, 004 Chute pedido): it is taken
        live.referee("touch", {"side": "A", "disc": 6})
        wait_js(page, "document.getElementById('act-shot-team').textContent === 'Grêmio'")
        page.tap("#side-B")
        wait_js(page, "document.getElementById('act-shot').getAttribute('aria-disabled')"
                      " === 'true'")
        # a real touch at the button; Playwright's own check calls an aria-disabled button
        # "not enabled" and would not tap it, a finger does (force skips only that check)
        page.tap("#act-shot", force=True)
        wait_js(page, "document.getElementById('result').textContent"
                      ".startsWith('✗ chute pedido Internacional — ação recusada: ')")
        said = page.text_content("#result") or ""
        assert "Grêmio" in said, said  # the reason names who has the lance
        page.screenshot(path=str(output_dir / f"console-grey-shot-tap-{ruleset}.png"))
        assert stored(live, "shot_asked") == []
        assert not page.js_errors, page.js_errors
