"""The wheel and the sdist ship the built browser client (``meloch/server/static``), so ``pip install``
+ ``meloch serve`` needs no Node.js: building either from the repository builds the client first
(``npm ci && npm run build`` in ``web/``, Node.js 20+) when it is missing or older than its sources.
Editable installs (``make install``) skip this: ``make web`` builds the client there."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
BUILT = ROOT / "meloch" / "server" / "static" / "index.html"
SOURCES = ("src", "scripts", "index.html", "package.json", "package-lock.json", "vite.config.ts", "tsconfig.json")


def _newest_source() -> float:
    files = [p for name in SOURCES for p in ([WEB / name] if (WEB / name).is_file() else (WEB / name).rglob("*"))
             if p.is_file() and "generated" not in p.parts]
    files += list((ROOT / "docs" / "schema").glob("*.json"))
    return max((p.stat().st_mtime for p in files), default=0.0)


def ensure_client() -> None:
    if not (WEB / "package.json").is_file():  # an sdist: the client was built into it
        if not BUILT.is_file():
            raise SystemExit("meloch: this source tree has neither web/ nor the built client (meloch/server/static)")
        return
    if BUILT.is_file() and BUILT.stat().st_mtime >= _newest_source():
        return
    if os.environ.get("MELOCH_CLIENT_PREBUILT"):  # the tests: never rebuild under a running server
        raise SystemExit("meloch: the built client is older than web/ (run `make web`)")
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("meloch: building the package builds the browser client, which needs Node.js 20+ with npm "
                         "(Debian's 'nodejs' and 'npm'); or run `make web` first")
    if not (WEB / "node_modules" / ".installed").is_file():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=WEB, check=True)
        (WEB / "node_modules" / ".installed").touch()
    subprocess.run([npm, "run", "build"], cwd=WEB, check=True)


class BuildPyWithClient(build_py):
    def run(self) -> None:
        if not getattr(self, "editable_mode", False):
            ensure_client()
        super().run()


class SdistWithClient(sdist):
    def run(self) -> None:
        ensure_client()
        super().run()


setup(cmdclass={"build_py": BuildPyWithClient, "sdist": SdistWithClient})
