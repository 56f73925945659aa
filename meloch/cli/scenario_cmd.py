"""``meloch scenario FILE...``: run rules scenario files and print pass/fail per step."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console


def scenario(
    files: list[Path] = typer.Argument(..., help="Scenario files (YAML, see docs/scenarios.md)."),
) -> None:
    """Run scenario files; print PASS/FAIL for every step; exit 1 if any fails."""
    from meloch.scenario import ScenarioError, run_file

    console = Console(highlight=False, soft_wrap=True)
    failed = 0
    for f in files:
        try:
            result = run_file(f)
        except ScenarioError as err:
            console.print(f"ERROR {f}: {err}", markup=False, style="bold red")
            failed += 1
            continue
        console.print(f"{f}: {result.name}", markup=False, style="bold")
        for step in result.steps:
            mark = "[green]PASS[/]" if step.ok else "[red]FAIL[/]"
            console.print(f"  {mark} {step.where}step {step.index}: ", end="")
            console.print(step.label, markup=False)
            for msg in step.failures:
                console.print(f"       {msg}", markup=False, style="red")
        if not result.ok:
            failed += 1
    total = len(files)
    console.print(f"{total - failed}/{total} scenario file(s) passed", style="green" if not failed else "red")
    if failed:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add the ``scenario`` command to the main app."""
    app.command("scenario")(scenario)
