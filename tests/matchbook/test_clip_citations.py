"""A void or an amendment can cite a clip (issue 46 §2, docs/camera.md): the correction's data
carries ``clip: <the clip entry's id>``, and the súmula's Correções, its event log and the
account (/history, the console's log) say "(vídeo nº …, SHA-256 …)". The súmula lists every
clip in its own table: what it shows, its length, its whole hash, who cites it."""

from __future__ import annotations

from matchbook_logs import T0, match_row, started

from futmesa.matchbook import build, build_record

DIGEST = "9c4a26952314" + "ab" * 26


def clipped_goal_voided() -> tuple[dict, int, int, int]:
    log = started()
    goal = log.goal("A")
    clip = log.add("clip", {"shows": goal, "from_ms": 1_000, "to_ms": 11_000,
                            "file": f"match-1/entry-{goal}.mp4", "sha256": DIGEST,
                            "frames": 300, "format": "mp4/h264"}, source="camera")
    void = log.add("void", {"target": goal, "reason": "bola na trave", "clip": clip})
    return build_record(match_row(), log.rows), goal, clip, void


def test_a_void_citing_a_clip_says_which_and_its_hash() -> None:
    record, goal, clip, void = clipped_goal_voided()
    assert record["state"]["score"] == {"A": 0, "B": 0}
    cited = f"(vídeo nº {clip}, SHA-256 9c4a26952314)"
    entry = next(e for e in record["entries"] if e["id"] == void)
    assert entry["text"].endswith(cited), entry["text"]  # the console's log says it
    assert entry["text_en"].endswith(f"(video no. {clip}, SHA-256 9c4a26952314)")
    facts = [f["text"] for f in entry["facts"]]
    assert any(cited in f for f in facts), facts  # the account: /history, the súmula's
    sumula = build(record)
    corrections = sumula.table("corrections")
    assert corrections is not None
    assert corrections.rows[0]["reason"] == f"bola na trave {cited}"
    account = sumula.table("account")
    assert account is not None and any(cited in r["what"] for r in account.rows)


def test_the_sumula_lists_each_clip_what_it_shows_and_who_cites_it() -> None:
    record, goal, clip, void = clipped_goal_voided()
    clips = build(record).table("clips")
    assert clips is not None and clips.title == "Vídeos"
    assert clips.head == ["Nº", "O que mostra", "Duração", "SHA-256", "Citado por"]
    row = clips.rows[0]
    assert row["number"] == str(clip)
    assert row["shows"].startswith(f"nº {goal} — Gol"), row["shows"]
    assert row["length"] == "10,0 s"
    assert row["sha256"].replace(" ", "") == DIGEST  # whole, to check the file against
    assert row["cited"] == f"nº {void}"
    en = build(record, "en").table("clips")
    assert en is not None and en.rows[0]["length"] == "10.0 s"


def test_an_amendment_cites_a_clip_and_an_absent_clip_says_why() -> None:
    log = started()
    goal = log.goal("A", 7)
    lost = log.add("clip", {"shows": goal, "absent": "camera_lost"}, source="camera")
    amend = log.add("amend", {"target": goal, "data": {"goal": 1, "held_ms": 40},
                              "clip": lost})
    record = build_record(match_row(), log.rows)
    entry = next(e for e in record["entries"] if e["id"] == amend)
    assert entry["text"].endswith(f"(vídeo nº {lost})"), entry["text"]  # no hash: none made
    clips = build(record).table("clips")
    assert clips is not None
    assert clips.rows[0]["sha256"] == "—"
    assert "câmera estava desconectada" in clips.rows[0]["length"]


def test_no_clip_no_table() -> None:
    log = started()
    goal = log.goal("A")
    log.add("void", {"target": goal})
    record = build_record(match_row(), log.rows)
    assert build(record).table("clips") is None
    entry = record["entries"][-1]
    assert "vídeo" not in entry["text"]


def test_a_clip_names_the_entries_whose_moment_it_holds() -> None:
    # the stored rows' moments are T0 + id seconds (matchbook_logs): entries 5–7 fall in the
    # span, 4 before it; the clip itself and the rows after it are not "covered"
    log = started()
    first = log.goal("A")  # shot asked (id first - 1) and the goal line (first)
    review = log.add("review", {})
    clip = log.add("clip", {"shows": review, "from_ms": T0 + first * 1000.0,
                            "to_ms": T0 + review * 1000.0, "sha256": DIGEST, "frames": 30,
                            "file": "match-1/x.mp4", "format": "mp4/h264"}, source="camera")
    record = build_record(match_row(), log.rows)
    entry = next(e for e in record["entries"] if e["id"] == clip)
    assert entry["covers"] == [first, review]
