"""futmesa: host daemon for an instrumented futebol de mesa table."""
__version__ = "0.1.0"
