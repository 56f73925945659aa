"""The ``content:`` key of a scenario: a content set of its own for one scenario file.

A scenario may play with a few test-only entries added to the standard data (``add``) or with a
whole data folder of its own (``folder``, relative to the scenario file). The set is loaded,
validated like the package content and registered under an id derived from what it holds
(``scenario-<digest>``), so two files that describe the same set share it, and a standard game
running beside it in the same process is untouched (content is a per-game input).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import yaml

from meloch.content import ContentError, load_dir, register
from meloch.content.loader import DATA_DIR


class ContentSpec(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``folder``: a data folder replacing the package data; ``add``: file (relative to the data
    folder) -> entries to append (a list file) or keys to add (a mapping file)."""

    folder: str | None = None
    add: dict[str, Any] = {}


class ScenarioContentError(Exception):
    """The scenario's content could not be built: names the file or entry that was wrong."""


_REGISTERED: dict[str, str] = {}
"""Digest of a spec (with its folder's files) -> the id it was registered under."""


def _folder(spec: ContentSpec, scenario_dir: Path) -> Path:
    if spec.folder is None:
        return DATA_DIR
    p = (scenario_dir / spec.folder).resolve()
    if not (p / "maps").is_dir():
        raise ScenarioContentError(f"content.folder: {p} is not a content data folder (no maps/ in it)")
    return p


def _digest(spec: ContentSpec, base: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(base.rglob("*.yaml")):
        h.update(f.relative_to(base).as_posix().encode() + b"\0" + f.read_bytes())
    h.update(msgspec.json.encode(spec.add, order="sorted"))
    return h.hexdigest()[:12]


def _merge(data_dir: Path, rel: str, extra: Any) -> None:
    path = data_dir / rel
    if not path.is_file():
        raise ScenarioContentError(f"content.add: no content file {rel!r} in the data folder")
    old = yaml.safe_load(path.read_text(encoding="utf-8"))
    if isinstance(old, list) or old is None:
        if not isinstance(extra, list):
            raise ScenarioContentError(f"content.add.{rel}: the file holds a list; give a list of entries")
        new: Any = [*(old or []), *extra]
    elif isinstance(old, dict):
        if not isinstance(extra, dict):
            raise ScenarioContentError(f"content.add.{rel}: the file holds a mapping; give a mapping of entries")
        clash = sorted(set(old) & set(extra))
        if clash:
            raise ScenarioContentError(f"content.add.{rel}: keys already in the file: {', '.join(map(str, clash))}")
        new = {**old, **extra}
    else:
        raise ScenarioContentError(f"content.add.{rel}: the file holds neither a list nor a mapping")
    path.write_text(yaml.safe_dump(new, sort_keys=False), encoding="utf-8")


def content_id(spec: ContentSpec, scenario_dir: Path) -> str:
    """The registered id of the scenario's content set (built and validated on first use)."""
    base = _folder(spec, scenario_dir)
    key = _digest(spec, base)
    cid = _REGISTERED.get(key)
    if cid is not None:
        return cid
    with tempfile.TemporaryDirectory(prefix="meloch-scenario-content-") as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(base, data)
        for rel, extra in spec.add.items():
            _merge(data, rel, extra)
        try:
            content = load_dir(data)
        except ContentError as err:
            raise ScenarioContentError(f"content: {err}") from None
    cid = f"scenario-{key}"
    register(cid, content)
    _REGISTERED[key] = cid
    return cid
