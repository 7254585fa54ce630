"""Major monsters' bodies: areas, groups, damage and what the damage takes away (DR 2.12).

A monster's ``damage`` maps each area to the damage taken by each of its groups, in the
order the groups are crossed off (DR 2.7.4.2). Everything else (walking MP, whether it may
fly or bound, its attack factors) is derived from that and the catalogue.
"""

from __future__ import annotations

from typing import Any

from simulator.games.dragon_rage.units import Unit, spec

AREA_ORDER = ("head", "wings", "legs", "belly")


def areas(monster: Unit) -> dict[str, dict[str, Any]]:
    return spec(monster)["areas"]


def group_alive(monster: Unit, area: str, index: int) -> bool:
    return monster["damage"][area][index] < areas(monster)[area]["hp"]


def groups_left(monster: Unit, area: str) -> int:
    if area not in monster["damage"]:
        return 0
    return sum(1 for i in range(len(monster["damage"][area])) if group_alive(monster, area, i))


def area_destroyed(monster: Unit, area: str) -> bool:
    return area in monster["damage"] and groups_left(monster, area) == 0


def area_damaged(monster: Unit, area: str) -> bool:
    return sum(monster["damage"].get(area, [])) > 0


def walk_mp(monster: Unit) -> int:
    """1 MP per intact leg group (DR 2.12.1.1.1; young dragon: per 4 leg points = per group)."""
    return groups_left(monster, "legs")


def legs_lost(monster: Unit) -> int:
    return len(monster["damage"].get("legs", [])) - groups_left(monster, "legs")


def wings_intact(monster: Unit) -> bool:
    """Both wing groups alive: needed to fly or bound (digest Q-MOV-1)."""
    return "wings" in monster["damage"] and groups_left(monster, "wings") == len(monster["damage"]["wings"])


def legs_allow_bound(monster: Unit) -> bool:
    """Fewer than half the leg groups lost (DR 2.12.1.7.3)."""
    total = len(monster["damage"].get("legs", []))
    return total > 0 and legs_lost(monster) * 2 < total


def group_names(monster: Unit) -> list[str]:
    """Attack groups as ``"area.index"``; the belly never attacks."""
    out = []
    for area, a in areas(monster).items():
        if a["cf"] > 0:
            out.extend(f"{area}.{i}" for i in range(a["groups"]))
    return out


def group_cf(monster: Unit, group: str) -> int:
    """Current attack factor of one group (0 once destroyed; head 0 after breathing)."""
    area, idx = group.split(".")
    a = areas(monster)[area]
    if not group_alive(monster, area, int(idx)):
        return 0
    if area == "head" and monster.get("breathed"):
        return 0
    cf = int(a["cf"])
    if area == "legs" and a.get("cf_when_bounding_or_landing") and (monster.get("mode") == "bound" or monster.get("landed")):
        cf = int(a["cf_when_bounding_or_landing"])
    return cf


def apply_damage(monster: Unit, area: str, points: int) -> int:
    """Damage one area, first living group first, excess to the next; returns points taken."""
    a = areas(monster)[area]
    taken = 0
    dmg = monster["damage"][area]
    for i in range(len(dmg)):
        room = a["hp"] - dmg[i]
        if room <= 0:
            continue
        hit = min(room, points - taken)
        dmg[i] += hit
        taken += hit
        if taken >= points:
            break
    return taken


def spread_damage(monster: Unit, points: int, order: tuple[str, ...]) -> dict[str, int]:
    """Spread ``points`` one at a time over the living areas in ``order``, undamaged areas first,
    no area taking a second point before every living area took one (DR 2.8.8)."""
    given = {a: 0 for a in order if a in monster["damage"]}
    for _ in range(points):
        live = [a for a in given if not area_destroyed(monster, a)]
        if not live:
            break
        fresh = [a for a in live if not area_damaged(monster, a)]
        pool = fresh or live
        least = min(given[a] for a in pool)
        area = next(a for a in pool if given[a] == least)
        apply_damage(monster, area, 1)
        given[area] += 1
    return {a: n for a, n in given.items() if n}


def is_dead(monster: Unit) -> bool:
    return area_destroyed(monster, "belly")


def total_hp_left(monster: Unit) -> int:
    return sum(max(0, areas(monster)[a]["hp"] - d) for a, ds in monster["damage"].items() for d in ds)
