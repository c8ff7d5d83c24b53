"""Web views of the daemon: kiosk scoreboard, referee console, match history and súmula."""

from futmesa.web.app import HistoryProvider, create_app

__all__ = ["HistoryProvider", "create_app"]
