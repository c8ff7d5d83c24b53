"""A clip entry in the console's log and the súmula reads as words, never as a code: what
it shows, how long, its hash; or why there is none; made by the camera."""

from __future__ import annotations

from futmesa.matchbook.wording import origin, sentence

TEAMS = {"A": {"name": "Casa"}, "B": {"name": "Visitante"}}
CLIP = {"shows": 38, "from_ms": 1_000, "to_ms": 11_000, "file": "match-1/entry-38.mp4",
        "sha256": "9c4a26952314" + "0" * 52, "frames": 300, "format": "mp4/h264"}


def test_a_clip_is_said_with_its_entry_length_and_hash() -> None:
    assert sentence("clip", CLIP, TEAMS) == ("Vídeo do registro 38 gravado (10,0 s, SHA-256 "
                                             "9c4a26952314)")
    assert sentence("clip", CLIP, TEAMS, "en") == ("Clip of entry 38 recorded (10.0 s, "
                                                   "SHA-256 9c4a26952314)")
    assert origin("camera", "camera") == "Câmera"


def test_a_missing_clip_says_why() -> None:
    lost = {"shows": 8, "absent": "camera_lost"}
    full = {"shows": 9, "absent": "camera_disk_full"}
    assert sentence("clip", lost, TEAMS) == ("Sem vídeo do registro 8: a câmera estava "
                                             "desconectada")
    assert sentence("clip", full, TEAMS, "en") == "No clip of entry 9: the disk was full"
