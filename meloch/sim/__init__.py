"""Bulk self-play and reports over the engine's public protocol."""

from meloch.sim.selfplay import GameRecord, play_random_game

__all__ = ["GameRecord", "play_random_game"]
