"""Determinism: the same setup, seed and actions give the same state in any process, whatever
else uses Python's global ``random``."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from meloch.engine import apply, new_game, state_hash
from meloch.scenario.games import play, varied_setup

_CHILD = """
import json, sys
import msgspec
from meloch.engine import Setup, replay, state_hash
job = json.loads(sys.stdin.read())
out = [state_hash(replay(msgspec.convert(j["setup"], Setup), j["seed"], j["actions"])) for j in job]
print(json.dumps(out))
"""


def test_same_hash_in_a_fresh_process() -> None:
    import msgspec

    jobs, hashes = [], []
    for i in (0, 3, 6, 10):  # standard, both variants, both map sides
        setup = varied_setup(i)
        final, actions = play(setup, 900 + i)
        jobs.append({"setup": msgspec.to_builtins(setup), "seed": 900 + i, "actions": actions})
        hashes.append(state_hash(final))
    env_seed = {"PYTHONHASHSEED": "12345"}
    import os

    res = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(jobs), capture_output=True, text=True,
                         check=True, env={**os.environ, **env_seed})
    assert json.loads(res.stdout) == hashes


def test_global_random_changes_nothing() -> None:
    setup = varied_setup(2)
    final, actions = play(setup, 77)
    random.seed(12345)
    s = new_game(setup, 77)
    for a in actions:
        random.random()
        random.shuffle(list(range(10)))
        s = apply(s, a)
    assert state_hash(s) == state_hash(final)


def test_seed_changes_the_game() -> None:
    setup = varied_setup(0)
    assert state_hash(new_game(setup, 1)) != state_hash(new_game(setup, 2))
