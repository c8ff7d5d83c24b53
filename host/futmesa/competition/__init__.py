"""The competition layer: teams, competitions, the schedule, results and standings.

Its tables live in the same SQLite file as the event log (``competition/db.py``);
standings are always recomputed from the stored results and sanctions.
"""
