"""The camera's settings: validated with pydantic like the match settings, errors in one line."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from futmesa.i18n import _


class CameraError(ValueError):
    """A camera setting or source that cannot be used; the message says what to do."""


class CameraSettings(BaseModel):
    """What a club may set for its camera (docs/camera.md, "Settings")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str = "sim"
    width: int = Field(1280, ge=160, le=3840)
    height: int = Field(720, ge=90, le=2160)
    fps: int = Field(30, ge=1, le=60)
    ring_seconds: float = Field(30.0, ge=2.0, le=120.0)
    ring_max_mib: int = Field(96, ge=4, le=2048)  # the ring's memory, capped
    jpeg_quality: int = Field(80, ge=30, le=95)
    clip_before_s: float = Field(8.0, ge=0.0, le=60.0)
    clip_after_s: float = Field(2.0, ge=0.0, le=10.0)
    review_s: float = Field(10.0, ge=1.0, le=60.0)  # "Rever": the seconds before the press
    clip_height: int = Field(360, ge=90, le=1080)  # the clips' picture (docs/camera.md)
    stall_s: float = Field(2.0, ge=0.3, le=30.0)  # no new frame this long: the feed is stalled
    # the clips nobody cited (not a goal's) kept on disk, oldest removed first (camera/keeping.py)
    clips_keep_mib: int = Field(2048, ge=16, le=1_048_576)

    @model_validator(mode="after")
    def _clip_fits_the_ring(self) -> CameraSettings:
        if max(self.clip_before_s + self.clip_after_s, self.review_s) > self.ring_seconds:
            raise ValueError("clip longer than the ring")
        return self

    @property
    def ring_max_bytes(self) -> int:
        return self.ring_max_mib * 1024 * 1024


def camera_settings(data: dict[str, Any] | None = None, **given: Any) -> CameraSettings:
    """Validated settings; CameraError naming the first bad key and its allowed range."""
    values = {**(data or {}), **given}
    try:
        return CameraSettings(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err.get("loc", ())) or "camera"
        if err.get("type") == "extra_forbidden":
            raise CameraError(_("camera setting '{key}' does not exist; the settings are: "
                                "{known}").format(key=key, known=", ".join(
                                    CameraSettings.model_fields))) from None
        if "clip longer than the ring" in str(err.get("msg")):
            raise CameraError(_("camera: clip_before_s + clip_after_s and review_s must fit in "
                                "ring_seconds; shorten the clip or lengthen the ring")) from None
        field = CameraSettings.model_fields.get(key)
        low = high = None
        for m in getattr(field, "metadata", ()):
            low = getattr(m, "ge", low)
            high = getattr(m, "le", high)
        raise CameraError(_("camera setting '{key}' = {value!r} is not valid: give a number "
                            "from {low} to {high}").format(
                                key=key, value=err.get("input"), low=low, high=high)) from None
