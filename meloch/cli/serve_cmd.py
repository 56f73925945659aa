"""``meloch serve`` (the game server) and ``meloch bench-server`` (its measured figures)."""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for every interface)."),
    port: int = typer.Option(8000, "--port", help="TCP port."),
    db: str = typer.Option("", "--db", help="SQLAlchemy URL: sqlite:///PATH or postgresql+psycopg://USER@HOST/DB. "
                           "Default: meloch.db in the user's data directory (created on first run)."),
    allow_origin: list[str] = typer.Option([], "--allow-origin", help="A browser origin allowed to open WebSockets "
                                           "besides the server's own (repeatable; '*' allows any)."),
    rate: float = typer.Option(20.0, "--rate", help="WebSocket messages per second per connection."),
    burst: float = typer.Option(40.0, "--burst", help="Messages a connection may send at once."),
    max_message: int = typer.Option(8192, "--max-message", help="Largest WebSocket message, in bytes."),
    agent_delay: float = typer.Option(0.5, "--agent-delay", help="Seconds an agent waits before each move."),
    zombie_after: float = typer.Option(60.0, "--zombie-after", help="Seconds away before an opponent may hand "
                                       "a seat to an agent."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level."),
    ws_compression: bool = typer.Option(True, "--ws-compression/--no-ws-compression",
                                        help="permessage-deflate on WebSockets (smaller frames, more CPU)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the browser game once the server answers "
                                      "(the URL is printed where no browser can be opened)."),
) -> None:
    """Run the game server (HTTP + WebSocket API, see docs/server.md)."""
    import uvicorn

    from meloch.server.app import Settings, create_app
    from meloch.server.storage import default_url

    url = db or default_url()
    settings = Settings(db_url=url, allowed_origins=tuple(allow_origin), max_message=max_message, rate=rate,
                        burst=burst, agent_delay=agent_delay, zombie_after=zombie_after)
    typer.echo(f"meloch serve: http://{host}:{port} (database {_safe(url)})", err=True)
    if open_browser:
        _open_when_up(f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/")
    # access_log is off: WebSocket URLs carry the seat token in their query string.
    uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level, access_log=False,
                ws_max_size=max(65536, max_message * 2), ws_per_message_deflate=ws_compression,
                timeout_graceful_shutdown=5)


def _open_when_up(url: str) -> None:
    """Open ``url`` in a browser once the server answers, from a thread (uvicorn owns the main one)."""
    import threading
    import time
    import urllib.request
    import webbrowser

    def run() -> None:
        for _ in range(200):
            try:
                with urllib.request.urlopen(url + "healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        opened = False
        try:
            opened = webbrowser.open(url)
        except Exception:
            opened = False
        typer.echo(f"Play in your browser: {url}" + ("" if opened else " (no browser could be opened here)"),
                   err=True)

    threading.Thread(target=run, daemon=True).start()


def _safe(url: str) -> str:
    """The URL without its password (printed at start-up)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(unparsable URL)"


def bench_server(
    games: int = typer.Option(200, "--games", help="Concurrent games for the round-trip figures (0 skips)."),
    moves: int = typer.Option(40, "--moves", help="Moves each game plays in the round-trip run."),
    kills: int = typer.Option(50, "--kills", help="SIGKILLs during play for the durability check (0 skips)."),
    races: int = typer.Option(1000, "--races", help="Pairs of simultaneous moves on one sequence number (0 skips)."),
    fuzz: int = typer.Option(10000, "--fuzz", help="Malformed messages to send (0 skips)."),
    hidden: bool = typer.Option(True, "--hidden/--no-hidden", help="Check a full game's messages against "
                                "the engine's view and events, byte for byte."),
    db: str = typer.Option("", "--db", help="Database URL (default: a fresh SQLite file in a temporary dir)."),
    seed: int = typer.Option(1, "--seed", help="Seed of the scripted clients' choices."),
    compression: bool = typer.Option(True, "--ws-compression/--no-ws-compression",
                                     help="Run the server with or without WebSocket compression."),
    think: list[float] = typer.Option([0.0, 1.0], "--think", help="Mean seconds a scripted player waits before "
                                      "each move in the round-trip run (repeatable: one run each; 0 is flat out)."),
) -> None:
    """Start a server on loopback and measure it: round trips, durability, races, fuzzing, hidden info."""
    from meloch.server import bench

    ok = bench.main(games=games, moves=moves, kills=kills, races=races, fuzz=fuzz, hidden=hidden, db=db, seed=seed,
                    echo=lambda s: typer.echo(s), think=tuple(think),
                    extra=() if compression else ("--no-ws-compression",))
    if not ok:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("bench-server")(bench_server)
