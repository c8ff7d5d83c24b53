"""A camera over the table (issue 46): frames captured in a process of their own, a ring of
the last seconds, clips of each goal-line moment written beside the event log and cited in
the match's log by their sha256. The table never waits on it: the camera reads the event
log and writes its own ``clip`` entries; its faults reach the screens as table faults.

Rooms: settings.py (what may be set), ring.py (the ring of encoded frames), simcam.py (the
simulated camera), source.py (opening a source), capture.py (the capture process),
clipfile.py (a clip as MP4), faults.py (the faults in the club's words), service.py (the
process's keeper on the server's side), calibration.py (picture pixels ↔ field mm),
field.py (the rule documents' measures), ballfinder.py (the ball in a frame, tracked),
ballpath.py (the judge: a clip's facts), simcases.py (scripted outs and stops with their truth).
"""
