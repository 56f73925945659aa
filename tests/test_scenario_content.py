"""The scenario format's ``content:`` key: a content set of one scenario's own."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from meloch.content import get, load
from meloch.engine import Setup, new_game
from meloch.scenario import ScenarioError, run
from meloch.scenario.content import ContentSpec, content_id
from meloch.scenario.model import Scenario
from meloch.scenario.runner import scenario_setup

MT = "map_tokens.yaml"


def _scenario(content: dict[str, object] | None, **extra: object) -> Scenario:
    data: dict[str, object] = {"name": "t", "source": "test", "steps": [{"note": "start"}], **extra}
    if content is not None:
        data["content"] = content
    return msgspec.convert(data, Scenario)


def test_added_entries_make_a_set_of_their_own() -> None:
    sc = _scenario({"add": {"encounters.yaml": []}})
    setup = scenario_setup(sc, Path("."))
    assert setup.content.startswith("scenario-")
    assert get(setup.content).map_tokens == load().map_tokens  # nothing else changed
    assert new_game(setup, 3).setup.content == setup.content
    assert new_game(Setup(), 3).setup.content == ""  # the standard set is untouched


def test_same_spec_same_id_other_spec_other_id() -> None:
    a = content_id(ContentSpec(add={"encounters.yaml": []}), Path("."))
    b = content_id(ContentSpec(add={"encounters.yaml": []}), Path("."))
    item = [{"id": "x09", "name": "Base item x09", "kind": "item", "set": "expeditions", "core": "guile",
             "core_value": 1, "worker": "blue", "ability": ["guile 1"], "ability_text": "Gain 1 guile.",
             "upgrade_coins": 2, "provenance": "standin", "note": "test"}]
    c = content_id(ContentSpec(add={"cards_expeditions.yaml": item}), Path("."))
    assert a == b != c
    assert "x09" in get(c).cards
    assert "x09" not in load().cards


def test_unknown_file_is_a_clear_error() -> None:
    sc = _scenario({"add": {"no_such_file.yaml": []}})
    with pytest.raises(ScenarioError, match=r"no content file 'no_such_file\.yaml'"):
        run(sc)


def test_invalid_entry_names_the_file_and_field() -> None:
    sc = _scenario({"add": {MT: [{"id": "mt98", "bonus": ["coins 1"], "provenance": "standin", "colour": "red"}]}})
    with pytest.raises(ScenarioError, match=r"map_tokens\.yaml"):
        run(sc)


def test_folder_must_be_a_data_folder(tmp_path: Path) -> None:
    sc = _scenario({"folder": "nowhere"})
    with pytest.raises(ScenarioError, match="not a content data folder"):
        run(sc, str(tmp_path / "x.yaml"))
