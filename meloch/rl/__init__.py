"""The research API: a fixed action space, per-seat observations, and PettingZoo, Gymnasium and
OpenSpiel environments (``pip install meloch[rl]``; ``docs/rl.md``).

``meloch.rl.env(...)`` is the PettingZoo AEC environment; ``meloch.rl.MelochEnv`` the Gymnasium one;
``import meloch.rl.spiel`` registers the OpenSpiel game. The encoders (``actions``, ``observe``) need
only numpy. Like every shell, this package reads the engine through ``meloch.engine`` only.
"""

from __future__ import annotations

from typing import Any


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (``meloch.rl.pz.env``)."""
    from meloch.rl.pz import env as make

    return make(**kwargs)


def __getattr__(name: str) -> Any:
    if name == "MelochEnv":
        from meloch.rl.gym_env import MelochEnv

        return MelochEnv
    raise AttributeError(name)
