"""Alembic environment: migrations run from code (``storage.migrate``) on a connection it passes in."""

from alembic import context

from meloch.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through meloch.server.storage.migrate(), which passes a connection")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
