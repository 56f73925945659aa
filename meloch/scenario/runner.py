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

from meloch.content import get
from meloch.engine import IllegalAction, Setup, SetupError, State, apply, legal_actions, new_game, track, view_json
from meloch.engine.game_content import using
from meloch.scenario import invariants
from meloch.scenario.content import ScenarioContentError, content_id
from meloch.scenario.model import LegalSpec, MetricSpec, Scenario, SeedRange, Step, ViewSpec
from meloch.scenario.patch import PatchError, apply_patch, as_data, resolve


class ScenarioError(Exception):
    """The file is not a valid scenario, or its position cannot be built."""


@dataclass
class StepResult:
    index: int
    label: str
    failures: list[str] = field(default_factory=list)
    where: str = ""
    """Which run and seed, for files with ``runs`` or ``seeds`` (``run 1 'name', seed 5: ``)."""

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
                lines.append(f"{self.path}: {s.where}step {s.index} ({s.label}): {f}")
        return "\n".join(lines)


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ScenarioError(f"{p}: cannot read: {err}") from None
    try:
        sc = msgspec.convert(data, Scenario)
    except msgspec.ValidationError as err:
        raise ScenarioError(f"{p}: {err}") from None
    problem = _shape_problem(sc)
    if problem:
        raise ScenarioError(f"{p}: {problem}")
    return sc


def _shape_problem(sc: Scenario) -> str:
    if sc.setup_error is not None:
        if sc.steps or sc.runs or sc.position.prefix or sc.position.patch:
            return "a scenario with setup_error has no position, steps or runs (the game never starts)"
        return ""
    if not sc.steps and not sc.runs:
        return "a scenario needs steps, runs or setup_error"
    if isinstance(sc.seeds, SeedRange) and sc.seeds.count < 1:
        return "seeds: count must be at least 1"
    for r in sc.all_runs():
        for i, st in enumerate(r.steps):
            if st.events_since is not None and not 0 <= st.events_since <= i:
                return (f"steps[{i}].events_since: {st.events_since} is not the index of this step or "
                        "an earlier one")
    return ""


def scenario_setup(sc: Scenario, base_dir: Path | None = None) -> Setup:
    """The engine ``Setup`` of ``sc``, with its own content set when it has a ``content:`` key
    (``base_dir``: the folder a ``content.folder`` is relative to)."""
    setup = sc.setup.to_setup()
    if sc.content is None:
        return setup
    try:
        cid = content_id(sc.content, base_dir or Path.cwd())
    except ScenarioContentError as err:
        raise ScenarioError(str(err)) from None
    return msgspec.structs.replace(setup, content=cid)


def build_position(sc: Scenario, where: str = "", seed: int | None = None,
                   extra_patch: dict[str, Any] | None = None, base_dir: Path | None = None) -> State:
    """The state the steps start from (``seed`` overrides the setup's; ``extra_patch``, a run's
    patch, applies after the position's patch)."""
    try:
        s = new_game(scenario_setup(sc, base_dir), sc.setup.seed if seed is None else seed)
    except SetupError as err:
        raise ScenarioError(f"{where}setup: {err}") from None
    for i, a in enumerate(sc.position.prefix):
        try:
            s = apply(s, a)
        except IllegalAction as err:
            raise ScenarioError(f"{where}position.prefix[{i}] {a!r}: {err}") from None
    with using(get(s.setup.content)):  # the patcher checks ids against the game's own content
        if sc.position.patch:
            try:
                s = apply_patch(s, sc.position.patch)
            except PatchError as err:
                raise ScenarioError(f"{where}position.{err}") from None
        if extra_patch:
            try:
                s = apply_patch(s, extra_patch)
            except PatchError as err:
                raise ScenarioError(f"{where}run {err}") from None
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


def _compare(where: str, got: Any, spec: ViewSpec | MetricSpec) -> list[str]:
    out = []
    if spec.value is not msgspec.UNSET and not _same(spec.value, got):
        out.append(f"{where}: want {_show(spec.value)}, got {_show(got)}")
    if spec.contains is not msgspec.UNSET:
        for item in spec.contains if isinstance(spec.contains, list) else [spec.contains]:
            if not _holds(got, item):
                out.append(f"{where}: should contain {_show(item)}, got {_show(got)}")
    if spec.lacks is not msgspec.UNSET:
        for item in spec.lacks if isinstance(spec.lacks, list) else [spec.lacks]:
            if _holds(got, item):
                out.append(f"{where}: should not contain {_show(item)}, got {_show(got)}")
    return out


def _check_view(s: State, v: ViewSpec) -> list[str]:
    where = f"view(seat {v.seat}).{v.path}" if v.path not in ("", ".") else f"view(seat {v.seat})"
    try:
        got = resolve(view_json(s, v.seat), v.path)
    except KeyError as err:
        return [f"{where}: {err.args[0]}"]
    return _compare(where, got, v)


def _check_metric(s: State, m: MetricSpec) -> list[str]:
    where = f"metric(seat {m.seat}).{m.name}"
    if m.seat not in range(len(s.seats)):
        return [f"{where}: no seat {m.seat}"]
    figures = track.metrics(s, m.seat)
    if m.name not in figures:
        return [f"{where}: unknown metric; use one of {', '.join(sorted(figures))}"]
    return _compare(where, figures[m.name], m)


def _check_events(step: Step, texts: list[str]) -> list[str]:
    out = []
    scope = "events" if step.events_since is None else f"events since step {step.events_since}"
    for sub in step.events:
        if not any(sub in t for t in texts):
            out.append(f"{scope}: no event contains {sub!r}; events were {texts}")
    at = -1
    for sub in step.events_in_order:
        nxt = next((i for i in range(at + 1, len(texts)) if sub in texts[i]), None)
        if nxt is None:
            before = f" after {step.events_in_order[step.events_in_order.index(sub) - 1]!r}" if at >= 0 else ""
            out.append(f"events_in_order: no event contains {sub!r}{before}; {scope} were {texts}")
            break
        at = nxt
    for sub in step.events_lack:
        hit = [t for t in texts if sub in t]
        if hit:
            out.append(f"events_lack: {sub!r} occurs in {hit}")
    return out


def _check_legal(s: State, spec: LegalSpec) -> list[str]:
    out = []
    acts = legal_actions(s)
    legal = [str(a) for a in acts]
    for a in spec.contains:
        if a not in legal:
            out.append(f"legal: {a!r} missing from {legal}")
    for a in spec.lacks:
        if a in legal:
            out.append(f"legal: {a!r} should not be legal")
    for v in spec.lacks_verb:
        who, _, verb = v.rpartition(" ")
        hits = [str(a) for a in acts if a.verb == verb and (not who or a.who == who)]
        if hits:
            out.append(f"legal: no action with verb {v!r} should be legal, got {hits}")
    if spec.count is not None and spec.count != len(legal):
        out.append(f"legal: want {spec.count} actions, got {len(legal)}: {legal}")
    return out


def check_step(s: State, step: Step, event_texts: list[str] | None = None) -> list[str]:
    """The expectation failures of ``step`` on state ``s`` (after its action). ``event_texts``: the
    events the step's event checks read (default: the last transition's)."""
    out: list[str] = []
    if step.expect or step.expect_not or step.expect_in:
        d = as_data(s)
        for key, want, how in ([(k, v, "expect") for k, v in step.expect.items()]
                               + [(k, v, "expect_not") for k, v in step.expect_not.items()]
                               + [(k, v, "expect_in") for k, v in step.expect_in.items()]):
            try:
                got = resolve(d, key)
            except KeyError as err:
                out.append(f"{how} {key}: {err.args[0]}")
                continue
            if how == "expect" and not _same(want, got):
                out.append(f"expect {key}: want {_show(want)}, got {_show(got)}")
            elif how == "expect_not" and _same(want, got):
                out.append(f"expect_not {key}: should not be {_show(want)}")
            elif how == "expect_in" and not any(_same(w, got) for w in want):
                out.append(f"expect_in {key}: want one of {_show(want)}, got {_show(got)}")
    for v in step.views():
        out.extend(_check_view(s, v))
    for m in step.metrics():
        out.extend(_check_metric(s, m))
    if step.legal is not None:
        out.extend(_check_legal(s, step.legal))
    if step.events or step.events_in_order or step.events_lack:
        texts = [e.text for e in s.events] if event_texts is None else event_texts
        out.extend(_check_events(step, texts))
    return out


def _run_steps(s: State, steps: list[Step], where: str) -> list[StepResult]:
    results: list[StepResult] = []
    per_step: list[list[str]] = []
    """Event texts of each step's transition (empty for a step without an applied action)."""
    for i, step in enumerate(steps):
        r = StepResult(i, step.action or step.note or "check", where=where)
        results.append(r)
        texts: list[str] = []
        if step.action is not None:
            try:
                nxt = apply(s, step.action)
            except IllegalAction as err:
                if step.error is None:
                    r.failures.append(f"unexpected IllegalAction [{err.code}] {err.message}")
                elif err.code != step.error:
                    r.failures.append(f"error: want code {step.error!r}, got [{err.code}] {err.message}")
                per_step.append([])
                r.failures.extend(_check_with_events(s, step, per_step) if step.error is not None else [])
                continue
            if step.error is not None:
                r.failures.append(f"error: want IllegalAction {step.error!r}, but the action was applied")
            s = nxt
            texts = [e.text for e in s.events]
            bad = invariants.check(s)
            if bad:
                r.failures.append("invariants broken: " + "; ".join(bad))
        elif step.error is not None:
            r.failures.append("error: a step with 'error' needs an 'action'")
        per_step.append(texts)
        r.failures.extend(_check_with_events(s, step, per_step))
    return results


def _check_with_events(s: State, step: Step, per_step: list[list[str]]) -> list[str]:
    if step.events_since is None:
        return check_step(s, step)
    return check_step(s, step, [t for texts in per_step[step.events_since:] for t in texts])


def _check_setup_error(sc: Scenario, seed: int, where: str, base_dir: Path) -> StepResult:
    r = StepResult(0, "setup", where=where)
    want = sc.setup_error or ""
    try:
        new_game(scenario_setup(sc, base_dir), seed)
    except SetupError as err:
        if want not in str(err):
            r.failures.append(f"setup_error: want a message containing {want!r}, got {str(err)!r}")
        return r
    r.failures.append(f"setup_error: want the setup refused ({want!r}), but the game started")
    return r


def run(sc: Scenario, path: str = "<scenario>") -> ScenarioResult:
    problem = _shape_problem(sc)
    if problem:
        raise ScenarioError(f"{path}: {problem}")
    seeds = sc.seed_list()
    runs = sc.all_runs()
    base_dir = Path(path).parent
    results: list[StepResult] = []
    for seed in seeds:
        seed_where = f"seed {seed}" if sc.seeds is not None else ""
        if sc.setup_error is not None:
            results.append(_check_setup_error(sc, seed, f"{seed_where}: " if seed_where else "", base_dir))
            continue
        for ri, r in enumerate(runs):
            parts = []
            if len(runs) > 1 or sc.runs:
                parts.append(f"run {ri}" + (f" {r.name!r}" if r.name else ""))
            if seed_where:
                parts.append(seed_where)
            where = ", ".join(parts) + ": " if parts else ""
            s = build_position(sc, f"{path}: {where}", seed, r.patch, base_dir)
            results.extend(_run_steps(s, r.steps, where))
    return ScenarioResult(path, sc.name, results)


def run_file(path: str | Path) -> ScenarioResult:
    return run(load_scenario(path), str(path))
