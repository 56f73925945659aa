"""Rules scenarios (tests as data), state patches, invariants and the conformance helpers.

A scenario file sets up a position (setup + seed, a prefix of actions and/or a declarative patch of
the state), plays actions in notation and checks the state, views, legal actions, errors and
events after each step. Format: ``docs/scenarios.md``.
"""

from meloch.scenario.model import Scenario, Step
from meloch.scenario.patch import PatchError, apply_patch
from meloch.scenario.runner import ScenarioError, ScenarioResult, load_scenario, run, run_file

__all__ = ["PatchError", "Scenario", "ScenarioError", "ScenarioResult", "Step", "apply_patch", "load_scenario",
           "run", "run_file"]
