"""What every test harness that starts real programs shares: `with` starts it and always stops
it, and a start that fails half-way stops what it had begun before the error goes on."""

from __future__ import annotations

from typing import Self


class Harness:
    """Subclasses give `start()` and `stop()`; `stop()` must be safe on a half-started one."""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
