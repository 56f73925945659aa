"""Types of the C extension ``meloch.rl._obsc`` (``_obsc.c``; ``meloch/rl/native.py`` says why it exists)."""

from typing import Any

import numpy as np

class Encoder:
    """Both seats' observation vectors, kept block by block (``observe._native_encoder`` builds it)."""

    def __init__(
        self, *, glance: Any, glance_type: type, scythe_type: type, exp_type: type, combat_type: type,
        kinds: dict[str, int], board_ix: dict[str, int], unit_ix: dict[str, int],
        card_ix: dict[str, int], meloch_ix: dict[str, int], tokens: tuple[str, ...], combat_slot: tuple[int, ...],
        offsets: tuple[int, ...], track_cols: int, n_meloch: int, n_private: int,
    ) -> None: ...
    def encode(self, glance: Any, /) -> np.ndarray: ...
    def observe(self, state: Any, seat: int, /) -> np.ndarray:
        """``encode(glance(state, seat))`` (the engine's ``glance``, called from C)."""
    def forget(self) -> None: ...
