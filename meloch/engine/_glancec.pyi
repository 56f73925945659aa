"""Type stub of the C ``glance`` (``_glancec.c``)."""

from collections.abc import Callable
from typing import Any

class Glancer:
    native: int
    def __init__(self, *, state_type: type, setup_type: type, frame_type: type, known_type: type,
                 scythe_seat: type, exp_seat: type, glance_type: type, scythe_glance: type, exp_glance: type,
                 memo: dict[tuple[int, str], list[Any]], new_memo: Callable[[int, str], list[Any]],
                 refresh: Callable[..., Any], combat: Callable[..., Any], fallback: Callable[..., Any]) -> None: ...
    def __call__(self, state: Any, seat: int) -> Any: ...
