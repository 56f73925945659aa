"""The ``path`` fixture: a test that takes it runs once on the C path (``meloch.rl._obsc``, which
``pip install`` builds: ``make test`` fails it when the extension is missing) and once on the Python
path (the fallback and the reference), switched by ``meloch.rl.native.use``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

PATHS = ("C", "Python")


@pytest.fixture(params=PATHS)
def path(request: pytest.FixtureRequest) -> Iterator[str]:
    from meloch.rl import native
    from meloch.rl import observe as O

    was = O.NATIVE
    on = native.use(request.param == "C")
    if request.param == "C" and not on:
        pytest.fail(f"the C path cannot run: {native.why_not()}")
    try:
        yield request.param
    finally:
        native.use(was)
