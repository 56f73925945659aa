"""What a newcomer reads at the prompt: ``rules TOPIC``, ``card NAME|ID`` and ``explain``.

Rules topics, the glossary and card texts live in ``meloch.guide`` (shared with the server's
``/api/rules`` and ``/api/content``); ``explain`` reads the engine's described options (label, cost,
gain) and the decision's prompt, and adds the glossary entry of every keyword they use.
Nothing here reads a ``State``: only the view the seat may see and its options.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from meloch.engine import Option, View
from meloch.guide import GLOSSARY, TOPICS, card_text, rules_text

__all__ = ["GLOSSARY", "TOPICS", "card_text", "explain_text", "keywords_in", "option_line", "rules_text"]


_WORD = re.compile(r"[A-Za-z][A-Za-z-]+")


def keywords_in(texts: Sequence[str]) -> list[str]:
    """The glossary keywords that appear in ``texts`` (whole words, first appearance first)."""
    joined = " ".join(texts).lower()
    out = []
    for k in GLOSSARY:
        if re.search(rf"\b{re.escape(k)}s?\b", joined):
            out.append(k)
    return out


def option_line(o: Option) -> str:
    parts = [o.label]
    if o.cost:
        parts.append("costs " + ", ".join(o.cost))
    if o.gain:
        parts.append("gains " + ", ".join(o.gain))
    return "; ".join(parts)


def explain_text(v: View, opts: Sequence[Option]) -> str:
    """The current decision in plain words: its prompt, each option with what it costs and gains, and the
    keywords they use."""
    d = v.decision
    if d is None:
        return "There is no decision to explain: the game is over."
    lines = [f"You ({v.tags[d.seat]}) decide: {d.prompt}"]
    main = [o for o in opts if not o.free]
    free = [o for o in opts if o.free]
    lines.append("Your options:")
    lines.extend(f"  - {option_line(o)}" for o in main)
    if free:
        lines.append(f"Free actions ({len(free)}; key x): you may first " + "; ".join(
            sorted({o.label.split(':')[0].split(' combat card')[0] for o in free})) + ".")
    words = keywords_in([d.prompt, *(o.label for o in opts)])
    if words:
        lines.append("Words used here:")
        lines.extend(f"  {w}: {GLOSSARY[w]}" for w in words)
    return "\n".join(lines)
