"""What the client draws for Vikings and which actions its gestures propose (see simulator.core.view)."""

from __future__ import annotations

from typing import Any

from simulator.core.game import Action, State
from simulator.core.view import (FeatureStyle, HexSurface, LineOfSight, Measurement, MoveRange, PieceView,
                                 Presentation, SecretChoice, TerrainStyle, Tools, TurnStep)
from simulator.games.vikings import animals, fire, fleet, horses, movement, phases, shipgeom, tide, treasure
from simulator.games.vikings.catalogue import ship_types
from simulator.games.vikings.game import board_of
from simulator.games.vikings.pieces import alive, ctype, front_hex, living_at, values

TERRAIN_STYLES = {
    "clear": TerrainStyle("clear", "Clear ground", (178, 196, 120)),
    "brush": TerrainStyle("brush", "Brush", (130, 160, 80), "rough"),
    "embankment": TerrainStyle("embankment", "Embankment", (176, 150, 100), "rough"),
    "tree": TerrainStyle("tree", "Trees", (60, 110, 55), "trees"),
    "beach": TerrainStyle("beach", "Beach", (232, 214, 160)),
    "sea": TerrainStyle("sea", "Sea", (40, 90, 150), "waves"),
    "river": TerrainStyle("river", "River", (70, 130, 190), "waves"),
    "rocks": TerrainStyle("rocks", "Rocks", (112, 108, 104), "rocks"),
    "building": TerrainStyle("building", "Building interior (plank floor)", (196, 160, 112), "fields"),
    "coastal": TerrainStyle("coastal", "Coastal water", (90, 150, 200), "waves"),
    "deep": TerrainStyle("deep", "Deep water", (30, 70, 130), "waves"),
}
FEATURE_STYLES = {
    "wall": FeatureStyle("wall", "Wall", (45, 32, 24), 0.22, "wall"),
    "door": FeatureStyle("door", "Door", (230, 170, 40), 0.22, "door"),
    "window": FeatureStyle("window", "Window", (150, 215, 255), 0.2, "window"),
    "arrow_slit": FeatureStyle("arrow_slit", "Arrow slit", (200, 40, 30), 0.2, "gate"),
    "crest": FeatureStyle("crest", "Embankment crest", (95, 65, 35), 0.12, "bank"),
}
def slot_of_pivot(ship: dict[str, Any]) -> int:
    return shipgeom.slot_of(ship["type"], "pivot")


ROLE_NAMES = {"bow": "bow", "stern": "rudder", "pivot": "mast", "middle": "keel", "port": "port",
              "starboard": "starboard"}


def ship_record(board: Any, state: State, sid: str) -> dict[str, str]:
    """The ship's record card as its player keeps it (rule 4.7, the cards of sections 6-7): whose ship
    it is, the damage total against the sinking mark, the collisions that hold the bailers' floor, each
    damaged hex with its points and leak, what the leaks add at the end of the next naval phase, and
    what the total costs in speed and acceleration."""
    ship = state["ships"][sid]
    t = ship_types()[ship["type"]]
    fp = fleet.hexes(board, ship)
    roles = shipgeom.roles(ship["type"])
    crew = [c for c in fleet.crew(state, sid) if c["status"] != "dead"]
    # a ship goes by the name of its jarl or earl, else of its strongest warrior aboard (rule 4.7)
    lord = next((c for c in crew if ctype(c).troop in ("jarl", "earl")), None) or \
        max(crew, key=lambda c: (values(c)[0], c["id"]), default=None)
    out = {"record of": f"{lord['name']}'s {t['name'].lower()}" if lord else f"{t['name'].lower()} (no crew)",
           "damage total": f"{ship['total']} (sinks at {t['sinks_at']})",
           "collisions": str(ship["collisions"])}
    for key in sorted(ship["damage"], key=int):
        slot = int(key)
        points = ship["damage"][key]
        leak = ship["leaks"].get(key)
        note = " (plugged)" if leak and key in ship.get("plugged", []) else f", leaks +{leak}" if leak else ""
        out[f"hex {fp[slot]} {ROLE_NAMES[roles[slot]]}"] = f"{points} pt{'s' if points > 1 else ''}{note}"
    if ship["damage"]:
        out["damaged hexes"] = "no rowing or steering there"
    new = set(ship.get("new_leaks", []))
    rising = sum(v for k, v in ship["leaks"].items() if k not in ship.get("plugged", []))
    if ship["leaks"]:
        out["leaks"] = f"+{rising} a naval phase" + (" (new ones from the next)" if new else "")
    bailers = sum(1 for c in crew if c.get("duty") == "bailer" and c["status"] != "stunned")
    if bailers:
        out["bailing"] = f"-{bailers // 2} a naval phase ({bailers} bailers)"
    if ship["total"] >= 3:
        out["damage costs"] = f"max speed -{ship['total'] // 3}, acceleration -{ship['total'] // 6}"
    return out


SIDE_COLOURS = {"vikings": (150, 40, 40), "saxons": (40, 70, 150)}
# riderless horses: a brown counter edged towards the controlling side's colour
HORSE_COLOURS = {"vikings": (130, 75, 50), "saxons": (95, 80, 110)}
ANIMAL_COLOUR = (200, 170, 150)          # goats and pigs (rule 5.5.3)
#: The troop type icon on each counter (the program's own art, assets/icons).
ICONS = {"jarl": "crown", "hirdman": "helmet", "berserker": "axe", "bowman": "bow", "earl": "crown",
         "thane": "helmet", "huscarl": "shieldwall", "archer": "bow", "peasant": "spear", "woman": "woman",
         "elder": "elder"}
TREASURE_COLOUR = (230, 190, 40)         # treasure markers (rule 5.5.1)


class VikingsPresentation(Presentation):
    def __init__(self, game: Any) -> None:
        self.game = game
        self._last_ways: tuple[State, tuple[Any, ...], dict[str, tuple[int, list[str]]]] | None = None

    def surface(self, state: State) -> HexSurface:
        board = board_of(state)
        overrides = dict(board.water)
        overrides.update({h: "beach" for h in tide.dry_hexes(state)})     # the dry sandbar (rule 5.5.5)
        return HexSurface(board.hexmap, TERRAIN_STYLES, FEATURE_STYLES, hex_overrides=overrides)

    def surface_key(self, state: State) -> Any:
        return tuple(tuple(x) for x in state["layout"]), tide.stage(state)

    def pieces(self, state: State) -> list[PieceView]:
        board = board_of(state)
        out: list[PieceView] = []
        for sid, ship in sorted(state["ships"].items()):
            if not fleet.afloat(ship):
                continue
            status = [f"speed {ship['speed']}", f"damage {ship['total']}/{ship_types()[ship['type']]['sinks_at']}"]
            if ship.get("beached"):
                status.append("beached")
            if ship.get("launching"):
                status.append("launching")
            if ship["leaks"]:
                status.append("leaking")
            pending = ship.get("pending")
            out.append(PieceView(sid, ship["side"], ship["name"], "ship", ship["pivot"],
                                 SIDE_COLOURS[ship["side"]], facing=ship["heading"],
                                 hexes=fleet.hexes(board, ship), status=tuple(status), layer=0,
                                 stats={"type": ship["type"], "speed": ship["speed"],
                                        "speed chosen": "yes" if pending is not None else "no",
                                        **ship_record(board, state, sid)}))
        for hid, horse in sorted(state["horses"].items()):
            led = horse.get("led_by")
            colour = HORSE_COLOURS[horse["side"]] if horse["alive"] else (90, 90, 90)
            facing = board.grid.direction_index(board.grid.direction_between(horse["hex"], horse["front"]))
            out.append(PieceView(hid, horse["side"], "Horse" if horse["alive"] else "Dead horse", "counter",
                                 horse["front"], colour, facing=facing, label="Hr", icon="icons/horse.svg",
                                 hexes=(horse["hex"], horse["front"]), movable=False, layer=1,
                                 status=tuple(x for x in (f"led by {led}" if led else "",
                                                          "aboard" if horse.get("ship") else "") if x),
                                 stats={"side": horse["side"], "led by": led or "nobody",
                                        "defence": horses.defence(state, horse)}))
        for aid, beast in sorted(state.get("animals", {}).items()):
            led = beast.get("led_by")
            out.append(PieceView(aid, beast["side"], beast["kind"].capitalize() if beast["alive"] else
                                 f"Dead {beast['kind']}", "counter", beast["hex"],
                                 ANIMAL_COLOUR if beast["alive"] else (90, 90, 90), label=beast["kind"][:2].capitalize(),
                                 values=("", str(animals.DEFENCE), ""), has_facing=False, movable=False, layer=1,
                                 icon="icons/beast.svg",
                                 status=(f"led by {led}",) if led else (),
                                 stats={"side": beast["side"], "defence": animals.DEFENCE, "led by": led or "nobody"}))
        for tid, tr in sorted(state.get("treasures", {}).items()):
            if tr.get("lost") or tr.get("off_map") or tr["carried_by"] is not None:
                continue
            what = "Treasure" if tr["decoy"] is False else "Treasure marker (face down)" if not tr["revealed"] else "Decoy"
            out.append(PieceView(tid, "", what, "counter", tr["hex"], TREASURE_COLOUR, label="T", icon="icons/chest.svg",
                                 text_colour=(40, 30, 0), has_facing=False, movable=False, layer=1,
                                 status=("face down",) if not tr["revealed"] else (),
                                 stats={"claimed by": tr.get("claim") or "nobody"}))
        occ: dict[str, int] = {}
        for cid, ch in sorted(state["chars"].items()):
            if ch.get("hex") is None:
                continue
            a, d, m = values(ch)
            t = ctype(ch)
            status = [ch["status"]] if ch["status"] != "ok" else []
            status += [x for x, on in (("mounted", ch.get("mounted")), ("axe", ch.get("axe")),
                                       ("shield wall", ch.get("wall")), ("carrying", ch.get("carrying")),
                                       ("treasure", treasure.carried_by(state, cid))) if on]
            if ch.get("duty"):
                status.append(ch["duty"])
            at = front_hex(ch)
            idx = occ.get(at, 0)
            occ[at] = idx + 1
            facing = 0
            if ch.get("mounted"):
                facing = board.grid.direction_index(board.grid.direction_between(ch["hex"], ch["front"]))
            elif ch.get("wall"):
                facing = ch.get("facing", 0)
            colour = SIDE_COLOURS[ch["side"]] if ch["status"] != "dead" else (90, 90, 90)
            # a character on foot has no facing (rule 2.55 gives one to riders only); a shield wall's
            # front (rule 3.2) is drawn as its facing
            faced = bool(ch.get("mounted") or ch.get("wall"))
            out.append(PieceView(cid, ch["side"], ch["name"], "counter", at, colour, facing=facing,
                                 has_facing=faced,
                                 label=t.abbrev, values=(str(a), f"({d})" if t.armour else str(d), str(m)),
                                 hexes=(ch["hex"], ch["front"]) if ch.get("mounted") else (),
                                 status=tuple(status), movable=alive(ch), layer=2, stack_index=idx,
                                 icon=f"icons/{ICONS[t.troop]}.svg" if t.troop in ICONS else "", caption=ch["name"],
                                 markers=tuple((f"markers/{s}.svg", "") for s in ("wound", "stun")
                                               if ch["status"] == {"wound": "wounded", "stun": "stunned"}[s]),
                                 stats={"troop": t.troop, "attack": a, "defence": d, "movement": m,
                                        "armour": t.armour, "bow": t.bow, "MP left": ch.get("mp", 0)}))
        return out

    def turn_sequence(self, state: State) -> tuple[TurnStep, ...]:
        """The turn's steps for the F1 help, the current one marked (``sequence.py``)."""
        from simulator.games.vikings.sequence import turn_sequence

        return turn_sequence(state, self.banner(state))

    def banner(self, state: State) -> str:
        if state.get("over"):
            return f"Game over after turn {state['turns']}"
        idx = state["phase_index"]
        head = f"Turn {state['turn']} of {state['turns']} - {phases.PHASE_NAMES[idx]}"
        if idx in (0, 2):
            nav = state["naval"]
            step = {"duties": "crew duties", "speed": "secret speeds", "movement": f"ship movement, sequence "
                    f"{nav['sequence']}", "window": "grapples between sequences", "haul": "hauling",
                    "pushers": "naming who pushes a boat off"}.get(nav["step"], nav["step"])
            return f"{head}: {step} ({state['active']})"
        step = {"fire": "offensive fire", "move": "movement and defensive fire",
                "stationary_fire": f"defensive fire at characters that stayed put ({state['active']})",
                "combat": "combat"}.get(state["step"], state["step"])
        if state["step"] == "combat" and state["combat"]["round"] > 1:
            step += f" (berserker round {state['combat']['round']})"
        return f"{head} ({state['phasing']}): {step}"

    def tools(self) -> Tools:
        return Tools(snap="hex", rotate_step=60, line_of_sight=True, measure=True, range_rings=(10, 25, 50),
                     measure_unit="hexes")

    def drag_action(self, state: State, piece: str, to: Any) -> Action | None:
        if not isinstance(to, str):
            return None
        if piece in state["ships"]:
            return self._ship_drag(state, piece, to)
        ch = state["chars"].get(piece)
        if ch is None or ch.get("hex") is None:
            return None
        if state["phase_index"] in (1, 3) and state["step"] == "combat" and state.get("advance"):
            # the offered way there (through a stunned enemy's hex it is two hexes, rule 2.75)
            from simulator.games.vikings.melee import advance_options
            path = next((p for c, p in advance_options(board_of(state), state) if c == piece and p[-1] == to), [to])
            return {"type": "advance", "piece": piece, "path": path}
        if state["phase_index"] in (1, 3) and state["step"] == "fire" and ch["side"] == state["phasing"]:
            target = self._target_at(state, to)
            return {"type": "fire", "piece": piece, "target": target} if target else None
        if state["phase_index"] in (1, 3) and state["step"] == "move" and ch["side"] != state["phasing"]:
            target = self._target_at(state, to)
            return {"type": "defensive_fire", "piece": piece, "target": target} if target else None
        if state["phase_index"] in (1, 3) and state["step"] == "combat":
            target = self._target_at(state, to)
            return {"type": "attack", "attackers": [piece], "defenders": [target]} if target else None
        # a drop on a lit-up hex takes the cheapest legal way there, step by step (rules 2.5-2.6)
        way = self._ways(state, piece).get(to) if self._moving(state, ch) else None
        return {"type": "move", "piece": piece, "path": way[1]} if way else {"type": "move", "piece": piece, "to": to}

    def _ship_drag(self, state: State, sid: str, to: str) -> Action | None:
        """Dragging the ship to move onto a hex picks the slide whose leading hex (or pivot) lands there."""
        nav = state["naval"]
        if nav.get("step") != "movement" or not nav.get("queue") or nav["queue"][0] != sid:
            return None
        board = board_of(state)
        ship = state["ships"][sid]
        here = shipgeom.placed(board.grid, ship)
        backwards = ship["speed"] < 0
        lead = shipgeom.slot_of(ship["type"], "stern" if backwards else "bow")
        if to in (here.pivot_label, fleet.hexes(board, ship)[lead]):
            return {"type": "ship_move", "ship": sid, "move": "straight"}
        for move in ("straight", "lateral_left", "lateral_right"):
            cells = shipgeom.labels(shipgeom.moved(here, move, backwards))
            if cells is not None and to in (cells[lead], cells[slot_of_pivot(ship)]):
                return {"type": "ship_move", "ship": sid, "move": move}
        return None

    def rotate_action(self, state: State, piece: str, facing: float) -> Action | None:
        ship = state["ships"].get(piece)
        if ship is not None:
            turn = (int(round(facing / 60)) - ship["heading"]) % 6
            return {"type": "ship_move", "ship": piece, "move": "turn_right" if turn in (1, 2) else "turn_left"}
        ch = state["chars"].get(piece)
        if ch is not None and ch.get("mounted"):
            return {"type": "half_turn", "piece": piece}
        return None

    def _char_at(self, state: State, hex_: str) -> str | None:
        ids = living_at(state).get(hex_, [])
        return next((i for i in ids if i in state["chars"]), None)

    def _target_at(self, state: State, hex_: str) -> str | None:
        """The character in the hex, else a goat or pig (rule 5.5.3) or a riderless horse (rule 3.4)
        there: the targets of fire and melee."""
        beast = animals.at(state, hex_)
        horse = next((h for h in horses.living(state) if hex_ in horses.horse_hexes(h)), None)
        return self._char_at(state, hex_) or (beast["id"] if beast else None) or (horse["id"] if horse else None)

    def _moving(self, state: State, ch: dict[str, Any]) -> bool:
        """Whether ``ch`` is a character of the moving side in the movement step (rule 2.5)."""
        return state["phase_index"] in (1, 3) and state["step"] == "move" and ch["side"] == state["phasing"] \
            and ch.get("hex") is not None

    def _ways(self, state: State, piece: str) -> dict[str, tuple[int, list[str]]]:
        """Where a drag of ``piece`` may be dropped now and the way it then takes: the cheapest
        legal way to every hex in the movement step, the offered ways of an advance after combat."""
        # a drag asks for the same answer at every few pixels of the pointer: the last one is kept
        # for as long as the state object is the same (the character and the step unchanged too)
        ch = state["chars"].get(piece) or {}
        key = (piece, ch.get("hex"), ch.get("front"), ch.get("mp"), ch.get("steps"), state.get("step"),
               state.get("phase_index"))
        cached = self._last_ways
        if cached is not None and cached[0] is state and cached[1] == key:
            return cached[2]
        ways = self._ways_now(state, piece)
        self._last_ways = (state, key, ways)
        return ways

    def _ways_now(self, state: State, piece: str) -> dict[str, tuple[int, list[str]]]:
        ch = state["chars"].get(piece)
        if ch is None or ch.get("hex") is None:
            return {}
        if state["phase_index"] in (1, 3) and state["step"] == "combat" and state.get("advance"):
            from simulator.games.vikings.melee import advance_options
            out: dict[str, tuple[int, list[str]]] = {}
            for c, p in advance_options(board_of(state), state):
                if c == piece and p and p[-1] not in out:
                    out[p[-1]] = (len(p), list(p))
            return out
        if not self._moving(state, ch):
            return {}
        return movement.ways(board_of(state), state, ch)

    def move_range(self, state: State, piece: str) -> MoveRange | None:
        """The hexes a drop of the character is accepted on: in the movement step every hex he can
        reach step by legal step, with its cheapest cost in MP; after combat, where he may advance
        (costed in hexes). None in other steps (a drag there fires or attacks: nothing is lit)."""
        ways = self._ways(state, piece)
        return MoveRange(hexes={h: float(c) for h, (c, _) in ways.items()}) if ways else None

    def drag_path(self, state: State, piece: str, to: Any) -> tuple[str, ...] | None:
        """The way a drop on ``to`` takes (see :meth:`drag_action`), from where the character stands."""
        ch = state["chars"].get(piece)
        way = self._ways(state, piece).get(to) if isinstance(to, str) and ch is not None else None
        return (front_hex(ch), *way[1]) if way and ch is not None else None

    def drag_cost(self, state: State, piece: str, to: Any) -> str | None:
        """The drop's cost: MP in the movement step, hexes for an advance after combat."""
        way = self._ways(state, piece).get(to) if isinstance(to, str) else None
        if way is None:
            return None
        if state["step"] == "combat":
            return f"advance {way[0]} hex{'es' if way[0] != 1 else ''}"
        return f"{way[0]} MP"

    def _hex_of(self, state: State, ref: Any) -> str | None:
        if isinstance(ref, str) and ref in state["chars"]:
            return front_hex(state["chars"][ref]) if state["chars"][ref].get("hex") else None
        if isinstance(ref, str) and ref in state["ships"]:
            return state["ships"][ref]["pivot"]
        return ref if isinstance(ref, str) else None

    def line_of_sight(self, state: State, a: Any, b: Any) -> LineOfSight | None:
        board = board_of(state)
        ha, hb = self._hex_of(state, a), self._hex_of(state, b)
        if ha not in board or hb not in board:
            return None
        sa = state["chars"].get(a) if isinstance(a, str) else None
        sb = state["chars"].get(b) if isinstance(b, str) else None
        sight = fire.line_of_fire(board, state, ha, hb, sa, sb)
        dist = board.distance(ha, hb)
        band = fire.range_band(dist)
        text = f"{sight.reason}; {dist} hexes" + (f" ({band['name']} range)" if band else " (beyond bow range)")
        return LineOfSight(sight.clear and band is not None, text, sight.rule, (ha, hb), tuple(sight.blockers))

    def measure(self, state: State, a: Any, b: Any) -> Measurement | None:
        board = board_of(state)
        ha, hb = self._hex_of(state, a), self._hex_of(state, b)
        if ha not in board or hb not in board:
            return None
        d = board.distance(ha, hb)
        band = fire.range_band(d)
        return Measurement(d, "hexes", f"{d} hexes" + (f", {band['name']} bow range" if band else ""))

    def secret_choice(self, state: State) -> SecretChoice | None:
        if state["phase_index"] not in (0, 2) or state["naval"]["step"] != "speed":
            return None
        side = state["active"]
        for sid, ship in sorted(state["ships"].items()):
            if ship["side"] == side and fleet.afloat(ship) and ship.get("pending") is None:
                options = [(f"speed {v}", {"type": "set_speed", "ship": sid, "speed": v})
                           for v in fleet.legal_speeds(state, sid)]
                return SecretChoice(side, f"{ship['name']}: choose its speed (previous {ship['speed']})", options)
        return None
