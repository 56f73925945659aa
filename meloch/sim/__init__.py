"""Bulk self-play and reports over the engine's public protocol, on the one game runner."""

from meloch.sim.runner import GameRecord, play_game
from meloch.sim.selfplay import play_random_game

__all__ = ["GameRecord", "play_game", "play_random_game"]
