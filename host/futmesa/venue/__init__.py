"""The venue: tables publish to an MQTT broker (mosquitto); the desk assigns matches and shows
every table, the standings and the bracket. See docs/operating.md, "Dia de torneio"."""
