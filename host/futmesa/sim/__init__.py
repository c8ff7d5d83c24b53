"""The simulated table: the real firmware under the `micropython` unix port, on a pty pair."""

from futmesa.sim.table import SimTable, SimTableError

__all__ = ["SimTable", "SimTableError"]
