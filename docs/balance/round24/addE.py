"""Add N combat cards to every ``toward_expeditions`` set of the Meloch cards (round 24's ``pce``).

``python addE.py FILE N``: a set that has combat cards gets N more, one without gets N.
"""

import re
import sys
from pathlib import Path

path, n = Path(sys.argv[1]), int(sys.argv[2])


def repl(m: re.Match[str]) -> str:
    items = [i.strip() for i in m.group(1).split(",") if i.strip()]
    for k, it in enumerate(items):
        if it.startswith("combat_cards "):
            items[k] = f"combat_cards {int(it.split()[1]) + n}"
            break
    else:
        items.append(f"combat_cards {n}")
    return f"toward_expeditions: [{', '.join(items)}]"


path.write_text(re.sub(r"toward_expeditions: \[([^\]]*)\]", repl, path.read_text()))
