"""The WebSocket messages (msgspec Structs) and the HTTP bodies (pydantic, for the OpenAPI document).

Client to server, one JSON object per text frame, told apart by ``type``:

- ``move``: ``{"type": "move", "seq": N, "msg_id": "...", "action": "S section 2"}``
- ``undo``: ``{"type": "undo", "seq": N, "msg_id": "..."}``
- ``sync``: ``{"type": "sync", "since": N}`` (resend the state and the events after ``N``)
- ``ping``: ``{"type": "ping"}``

Server to client: ``state``, ``ack``, ``refused``, ``error``, ``pong`` (see ``docs/server.md``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from pydantic import BaseModel, ConfigDict, Field

MsgId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=10_000_000)]


class Move(msgspec.Struct, tag="move", tag_field="type", forbid_unknown_fields=True):
    seq: Seq
    msg_id: MsgId
    action: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class Undo(msgspec.Struct, tag="undo", tag_field="type", forbid_unknown_fields=True):
    seq: Seq
    msg_id: MsgId


class Sync(msgspec.Struct, tag="sync", tag_field="type", forbid_unknown_fields=True):
    since: Seq


class Ping(msgspec.Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
    pass


ClientMessage = Move | Undo | Sync | Ping
client_decoder = msgspec.json.Decoder(ClientMessage)


class EventBatch(msgspec.Struct):
    seq: int
    """The log entry these events belong to."""
    seat: int
    """The seat that made the entry."""
    kind: str
    """``move`` or ``undo``."""
    events: list[dict[str, Any]]
    """The entry's events as this connection's seat may see them: the engine's ``SeenEvent``
    (``kind``, ``seat``, ``text``, ``data``, ``private``), schema ``docs/schema/event.json``."""


class StateMsg(msgspec.Struct, tag="state", tag_field="type"):
    game: str
    seat: int | None
    """This connection's seat; None for a spectator."""
    seq: int
    """The log length: a move must name it to be accepted."""
    status: str
    view: dict[str, Any]
    """The engine's view for this seat (``view(state, seat)``), unchanged."""
    decision: dict[str, Any] | None
    """Who decides and the prompt as this seat may read it (the view's own ``decision``)."""
    options: list[dict[str, Any]]
    """This seat's described options (the engine's ``Option``: ``action`` in notation, ``label``,
    ``group``, ``cost``, ``gain``, ``refs``, ``free``), empty unless it decides now."""
    forced: bool
    """This seat decides now and has exactly one option."""
    can_undo: bool
    events: list[EventBatch]
    """Every entry after the ``since`` the connection asked for (or after the last state it got)."""
    outcome: dict[str, Any] | None
    progress: list[list[dict[str, Any]]] = []
    """Each seat's progress toward each Triumph column on its edge: ``{"column", "label", "have",
    "need", "open"}`` (the engine's ``goals``; public counts, the same for every connection)."""
    meloch_facing: list[str] = []
    """Each seat's benefits on the visible Meloch halves, as text ("" before the first card)."""


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    msg_id: str
    seq: int
    """The entry's sequence number in the log (committed)."""


class Refused(msgspec.Struct, tag="refused", tag_field="type"):
    msg_id: str
    code: str
    message: str


class Error(msgspec.Struct, tag="error", tag_field="type"):
    code: str
    message: str


class Pong(msgspec.Struct, tag="pong", tag_field="type"):
    pass


ServerMessage = StateMsg | Ack | Refused | Error | Pong
encoder = msgspec.json.Encoder()


# ---------------------------------------------------------------- HTTP bodies


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "open", "agent"] = "human"
    """``human``: an invite link is returned; ``open``: listed in the lobby until someone joins;
    ``agent``: played by the server."""
    agent: str = "random"
    level: int = Field(default=1, ge=1, le=10)


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setup: dict[str, Any] = Field(default_factory=dict, description="An engine Setup (JSON); defaults apply.")
    seats: list[SeatSpec] = Field(default_factory=lambda: [SeatSpec(), SeatSpec()], min_length=2, max_length=2)
    public: bool = Field(default=False, description="List the game's open seats in the lobby.")


class SeatLink(BaseModel):
    seat: int
    kind: str
    token: str | None = None
    link: str | None = None


class Created(BaseModel):
    game_id: str
    seats: list[SeatLink]
    spectator_token: str
    spectator_link: str


class LobbyGame(BaseModel):
    game_id: str
    open_seats: list[int]
    roles: list[str]
    seq: int
    created_at: float


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None


class Joined(BaseModel):
    game_id: str
    seat: int
    token: str
    link: str


class ZombieBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    agent: str = "random"
    level: int = Field(default=1, ge=1, le=10)


class GameInfo(BaseModel):
    game_id: str
    status: str
    seq: int
    seats: list[dict[str, Any]]
    decision: dict[str, Any] | None
    outcome: dict[str, Any] | None


class Record(BaseModel):
    """A finished game: what ``meloch play --load`` and the replay viewer read."""

    model_config = ConfigDict(extra="allow")
    setup: dict[str, Any]
    seed: int
    actions: list[str]
    content_version: str | None = None


class Imported(BaseModel):
    game_id: str
    spectator_token: str
    spectator_link: str
