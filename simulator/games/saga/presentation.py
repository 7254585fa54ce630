"""What the client draws for SAGA: the table in inches, terrain pieces, one round base per
figure (grouped by unit through ``stats['unit']``), the banner, tools, drags, LOS, measuring.

Coordinates: the game state, the scenarios and the actions use ``simulator/geometry/table.py``'s
convention (inches from the bottom-left corner, y up); the client contract
(``simulator/core/view.py``) has y growing down from the top-left corner. :func:`to_view` and
:func:`to_table` are the only conversion between the two."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from simulator.core.errors import IllegalAction
from simulator.core.game import Action, State
from simulator.core.view import (LineOfSight, Measurement, MoveRange, PieceView, Presentation, SecretChoice,
                                 SidePanel, TableSurface, TerrainPiece, TerrainStyle, Tools,
                                 TurnStep)
from simulator.games.saga import catalogue as cat
from simulator.games.saga import bids, board, movement, panels, placement, scenery, shooting
from simulator.games.saga.units import EPS, profile

COLOURS = [(176, 40, 40), (40, 70, 170), (200, 170, 40), (60, 140, 60)]
TERRAIN_COLOURS = {"trees": (40, 100, 40), "fields": (170, 160, 80), "rocks": (120, 120, 110),
                   "buildings": (150, 100, 70), "plain": (120, 150, 80), "rough": (110, 110, 70),
                   "marsh": (80, 120, 110), "waves": (60, 100, 180), "line": (90, 120, 50), "wall": (130, 130, 130)}
PATTERNS = {"trees", "fields", "rocks", "buildings", "plain", "rough", "marsh", "waves", "stone"}


Point = tuple[float, float]


def _acting(state: State) -> str:
    """The owner of the unit being activated (a Hit and Run reactor's unit moves in the enemy turn)."""
    pend = state.get("pending")
    return str(state["units"][pend["unit"]]["owner"]) if pend else str(state["turn_player"])


def _icon(unit: dict[str, Any]) -> str:
    """The class icon on a figure's base (the program's own art, assets/icons)."""
    return "icons/cart.svg" if unit.get("baggage") else \
        f"icons/{ {'warlord': 'crown', 'hearthguard': 'helmet', 'warriors': 'sword', 'levies': 'spear'}[unit['cls']]}.svg"


def _caption(unit: dict[str, Any]) -> str:
    """The unit's name beside it, without its owner's name in front (``Hearthguard (v-hird)``)."""
    name = str(unit["name"]).removeprefix(f"{unit['owner']} ")
    return name[:1].upper() + name[1:]


def _label(unit: dict[str, Any]) -> str:
    """The letter on a figure's base: its class, B for baggage."""
    return "B" if unit.get("baggage") else {"warlord": "W", "hearthguard": "H", "warriors": "w", "levies": "l"}[unit["cls"]]


def to_view(state: State, p: Any) -> Point:
    """A table point (y up) as the client's point (y down from the top edge)."""
    return float(p[0]), state["table"]["height"] - float(p[1])


def to_table(state: State, p: Any) -> Point:
    """A client point (y down) as a table point (y up); the flip is its own inverse."""
    return to_view(state, p)


def _polygon(t: dict[str, Any]) -> tuple[tuple[float, float], ...]:
    """A terrain piece's outline in table coordinates (linear pieces as a thin band)."""
    if "polygon" in t:
        return tuple((p[0], p[1]) for p in t["polygon"])
    # a linear obstacle drawn as a thin band around its line
    pts = np.array(t["line"], dtype=float)
    left, right = [], []
    for i in range(len(pts)):
        a = pts[max(i - 1, 0)]
        b = pts[min(i + 1, len(pts) - 1)]
        d = b - a
        n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-9) * 0.25
        left.append(tuple(pts[i] + n))
        right.append(tuple(pts[i] - n))
    return tuple(left + right[::-1])


class SagaPresentation(Presentation):
    def surface(self, state: State) -> TableSurface:
        pieces = []
        for t in state["terrain"]:
            style_id = cat.terrain_types()[t["type"]]["style"]
            pattern = style_id if style_id in PATTERNS else "plain"
            style = TerrainStyle(t["type"], t["name"], TERRAIN_COLOURS.get(style_id, (120, 120, 120)), pattern)  # type: ignore[arg-type]
            notes = f"{t['shape']}, {t['height']}, cover {t['cover']}, {t['movement']}"
            pieces.append(TerrainPiece(t["id"], t["name"], tuple(to_view(state, p) for p in _polygon(t)), style, notes))
        zones = tuple((z.get("name", f"{z['side']} deployment"), tuple(to_view(state, p) for p in z["polygon"]),
                       COLOURS[state["players"].index(z["side"]) % 4]) for z in state["zones"]
                      if z["side"] in state["players"])
        return TableSurface(state["table"]["width"], state["table"]["height"], tuple(pieces),
                            named_distances=dict(cat.distances()["distances"]), zones=zones)

    def surface_key(self, state: State) -> Any:
        return len(state["terrain"])

    def pieces(self, state: State) -> list[PieceView]:
        out = []
        # each unit's name under its lowest figure (the one nearest the middle of its front rank),
        # its fatigue markers beside its rightmost one
        figs = state["figures"]

        def middle(u: dict[str, Any]) -> float:
            return sum(figs[k]["x"] for k in u["figures"]) / len(u["figures"])

        named = {u["id"]: min(u["figures"], key=lambda k: (round(figs[k]["y"] * 2), abs(figs[k]["x"] - middle(u))))
                 for u in state["units"].values() if u["figures"]}
        tokens = {u["id"]: max(u["figures"], key=lambda k: state["figures"][k]["x"])
                  for u in state["units"].values() if u["figures"]}
        for fid, f in state["figures"].items():
            u = state["units"][f["unit"]]
            colour = COLOURS[state["players"].index(u["owner"]) % 4]
            status = []
            if u["fatigue"]:
                status.append(f"fatigue {u['fatigue']}")
            if u["fatigue"] >= profile(u)["fatigue_limit"]:
                status.append("exhausted")
            out.append(PieceView(fid, u["owner"], u["name"], "base", to_view(state, (f["x"], f["y"])), colour, label=_label(u),
                                 radius=f["r"], status=tuple(status), has_facing=False, icon=_icon(u),
                                 caption=_caption(u) if named.get(u["id"]) == fid else "",
                                 markers=(("markers/fatigue.svg", ""),) * u["fatigue"] if tokens.get(u["id"]) == fid
                                 else (),
                                 stats={"unit": u["id"], "class": u["cls"], "figures": len(u["figures"]),
                                        "fatigue": u["fatigue"], "mounted": u["mounted"],
                                        "weapon": u.get("weapon") or "-"},
                                 movable=u["owner"] == _acting(state)))
        placing = self._placing(state)
        return out + self._waiting(state) + ([placing] if placing else [])

    def _waiting(self, state: State) -> list[PieceView]:
        """In a deployment step of the set-up, the step's units still off the table, drawn at their
        suggested place (``placement.suggestion``; the sample position when none is found), for
        their owner to drag into place; the other players' waiting units are not shown."""
        st = placement.current(state) if state["phase"] == "setup" else None
        if st is None or st["kind"] != "deploy":
            return []
        out = []
        for uid in placement.pending_units(state, st):
            u = state["units"][uid]
            sample = state["set_up"]["samples"][uid]
            found = placement.suggestion(state, st, uid)
            at = found["at"] if found else sample["at"]
            turned = placement.waiting_facing(state, "units", uid)
            for fid, (dx, dy) in zip(sample["figures"], placement.turned_offsets(state, uid, turned)):
                out.append(PieceView(fid, u["owner"], u["name"], "base", to_view(state, (at[0] + dx, at[1] + dy)),
                                     COLOURS[state["players"].index(u["owner"]) % 4], label=_label(u), radius=sample["r"],
                                     icon=_icon(u),
                                     facing=round(-turned % 360, 3),
                                     status=("not deployed: turn it (the formation turns about its centre), "
                                             "then drag it into place",),
                                     has_facing=len(sample["figures"]) > 1,
                                     stats={"unit": uid, "class": u["cls"], "figures": len(sample["figures"]),
                                            "suggested": at if found else "no legal place found"}))
        return out

    def _placing(self, state: State) -> PieceView | None:
        """In a set-up step placing a terrain piece (after its location roll), the piece, drawn at
        its first legal place (its sample place if none is found) and turned as ``turn_waiting``
        left it, for its placer to drag into place or turn: a tray whose ``outline`` is the piece's."""
        st = placement.current(state) if state["phase"] == "setup" else None
        if st is None or st["kind"] != "terrain" or st["player"] is None \
                or placement.placing_step(state, st["player"]) is None:
            return None
        piece = state["set_up"]["pieces"][st["piece"]]
        turned = placement.waiting_facing(state, "pieces", st["piece"])
        pts = np.asarray(_polygon(piece), dtype=float)
        centre = pts.mean(axis=0)
        found = placement.terrain_options(state, st, 1, facing=turned)
        at = found[0] if found else [float(centre[0]), float(centre[1])]
        outline = tuple((round(float(x), 3), round(float(-y), 3)) for x, y in pts - centre)   # y down in the view
        style_id = cat.terrain_types()[piece["type"]]["style"]
        return PieceView(piece["id"], st["player"], piece["name"], "tray", to_view(state, at),
                         TERRAIN_COLOURS.get(style_id, (120, 120, 120)), facing=round(-turned % 360, 3),
                         width=float(np.ptp(pts[:, 0])), depth=float(np.ptp(pts[:, 1])), outline=outline,
                         status=("not placed: turn it, then drag it into place",),
                         stats={"terrain": piece["type"], "suggested": at if found else "no legal place found"})

    def turn_sequence(self, state: State) -> tuple[TurnStep, ...]:
        """The turn's steps for the F1 help, the current one marked (``sequence.py``)."""
        from simulator.games.saga.sequence import turn_sequence

        return turn_sequence(state)

    def side_panels(self, state: State, viewer: str | None) -> tuple[SidePanel, ...]:
        """The battle boards beside the table (``panels.py``)."""
        return panels.battle_boards(state)

    def panel_actions(self, state: State, legal: Sequence[Action], panel: str, slot: str,
                      item: str | None) -> list[tuple[str, Action]]:
        return panels.actions(state, legal, panel, slot, item)

    def panel_drop(self, state: State, legal: Sequence[Action], panel: str, item: str,
                   slot: str) -> Action | None:
        return panels.drop(state, legal, panel, item, slot)

    def banner(self, state: State) -> str:
        step = state["phase"]
        if state.get("choice"):
            ch = state["choice"]
            step = f"{ch['why']}: pick {ch['count']} figure(s) of {state['units'][ch['unit']]['name']} that die"
        elif state["melee"]:
            step = f"melee ({state['melee']['step'].replace('_', ' ')})"
        elif state["shooting"]:
            step = f"shooting ({state['shooting']['step']})"
        elif state["pending"]:
            step = f"{state['pending']['kind']} of {state['units'][state['pending']['unit']]['name']}"
        elif state["phase"] == "setup" and (placement.current(state) or {}).get("kind") == "deploy":
            step = "deployment: drag a waiting unit into your zone"
        return (f"Turn {min(state['turn'], state['max_turns'])} of {state['max_turns']} - {state['turn_player']}: "
                f"{step} - {state['active']} to act")

    def tools(self) -> Tools:
        d = cat.distances()["distances"]
        return Tools(snap="free", rotate_step=15, line_of_sight=True, measure=True,
                     range_rings=tuple(sorted(d.values())), measure_unit="inches")

    def drag_action(self, state: State, piece: str, to: Any) -> Action | None:
        """Dragging one figure proposes moving the whole activated unit by the same offset: in a
        straight line, or, when only the straight path is barred (impassable terrain, other bases,
        the VS zone of an enemy on the way), along the shortest path round what is in the way
        (``movement.bending_move``: the ``move`` carries every figure's waypoints, SAGA p.12-13).
        When neither is legal the straight move is proposed, so the refusal names the rule."""
        pend = state.get("pending")
        f = state["figures"].get(piece)
        if state["phase"] == "setup":
            return self._deploy_drag(state, piece, to)
        if not pend or pend["kind"] != "move" or f is None or f["unit"] != pend["unit"] or isinstance(to, str):
            return None
        x, y = to_table(state, to)
        dx, dy = round(x - f["x"], 3), round(y - f["y"], 3)
        straight: Action = {"type": "move", "dx": dx, "dy": dy}
        uid = pend["unit"]
        rules = movement.activation_rules(pend)
        try:
            movement.validate_move(state, uid, movement.translation(state, uid, dx, dy), rules)
            return straight
        except IllegalAction:
            pass
        figs = [state["figures"][g] for g in state["units"][uid]["figures"]]
        goal = (sum(g["x"] for g in figs) / len(figs) + dx, sum(g["y"] for g in figs) / len(figs) + dy)
        bent = movement.bending_move(state, uid, goal, rules)
        return movement.move_action(bent.dest, bent.via) if bent is not None else straight

    def drag_path(self, state: State, piece: str, to: Any) -> tuple[Point, ...] | None:
        """The dragged figure's way when the drag proposes a bending move (:meth:`drag_action`):
        from where it stands through its waypoints to where it lands; None for a straight move."""
        action = self.drag_action(state, piece, to)
        f = state["figures"].get(piece)
        if action is None or f is None or piece not in action.get("path", {}):
            return None
        return (to_view(state, (f["x"], f["y"])), *(to_view(state, p) for p in action["path"][piece]))

    def _deploy_drag(self, state: State, piece: str, to: Any) -> Action | None:
        """Dropping a figure of a unit waiting to deploy proposes ``deploy`` with the unit's formation
        around the drop point: that figure lands there, the others keep their offsets."""
        st = placement.current(state)
        if st is None or isinstance(to, str):
            return None
        x, y = to_table(state, to)
        if st["kind"] == "terrain" and piece == st["piece"]:
            turned = placement.waiting_facing(state, "pieces", piece)
            return {"type": "place_terrain", "piece": piece, "at": [round(x, 3), round(y, 3)],
                    **({"facing": turned} if turned else {})}
        if st["kind"] != "deploy":
            return None
        for uid in placement.pending_units(state, st):
            sample = state["set_up"]["samples"][uid]
            if piece in sample["figures"]:
                turned = placement.waiting_facing(state, "units", uid)
                dx, dy = placement.turned_offsets(state, uid, turned)[sample["figures"].index(piece)]
                return {"type": "deploy", "unit": uid, "at": [round(x - dx, 3), round(y - dy, 3)],
                        **({"facing": turned} if turned else {})}
        return None

    def rotate_action(self, state: State, piece: str, facing: float) -> Action | None:
        """Turning a figure of a unit waiting to deploy, or the terrain piece being placed (the
        client's ``facing``: degrees clockwise from up; round bases on the table have no facing),
        proposes ``turn_waiting``: the unit (its formation about its centre) or the piece is turned
        as much (counter-clockwise in table coordinates) and waits so turned for its drag."""
        st = placement.current(state) if state["phase"] == "setup" else None
        turn = round(-float(facing) % 360, 3)
        if st is not None and st["kind"] == "terrain" and piece == st["piece"]:
            return {"type": "turn_waiting", "piece": piece, "facing": turn}
        if st is None or st["kind"] != "deploy":
            return None
        for uid in placement.pending_units(state, st):
            if piece in state["set_up"]["samples"][uid]["figures"]:
                return {"type": "turn_waiting", "unit": uid, "facing": turn}
        return None

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        f = state["figures"].get(piece)
        if f is None:
            return None
        unit = state["units"][f["unit"]]
        pend = state.get("pending") or {}
        if state["phase"] == "setup" or pend.get("kind") != "move" or pend.get("unit") != unit["id"]:
            return None      # a drag moves only the unit activated to move (drag_action proposes nothing else)
        rules = movement.activation_rules(pend)
        return MoveRange(centre=to_view(state, (f["x"], f["y"])), radius=movement.allowance(state, unit, False, rules))

    def _point(self, state: State, a: Any) -> tuple[tuple[float, float], float, str | None]:
        if isinstance(a, str) and a in state["figures"]:
            f = state["figures"][a]
            return (f["x"], f["y"]), f["r"], f["unit"]
        return to_table(state, a), 0.0, None

    def line_of_sight(self, state: State, a: Any, b: Any) -> LineOfSight | None:
        """Between two figures: ``shooting.sight_line`` (from and to any part of a building a
        figure holds, SAGA p.27); else centre (or point) to point."""
        pa, _, ua = self._point(state, a)
        pb, _, ub = self._point(state, b)
        if ua and ub:
            pa, pb, blockers = shooting.sight_line(state, str(a), str(b))
        else:
            blockers = shooting.los_blockers(state, pa, pb, {u for u in (ua, ub) if u})
        ends = (to_view(state, pa), to_view(state, pb))
        if blockers:
            return LineOfSight(False, f"blocked by {', '.join(blockers)}", "SAGA p.15", ends, tuple(blockers))
        return LineOfSight(True, "clear line of sight", "SAGA p.15", ends)

    def measure(self, state: State, a: Any, b: Any) -> Measurement | None:
        pa, ra, _ = self._point(state, a)
        pb, rb, _ = self._point(state, b)
        value = max(0.0, math.dist(pa, pb) - ra - rb)
        d = cat.distances()["distances"]
        within = tuple(k for k, v in sorted(d.items(), key=lambda kv: kv[1]) if value <= v + EPS)
        return Measurement(round(value, 2), "in", f"{value:.1f}\" edge to edge"
                           + (f" (within {within[0]})" if within else " (beyond L)"), within)

    def piece_actions(self, state: State, legal: Any, piece: str) -> list[tuple[str, Action]]:
        """The generic menu, plus the casualty and bodyguard choices naming the figure."""
        out = super().piece_actions(state, legal, piece)
        for action in legal:
            if action["type"] in ("remove_casualties", "bodyguards") and piece in action.get("figures", ()):
                who = "die" if action["type"] == "remove_casualties" else "die for the Warlord"
                out.append((f"{', '.join(action['figures'])} {who}", action))
        st = placement.current(state) if state["phase"] == "setup" else None
        if st is not None and st["kind"] == "deploy" and piece not in state["figures"]:
            waiting = {f: uid for uid in placement.pending_units(state, st)
                       for f in state["set_up"]["samples"][uid]["figures"]}
            listed = [a for _, a in out]
            for action in legal:
                if action in listed:
                    continue
                if action["type"] == "deploy" and waiting.get(piece) == action["unit"]:
                    turned = f" turned {action['facing']:g} degrees" if action.get("facing") else ""
                    out.append((f"deploy {action['unit']} at ({action['at'][0]:g}, {action['at'][1]:g}){turned}", action))
                elif action["type"] == "deploy_suggested" and piece in waiting:
                    out.append(("place the rest of my units as suggested", action))
        return out

    def secret_choice(self, state: State) -> SecretChoice | None:
        """The secret terrain number (SAGA p.49) and scenario 5's bid (SAGA p.55), written down unseen."""
        st = placement.current(state) if state["phase"] == "setup" else None
        if st is not None and st["kind"] == "scenery_number":
            options = [(str(n), {"type": "scenery_number", "number": n})
                       for n in range(scenery.LOWEST, scenery.HIGHEST + 1)]
            return SecretChoice(st["player"], "Scenery: your secret number from 1 to 5 (the pieces are half the "
                                "sum, rounded up)", options)
        if st is None or st["kind"] != "bid":
            return None
        options = [(f"{n} points", {"type": "bid", "points": n}) for n in range(bids.LOWEST, bids.HIGHEST + 1)]
        return SecretChoice(st["player"], "Homeland: how few points do you need to defend the village? "
                            "The lower bid defends with that many points.", options)

    def private_player(self, state: State) -> str | None:
        """Scenario X's Orders Phases (SAGA p.57) are played at once: each player rolls and
        places his dice unseen, so at one screen they are played in turn behind a hand-over."""
        return state.get("active") if board.secret_orders(state) else None

    def end_phase_action(self, state: State) -> Action | None:
        if state["phase"] == "orders":
            return {"type": "end_orders"} if state["orders_rolled"] else {"type": "roll_dice", "keep": []}
        if state["melee"] or state["shooting"]:
            return {"type": "ready"}
        if state["pending"] and state["pending"]["kind"] == "reaction":
            return {"type": "pass"}
        return {"type": "end_turn"}
