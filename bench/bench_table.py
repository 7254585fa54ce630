"""Benchmark: 200 round bases x 200 trays on a 72x48 in table with 20 terrain polygons.

Run: ``python bench/bench_table.py`` from the repository root (not a test; never fails on time).
Distance matrix (edge to edge, 200 x 200 mixed circles and trays), base-contact pairs, and LOS
from every base to every other base against 20 terrain polygons, ours vs shapely 2.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simulator.geometry.segments import Obstacles  # noqa: E402
from simulator.geometry.table import Shapes, distance_matrix, rect_corners  # noqa: E402


def main() -> None:
    import shapely

    rng = np.random.default_rng(11)
    circ = np.c_[rng.uniform(0, 72, (100, 2)), rng.choice([0.5, 0.625, 1.0], 100)]
    rects = np.c_[rng.uniform(0, 72, 100), rng.uniform(0, 48, 100), rng.choice([4.0, 5.0], 100),
                  rng.choice([2.0, 2.5], 100), rng.uniform(0, 360, 100)]
    circ[:, 1] = rng.uniform(0, 48, 100)
    shapes = Shapes.concat([Shapes.circles(circ), Shapes.rects(rects)])
    polys = []
    for c in np.c_[rng.uniform(5, 67, 20), rng.uniform(5, 43, 20)]:
        k = int(rng.integers(5, 9))
        a = np.sort(rng.uniform(0, 2 * np.pi, k))
        r = rng.uniform(1.5, 4, k)
        polys.append(c + np.stack([r * np.cos(a), r * np.sin(a)], -1))
    n = len(shapes)

    t0 = time.perf_counter()
    D = distance_matrix(shapes)
    contacts = np.argwhere(np.triu(D <= 0.05, 1))
    t_dist = time.perf_counter() - t0

    geoms = [shapely.Point(c[0], c[1]).buffer(c[2], quad_segs=64) for c in circ] + [
        shapely.Polygon(p) for p in rect_corners(rects)]
    t0 = time.perf_counter()
    G = np.array(geoms, dtype=object)
    Ds = shapely.distance(G[:, None], G[None, :])
    cs = np.argwhere(np.triu(Ds <= 0.05, 1))
    t_dist_s = time.perf_counter() - t0
    # shapely circles are polygons (64 segments per quarter): agree within the chord error
    err = float(np.abs(D - Ds).max())

    centres = shapes.centres()
    iu, ju = np.triu_indices(n, 1)
    obs = Obstacles(None, polys)
    t0 = time.perf_counter()
    bl, who = obs.los_matrix(centres, ignore_containing=True)
    t_los = time.perf_counter() - t0
    t0 = time.perf_counter()
    tree = shapely.STRtree([shapely.Polygon(p) for p in polys])
    lines = shapely.linestrings(np.stack([centres[iu], centres[ju]], axis=1))
    li, oi = tree.query(lines, predicate="intersects")
    pts = shapely.points(centres)
    pg = np.array([shapely.Polygon(p) for p in polys], dtype=object)
    own = shapely.covers(pg[oi], pts[iu[li]]) | shapely.covers(pg[oi], pts[ju[li]])
    bs = np.zeros(len(iu), dtype=bool)
    bs[li[~own]] = True
    t_los_s = time.perf_counter() - t0
    dis = int((bs != bl[iu, ju]).sum())

    print(f"{n} shapes (100 round bases + 100 trays), 20 terrain polygons")
    print(f"distance matrix + contacts: ours {t_dist:.3f} s, shapely {t_dist_s:.3f} s, ratio "
          f"{t_dist_s / t_dist:.1f}x; max |difference| {err:.2e} in (shapely circles are polygons); "
          f"contact pairs ours {len(contacts)} shapely {len(cs)}")
    print(f"LOS all {len(iu)} pairs vs terrain: ours {t_los:.3f} s, shapely STRtree {t_los_s:.3f} s, "
          f"ratio {t_los_s / t_los:.1f}x, disagreements {dis}")


if __name__ == "__main__":
    main()
