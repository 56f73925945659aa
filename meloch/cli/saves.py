"""Save files of the terminal game: a versioned JSON document (setup, seed, actions, who plays),
validated field by field on load so that a bad file gives one clear line, never a traceback; and
the autosave in the user's data directory that ``meloch play --resume`` continues.

A save holds the seed, which with the actions decides every hidden card: it is meant for the
players' own machine, as a paper game left on the table.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from meloch.engine import Setup, SetupError, new_game

SAVE_FORMAT = "meloch-save"
SAVE_VERSION = 1
"""Bump when the save layout changes; ``load_game`` refuses versions it does not know."""
MAX_SAVE_BYTES = 20_000_000
"""A save is a few kB per hundred actions; anything far bigger is not one."""
AUTOSAVE_NAME = "autosave.json"


class SaveError(ValueError):
    """A save file that cannot be read, validated or replayed (the message is one line)."""


@dataclass
class SavedGame:
    setup: Setup
    seed: int
    actions: list[str]
    vs: str | None = None
    human_seat: int | None = None


def data_dir() -> Path:
    """Where the autosave lives: ``$MELOCH_DATA_DIR``, else ``$XDG_DATA_HOME/meloch``, else
    ``~/.local/share/meloch``."""
    env = os.environ.get("MELOCH_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "meloch"


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


def save_document(setup: Setup, seed: int, actions: list[str], vs: str, human_seat: int) -> dict[str, Any]:
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "setup": msgspec.to_builtins(setup), "seed": seed,
            "actions": list(actions), "vs": vs, "human_seat": human_seat}


def write_save(path: str | Path, doc: dict[str, Any]) -> None:
    """Write atomically (a temporary file renamed over the old one), so a crash never leaves half a save."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, p)


def _short(err: object, limit: int = 160) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


RECORD_FIELDS = frozenset({"content_version", "outcome", "log"})
"""Fields of a game record exported by the server (``docs/server.md``): read as information only, so
that an exported record loads like a save."""


def load_game(path: str | Path, opponents: Callable[[], list[str]] | None = None) -> SavedGame:
    """Read and validate a save file; raises ``SaveError`` naming the file and the wrong field.

    ``opponents`` lists the accepted ``vs`` values (default: no check of ``vs``)."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(f"{path} is too big to be a meloch save ({p.stat().st_size} bytes)")
        raw = p.read_bytes()
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a meloch save: it is not UTF-8 text (a binary file?)") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as err:
        raise SaveError(f"{path} is not JSON: {_short(err)}") from None
    if not isinstance(data, dict) or not {"setup", "seed", "actions"} <= data.keys():
        raise SaveError(f"{path} is not a meloch save: it needs the keys setup, seed and actions")
    version = data.get("version", 0)  # saves from before the format had a version
    if data.get("format", SAVE_FORMAT) != SAVE_FORMAT:
        raise SaveError(f"{path}: format must be {SAVE_FORMAT!r}, not {_short(data.get('format'), 40)!r}")
    if type(version) is not int or not 0 <= version <= SAVE_VERSION:
        raise SaveError(f"{path}: save version {_short(version, 40)} is not one this meloch reads "
                        f"(it reads 0 to {SAVE_VERSION}); a newer meloch wrote it?")
    unknown = sorted(set(data) - {"format", "version", "setup", "seed", "actions", "vs", "human_seat"}
                     - RECORD_FIELDS)
    if unknown:
        raise SaveError(f"{path}: unknown field {_short(unknown[0], 40)!r}")
    try:
        setup = msgspec.convert(data["setup"], Setup)
    except msgspec.ValidationError as err:
        raise SaveError(f"{path}: bad setup: {_short(err)}") from None
    seed, actions = data["seed"], data["actions"]
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise SaveError(f"{path}: seed must be a whole number from 0 to 2**63-1")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise SaveError(f"{path}: actions must be a list of strings")
    try:
        new_game(setup, seed)
    except SetupError as err:
        raise SaveError(f"{path}: bad setup: {_short(err)}") from None
    vs = data.get("vs")
    if vs is not None and (not isinstance(vs, str) or (opponents is not None and vs not in opponents())):
        allowed = f"; choose one of: {', '.join(opponents())}" if opponents is not None else ""
        raise SaveError(f"{path}: unknown opponent vs={_short(vs, 40)!r}{allowed}")
    hs = data.get("human_seat")
    if hs is not None and (type(hs) is not int or hs not in range(len(setup.seats))):
        raise SaveError(f"{path}: human_seat must be 0 (the first seat) or 1, not {_short(hs, 40)!r}")
    return SavedGame(setup, seed, actions, vs, hs)
