"""Runs one test function of a MicroPython test module: `micropython mpy_runner.py MODULE FUNC`.

Prints MPY-PASS when the function returns; a raised exception prints its
traceback and exits 1 (conftest.py turns that into a pytest failure).
"""

import sys


def main():
    module, func = sys.argv[1], sys.argv[2]
    try:
        mod = __import__(module)
        getattr(mod, func)()
    except Exception as exc:  # noqa: BLE001 - report any failure with its traceback
        sys.print_exception(exc)
        sys.exit(1)
    print("MPY-PASS")


main()
