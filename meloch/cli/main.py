"""The ``meloch`` command (console script ``meloch = meloch.cli.main:app``).

Each command group lives in its own module with a ``register(app)`` function; add a module to
``_COMMAND_MODULES`` to plug it in. Modules are imported when the app is built, so keep their
top-level imports light.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(no_args_is_help=True, help="Duel of Meloch: Scythe vs Expeditions.")

_COMMAND_MODULES: tuple[str, ...] = (
    "meloch.cli.content_cmd",
    "meloch.cli.scenario_cmd",
    "meloch.cli.bench_cmd",
    "meloch.cli.play_cmd",
    "meloch.cli.selfplay_cmd",
    "meloch.cli.tournament_cmd",
    "meloch.cli.schema_cmd",
    "meloch.cli.serve_cmd",
    "meloch.cli.ladder_cmd",
    "meloch.cli.simulate_cmd",
    "meloch.cli.automa_cmd",
)
"""Modules whose ``register(app)`` adds commands or sub-apps to ``app``."""


def _register_all() -> None:
    for name in _COMMAND_MODULES:
        importlib.import_module(name).register(app)


_register_all()


def main() -> None:
    """Entry point for ``python -m meloch.cli.main``."""
    app()


if __name__ == "__main__":
    main()
