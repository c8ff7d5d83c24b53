"""Fill Portuguese translations into the pt_BR catalog from a JSON file {msgid: msgstr}.

    .venv/bin/python tools/translate_pt.py words.json

Run tools/catalogs.py first (it adds the new msgids untranslated); this writes only the
msgids it is given and leaves the rest of the catalog as it is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

PO = Path(__file__).resolve().parent.parent / "host/futmesa/locale/pt_BR/LC_MESSAGES/futmesa.po"


def main(path: str) -> int:
    words = json.loads(Path(path).read_text(encoding="utf-8"))
    with PO.open("rb") as f:
        catalog = read_po(f, locale="pt_BR")
    missing = [msgid for msgid in words if catalog.get(msgid) is None]
    if missing:
        print(f"not in the catalog (run tools/catalogs.py first): {missing}")
        return 1
    for msgid, text in words.items():
        message = catalog.get(msgid)
        message.string = text
        message.flags.discard("fuzzy")
    with PO.open("wb") as f:
        write_po(f, catalog, width=0, omit_header=False, no_location=True, sort_output=True)
    print(f"{len(words)} translation(s) written to {PO.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
