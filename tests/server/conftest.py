"""Server test fixtures: a SQLite file per test, and a throw-away PostgreSQL cluster per session.

PostgreSQL comes from Debian's ``postgresql`` package (``make test`` installs it with apt-get).
It refuses to run as root, so as root the cluster is created and started as the ``postgres``
user. Tests that need it are marked ``postgres``; without the package they fail and say so.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from meloch.server.bench import free_port


def _pg_bin() -> Path | None:
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if Path(d, "initdb").exists():
            return Path(d)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[tuple[str, int]]:
    """(socket directory, port) of a PostgreSQL server started for this test session."""
    bindir = _pg_bin()
    if bindir is None:
        pytest.fail("PostgreSQL is not installed: the storage tests need Debian's 'postgresql' package "
                    "(make test installs it with apt-get; run 'apt-get install postgresql')")
    root = tempfile.mkdtemp(prefix="meloch-pg-")
    as_pg: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        as_pg = ["runuser", "-u", "postgres", "--"]
    data, port = f"{root}/data", free_port()

    def run(*cmd: str) -> None:
        r = subprocess.run([*as_pg, *cmd], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail(f"PostgreSQL: {' '.join(cmd[:2])} failed: {r.stdout}{r.stderr}")

    run(str(bindir / "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
    run(str(bindir / "pg_ctl"), "-D", data, "-l", f"{root}/log", "-w", "-t", "60", "-o",
        f"-p {port} -k {root} -c listen_addresses='' -c fsync=off -c max_connections=200", "start")
    try:
        yield root, port
    finally:
        subprocess.run([*as_pg, str(bindir / "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_url(pg_cluster: tuple[str, int]) -> str:
    """A fresh database in the session's cluster."""
    import psycopg

    sock, port = pg_cluster
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(f"host={sock} port={port} user=postgres dbname=postgres", autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    return f"postgresql+psycopg://postgres@/{name}?host={sock}&port={port}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/meloch.db"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/meloch.db"
    url: str = request.getfixturevalue("pg_url")
    return url

