"""The game server behind ``meloch serve``: FastAPI app, game service, storage (see docs/server.md)."""
