"""Alembic migrations of the server schema (run from code by ``storage.migrate``)."""
