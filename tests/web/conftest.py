"""The browser tests: a real ``meloch serve`` with the built client, driven through Debian's Chromium.

Needs ``/usr/bin/chromium`` (Debian's ``chromium`` package; ``make test`` installs it) and the
built client (``make web``). Every page records console errors and failed requests, and each test
asserts there were none.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meloch.server.bench import ServerProc

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
STATIC = Path(__file__).resolve().parents[2] / "meloch" / "server" / "static" / "index.html"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    if not STATIC.is_file():
        pytest.fail("the browser client is not built: run `make web` (npm ci && npm run build in web/)")
    db = tmp_path_factory.mktemp("web") / "web.db"
    s = ServerProc(f"sqlite:///{db}")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's 'chromium' package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--disable-background-networking", "--disable-component-update",
                                    "--disable-sync", "--no-first-run",
                                    "--disable-features=Translate,OptimizationHints,MediaRouter"])
        yield b
        b.close()


def try_click(locator: Any) -> bool:
    """Click, or give up after a short wait when the element went away meanwhile (the options
    changed under the pointer: a forced decision was taken, the other seat moved): the caller looks
    at the page again."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        locator.click(timeout=3000)
        return True
    except PlaywrightError:
        return False


class Watched:
    """A browser context whose pages' console errors and failed requests are collected."""

    def __init__(self, browser: Any, width: int = 1440, height: int = 900) -> None:
        self.ctx = browser.new_context(viewport={"width": width, "height": height})
        self.problems: list[str] = []
        self.page = self.ctx.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def watched(browser: Any) -> Iterator[Any]:
    made: list[Watched] = []

    def make(width: int = 1440, height: int = 900) -> Watched:
        w = Watched(browser, width, height)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()
