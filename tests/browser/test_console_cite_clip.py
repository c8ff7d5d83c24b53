"""A correction cites the camera's clip (issue 46 §2) on a 390×844 touch phone, end to end:
the simulated table filmed by the simulated camera, the real daemon and rules. The referee
enters a touch, taps Rever (the clip of the last seconds holds its moment), voids the
touch in the log's form, which offers "Citar o vídeo nº …"; the stored void carries the clip's
id, and the log says "(vídeo nº …, SHA-256 …)". An entry with no clip is not offered one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_console_review import WAIT_MS, filmed_phone

pytestmark = pytest.mark.browser


def test_a_void_cites_the_clip_of_its_moment(browser: Any, output_dir: Path) -> None:
    with filmed_phone(browser, output_dir) as (live, page, shots):
        cam = live.running.camera
        live.wait(lambda: cam.stats()["ring_frames"] >= 45, 60, "4.5 s of frames in the ring")
        store, mid = live.running.store, live.running.daemon.match["id"]
        live.referee("touch", {"side": "A", "disc": 5})
        entry = next(e for e in store.entries(mid) if e.kind == "touch")
        # an entry before any clip: nothing to cite
        page.tap("[data-sheet=sheet-log]")
        page.wait_for_selector(f"#log li[data-id='{entry.id}'] button", timeout=WAIT_MS)
        page.tap(f"#log li[data-id='{entry.id}'] button:text('Anular')")
        page.wait_for_selector("#fix[open]", timeout=5_000)
        assert page.is_hidden("#fix-clip-row")
        page.tap("#fix-cancel")
        page.tap("#sheet-log [data-close]")
        page.tap("#review-ask")  # Rever: the last 4 s, the entry's moment inside them
        live.wait(lambda: any(e.kind == "clip" and e.data.get("sha256")
                              for e in store.entries(mid)), 60, "the review's clip")
        clip = next(e for e in store.entries(mid) if e.kind == "clip")
        assert clip.data["from_ms"] <= entry.occurred_at <= clip.data["to_ms"]
        page.tap("#sheet-review [data-close]")
        page.tap("[data-sheet=sheet-log]")
        page.wait_for_selector(f"#log li[data-id='{clip.id}']", state="attached",
                               timeout=WAIT_MS)
        page.tap(f"#log li[data-id='{entry.id}'] button:text('Anular')")
        page.wait_for_selector("#fix-clip-row:not([hidden])", timeout=5_000)
        offered = page.text_content("#fix-clip-row").strip()
        assert offered == (f"Citar o vídeo nº {clip.id} (SHA-256 "
                           f"{clip.data['sha256'][:12]})"), offered
        page.tap("#fix-clip")
        page.fill("#fix-reason", "a bola bateu na trave")
        page.screenshot(path=str(shots / "console-void-cites-clip-phone.png"))
        page.tap("#fix-send")
        live.wait(lambda: any(e.kind == "void" for e in store.entries(mid)), 30, "the void")
        void = next(e for e in store.entries(mid) if e.kind == "void")
        assert void.data == {"target": entry.id, "clip": clip.id,
                             "reason": "a bola bateu na trave"}
        assert void.source == "referee"
        cited = f"(vídeo nº {clip.id}, SHA-256 {clip.data['sha256'][:12]})"
        page.wait_for_function(
            f"(document.querySelector(\"#log li[data-id='{void.id}']\") || {{}}).textContent"
            f"?.includes({cited!r})", timeout=WAIT_MS)
        page.screenshot(path=str(shots / "console-void-cited-log-phone.png"))
        assert page.js_errors == []
        page.context.close()
