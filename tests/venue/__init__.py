"""Venue tests (desk, tables, broker); a package so tests can share their fakes."""
