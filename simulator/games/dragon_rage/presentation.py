"""What the client draws for Dragon Rage and which actions its gestures propose.

Hex surface from the map with terrain colours from terrain.yaml, walls/entrances/bridge ends
as hexside features, the road as a path, VP values as hex marks (destroyed ones and burned
bridges as overrides); counters show "CF-MP" (or the monster's name) in side colours;
monsters have a facing. Movement ranges and line of sight use the same code as the rules.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from simulator.core.data import load_yaml, validate
from simulator.core.game import Action, State
from simulator.core.view import (FeatureStyle, HexSurface, LineOfSight, Measurement, MoveRange, PieceView,
                                 Presentation, SidePanel, TerrainStyle, Tools, TurnStep)
from simulator.games.dragon_rage import body, head_start, panels
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.elementals import is_wild, way_effects, wild_destinations
from simulator.games.dragon_rage.los import sight
from simulator.games.dragon_rage.monster_moves import walk_reach
from simulator.games.dragon_rage.movement import fatal_reach, reach, way_to
from simulator.games.dragon_rage.params import SPECS
from simulator.games.dragon_rage.phases import may_declare_end, phase_info
from simulator.games.dragon_rage.rules_data import DATA_DIR, rules_data
from simulator.games.dragon_rage.units import is_major, spec
from simulator.games.dragon_rage.victory import graduated_level

_PATTERN = {"forest": "trees", "sea": "waves", "river": "waves", "town": "buildings", "tower": "stone",
            "dock": "stone", "ford": "marsh"}
_FEATURE_STYLE = {"wall": "wall", "gateway": "gate", "tower_gate": "gate", "tower_door": "door", "door": "door",
                  "bridge_access": "bridge", "ford_access": "bank", "river_bank": "bank"}


#: Drawn instead of a gate or door once it is broken (DR 2.5.5.1-2) or opened (DR 2.5.5.3).
ENTRANCE_STATE_STYLES = {
    "entrance_broken": FeatureStyle("entrance_broken", "Broken gate or door", (110, 70, 40), 0.12, "dashed"),
    "entrance_open": FeatureStyle("entrance_open", "Open gate or door", (235, 205, 130), 0.12, "gate"),
    "wall_breached": FeatureStyle("wall_breached", "Breached wooden wall", (110, 70, 40), 0.12, "dashed"),
}


def entrance_overrides(state: State) -> dict[tuple[str, str], str]:
    """{(a, b): feature style id} for every broken or open gate and door."""
    board = board_for(state["map"])
    out: dict[tuple[str, str], str] = {}
    for key, info in state["entrances"].items():
        if info["broken"]:
            out[board.entrances[key].hexes] = "entrance_broken"
        elif info.get("open"):
            out[board.entrances[key].hexes] = "entrance_open"
    for key in state.get("broken_walls") or ():
        a, b = key.split("/")
        out[(a, b)] = "wall_breached"
    return out


def _rgb(value: Any) -> tuple[int, int, int]:
    return (int(value[0]), int(value[1]), int(value[2]))


@lru_cache(maxsize=1)
def presentation_data() -> dict[str, Any]:
    """``data/presentation.yaml`` (counter colours and short labels), checked against its schema."""
    schemas = load_yaml(DATA_DIR / "schemas.yaml").data
    doc = load_yaml(DATA_DIR / "presentation.yaml")
    validate(doc, schemas["presentation"])
    return doc.data


def counter_colours(counter: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(face, text) colours of a counter class: presentation.yaml first, then units.yaml."""
    drawn = presentation_data()["counter_colours"].get(counter)
    if drawn is not None:
        face = _rgb(drawn["rgb"])
        return face, _rgb(drawn["text"]) if "text" in drawn else _contrast(face)
    face = _rgb(rules_data().side_colours.get(counter, {}).get("rgb", (200, 200, 200)))
    return face, _contrast(face)


def _contrast(face: tuple[int, int, int]) -> tuple[int, int, int]:
    return (0, 0, 0) if sum(face) > 450 else (255, 255, 255)


#: The troop type icon on each counter (the program's own art, assets/icons).
ICONS = {"militia": "spear", "infantry": "sword", "cavalry": "horse", "archers": "bow", "ballista": "siege",
         "catapult": "siege", "hero": "crown", "wizard": "wizard", "elowyn": "woman", "orcs": "axe",
         "trolls": "giant", "wargs": "wolf", "goblins": "dagger", "invader_hero": "crown",
         "invader_wizard": "wizard", "giant": "giant", "sea_serpent": "serpent", "t_rex": "monster",
         "fire_elemental": "flame", "earth_elemental": "flame", "dragon": "dragon", "young_dragon": "dragon",
         "roc": "bird", "great_wurm": "serpent", "wurm": "serpent"}


def counter_face(u: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The label and values drawn on a counter (the printed values of DR 2.2.1, reordered for
    the map): combat factor, MP (road MP in brackets), then the escape number as ``e5`` --
    e.g. ``INF`` ``2`` ``2(3)`` ``e5``, printed ``2-2(3)-e5``; a small counter prints the
    longest leading run that fits (``2-2(3)``, or ``(2)`` for a wizard), so it shows strength
    first and is never clipped. A defence-only factor is bracketed; minor monsters show CF,
    MP and the damage points left; major monsters their walking MP and the damage points left."""
    s = spec(u)
    label = s.get("code") or presentation_data()["labels"].get(u["type"]) or s["name"]
    if is_major(u):
        # what is left now: after a move the counter shows the MP still to spend this turn
        return label, (f"{max(0, body.walk_mp(u) - int(u.get('mp_used', 0)))}MP", f"{body.total_hp_left(u)}hp")
    cf = f"({s.get('defence', 0)})" if s.get("defence_only") else str(s.get("cf", 0))
    mp = "-" if s.get("mp") is None else f"{s['mp']}" + (f"({s['road_mp']})" if s.get("road_mp") else "")
    if s.get("hp"):
        return label, (cf, mp, f"{int(s['hp']) - int(u.get('damage_taken', 0))}hp")
    escape = s.get("escape")
    return label, (cf, mp, f"e{escape}" if escape else "no escape")


class DragonRagePresentation(Presentation):
    def surface(self, state: State) -> HexSurface:
        data = rules_data()
        board = board_for(state["map"])
        terrain = {k: TerrainStyle(k, v["name"], _rgb(v["colour"]), _PATTERN.get(k, "plain"))  # type: ignore[arg-type]
                   for k, v in data.terrain.items()}
        features = {k: FeatureStyle(k, v["name"], _rgb(v["colour"]), 0.16 if k in ("wall", "gateway") else 0.12,
                                    _FEATURE_STYLE.get(k, "line"))  # type: ignore[arg-type]
                    for k, v in data.features.items()}
        paths = {k: FeatureStyle(k, v["name"], _rgb(v["colour"]), 0.1, "road") for k, v in data.paths.items()}
        marks = {h: str(v) for h, v in board.vp.items() if h not in state["vp"]["destroyed"]}
        marks.update({h: f"x{v}" for h, v in state["vp"]["destroyed"].items()})
        overrides = {h: "river" for h, s in state["bridges"].items() if s == "burned"}
        features.update(ENTRANCE_STATE_STYLES)
        return HexSurface(board.hexmap, terrain, features, paths, marks, overrides,
                          hexside_overrides=entrance_overrides(state))

    def surface_key(self, state: State) -> Any:
        return (tuple(sorted(state["vp"]["destroyed"])), tuple(sorted(state["bridges"].items())),
                tuple(sorted(entrance_overrides(state).items())))

    def pieces(self, state: State) -> list[PieceView]:
        out: list[PieceView] = []
        stack: dict[str, int] = {}
        for u in state["units"].values():
            if not u["alive"] or u["hex"] is None:
                continue
            s = spec(u)
            colour, text = counter_colours(str(s.get("counter", "")))
            label, values = counter_face(u)
            status = tuple(x for x, on in (("wounded", u["wounded"]), ("flying", u.get("flying")),
                                           ("berserk", u.get("berserk")), ("slayer", u["slayer"]),
                                           ("boosted", u["boosted"]), ("captive", u.get("captive")),
                                           ("uncontrolled", u.get("controlled") is False)) if on)
            idx = stack.get(u["hex"], 0)
            stack[u["hex"]] = idx + 1
            # the phasing player moves an uncontrolled elemental, whoever summoned it (DR 2.8.9)
            movable = not head_start.is_open(state) and (
                u["side"] == state["active"] or bool(is_wild(u) and wild_destinations(state, u)[1]))
            out.append(PieceView(u["id"], u["side"], s["name"], "counter", u["hex"], colour,
                                 facing=float(u.get("facing", 0)), label=label, values=values, text_colour=text,
                                 status=status, stats=self._stats(u), movable=movable,
                                 layer=1 if u.get("flying") else 0, stack_index=idx,
                                 has_facing=is_major(u),
                                 icon=f"icons/{ICONS[u['type']]}.svg" if u["type"] in ICONS else ""))
        return out

    def _stats(self, u: dict[str, Any]) -> dict[str, Any]:
        s = spec(u)
        out: dict[str, Any] = {"type": s["name"]}
        if is_major(u):
            for area, dmg in u["damage"].items():
                hp = s["areas"][area]["hp"]
                out[area] = " ".join(f"{max(0, hp - d)}/{hp}" for d in dmg)
            out["breaths left"] = u["breaths_left"]
        elif "hp" in s and s["hp"]:
            out["hp"] = f"{s['hp'] - u.get('damage_taken', 0)}/{s['hp']}"
        if "sp" in u:
            out["spell points"] = u["sp"]
        return out

    def turn_sequence(self, state: State) -> tuple[TurnStep, ...]:
        """The turn's steps for the F1 help, the current one marked (``sequence.py``)."""
        from simulator.games.dragon_rage.sequence import turn_sequence

        return turn_sequence(state)

    def side_panels(self, state: State, viewer: str | None) -> tuple[SidePanel, ...]:
        """Boxes of the pieces off the map (``panels.py``)."""
        return panels.boxes(state)

    def panel_actions(self, state: State, legal: Sequence[Action], panel: str, slot: str,
                      item: str | None) -> list[tuple[str, Action]]:
        return panels.actions(state, legal, panel, slot, item)

    def banner(self, state: State) -> str:
        if head_start.is_open(state):
            return (f"Before turn 1 - Invader: campaign head start, {state['head_start']['left']} VP of VP hexes "
                    f"to mark destroyed (right-click any counter; End phase: the default) - "
                    f"VP {state['vp']['score']}/{state['vp']['objective']}")
        limit = f"/{state['turn_limit']}" if state.get("turn_limit") else ""
        side = state["active"].capitalize()
        name = phase_info(state["phase"])["name"]
        vp = f"VP {state['vp']['score']}/{state['vp']['objective']}"
        if may_declare_end(state) is None:
            vp += " (the invader may declare the game over: right-click any counter)"
        return f"Turn {state['turn']}{limit} - {side}: {name} - {vp}"

    def piece_actions(self, state: State, legal: Sequence[Action], piece: str) -> list[tuple[str, Action]]:
        """The generic menu (plus, with graduated results, the invader's ``declare_end`` on any
        counter, DR 2.3); during the campaign head start (DR 4.3.3), which concerns no piece,
        every VP hex the invader may mark, offered on whichever counter is right-clicked (the
        hex under that counter first), and the default for the rest."""
        if not head_start.is_open(state):
            return [*[(self._label(state, piece, label, a), a) for label, a in super().piece_actions(state, legal, piece)],
                    *[(self._declare_end_label(state), a) for a in legal if a["type"] == "declare_end"]]
        values = board_for(state["map"]).vp
        unit = state["units"].get(piece) or {}
        here = [a for a in legal if a["type"] == "head_start" and a["hex"] == unit.get("hex")]
        out = [(f"Mark {a['hex']} destroyed ({values[a['hex']]} VP)", a)
               for a in here + [a for a in legal if a["type"] == "head_start" and a not in here]]
        out += [(f"Mark the remaining {state['head_start']['left']} VP by default", a)
                for a in legal if a["type"] == "end_phase"]
        return out

    def _label(self, state: State, piece: str, label: str, action: Action) -> str:
        """Labels that say more than the generic one: a wild elemental's way, a melee whose
        doubled units take Boost Morale's +1 instead (DR 2.8.5)."""
        if action["type"] == "move" and is_wild(state["units"][piece]):
            return self._wild_move_label(state, action)
        if action["type"] == "melee" and action.get("boost_instead"):
            plain = SPECS["melee"].describe(state, {k: v for k, v in action.items() if k != "boost_instead"})
            return f"{plain} ({', '.join(action['boost_instead'])}: Boost +1 instead of the hero's doubling)"
        return label

    @staticmethod
    def _declare_end_label(state: State) -> str:
        """The invader's end of the game with graduated results, naming the level it gives (DR 2.3);
        it concerns no piece, so it is offered on any counter."""
        level = graduated_level(state)
        result = f"'{level['title']}' ({level['level']} victory)" if level else "the invader's defeat"
        return f"Declare the game over now: {state['vp']['score']} VP gives {result}"

    def _wild_move_label(self, state: State, action: Action) -> str:
        """A wild elemental's move names its way and the hexes of consequence on it, so that the
        player can tell the equally short ways apart (DR 2.8.9): "move to 0907 by 1005-1006
        (enters 1005: VP 3)"."""
        el = state["units"][action["unit"]]
        way = action.get("path") or wild_destinations(state, el)[1].get(action["to"], (0, [el["hex"]]))[1][1:]
        values = board_for(state["map"]).vp
        effects = [f"{h}: VP {values[h]}" if h in values else f"{h}: gate"
                   for h in way_effects(state, [el["hex"], *way])]
        by = f" by {'-'.join(way[:-1])}" if len(way) > 1 else ""
        return f"move to {action['to']}{by}" + (f" (enters {', '.join(effects)})" if effects else "")

    def tools(self) -> Tools:
        return Tools(snap="hex", rotate_step=60, line_of_sight=True, measure=True, measure_unit="hexes")

    def drag_action(self, state: State, piece: str, to: Any) -> Action | None:
        u = state["units"].get(piece)
        if u is None or not isinstance(to, str):
            return None
        if is_major(u):
            if u.get("flying"):
                return None
            if u["hex"] is None:          # from its box off the map: it enters facing inwards (DR 3.2.1)
                return {"type": "enter", "unit": piece, "to": to, "facing": panels.inward(state, to)}
            # a drop on any hex it reaches walks the cheapest way there, the one the window lit up
            way = walk_reach(state, u).get(to)
            return {"type": "walk", "unit": piece, "path": list(way[1]) if way else [to]}
        return {"type": "move", "unit": piece, "to": to}

    def drag_path(self, state: State, piece: str, to: Any) -> tuple[str, ...] | None:
        """The way a drop on ``to`` takes (:meth:`drag_action`): a walking monster's cheapest walk,
        a wild elemental's way, a unit's cheapest move; from where the piece stands."""
        u = state["units"].get(piece)
        if u is None or not isinstance(to, str) or u["hex"] is None or not state["phase"].endswith("move"):
            return None
        if is_major(u):
            way = walk_reach(state, u).get(to) if not u.get("flying") else None
            return (u["hex"], *way[1]) if way else None
        if is_wild(u):
            wild = wild_destinations(state, u)[1].get(to)
            return tuple(wild[1]) if wild else None
        path = way_to(state, u, to)
        return tuple(path) if path else None

    def rotate_action(self, state: State, piece: str, facing: float) -> Action | None:
        u = state["units"].get(piece)
        if u is None or not is_major(u):
            return None
        return {"type": "rotate", "unit": piece, "facing": int(round(facing)) % 6}

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        u = state["units"].get(piece)
        if u is None or not u["alive"] or not state["phase"].endswith("move"):
            return None
        if is_wild(u):
            return MoveRange({h: c for h, (c, _) in wild_destinations(state, u)[1].items()})
        if not is_major(u):
            # an elemental may also be sent where it is destroyed (DR 2.8.9): those hexes are legal drops
            fatal = {h: c for h, (c, _, _) in fatal_reach(state, u).items()}
            return MoveRange({**fatal, **{h: c for h, (c, _) in reach(state, u).items()}})
        return MoveRange(self._walk_range(state, u))

    def _walk_range(self, state: State, u: dict[str, Any]) -> dict[str, float]:
        """Hexes a walking monster reaches (facing-aware search in the rules' own code)."""
        return {h: float(c) for h, (c, _, _) in walk_reach(state, u).items()}

    def line_of_sight(self, state: State, a: Any, b: Any) -> LineOfSight | None:
        ha, hb = self._hex(state, a), self._hex(state, b)
        if ha is None or hb is None:
            return None
        target = state["units"].get(b) if isinstance(b, str) else None
        up = bool(target and target.get("flying"))
        s = sight(state["map"], ha, hb, target_up=up, breaches=tuple(state.get("broken_walls") or ()))
        blockers: tuple[Any, ...] = ()
        if s.blocker:
            blockers = (tuple(s.blocker.split("/")),) if "/" in s.blocker else (s.blocker,)
        return LineOfSight(s.clear, s.reason, "DR 2.7.6.2", (ha, hb), blockers)

    def measure(self, state: State, a: Any, b: Any) -> Measurement | None:
        ha, hb = self._hex(state, a), self._hex(state, b)
        if ha is None or hb is None:
            return None
        d = board_for(state["map"]).distance(ha, hb)
        return Measurement(float(d), "hexes", f"{d} hex{'es' if d != 1 else ''}")

    def _hex(self, state: State, ref: Any) -> str | None:
        if isinstance(ref, str) and ref in state["units"]:
            return state["units"][ref]["hex"]
        if isinstance(ref, str) and ref in board_for(state["map"]):
            return ref
        return None
