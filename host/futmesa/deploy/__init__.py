"""Deployment: flashing the firmware, Raspberry Pi kiosk setup, doctor and calibration."""
