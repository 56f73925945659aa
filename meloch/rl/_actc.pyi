"""Types of the C extension ``meloch.rl._actc`` (``_actc.c``; ``meloch/rl/native.py`` says why it exists)."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

class Indexer:
    """``Indexer(encode=actions.encode, action_type=Action).indices(legal)``: each action's index."""

    def __init__(self, *, encode: Callable[[Any], int], action_type: type) -> None: ...
    def indices(self, legal: Sequence[Any], /) -> list[int]: ...
    def size(self) -> tuple[int, int]: ...

class Masker:
    """``Masker(size)(indices)``: a new int8 array of that size with ones at ``indices``."""

    def __init__(self, size: int) -> None: ...
    def __call__(self, idx: Iterable[int], /) -> np.ndarray: ...
