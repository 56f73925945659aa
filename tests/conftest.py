"""Shared pytest options."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-games", type=int, default=1000,
                     help="number of seeded random games the conformance fuzzer plays (default 1000)")
    parser.addoption("--hidden-pairs", type=int, default=5000,
                     help="number of (state, seat) pairs the hidden-information test checks (default 5000)")
