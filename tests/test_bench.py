"""``meloch bench`` reports the search figures (uncached legal_actions, determinize, view)."""

from __future__ import annotations

from meloch.sim import bench


def test_bench_reports_the_search_figures() -> None:
    r = bench.run(games=1, seed=3, sample_states=12)
    names = [o.name for o in r.ops]
    for name in ("legal_actions (uncached)", "legal_actions (cached)", "determinize", "view",
                 "apply (random legal action)"):
        assert name in names
        assert r.op(name).p50_us > 0
    assert set(bench.OP_TARGETS_US) <= set(names)
    # the uncached figure really generates options: it costs more than asking again
    assert r.op("legal_actions (uncached)").p50_us > r.op("legal_actions (cached)").p50_us
