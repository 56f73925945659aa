"""``meloch content check``: validate the content files and print their provenance."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

content_app = typer.Typer(no_args_is_help=True, help="Inspect and validate the component data.")


@content_app.command("check")
def check(
    dir: Path | None = typer.Option(
        None, "--dir", help="Content directory to check (default: the package's data)."
    ),
) -> None:
    """Load every content file, print the provenance table, and report any error."""
    from meloch.content.loader import DATA_DIR, ContentError, load_dir, provenance_table

    console = Console(highlight=False, soft_wrap=True)
    try:
        content = load_dir(dir if dir is not None else DATA_DIR)
    except ContentError as err:
        console.print(f"content error: {err}", markup=False, style="bold red")
        console.print(f"  file:    {err.file}", markup=False)
        if err.entry:
            console.print(f"  entry:   {err.entry}", markup=False)
        if err.field:
            console.print(f"  field:   {err.field}", markup=False)
        console.print(f"  message: {err.message}", markup=False, style="red")
        raise typer.Exit(code=1) from None

    table = Table(title="Content provenance")
    table.add_column("component")
    for col in ("rulebook", "reference", "standin"):
        table.add_column(col, justify="right")
    totals = dict.fromkeys(("rulebook", "reference", "standin"), 0)
    for name, counts in provenance_table(content):
        table.add_row(name, *(str(counts.get(k, 0)) for k in totals))
        for k in totals:
            totals[k] += counts.get(k, 0)
    table.add_section()
    table.add_row("total", *(str(v) for v in totals.values()))
    console.print(table)
    console.print("[green]content OK[/]")


def register(app: typer.Typer) -> None:
    """Add the ``content`` sub-app to the main app."""
    app.add_typer(content_app, name="content")
