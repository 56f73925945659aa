"""Command-line shells over the engine: ``meloch content check``, and later play, selfplay, bench."""
