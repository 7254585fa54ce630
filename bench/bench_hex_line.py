"""Benchmark: exact ``HexGrid.hex_line``, the integer walk vs the original Fraction walk.

Run: ``python bench/bench_hex_line.py`` from the repository root (not a test; never fails on time).
2,000 random label pairs on a 30x30 Dragon Rage grid (seed 7).  Prints the time per line of

* ``old``: ``hexgrid._hex_line_reference`` (the original code: Fraction walks, numpy labels, no
  cache; the original ``hex_line`` cached only the walks per cube difference, and 2,000 random
  pairs of a 30x30 map have ~1,300 distinct differences, so it was mostly this cold path);
* ``old warm``: the same with the original per-difference walk cache hot (what was left: the
  per-step numpy label conversion, ~1 ms/line);
* ``new cold``: ``HexGrid.hex_line`` with its per-difference cache cleared before the run;
* ``new warm``: the same pairs again (per-difference cache hot: translation and labels only);

timed with the cyclic GC off (as ``timeit`` does; the results kept for the comparison are
~100k objects, and GC passes over them would be charged to whichever run triggers them), and how
many of the 2,000 results are equal (``HexLine`` dataclass equality: every step's kind,
hexes, ambiguity and both alternatives, and both paths).
"""

from __future__ import annotations

import functools
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulator.geometry import hexgrid as H  # noqa: E402


def main(n_pairs: int = 2000, seed: int = 7) -> None:
    g = H.HexGrid.dragon_rage()
    labs = g.all_labels(30, 30)
    rng = random.Random(seed)
    pairs = [(rng.choice(labs), rng.choice(labs)) for _ in range(n_pairs)]
    diffs = {tuple(y - x for x, y in zip(g.cube(a), g.cube(b))) for a, b in pairs}

    def timed(f):  # GC off while timing (as timeit does): the kept results are many objects
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            out = [f(a, b) for a, b in pairs]
            return out, time.perf_counter() - t0
        finally:
            gc.enable()

    old, t_old = timed(lambda a, b: H._hex_line_reference(g, a, b))
    # the original hex_line cached its two Fraction walks per cube difference: hot cache
    ref_walk = H._walk_fraction_reference
    cached_walk = functools.lru_cache(maxsize=None)(ref_walk)
    H._walk_fraction_reference = cached_walk  # the reference looks it up at call time
    try:
        timed(lambda a, b: H._hex_line_reference(g, a, b))  # fill
        _, t_old_warm = timed(lambda a, b: H._hex_line_reference(g, a, b))
    finally:
        H._walk_fraction_reference = ref_walk
    H._line_plan.cache_clear()
    new, t_cold = timed(g.hex_line)
    warm, t_warm = timed(g.hex_line)

    agree = sum(x == y for x, y in zip(old, new))
    agree_warm = sum(x == y for x, y in zip(old, warm))
    amb = sum(x.ambiguous for x in old)
    per = 1e3 / n_pairs
    print(f"{n_pairs} random pairs on a 30x30 grid, {len(diffs)} distinct cube differences, "
          f"{amb} lines with ambiguous steps")
    print(f"old (Fraction, original)   {t_old * per:8.3f} ms/line")
    print(f"old warm (walk cache hot)  {t_old_warm * per:8.3f} ms/line")
    print(f"new cold (integer walk)    {t_cold * per:8.3f} ms/line   {t_old / t_cold:6.1f}x")
    print(f"new warm (cached plan)     {t_warm * per:8.3f} ms/line   {t_old / t_warm:6.1f}x")
    print(f"agreement: {agree}/{n_pairs} cold, {agree_warm}/{n_pairs} warm")


if __name__ == "__main__":
    main()
