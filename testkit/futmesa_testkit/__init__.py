"""What the tests and the benchmarks share, kept out of the product package (futmesa): a live
server in a thread (``liveserver``), a simulated table with daemon and server for a test
(``livetable``), a whole venue of real processes (``venue``), the fault relay and its line
noise (``faultrelay``, ``noise``), the firmware's own record of its events
(``groundtruth``), and the light simulated tables for scale (``lighttable``)."""
