"""``meloch schema view|event``: the JSON Schemas of the engine's contract, generated from its types.

The checked-in copies (``docs/schema/view.json``, ``docs/schema/event.json``) are this output; a
test fails when they are out of date. Clients (browser, RL encoder) are written against them.
"""

from __future__ import annotations

import json
from enum import StrEnum

import typer

from meloch.engine import event_schema, view_schema


class Part(StrEnum):
    view = "view"
    event = "event"


def schema_text(part: str) -> str:
    """The schema of ``part`` as indented JSON with sorted keys (stable, diff-friendly)."""
    data = view_schema() if part == "view" else event_schema()
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def schema(part: Part = typer.Argument(..., help="Which schema: 'view' (what a seat sees) or 'event'.")) -> None:
    """Print the JSON Schema of the typed view or of an event as a seat sees it."""
    typer.echo(schema_text(part.value), nl=False)


def register(app: typer.Typer) -> None:
    """Add the ``schema`` command to the main app."""
    app.command("schema")(schema)
