"""Load and run scenario files.

``run_file(path)`` loads a YAML scenario, builds its position (setup + seed, prefix, patch) and runs
its steps, collecting one ``StepResult`` per step; nothing raises for a failing expectation, so a
report can show every step. ``ScenarioError`` is raised for a file that cannot be loaded or a
position that cannot be built (bad prefix action, bad patch).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import yaml

from meloch.engine import IllegalAction, SetupError, State, apply, legal_actions, new_game, view_json
from meloch.scenario import invariants
from meloch.scenario.model import Scenario, Step, ViewSpec
from meloch.scenario.patch import PatchError, apply_patch, as_data, resolve


class ScenarioError(Exception):
    """The file is not a valid scenario, or its position cannot be built."""


@dataclass
class StepResult:
    index: int
    label: str
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


@dataclass
class ScenarioResult:
    path: str
    name: str
    steps: list[StepResult]

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    def report(self) -> str:
        lines = []
        for s in self.steps:
            for f in s.failures:
                lines.append(f"{self.path}: step {s.index} ({s.label}): {f}")
        return "\n".join(lines)


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ScenarioError(f"{p}: cannot read: {err}") from None
    try:
        return msgspec.convert(data, Scenario)
    except msgspec.ValidationError as err:
        raise ScenarioError(f"{p}: {err}") from None


def build_position(sc: Scenario, where: str = "") -> State:
    """The state the steps start from."""
    try:
        s = new_game(sc.setup.to_setup(), sc.setup.seed)
    except SetupError as err:
        raise ScenarioError(f"{where}setup: {err}") from None
    for i, a in enumerate(sc.position.prefix):
        try:
            s = apply(s, a)
        except IllegalAction as err:
            raise ScenarioError(f"{where}position.prefix[{i}] {a!r}: {err}") from None
    if sc.position.patch:
        try:
            s = apply_patch(s, sc.position.patch)
        except PatchError as err:
            raise ScenarioError(f"{where}position.{err}") from None
    return s


def _show(v: Any) -> str:
    return json.dumps(v, sort_keys=True, default=str)


def _same(want: Any, got: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return type(want) is type(got) and want == got
    return bool(want == got)


def _holds(container: Any, item: Any) -> bool:
    if isinstance(container, str):
        return isinstance(item, str) and item in container
    if isinstance(container, list):
        return any(_same(item, x) or (isinstance(x, str) and isinstance(item, str) and item in x) for x in container)
    if isinstance(container, dict):
        return item in container
    return False


def _check_view(s: State, v: ViewSpec) -> list[str]:
    where = f"view(seat {v.seat}).{v.path}"
    try:
        got = resolve(view_json(s, v.seat), v.path)
    except KeyError as err:
        return [f"{where}: {err.args[0]}"]
    out = []
    if v.value is not msgspec.UNSET and not _same(v.value, got):
        out.append(f"{where}: want {_show(v.value)}, got {_show(got)}")
    if v.contains is not msgspec.UNSET:
        for item in v.contains if isinstance(v.contains, list) else [v.contains]:
            if not _holds(got, item):
                out.append(f"{where}: should contain {_show(item)}, got {_show(got)}")
    if v.lacks is not msgspec.UNSET:
        for item in v.lacks if isinstance(v.lacks, list) else [v.lacks]:
            if _holds(got, item):
                out.append(f"{where}: should not contain {_show(item)}, got {_show(got)}")
    return out


def check_step(s: State, step: Step) -> list[str]:
    """The expectation failures of ``step`` on state ``s`` (after its action)."""
    out: list[str] = []
    if step.expect:
        d = as_data(s)
        for path, want in step.expect.items():
            try:
                got = resolve(d, path)
            except KeyError as err:
                out.append(f"expect {path}: {err.args[0]}")
                continue
            if not _same(want, got):
                out.append(f"expect {path}: want {_show(want)}, got {_show(got)}")
    for v in step.views():
        out.extend(_check_view(s, v))
    if step.legal is not None:
        legal = [str(a) for a in legal_actions(s)]
        for a in step.legal.contains:
            if a not in legal:
                out.append(f"legal: {a!r} missing from {legal}")
        for a in step.legal.lacks:
            if a in legal:
                out.append(f"legal: {a!r} should not be legal")
        if step.legal.count is not None and step.legal.count != len(legal):
            out.append(f"legal: want {step.legal.count} actions, got {len(legal)}: {legal}")
    if step.events:
        texts = [e.text for e in s.events]
        for sub in step.events:
            if not any(sub in t for t in texts):
                out.append(f"events: no event contains {sub!r}; events were {texts}")
    return out


def run(sc: Scenario, path: str = "<scenario>") -> ScenarioResult:
    s = build_position(sc, f"{path}: ")
    results: list[StepResult] = []
    for i, step in enumerate(sc.steps):
        r = StepResult(i, step.action or step.note or "check")
        results.append(r)
        if step.action is not None:
            try:
                nxt = apply(s, step.action)
            except IllegalAction as err:
                if step.error is None:
                    r.failures.append(f"unexpected IllegalAction [{err.code}] {err.message}")
                elif err.code != step.error:
                    r.failures.append(f"error: want code {step.error!r}, got [{err.code}] {err.message}")
                r.failures.extend(check_step(s, step) if step.error is not None else [])
                continue
            if step.error is not None:
                r.failures.append(f"error: want IllegalAction {step.error!r}, but the action was applied")
            s = nxt
            bad = invariants.check(s)
            if bad:
                r.failures.append("invariants broken: " + "; ".join(bad))
        elif step.error is not None:
            r.failures.append("error: a step with 'error' needs an 'action'")
        r.failures.extend(check_step(s, step))
    return ScenarioResult(path, sc.name, results)


def run_file(path: str | Path) -> ScenarioResult:
    return run(load_scenario(path), str(path))
