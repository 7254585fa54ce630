"""Three small games used only to build and test the client (never shipped).

- ``client_hex``: counters on a real Dragon Rage map (Esirien or Nurkott); moves cost
  1 MP a hex (2 in forest), walls and water stop them, towers and forest block sight.
- ``client_table``: round bases and rectangular trays on a 48" x 36" table with a
  forest that blocks sight; moves of up to 6 inches, free rotation.
- ``client_ship``: multi-hex ships with characters on deck on a small sea map; each
  turn both sides pick a speed in secret (the hand-over screen) before moving.

``client_hex`` is also a small campaign (``Game.next_scenario``): a scenario with
``setup.campaign: N`` links to a next game (N - 1 more after it), where the survivors start
where they stood; with ``setup.next_forces: true`` the next game first asks each player to
choose reinforcements (``HexForces``, a minimal ``ForceRules``).

They implement :class:`simulator.core.view.Presentation` exactly as a real game does,
so the client never needs to know which game it draws.
"""

from __future__ import annotations

import math
from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from simulator.core import Context, Game, IllegalAction, Outcome, Scenario, State
from simulator.core.data import parse_yaml
from simulator.core.hexmap import HexMap, hexmap_from_document, load_hexmap
from simulator.core.registry import register
from simulator.core.scenario import resolve_map
from simulator.core.view import (FeatureStyle, ForceOption, ForceRules, ForceSelection, HexSurface, LineOfSight,
                                 Measurement, MoveRange, PieceView, Presentation, SecretChoice, TableSurface,
                                 TerrainPiece, TerrainStyle, Tools)

DATA = Path(__file__).resolve().parent / "data"
SIDE_COLOURS = {"red": (176, 42, 42), "blue": (38, 74, 168)}
Point = tuple[float, float]


def _other(side: str) -> str:
    return "blue" if side == "red" else "red"


# ----------------------------------------------------------------------------------- hex


@lru_cache(maxsize=8)
def _hexmap(path: str) -> HexMap:
    return load_hexmap(path)


HEX_TERRAIN = {
    "clear": TerrainStyle("clear", "Open ground", (196, 206, 142)),
    "town": TerrainStyle("town", "Town", (214, 190, 150), "buildings"),
    "forest": TerrainStyle("forest", "Forest", (92, 140, 74), "trees"),
    "bridge": TerrainStyle("bridge", "Bridge", (160, 120, 80), "stone"),
    "sea": TerrainStyle("sea", "Sea", (70, 120, 180), "waves"),
    "river": TerrainStyle("river", "River", (96, 150, 200), "waves"),
    "dock": TerrainStyle("dock", "Dock", (150, 140, 120), "stone"),
    "tower": TerrainStyle("tower", "Tower", (130, 120, 110), "stone"),
    "ford": TerrainStyle("ford", "Ford", (140, 175, 190), "rough"),
    "burnt": TerrainStyle("burnt", "Burnt ground", (90, 80, 70), "rough"),
}
HEX_FEATURES = {
    "wall": FeatureStyle("wall", "Wall", (60, 54, 50), 0.16, "wall"),
    "gateway": FeatureStyle("gateway", "Gateway", (200, 40, 40), 0.16, "gate"),
    "tower_door": FeatureStyle("tower_door", "Tower door", (120, 70, 30), 0.14, "door"),
    "tower_gate": FeatureStyle("tower_gate", "Tower gate", (200, 40, 40), 0.14, "gate"),
    "door": FeatureStyle("door", "Door", (120, 70, 30), 0.14, "door"),
    "bridge_access": FeatureStyle("bridge_access", "Bridge end", (120, 85, 50), 0.1, "bridge"),
    "ford_access": FeatureStyle("ford_access", "Ford bank", (70, 110, 150), 0.08, "dashed"),
    "river_bank": FeatureStyle("river_bank", "River bank", (40, 90, 150), 0.1, "bank"),
}
HEX_PATHS = {"road": FeatureStyle("road", "Road", (150, 120, 80), 0.16, "road")}
BLOCKED_TERRAIN = {"sea", "river"}
SIGHT_BLOCKING = {"tower", "forest"}
STOPPING_FEATURES = {"wall", "tower_door", "river_bank"}


class HexSkirmish(Game):
    id = "client_hex"
    name = "Client test: hex skirmish"
    rule_prefix = "HX"

    def setup(self, scenario: Scenario, ctx: Context) -> State:
        path = scenario.map_path()
        if path is None:
            raise scenario.error(("map",), "this game needs a map")
        pieces = {}
        for p in scenario.setup.get("pieces", []):
            pieces[p["id"]] = {"side": p["side"], "name": p.get("name", p["id"]), "at": p["at"],
                               "facing": p.get("facing", 0), "mp": p.get("mp", 3), "values": p.get("values", []),
                               "label": p.get("label", ""), "layer": p.get("layer", 0),
                               "has_facing": p.get("has_facing", True)}
        return {"players": ["red", "blue"], "active": "red", "turn": 1, "map": str(path), "pieces": pieces,
                "goal": scenario.setup.get("goal", "1910"), "burnt": [],
                # optional: how many actions a side may take before it must end its phase
                "orders": scenario.setup.get("orders"), "used": 0}

    def action_types(self) -> Mapping[str, str]:
        return {"move": "move a counter to a hex", "face": "turn a counter", "end_phase": "pass to the other side",
                "burn": "burn the hex a counter stands on"}

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if state.get("orders") is not None and state.get("used", 0) >= state["orders"]:
            return [{"type": "end_phase"}]
        for pid, p in state["pieces"].items():
            if p["side"] != state["active"]:
                continue
            for to in reachable(state, pid):
                if to != p["at"]:
                    out.append({"type": "move", "piece": pid, "to": to})
            for f in range(6):
                if f != p["facing"]:
                    out.append({"type": "face", "piece": pid, "facing": f})
            out.append({"type": "burn", "piece": pid})
        out.append({"type": "end_phase"})
        return out

    def apply(self, state: State, action: dict[str, Any], ctx: Context) -> None:
        kind = action["type"]
        if kind == "end_phase":
            state["active"] = _other(state["active"])
            state["used"] = 0
            if state["active"] == "red":
                state["turn"] += 1
            ctx.emit("phase", f"{state['active']} to play (turn {state['turn']})", "HX 1.2")
            return
        if state.get("orders") is not None:
            if state.get("used", 0) >= state["orders"]:
                raise IllegalAction(f"{state['active']} has used its {state['orders']} orders this turn", "HX 1.3")
            state["used"] = state.get("used", 0) + 1
        pid = action.get("piece")
        piece = state["pieces"].get(pid)
        if piece is None:
            raise IllegalAction(f"there is no counter {pid!r}", "HX 1.1")
        if piece["side"] != state["active"]:
            raise IllegalAction(f"{piece['name']} belongs to {piece['side']}, and {state['active']} is playing",
                                "HX 1.2")
        if kind == "move":
            to = action.get("to")
            costs = reachable(state, pid)
            if to not in costs:
                raise IllegalAction(f"{piece['name']} cannot reach {to}: more than {piece['mp']} MP away, "
                                    "or behind water or a wall", "HX 2.1")
            piece["at"] = to
            roll = ctx.dice.d6(f"{piece['name']} keeps formation")
            ctx.emit("move", f"{piece['name']} moves to {to} ({costs[to]:g} MP)", "HX 2.1", pieces=[pid])
            if roll == 1:
                ctx.emit("disorder", f"{piece['name']} is disordered (rolled 1)", "HX 2.4", pieces=[pid])
        elif kind == "face":
            facing = action.get("facing")
            if not isinstance(facing, int) or not 0 <= facing < 6:
                raise IllegalAction("a facing is a hex direction 0-5", "HX 2.2")
            piece["facing"] = facing
            ctx.emit("face", f"{piece['name']} turns to face {facing}", "HX 2.2", pieces=[pid])
        elif kind == "burn":
            if piece["at"] not in state["burnt"]:
                state["burnt"].append(piece["at"])
            ctx.emit("burn", f"{piece['name']} burns {piece['at']}", "HX 4.1", pieces=[pid])

    def outcome(self, state: State) -> Outcome | None:
        for p in state["pieces"].values():
            if p["side"] == "red" and p["at"] == state["goal"]:
                return Outcome("red", f"{p['name']} takes {state['goal']}", "decisive", "HX 9.1",
                               {"red": 5, "blue": 0})
        return None

    def presentation(self) -> Presentation:
        return HexPresentation()

    def next_scenario(self, state: State, scenario: Scenario) -> dict[str, Any] | None:
        """The next game of a campaign: the pieces start where this game left them."""
        left = scenario.setup.get("campaign", 0)
        if not left or self.outcome(state) is None:
            return None
        data = {k: v for k, v in scenario.data.items() if k != "force_selection"}
        number = scenario.setup.get("number", 1) + 1
        pieces = [{"id": pid, "side": p["side"], "name": p["name"], "at": p["at"], "values": list(p["values"]),
                   "mp": p["mp"]} for pid, p in state["pieces"].items()]
        goal = "0807" if state["goal"] != "0807" else "1910"
        data.update(name=f"{scenario.data['name'].split(' - ')[0]} - game {number}",
                    players=[{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}],
                    setup={**scenario.setup, "campaign": left - 1, "number": number, "goal": goal,
                           "pieces": pieces, "next_forces": False})
        if scenario.setup.get("next_forces"):
            data["force_selection"] = {"budget": 6}
        return data

    def forces(self) -> ForceRules:
        return HexForces()


class HexForces(ForceRules):
    """Reinforcements before a campaign's next game: scouts (2 points) and guards (3)."""

    OPTIONS = (ForceOption("scout", "Scout", 2, 3, values=("2", "5")),
               ForceOption("guard", "Guard", 3, 2, values=("4", "2")))
    START = {"red": "1808", "blue": "2011"}

    def force_selection(self, scenario: Any, player: str) -> ForceSelection | None:
        settings = scenario.data.get("force_selection")
        if not settings:
            return None
        return ForceSelection(player, player.title(), settings["budget"], options=self.OPTIONS, rule="HX 0.1",
                              suggested={"scout": 1})

    def build_scenario(self, scenario: Any, chosen_by_player: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
        data = {k: v for k, v in scenario.data.items() if k != "force_selection"}
        pieces = list(scenario.setup["pieces"])
        for player, chosen in chosen_by_player.items():
            for option in self.OPTIONS:
                for i in range(int(chosen.get(option.id, 0))):
                    pieces.append({"id": f"{player[0]}-{option.id}{i + 1}", "side": player, "name": option.name,
                                   "at": self.START[player], "values": list(option.values), "mp": 3})
        data["setup"] = {**scenario.setup, "pieces": pieces}
        return data


def _stops(hexmap: HexMap, a: str, b: str) -> bool:
    return any(f["feature"] in STOPPING_FEATURES for f in hexmap.hexside_features(a, b))


def reachable(state: State, pid: str) -> dict[str, float]:
    """Hexes ``pid`` can reach with its MP, with their cost (breadth-first, small maps)."""
    hexmap = _hexmap(state["map"])
    piece = state["pieces"][pid]
    best = {piece["at"]: 0.0}
    todo = deque([piece["at"]])
    while todo:
        here = todo.popleft()
        for there in hexmap.grid.neighbours(here).values():
            if there not in hexmap or hexmap.terrain_of(there) in BLOCKED_TERRAIN or _stops(hexmap, here, there):
                continue
            cost = best[here] + (2 if hexmap.terrain_of(there) == "forest" else 1)
            if cost <= piece["mp"] and cost < best.get(there, math.inf):
                best[there] = cost
                todo.append(there)
    return best


class HexPresentation(Presentation):
    def surface(self, state: State) -> HexSurface:
        hexmap = _hexmap(state["map"])
        marks = {lab: str(v) for lab, v in hexmap.hexes_with("vp").items()}
        return HexSurface(hexmap, HEX_TERRAIN, HEX_FEATURES, HEX_PATHS, hex_marks=marks,
                          hex_overrides={lab: "burnt" for lab in state["burnt"]})

    def surface_key(self, state: State) -> Any:
        return (state["map"], tuple(state["burnt"]))

    def pieces(self, state: State) -> list[PieceView]:
        out = []
        count: dict[str, int] = {}
        for pid, p in state["pieces"].items():
            n = count.get(p["at"], 0)
            count[p["at"]] = n + 1
            out.append(PieceView(pid, p["side"], p["name"], "counter", p["at"], SIDE_COLOURS[p["side"]],
                                 facing=p["facing"], label=p["label"] or p["name"][:6], values=tuple(p["values"]),
                                 stats={"MP": p["mp"]}, movable=p["side"] == state["active"],
                                 layer=p["layer"], stack_index=n, has_facing=p.get("has_facing", True)))
        return out

    def banner(self, state: State) -> str:
        return f"Turn {state['turn']} - {state['active']} moves"

    def tools(self) -> Tools:
        return Tools(snap="hex", rotate_step=60, range_rings=(2, 4))

    def drag_action(self, state: State, piece: str, to: str | Point) -> dict[str, Any] | None:
        return {"type": "move", "piece": piece, "to": to} if isinstance(to, str) else None

    def rotate_action(self, state: State, piece: str, facing: float) -> dict[str, Any] | None:
        return {"type": "face", "piece": piece, "facing": int(facing) % 6}

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        if piece not in state["pieces"]:
            return None
        return MoveRange(hexes=reachable(state, piece))

    def _hex(self, state: State, ref: str | Point) -> str | None:
        if isinstance(ref, str) and ref in state["pieces"]:
            return state["pieces"][ref]["at"]
        return ref if isinstance(ref, str) and ref in _hexmap(state["map"]) else None

    def line_of_sight(self, state: State, a: str | Point, b: str | Point) -> LineOfSight | None:
        ha, hb = self._hex(state, a), self._hex(state, b)
        if ha is None or hb is None:
            return None
        hexmap = _hexmap(state["map"])
        path = hexmap.grid.hex_line(ha, hb).labels()
        blockers: list[Any] = []
        occupied = {p["at"]: pid for pid, p in state["pieces"].items()}
        for lab in path[1:-1]:
            if hexmap.terrain_of(lab) in SIGHT_BLOCKING:
                blockers.append(lab)
            if lab in occupied:
                blockers.append(occupied[lab])
        for x, y in zip(path, path[1:]):
            if any(f["feature"] == "wall" for f in hexmap.hexside_features(x, y)):
                blockers.append((x, y))
        if blockers:
            return LineOfSight(False, f"blocked by {len(blockers)} obstacle(s)", "HX 5.1", (ha, hb), tuple(blockers))
        return LineOfSight(True, f"clear over {len(path) - 1} hexes", "HX 5.1", (ha, hb))

    def measure(self, state: State, a: str | Point, b: str | Point) -> Measurement | None:
        ha, hb = self._hex(state, a), self._hex(state, b)
        if ha is None or hb is None:
            return None
        d = _hexmap(state["map"]).grid.distance(ha, hb)
        return Measurement(d, "hexes", f"{d} hexes")

    def stats(self, state: State, piece: str) -> Mapping[str, Any]:
        p = state["pieces"].get(piece)
        if p is None:
            return {}
        return {"name": p["name"], "side": p["side"], "hex": p["at"], "MP": p["mp"], "facing": p["facing"]}


# --------------------------------------------------------------------------------- table

TABLE_TERRAIN = (
    TerrainPiece("wood", "Dark wood", ((14.0, 10.0), (22.0, 8.0), (25.0, 15.0), (19.0, 20.0), (13.0, 16.0)),
                 TerrainStyle("wood", "Wood", (70, 110, 60), "trees"), "blocks sight"),
    TerrainPiece("hill", "Low hill", ((30.0, 22.0), (38.0, 21.0), (40.0, 27.0), (33.0, 30.0)),
                 TerrainStyle("hill", "Hill", (150, 140, 96), "rough")),
    TerrainPiece("pond", "Pond", ((4.0, 26.0), (9.0, 25.0), (10.0, 30.0), (5.0, 31.0)),
                 TerrainStyle("pond", "Pond", (80, 130, 180), "waves")),
)
REACH = 6.0


def _point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    inside = False
    x, y = p
    for (x1, y1), (x2, y2) in zip(poly, list(poly[1:]) + [poly[0]]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _segment_hits_polygon(a: Point, b: Point, poly: Sequence[Point], samples: int = 64) -> bool:
    return any(_point_in_polygon((a[0] + (b[0] - a[0]) * t / samples, a[1] + (b[1] - a[1]) * t / samples), poly)
               for t in range(1, samples))


def _segment_circle_distance(a: Point, b: Point, c: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy or 1e-9
    t = max(0.0, min(1.0, ((c[0] - ax) * dx + (c[1] - ay) * dy) / length2))
    return math.hypot(ax + t * dx - c[0], ay + t * dy - c[1])


class TableSkirmish(Game):
    id = "client_table"
    name = "Client test: table skirmish"
    rule_prefix = "TB"

    def setup(self, scenario: Scenario, ctx: Context) -> State:
        pieces = {}
        for p in scenario.setup.get("pieces", []):
            pieces[p["id"]] = {"side": p["side"], "name": p.get("name", p["id"]), "at": list(p["at"]),
                               "facing": float(p.get("facing", 0)), "shape": p.get("shape", "base"),
                               "radius": p.get("radius", 0.5), "width": p.get("width", 4.0),
                               "depth": p.get("depth", 2.0), "ranks": p.get("ranks", 2), "files": p.get("files", 4)}
        return {"players": ["red", "blue"], "active": "red", "turn": 1, "pieces": pieces}

    def action_types(self) -> Mapping[str, str]:
        return {"move": "move a unit up to 6 inches", "rotate": "turn a unit", "end_phase": "pass"}

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if state.get("orders") is not None and state.get("used", 0) >= state["orders"]:
            return [{"type": "end_phase"}]
        for pid, p in state["pieces"].items():
            if p["side"] == state["active"]:
                x, y = p["at"]
                out.append({"type": "move", "piece": pid, "to": [x + 3.0, y]})
                out.append({"type": "rotate", "piece": pid, "facing": (p["facing"] + 90) % 360})
        out.append({"type": "end_phase"})
        return out

    def apply(self, state: State, action: dict[str, Any], ctx: Context) -> None:
        kind = action["type"]
        if kind == "end_phase":
            state["active"] = _other(state["active"])
            state["turn"] += state["active"] == "red"
            ctx.emit("phase", f"{state['active']} to play", "TB 1.2")
            return
        pid = action.get("piece")
        piece = state["pieces"].get(pid)
        if piece is None or piece["side"] != state["active"]:
            raise IllegalAction(f"{pid!r} is not a unit of {state['active']}", "TB 1.2")
        if kind == "move":
            to = action.get("to")
            if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, (int, float)) for v in to)):
                raise IllegalAction("a move needs 'to': [x, y] in inches", "TB 2.1")
            dist = math.dist(piece["at"], to)
            if dist > REACH:
                raise IllegalAction(f"{piece['name']} moves at most {REACH:g} inches ({dist:.1f} asked)", "TB 2.1")
            if not (0 <= to[0] <= 48 and 0 <= to[1] <= 36):
                raise IllegalAction("units may not leave the table", "TB 2.3")
            piece["at"] = [round(float(to[0]), 2), round(float(to[1]), 2)]
            ctx.dice.d6(f"{piece['name']} activation")
            ctx.emit("move", f"{piece['name']} moves {dist:.1f} inches", "TB 2.1", pieces=[pid])
        elif kind == "rotate":
            facing = action.get("facing")
            if not isinstance(facing, (int, float)):
                raise IllegalAction("a facing is a number of degrees", "TB 2.2")
            piece["facing"] = float(facing) % 360
            ctx.emit("rotate", f"{piece['name']} turns to {piece['facing']:g} degrees", "TB 2.2", pieces=[pid])

    def presentation(self) -> Presentation:
        return TablePresentation()


def _reach_radius(p: Mapping[str, Any]) -> float:
    return p["radius"] if p["shape"] == "base" else min(p["width"], p["depth"]) / 2


class TablePresentation(Presentation):
    def surface(self, state: State) -> TableSurface:
        return TableSurface(48, 36, TABLE_TERRAIN, named_distances={"VS": 2, "S": 4, "M": 6, "L": 12},
                            zones=(("Red deployment", ((0.0, 0.0), (48.0, 0.0), (48.0, 6.0), (0.0, 6.0)),
                                    SIDE_COLOURS["red"]),
                                   ("Blue deployment", ((0.0, 30.0), (48.0, 30.0), (48.0, 36.0), (0.0, 36.0)),
                                    SIDE_COLOURS["blue"])))

    def pieces(self, state: State) -> list[PieceView]:
        return [PieceView(pid, p["side"], p["name"], p["shape"], (p["at"][0], p["at"][1]), SIDE_COLOURS[p["side"]],
                          facing=p["facing"], label=p["name"][:8], radius=p["radius"], width=p["width"],
                          depth=p["depth"], ranks=p["ranks"] if p["shape"] == "tray" else 0,
                          files=p["files"] if p["shape"] == "tray" else 0,
                          movable=p["side"] == state["active"], stats={"reach": f'{REACH:g}"'})
                for pid, p in state["pieces"].items()]

    def banner(self, state: State) -> str:
        return f"Round {state['turn']} - {state['active']} activates"

    def tools(self) -> Tools:
        return Tools(snap="free", rotate_step=15, range_rings=(4, 6, 12), measure_unit="inches")

    def drag_action(self, state: State, piece: str, to: str | Point) -> dict[str, Any] | None:
        if isinstance(to, str):
            return None
        return {"type": "move", "piece": piece, "to": [round(to[0], 2), round(to[1], 2)]}

    def rotate_action(self, state: State, piece: str, facing: float) -> dict[str, Any] | None:
        return {"type": "rotate", "piece": piece, "facing": float(facing) % 360}

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        p = state["pieces"].get(piece)
        return MoveRange(centre=(p["at"][0], p["at"][1]), radius=REACH) if p else None

    def _point(self, state: State, ref: str | Point) -> tuple[Point, float, str | None]:
        if isinstance(ref, str):
            p = state["pieces"][ref]
            return (p["at"][0], p["at"][1]), _reach_radius(p), ref
        return (float(ref[0]), float(ref[1])), 0.0, None

    def line_of_sight(self, state: State, a: str | Point, b: str | Point) -> LineOfSight | None:
        if isinstance(a, str) and a not in state["pieces"] or isinstance(b, str) and b not in state["pieces"]:
            return None
        pa, _, ida = self._point(state, a)
        pb, _, idb = self._point(state, b)
        blockers: list[Any] = [t.id for t in TABLE_TERRAIN if t.notes == "blocks sight"
                               and _segment_hits_polygon(pa, pb, t.polygon)]
        for pid, p in state["pieces"].items():
            if pid not in (ida, idb) and _segment_circle_distance(pa, pb, tuple(p["at"])) < _reach_radius(p):
                blockers.append(pid)
        if blockers:
            return LineOfSight(False, "blocked", "TB 5.1", (pa, pb), tuple(blockers))
        return LineOfSight(True, "clear", "TB 5.1", (pa, pb))

    def measure(self, state: State, a: str | Point, b: str | Point) -> Measurement | None:
        if isinstance(a, str) and a not in state["pieces"] or isinstance(b, str) and b not in state["pieces"]:
            return None
        pa, ra, _ = self._point(state, a)
        pb, rb, _ = self._point(state, b)
        d = max(0.0, math.dist(pa, pb) - ra - rb)
        named = {"VS": 2, "S": 4, "M": 6, "L": 12}
        within = tuple(k for k, v in named.items() if d <= v)
        return Measurement(round(d, 2), "inches", f'{d:.1f}" edge to edge', within)


# ---------------------------------------------------------------------------------- ship

SHIP_MAP = """
format: hexmap/1
id: cove
name: Test cove
game: client_ship
grid: {orientation: flat, offset: even-q, labels: CCRR, columns: 14, rows: 10}
default_terrain: sea
terrain:
  clear: "0101 0102 0103 0201 0202 0301 1301 1302 1303 1401 1402 1403 1404"
  forest: "0104 0105 0203 1405 1406"
hexsides:
  - {between: ["0103", "0104"], feature: river_bank}
"""
SHIP_TERRAIN = {"sea": HEX_TERRAIN["sea"], "clear": HEX_TERRAIN["clear"], "forest": HEX_TERRAIN["forest"]}


@lru_cache(maxsize=1)
def _cove() -> HexMap:
    return hexmap_from_document(parse_yaml(SHIP_MAP, "<test cove>"))


def ship_hexes(state: State, sid: str) -> list[str]:
    """A ship covers its bow hex and two hexes astern of it."""
    ship = state["ships"][sid]
    grid = _cove().grid
    astern = (ship["facing"] + 3) % 6
    mid = grid.neighbour(ship["at"], astern)
    return [ship["at"], mid, grid.neighbour(mid, astern)]


class ShipRace(Game):
    id = "client_ship"
    name = "Client test: ships"
    rule_prefix = "SH"

    def setup(self, scenario: Scenario, ctx: Context) -> State:
        ships = {s["id"]: {"side": s["side"], "name": s["name"], "at": s["at"], "facing": s.get("facing", 1)}
                 for s in scenario.setup["ships"]}
        crew = {c["id"]: {"side": c["side"], "name": c["name"], "ship": c["ship"], "slot": c["slot"]}
                for c in scenario.setup.get("crew", [])}
        return {"players": ["red", "blue"], "active": "red", "turn": 1, "ships": ships, "crew": crew,
                "speeds": {"red": None, "blue": None}}

    def action_types(self) -> Mapping[str, str]:
        return {"set_speed": "choose a speed in secret", "sail": "move a ship", "turn_ship": "turn a ship",
                "end_phase": "end the turn"}

    def _waiting(self, state: State) -> str | None:
        return next((p for p in state["players"] if state["speeds"][p] is None), None)

    def active_player(self, state: State) -> str | None:
        """The side choosing its speed in secret, else the side sailing."""
        return self._waiting(state) or state["active"]

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        who = self._waiting(state)
        if who is not None:
            return [{"type": "set_speed", "player": who, "speed": n} for n in (1, 2, 3)]
        out: list[dict[str, Any]] = [{"type": "end_phase"}]
        for sid, s in state["ships"].items():
            if s["side"] == state["active"]:
                out += [{"type": "turn_ship", "ship": sid, "facing": (s["facing"] + d) % 6} for d in (1, 5)]
        return out

    def apply(self, state: State, action: dict[str, Any], ctx: Context) -> None:
        kind = action["type"]
        who = self._waiting(state)
        if kind == "set_speed":
            if action.get("player") != who or action.get("speed") not in (1, 2, 3):
                raise IllegalAction(f"{who} must choose a speed of 1, 2 or 3 now", "SH 3.1")
            state["speeds"][who] = action["speed"]
            ctx.emit("speed", f"{who} has chosen a speed", "SH 3.1")
            return
        if who is not None:
            raise IllegalAction(f"{who} must choose a speed first", "SH 3.1")
        if kind == "end_phase":
            state["active"] = _other(state["active"])
            if state["active"] == "red":
                state["turn"] += 1
                state["speeds"] = {"red": None, "blue": None}
            ctx.emit("phase", f"{state['active']} sails", "SH 1.2")
            return
        sid = action.get("ship")
        ship = state["ships"].get(sid)
        if ship is None or ship["side"] != state["active"]:
            raise IllegalAction(f"{sid!r} is not a ship of {state['active']}", "SH 1.2")
        if kind == "turn_ship":
            ship["facing"] = int(action.get("facing", 0)) % 6
        elif kind == "sail":
            to = action.get("to")
            grid = _cove().grid
            if to not in _cove() or grid.distance(ship["at"], to) > state["speeds"][ship["side"]]:
                raise IllegalAction(f"{ship['name']} sails at most {state['speeds'][ship['side']]} hexes", "SH 4.1")
            ship["at"] = to
        hexes = ship_hexes(state, sid)
        if any(h not in _cove() or _cove().terrain_of(h) != "sea" for h in hexes):
            raise IllegalAction(f"{ship['name']} would run aground", "SH 4.3")
        ctx.emit(kind, f"{ship['name']} {'turns' if kind == 'turn_ship' else 'sails to ' + ship['at']}", "SH 4.1",
                 pieces=[sid])

    def visible_state(self, state: State, player: str | None) -> State:
        state["speeds"] = {p: (v if p == player or v is None else "hidden") for p, v in state["speeds"].items()}
        return state

    def presentation(self) -> Presentation:
        return ShipPresentation()


class ShipPresentation(Presentation):
    def surface(self, state: State) -> HexSurface:
        return HexSurface(_cove(), SHIP_TERRAIN, HEX_FEATURES)

    def pieces(self, state: State) -> list[PieceView]:
        out = []
        for sid, s in state["ships"].items():
            out.append(PieceView(sid, s["side"], s["name"], "ship", s["at"], (120, 84, 50), facing=s["facing"],
                                 label=s["name"], hexes=tuple(ship_hexes(state, sid)),
                                 movable=s["side"] == state["active"], stats={"speed": state["speeds"][s["side"]]}))
        for cid, c in state["crew"].items():
            at = ship_hexes(state, c["ship"])[c["slot"]]
            out.append(PieceView(cid, c["side"], c["name"], "counter", at, SIDE_COLOURS[c["side"]],
                                 label=c["name"][:5], values=("3", "2"), movable=False, layer=1))
        return out

    def banner(self, state: State) -> str:
        return f"Turn {state['turn']} - {state['active']} sails"

    def tools(self) -> Tools:
        return Tools(snap="hex", rotate_step=60)

    def drag_action(self, state: State, piece: str, to: str | Point) -> dict[str, Any] | None:
        return {"type": "sail", "ship": piece, "to": to} if piece in state["ships"] else None

    def rotate_action(self, state: State, piece: str, facing: float) -> dict[str, Any] | None:
        return {"type": "turn_ship", "ship": piece, "facing": int(facing) % 6} if piece in state["ships"] else None

    def secret_choice(self, state: State) -> SecretChoice | None:
        who = next((p for p in state["players"] if state["speeds"][p] is None), None)
        if who is None:
            return None
        return SecretChoice(who, f"{who}: choose your speed for this turn",
                            [(f"speed {n}", {"type": "set_speed", "player": who, "speed": n}) for n in (1, 2, 3)])


GAMES: tuple[Game, ...] = (HexSkirmish(), TableSkirmish(), ShipRace())


def register_all() -> None:
    """Make the three test games known to the registry."""
    for game in GAMES:
        register(game)


def scenario_path(name: str) -> Path:
    """``hex``, ``table``, ``ship`` or ``hex60`` (the benchmark's 60 counters on Nurkott)."""
    return DATA / f"{name}.yaml"


def map_ref(name: str) -> str:
    return str(resolve_map(f"dragon_rage/{name}"))
