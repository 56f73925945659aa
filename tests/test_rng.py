"""The game RNG: deterministic, and unrelated streams for neighbouring seeds."""

from meloch.engine import rng


def stream(seed: int, n: int = 8) -> list[int]:
    st = rng.seed_state(seed)
    out = []
    for _ in range(n):
        v, st = rng.next_u64(st)
        out.append(v)
    return out


def test_same_seed_same_stream() -> None:
    assert stream(5) == stream(5)


def test_neighbouring_seeds_do_not_share_a_shifted_stream() -> None:
    for seed in range(50):
        a, b = stream(seed, 16), stream(seed + 1, 16)
        assert not set(a) & set(b)


def test_shuffle_is_a_permutation_and_varies() -> None:
    seen = set()
    for seed in range(30):
        out, _ = rng.shuffled(rng.seed_state(seed), range(12))
        assert sorted(out) == list(range(12))
        seen.add(out)
    assert len(seen) == 30


def test_randbelow_covers_its_range() -> None:
    st = rng.seed_state(1)
    counts = [0] * 6
    for _ in range(6000):
        v, st = rng.randbelow(st, 6)
        counts[v] += 1
    assert min(counts) > 850
