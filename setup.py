"""The wheel and the sdist ship the built browser client (``meloch/server/static``), so ``pip install``
+ ``meloch serve`` needs no Node.js: building either from the repository builds the client first
(``npm ci && npm run build`` in ``web/``, Node.js 20+) when it is missing or older than its sources.
Editable installs (``make install``) skip this: ``make web`` builds the client there.

Every install also builds the C extensions ``meloch.rl._obsc`` and ``meloch.rl._actc`` (the research
API's observation encoder, legal-action indices and action mask, ``meloch/rl/native.py``) and
``meloch.engine._glancec`` (the engine's ``glance``, which that encoder reads) when a C compiler is
there; without one the install goes on, says so, and both run their Python implementations (same
results, slower)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
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


class OptionalBuildExt(build_ext):
    """Build the C extensions if possible; a failure (no compiler, no Python headers) is a message,
    not a failed install: ``meloch.rl`` then runs its Python path (``meloch bench --rl`` says which)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # (setuptools raises several error types for a missing compiler)
            self._skip(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            self._skip(e)

    @staticmethod
    def _skip(e: BaseException) -> None:
        print(f"meloch: WARNING: the C extensions of meloch.rl were not built ({e}); the research API "
              "(meloch.rl) will use its Python encoder, with the same results but slower. Install a C compiler "
              "and the Python headers (Debian: gcc, python3-dev) and reinstall for the C path.")


def native_extensions() -> list[Extension]:
    """The C extensions; they create numpy arrays through numpy's C API, so they build against numpy's
    headers (numpy is a build requirement in pyproject.toml; without it, no extension and a warning)."""
    fields = ["meloch/engine/_fields.h"]  # (shared by both: a change rebuilds them)
    glance = [Extension("meloch.engine._glancec", ["meloch/engine/_glancec.c"], depends=fields, optional=True,
                        extra_compile_args=["-O2"])]
    try:
        import numpy
    except ImportError:
        OptionalBuildExt._skip(ImportError("numpy is needed to build them"))
        return glance
    return glance + [Extension(f"meloch.rl.{name}", [f"meloch/rl/{name}.c"], include_dirs=[numpy.get_include()],
                               depends=fields, optional=True, extra_compile_args=["-O2"])
                     for name in ("_obsc", "_actc")]


setup(cmdclass={"build_py": BuildPyWithClient, "sdist": SdistWithClient, "build_ext": OptionalBuildExt},
      ext_modules=native_extensions())
