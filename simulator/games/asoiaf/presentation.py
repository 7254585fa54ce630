"""What the client draws for ASOIAF: a 48" table, terrain, objectives, trays with facing.

The game keeps ``simulator.geometry.table``'s convention (inches, y up, facing counter-clockwise
from +x); the client's (``simulator.core.view``) is y down from the top-left corner, facing
clockwise from up.  This module is the one place that converts: :func:`to_view`,
:func:`to_table`, :func:`facing_to_view`, :func:`facing_to_table`.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Mapping, Sequence

import numpy as np

from simulator.core.game import Action, State
from simulator.core.view import (LineOfSight, Measurement, MoveRange, PieceView, Presentation, SecretChoice,
                                 SidePanel, TableSurface, TerrainPiece, TerrainStyle, Tools, TurnStep,
                                 describe_action)
from simulator.games.asoiaf import modes, panels, sides, space
from simulator.games.asoiaf.catalogue import NOT_AUTOMATED, catalogue, load_checked
from simulator.games.asoiaf.options import legal_actions
from simulator.games.asoiaf.placement import area
from simulator.games.asoiaf.units import attack_dice, polygon, ranks_left, slot_marks, speed, wounds_left
from simulator.geometry.table import point_polygon_distance, polygon_distance, rect_corners

RGB = tuple[int, int, int]


@functools.lru_cache(maxsize=1)
def liveries() -> Mapping[str, Any]:
    """``data/factions.yaml``: each faction's colours and the teams' colours."""
    return load_checked("factions").data


def _rgb(v: Sequence[int]) -> RGB:
    return int(v[0]), int(v[1]), int(v[2])


def side_colour(state: State, player: str) -> RGB:
    """The team's colour (its deployment area): teammates share it (§13.1)."""
    colours = liveries()["team_colours"]
    return _rgb(colours[sides.team_ids(state).index(sides.team(state, player)) % len(colours)])


def faction_colours(state: State, player: str) -> tuple[RGB, RGB]:
    """(body, accent) of ``player``'s pieces: its army's faction livery (``data/factions.yaml``),
    the faction's ``mirror`` livery when a team seated earlier fields the same faction (so two
    Stark armies still differ); the team colour and white for a faction not in the file."""
    data = liveries()["factions"]
    faction = state.get("factions", {}).get(player)
    if faction not in data:
        return side_colour(state, player), (245, 245, 240)
    mine = sides.team(state, player)
    earlier = sides.team_ids(state)[:sides.team_ids(state).index(mine)]
    livery = data[faction]
    if any(state["factions"].get(p) == faction for p in state["players"] if sides.team(state, p) in earlier):
        livery = livery["mirror"]
    return _rgb(livery["colour"]), _rgb(livery["accent"])


#: The icon drawn for each unit type (the tray kind for war machines and solos).
TYPE_ICONS = {"infantry": "icons/sword.svg", "cavalry": "icons/horse.svg", "monster": "icons/monster.svg",
              "warmachine": "icons/siege.svg"}
#: The token drawn for each Condition (§11.8); any other condition gets the generic one.
CONDITION_MARKERS = {"panicked": "markers/panic.svg", "weakened": "markers/weakened.svg",
                     "vulnerable": "markers/vulnerable.svg"}


def short_name(state: State, u: Mapping[str, Any]) -> str:
    """The unit's name without its house's name in front ("Sworn Swords" for "Stark Sworn
    Swords"), so it fits on the tray; characters keep their full name."""
    name = str(u["name"])
    for house in {*state.get("factions", {}).values(), "stark", "lannister"}:
        prefix = f"{str(house).capitalize()} "
        if name.startswith(prefix) and len(name) > len(prefix) + 3:
            return name[len(prefix):]
    return name


def unit_markers(u: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The tokens beside a tray: wounds on its current figure, each Condition, VP tokens, a carried
    Objective, and the activated token (digest §11.8, §16)."""
    out: list[tuple[str, str]] = []
    if u.get("wounds_per_figure", 1) > 1 and u.get("damage"):
        out.append(("markers/wound.svg", str(u["damage"])))
    out += [(CONDITION_MARKERS.get(c, "markers/condition.svg"), "") for c in u["conditions"]]
    if u.get("vp_tokens"):
        out.append(("markers/vp.svg", str(u["vp_tokens"])))
    if u.get("objective"):
        out.append(("markers/objective.svg", ""))
    if u.get("activated"):
        out.append(("markers/activated.svg", ""))
    return tuple(out)
TERRAIN_STYLES = {
    "hedge": TerrainStyle("hedge", "Hedge", (60, 110, 50), "trees"),
    "forest": TerrainStyle("forest", "Forest", (40, 90, 40), "trees"),
    "weirwood": TerrainStyle("weirwood", "Weirwood tree", (220, 220, 210), "trees"),
    "corpse_pile": TerrainStyle("corpse_pile", "Corpse pile", (110, 90, 80), "rocks"),
    "palisade": TerrainStyle("palisade", "Palisade", (120, 90, 50), "stone"),
    "marsh": TerrainStyle("marsh", "Marsh", (80, 100, 90), "marsh"),
    "stakes": TerrainStyle("stakes", "Stakes", (140, 110, 70), "rough"),
    "wall": TerrainStyle("wall", "Low wall", (150, 150, 150), "stone"),
    "castle_wall": TerrainStyle("castle_wall", "Castle wall", (120, 120, 130), "stone"),
}


def to_view(state: State, p: Any) -> tuple[float, float]:
    """A table point (y up) as a client point (y down from the top edge)."""
    return float(p[0]), float(state["table"][1]) - float(p[1])


def to_table(state: State, p: Any) -> tuple[float, float]:
    """A client point as a table point (the flip is its own inverse)."""
    return to_view(state, p)


def facing_to_view(facing: float) -> float:
    """Counter-clockwise from +x -> clockwise from up."""
    return round((90.0 - float(facing)) % 360, 6)


def facing_to_table(facing: float) -> float:
    """Clockwise from up -> counter-clockwise from +x (the same formula both ways)."""
    return facing_to_view(facing)


def _poly_view(state: State, poly: Any) -> tuple[tuple[float, float], ...]:
    return tuple(to_view(state, p) for p in poly)


def _point(state: State, ref: Any) -> tuple[np.ndarray, str | None]:
    """A unit id or a client point, as a table polygon (one vertex for a point)."""
    if isinstance(ref, str) and ref in state["units"]:
        return polygon(state["units"][ref]), ref
    return np.array([to_table(state, ref)]), None


def ncu_lines(state: State, side: str) -> list[str]:
    """The side's Non-Combat units as its trays' panel lists them (NCUs are not on the table,
    4.6): where each is, and each ability marked automated (with its rule) or not automated."""
    cat = catalogue()
    out = []
    for n in state["ncus"].values():
        if n["side"] != side:
            continue
        where = f"claims {n['zone']}" if n["zone"] else f"quadrant {n['quadrant']}" if n["quadrant"] is not None \
            else "activated" if n["activated"] else "ready"
        tokens = f", {n['tokens']} Order token(s)" if n["tokens"] else ""
        abilities = "; ".join(f"{a['name']} ({'automated, ' + a['rule'] if a['automated'] else a['rule']})"
                              for a in cat.ability_rows(cat.ncus[n["card"]]["abilities"]))
        out.append(f"{n['id']} {n['name']} [{where}{tokens}]: {abilities}")
    return out


class AsoiafPresentation(Presentation):
    def surface(self, state: State) -> TableSurface:
        w, h = state["table"]
        pieces = tuple(TerrainPiece(t["id"], t["name"], _poly_view(state, t["polygon"]),
                                    TERRAIN_STYLES.get(t["kind"], TerrainStyle(t["kind"], t["name"], (100, 100, 100))),
                                    notes=", ".join(t["keywords"]))
                       for t in state["terrain"])
        zones = []
        shown: set[tuple[float, ...]] = set()
        for side in state["players"]:
            x0, y0, x1, y1 = area(state, side)
            if (x0, y0, x1, y1) in shown:
                continue            # a team's shared area is drawn once
            shown.add((x0, y0, x1, y1))
            rect = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
            zones.append((f"{sides.team(state, side)} deployment", _poly_view(state, rect), side_colour(state, side)))
        r = modes.radius()
        for ob in state["objectives"]:
            circle = _poly_view(state, [(ob["x"] + r * math.cos(a), ob["y"] + r * math.sin(a))
                                        for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)])
            zones.append((f"Objective {ob['id']}", circle, (230, 200, 60)))
        return TableSurface(w, h, pieces, named_distances={"1\"": 1, "Short": 6, "Long": 12}, zones=tuple(zones))

    def surface_key(self, state: State) -> Any:
        return (len(state["terrain"]), tuple((o["x"], o["y"]) for o in state["objectives"]))

    def pieces(self, state: State) -> list[PieceView]:
        cat = catalogue()
        out = []
        for uid in state["order"]:
            u = state["units"][uid]
            if u["destroyed"] and not u.get("structure"):
                continue
            if u.get("reserve"):
                continue
            colour, accent = faction_colours(state, u["side"])
            status = list(u["conditions"])
            if u["activated"]:
                status.append("activated")
            if u["objective"]:
                status.append(f"carries {u['objective']}")
            if u["marked"]:
                status.append("marked")
            if u["vp_tokens"]:
                status.append(f"{u['vp_tokens']} VP token(s)")
            if u["destroyed"]:
                status.append("breached")
            if u.get("undeployed"):
                status.append("not deployed")
            out.append(PieceView(
                id=uid, side=u["side"], name=u["name"], shape="tray", at=to_view(state, (u["x"], u["y"])), colour=colour,
                facing=facing_to_view(u["facing"]), label=uid, values=(f"{wounds_left(u)}W",), width=u["width"], depth=u["depth"],
                ranks=u["ranks_max"] if u.get("slots") else ranks_left(u), files=u["files"],
                slots=slot_marks(u), status=tuple(status), stats=self._stats(state, uid),
                caption=short_name(state, u), markers=unit_markers(u), accent=accent,
                icon=TYPE_ICONS.get(u.get("tray", ""), TYPE_ICONS.get(u["type"], "")),
                movable=u["side"] == state.get("active") and not u["activated"]))
        return out

    def _stats(self, state: State, uid: str) -> Mapping[str, Any]:
        cat = catalogue()
        u = state["units"][uid]
        abilities = cat.ability_rows(u["abilities"])
        return {
            "type": u["type"], "speed": u["speed"], "defense": f"{u['defense']}+", "morale": f"{u['morale']}+",
            "figures": f"{u['figures']}/{u['figures_max']}", "ranks": ranks_left(u), "wounds_left": wounds_left(u),
            "attacks": [f"{a['name']} ({a['range']}) {a['hit']}+ x{attack_dice(u, a)}" for a in u["attacks"]],
            "abilities": abilities,
            "attachment": cat.full_name(u["attachment"]) if u["attachment"] else "",
            "commander": u["commander"], "conditions": list(u["conditions"]), "cost": u["cost"],
            "ncus": ncu_lines(state, u["side"]),
            "not automated (game mode)": [f"{w} - {NOT_AUTOMATED}" for w in modes.mode(state).get("not_automated", [])],
        }

    def turn_sequence(self, state: State) -> tuple[TurnStep, ...]:
        """The turn's steps for the F1 help, the current one marked (``sequence.py``)."""
        from simulator.games.asoiaf.sequence import turn_sequence

        return turn_sequence(state)

    def side_panels(self, state: State, viewer: str | None) -> tuple[SidePanel, ...]:
        """The Tactics hands and the Tactics board (``panels.py``)."""
        return panels.panels(state)

    def panel_actions(self, state: State, legal: Sequence[Action], panel: str, slot: str,
                      item: str | None) -> list[tuple[str, Action]]:
        return panels.actions(state, legal, panel, slot, item)

    def banner(self, state: State) -> str:
        if state.get("result"):
            return f"Game over - {state['result']['text']}"
        if state["phase"] == "deployment":
            d = state["deploy"]
            if d["step"] == "terrain":
                from simulator.games.asoiaf.battlefield import kinds
                ts = d["terrain"]
                return (f"{modes.mode(state)['name']} - battlefield - {state['active']} places a terrain piece "
                        f"({' or '.join(kinds(state)) if len(kinds(state)) < 3 else 'any available'}; "
                        f"{ts['left']} left) - select any piece for the offered spots")
            what = {"reserve": "chooses the Reserve units", "area": "chooses a deployment area",
                    "first": "picks the first player"}.get(d["step"],
                                                           "deploys a unit (drag it into the deployment area)")
            return f"{modes.mode(state)['name']} - deployment - {state['active']} {what}"
        vp = ", ".join(f"{t} {v} VP" for t, v in sides.scores(state).items())
        mode = modes.mode(state)["name"]
        pend = state["pending"]
        who = pend[0]["player"] if pend else state["active"]
        what = f"{pend[0]['window'].replace('_', ' ')}" if pend else "activation"
        if not pend and state["turn"].get("chosen"):
            what += f" of {state['turn']['chosen']} (picked by the team)"
        return (f"{mode} - round {state['round']} of {state['max_rounds']} - {who}: {what} - {vp} "
                f"(need {state['vp_needed']})")

    def tools(self) -> Tools:
        return Tools(snap="free", rotate_step=15, line_of_sight=True, measure=True, range_rings=(1, 6, 12),
                     measure_unit="inches")

    def drag_action(self, state: State, piece: str, to: Any) -> Action | None:
        """Dragging a tray proposes a Maneuver that pivots towards the drop point and moves there."""
        u = state["units"].get(piece)
        if u is None or isinstance(to, str):
            return None
        x, y = to_table(state, to)
        if state["phase"] == "deployment":
            return {"type": "deploy", "unit": piece, "x": round(x, 2), "y": round(y, 2), "facing": u["facing"]}
        dist = math.hypot(x - u["x"], y - u["y"])
        facing = round(math.degrees(math.atan2(y - u["y"], x - u["x"])) % 360, 1)
        kind = "march" if abs(facing - u["facing"]) < 0.5 and dist > u["speed"] else "maneuver"
        action: Action = {"type": kind, "unit": piece, "distance": round(dist, 2), "facing": facing}
        if kind == "maneuver":
            action["pivot"] = facing
        return action

    def rotate_action(self, state: State, piece: str, facing: float) -> Action | None:
        u = state["units"].get(piece)
        if u is None:
            return None
        if state["phase"] == "deployment":
            return {"type": "deploy", "unit": piece, "x": u["x"], "y": u["y"], "facing": facing_to_table(facing)}
        return {"type": "maneuver", "unit": piece, "pivot": u["facing"], "distance": 0,
                "facing": facing_to_table(facing)}

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        u = state["units"].get(piece)
        if u is None or state["phase"] != "activation" or state["pending"] or space.engaged_with(state, u):
            return None      # no Maneuver or March now: a pending choice first, or engaged (6.1, 6.4)
        # the lit circle is the Maneuver's reach in any direction (6.2); a March goes twice as far,
        # but only straight ahead (6.3), so that farther ring would promise drops that are refused
        return MoveRange(centre=to_view(state, (u["x"], u["y"])),
                         radius=float(speed(u, modes.mode(state).get("carrier_speed"))))

    def line_of_sight(self, state: State, a: Any, b: Any) -> LineOfSight | None:
        if not (isinstance(a, str) and a in state["units"]):
            return None
        tp, tid = _point(state, b)
        if len(tp) == 1:
            tp = rect_corners([[tp[0][0], tp[0][1], 0.05, 0.05, 90]])[0]
        sight = space.line_of_sight(state, state["units"][a], tp, tid or "", ranged=True)
        points = None if sight.line is None else (to_view(state, sight.line[0]), to_view(state, sight.line[1]))
        return LineOfSight(sight.clear, sight.why, 'ASOIAF "Line of sight" (5)', points=points,
                           blockers=tuple(sight.blockers))

    def measure(self, state: State, a: Any, b: Any) -> Measurement | None:
        pa, _ = _point(state, a)
        pb, _ = _point(state, b)
        if len(pa) == 1 and len(pb) == 1:
            d = float(np.linalg.norm(pa[0] - pb[0]))
        elif len(pa) == 1:
            d = point_polygon_distance(pa[0], pb)
        elif len(pb) == 1:
            d = point_polygon_distance(pb[0], pa)
        else:
            d = polygon_distance(pa, pb)
        within = tuple(n for n, v in (("1\"", 1.0), ("Short", 6.0), ("Long", 12.0)) if d <= v + 1e-9)
        return Measurement(round(d, 2), "in", f"{d:.2f}\" edge to edge", within)

    def end_phase_action(self, state: State) -> Action | None:
        """There is no phase to end: every activation is one action; "hold" ends a unit's turn."""
        return None

    def piece_actions(self, state: State, legal: Any, piece: str) -> list[tuple[str, Action]]:
        """Set-up steps and pending choices that concern no piece (terrain placement, area, Reserve,
        first player; placing a dropped Objective or a corpse pile) are offered on whichever piece is
        selected; otherwise the piece's own actions."""
        if (state["phase"] == "deployment" and state["deploy"]["step"] != "units") or \
                (state.get("pending") and legal and not any("unit" in a for a in legal)):
            return [(describe_action(a), a) for a in legal]
        return super().piece_actions(state, legal, piece)

    def secret_choice(self, state: State) -> SecretChoice | None:
        pend = state.get("pending") or []
        if not pend or pend[0]["window"] not in ("attacked", "discard", "hand_limit"):
            return None
        p = pend[0]
        cat = catalogue()
        options = []
        for a in legal_actions(state):
            if a["type"] == "respond":
                label = "play no card" if a["card"] is None else f"play {cat.full_name(a['card'])}"
            else:
                label = "keep every card" if not a["cards"] else \
                    f"discard {', '.join(cat.full_name(c) for c in a['cards'])}"
            options.append((label, a))
        prompt = {"attacked": "Answer the attack with a Tactics card?",
                  "discard": "Cleanup: discard Tactics cards before drawing up to 3?",
                  "hand_limit": "More than 5 Tactics cards in hand: which do you discard?"}[p["window"]]
        return SecretChoice(p["player"], prompt, options)
