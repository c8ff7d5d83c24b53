"""Hardware kit support on the host: board files, ToF sensors, Linux SBC mode, drawings, BOM."""
