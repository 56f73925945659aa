"""A wheel built from the repository ships the built browser client, so ``pip install`` + ``meloch
serve`` works without Node.js (setup.py builds the client first when it is missing or stale)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "meloch" / "server" / "static"


def test_a_wheel_from_the_repository_ships_every_file_of_the_built_client(tmp_path: Path) -> None:
    if not (STATIC / "index.html").is_file():
        pytest.fail("the browser client is not built: run `make web`")
    # as a user builds it (pip's isolated build with pyproject's setuptools); setup.py's build_py
    # rebuilds the client first only when a source is newer than the built one; here it may not (other
    # browser tests may be serving the built files): a stale build fails, as the other tests do
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                       capture_output=True, text=True, timeout=600, env={**os.environ, "MELOCH_CLIENT_PREBUILT": "1"})
    assert r.returncode == 0, r.stderr[-2000:]
    wheel = next(tmp_path.glob("meloch-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    built = {f"meloch/server/{p.relative_to(STATIC.parent).as_posix()}" for p in STATIC.rglob("*") if p.is_file()}
    assert built and built <= names, sorted(built - names)
    index = (STATIC / "index.html").read_text()
    assert all(f"meloch/server/static/{a}" in names for a in ("index.html",)) and "/assets/" in index
