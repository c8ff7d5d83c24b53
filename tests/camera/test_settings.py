"""The camera's settings are validated; a bad one is refused in one line that says what to do."""

from __future__ import annotations

import pytest

from futmesa.camera.settings import CameraError, camera_settings


def test_the_defaults_are_the_issues() -> None:
    s = camera_settings()
    assert (s.clip_before_s, s.clip_after_s, s.ring_seconds) == (8.0, 2.0, 30.0)
    assert s.ring_max_bytes == 96 * 1024 * 1024


@pytest.mark.parametrize(("given", "said"), [
    ({"fps": 0}, "camera setting 'fps' = 0 is not valid: give a number from 1 to 60"),
    ({"ring_max_mib": 1}, "'ring_max_mib' = 1"),
    ({"clip_before_s": 25, "ring_seconds": 20}, "must fit in ring_seconds"),
    ({"review_s": 15, "ring_seconds": 12}, "must fit in ring_seconds"),
    ({"colour": 1}, "camera setting 'colour' does not exist"),
])
def test_a_bad_setting_is_one_line_saying_what_to_do(given: dict[str, object],
                                                      said: str) -> None:
    from futmesa import i18n

    i18n.set_language("en")
    try:
        with pytest.raises(CameraError) as caught:
            camera_settings(given)
    finally:
        i18n.set_language("pt_BR")
    text = str(caught.value)
    assert said in text
    assert "\n" not in text


def test_a_bad_setting_is_said_in_portuguese() -> None:
    with pytest.raises(CameraError) as caught:
        camera_settings({"fps": 500})
    assert "configuração da câmera 'fps' = 500 não vale" in str(caught.value)
