"""Scale the Meloch cards' benefit counts (balance round 24's levers).

``python lever.py FILE SIDE FACTOR OPS``: every count in FILE's ``SIDE`` sets (``toward_scythe`` or
``toward_expeditions``) whose effect is in OPS (comma-separated, or ``all``) times FACTOR, rounded
half up, never below 1.
"""

import math
import re
import sys
from pathlib import Path

path, side, factor, ops_arg = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
ops = None if ops_arg == "all" else set(ops_arg.split(","))


def scale_item(item: str) -> str:
    parts = item.strip().split()
    if len(parts) >= 2 and parts[1].isdigit() and (ops is None or parts[0] in ops):
        parts[1] = str(max(1, math.floor(int(parts[1]) * factor + 0.5)))
    return " ".join(parts)


def repl(m: re.Match[str]) -> str:
    return f"{m.group(1)}[{', '.join(scale_item(i) for i in m.group(2).split(','))}]"


path.write_text(re.sub(rf"({side}: )\[([^\]]*)\]", repl, path.read_text()))
