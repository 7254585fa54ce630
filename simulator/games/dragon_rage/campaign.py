"""Campaigns (DR 4): five linked games on one map, each player keeping his side.

What the rules carry from one game to the next is the players' *availability points*: each
game both sides recruit afresh (DR 4.3.1) with their availability total as budget and a unit
cap that grows with the game number; the objective follows DR 4.3.2; a big availability gap
gives the weaker invader destroyed-VP markers or raises the stronger invader's objective
(DR 4.3.3); after each game availability grows by the result table and +5 per enemy Hero or
Dragon killed (DR 4.4); after the last game the higher total wins (DR 4.5). Units, wounds and
VP do not carry over: the rules rebuild every army from points.

The progress (game number, availability, history) travels inside each generated scenario as
``setup.campaign``, so the session that played a game is all :func:`next_scenario` needs::

    camp = load_campaign("dragon_rage/campaign/esirien-decade")
    session = Session.new(scenario_from_data(first_scenario(camp), "dragon_rage/campaign-1"))
    ...play...
    data = next_scenario(camp, session)          # game 2, availability updated

Game 1 asks for the force-selection screen like the later games; ``scenarios/dragon_rage/
campaign-<name>.yaml`` is the first game of each campaign file as the picker offers it (its
content is ``first_scenario``'s, a test keeps them equal). The client's "Next game" goes
through ``DragonRage.next_scenario`` -> :func:`linked_next_scenario` (the finished state and
scenario only), whose result asks for the force-selection screen too (``force_selection:
{mode: campaign}``, see :mod:`.forces`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from simulator import ROOT
from simulator.core.data import Document, load_yaml, parse_yaml, validate
from simulator.core.errors import DataError
from simulator.core.game import Outcome
from simulator.games.dragon_rage.board import board_for
from simulator.games.dragon_rage.head_start import default_hexes
from simulator.games.dragon_rage.pointbuy import (Choice, catalogue, check_force, counts, cost, objective_lines,
                                                  placed_entries, pointbuy_data, scenario_data, schemas)

CAMPAIGNS_DIR = ROOT / "scenarios" / "dragon_rage" / "campaign"
Record = dict[str, Any]


@dataclass(frozen=True)
class Campaign:
    """A loaded campaign file (``dragon_rage-campaign/1``)."""

    id: str
    data: dict[str, Any]
    doc: Document | None = None

    @property
    def map(self) -> str:
        return str(self.data["map"])

    @property
    def games(self) -> int:
        return len(self.data["games"])


def load_campaign(ref: str | Path) -> Campaign:
    """A campaign by path or by id (``dragon_rage/campaign/esirien-decade``), validated."""
    path = Path(ref)
    if path.suffix not in (".yaml", ".yml"):
        name = str(ref).removeprefix("dragon_rage/").removeprefix("campaign/")
        path = CAMPAIGNS_DIR / f"{name}.yaml"
        if not path.exists():
            known = ", ".join(p.stem for p in sorted(CAMPAIGNS_DIR.glob("*.yaml"))) or "none"
            raise DataError(f"unknown campaign {str(ref)!r} (known: {known})")
    doc = load_yaml(path)
    validate(doc, schemas()["campaign"])
    rules = pointbuy_data()["campaign"]
    if len(doc.data["games"]) > int(rules["games"]):
        raise doc.error(("games",), f"a campaign has {rules['games']} games (DR 4.1), this one lists "
                                    f"{len(doc.data['games'])}")
    return Campaign(f"dragon_rage/campaign/{path.stem}", doc.data, doc)


# ------------------------------------------------------------------------------- the rules
def start(campaign: Campaign) -> Record:
    """The progress before the first game: 60 availability points each (DR 4.1)."""
    default = int(pointbuy_data()["campaign"]["start_availability"])
    given = campaign.data.get("start_availability", {})
    return {"campaign": campaign.id, "game": 1,
            "availability": {s: int(given.get(s, default)) for s in ("invader", "defender")},
            "history": []}


def unit_cap(game: int) -> int:
    """The most units a player may recruit for game number ``game`` (DR 4.3.1)."""
    caps = {int(k): int(v) for k, v in pointbuy_data()["campaign"]["unit_cap"].items()}
    return caps.get(game, caps[max(caps)])


def balance(availability: Mapping[str, int]) -> tuple[int, int]:
    """(VP head start for the invader, objective increase) from the availability gap (DR 4.3.3)."""
    b = pointbuy_data()["campaign"]["balance"]
    gap = int(availability["defender"]) - int(availability["invader"])
    if abs(gap) < int(b["gap"]):
        return 0, 0
    vp = abs(gap) // int(b["per_points"])
    return (vp, 0) if gap > 0 else (0, vp)


def head_start_hexes(map_name: str, vp: int, chosen: Sequence[str] | None = None) -> list[str]:
    """VP hexes marked destroyed before play, worth at most ``vp`` in all (DR 4.3.3).

    The rules leave the hexes to the invader (``chosen``); without a choice the most valuable
    hexes that still fit are taken, in label order, which reaches ``vp`` exactly whenever the
    map's 1-VP hexes allow it.
    """
    values = board_for(f"dragon_rage/{map_name}").vp
    if chosen is not None:
        bad = [h for h in chosen if values.get(h, 0) <= 0]
        total = sum(values.get(h, 0) for h in chosen)
        if bad or len(set(chosen)) != len(chosen) or total > vp:
            raise DataError(f"head-start hexes {list(chosen)} must be distinct VP hexes worth at most {vp} VP "
                            f"(worth {total}; not VP hexes: {bad}) (DR 4.3.3)")
        return list(chosen)
    return default_hexes(values, vp)


def kills(state: Mapping[str, Any]) -> dict[str, list[str]]:
    """Enemy Heroes and Dragons each side killed in a game (ids), for the DR 4.4 bounty."""
    types = set(pointbuy_data()["campaign"]["after_game"]["bounty_types"])
    out: dict[str, list[str]] = {"invader": [], "defender": []}
    for u in state["units"].values():
        if not u["alive"] and u["type"] in types and u["side"] in out:
            out["defender" if u["side"] == "invader" else "invader"].append(u["id"])
    return {k: sorted(v) for k, v in out.items()}


def awards(availability: Mapping[str, int], winner: str | None, kills_by: Mapping[str, Sequence[str]]
           ) -> dict[str, int]:
    """Availability points each side gains after a game (DR 4.4, Q-CAM-1 option A)."""
    a = pointbuy_data()["campaign"]["after_game"]
    inv, dfd = int(availability["invader"]), int(availability["defender"])
    gain = {"invader": 0, "defender": 0}
    if winner is None:
        gain = {s: int(a["no_winner"]["each"]) for s in gain}
    elif abs(inv - dfd) <= int(a["close_gap"]):
        loser = "defender" if winner == "invader" else "invader"
        gain[winner], gain[loser] = int(a["close"]["winner"]), int(a["close"]["loser"])
    else:
        weaker = "invader" if inv < dfd else "defender"
        stronger = "defender" if weaker == "invader" else "invader"
        row = a["weaker_wins"] if winner == weaker else a["weaker_loses"]
        gain[weaker], gain[stronger] = int(row["weaker"]), int(row["stronger"])
    for side in gain:
        gain[side] += int(a["bounty"]) * len(kills_by.get(side, ()))
    return gain


def after_game(record: Record, outcome: Outcome | Mapping[str, Any], state: Mapping[str, Any]) -> Record:
    """The campaign progress after a finished game (DR 4.4): a new record, ``record`` untouched."""
    out = outcome.as_dict() if isinstance(outcome, Outcome) else dict(outcome)
    winner = out.get("winner")
    if winner not in ("invader", "defender", None):
        raise DataError(f"a campaign game is won by 'invader' or 'defender', not {winner!r}")
    killed = kills(state)
    gain = awards(record["availability"], winner, killed)
    entry = {"game": record["game"], "winner": winner, "result": out.get("text", ""),
             "invader_vp": int(state["vp"]["score"]), "objective": int(state["vp"]["objective"]),
             "availability_before": dict(record["availability"]), "kills": killed, "gained": gain}
    return {"campaign": record["campaign"], "game": int(record["game"]) + 1,
            "availability": {s: int(record["availability"][s]) + gain[s] for s in gain},
            "history": [*record["history"], entry]}


def is_over(campaign: Campaign, record: Record) -> bool:
    return int(record["game"]) > campaign.games


def campaign_winner(campaign: Campaign, record: Record) -> str | None:
    """After the last game, the side with more availability points; None on a tie (DR 4.5)."""
    if not is_over(campaign, record):
        raise DataError(f"the campaign is not over: game {record['game']} of {campaign.games} is next")
    inv, dfd = record["availability"]["invader"], record["availability"]["defender"]
    return None if inv == dfd else ("invader" if inv > dfd else "defender")


# --------------------------------------------------------------------------- scenario builder
def game_scenario(campaign: Campaign, record: Record, *, invader: Choice | None = None,
                  defender: Choice | None = None, head_start: Sequence[str] | None = None) -> dict[str, Any]:
    """Scenario data for the campaign's next game (``record['game']``).

    The forces default to the ones the campaign file lists for that game; a player who gained
    availability may pass a bigger ``invader``/``defender`` choice. Raises :class:`DataError`
    when a force breaks the budget, the unit cap or the recruiting rule (DR 4.3.1).
    """
    if is_over(campaign, record):
        raise DataError(f"the campaign is over after {campaign.games} games "
                        f"(winner: {campaign_winner(campaign, record) or 'a tie'}, DR 4.5)")
    n = int(record["game"])
    spec = campaign.data["games"][n - 1]
    forces = {"invader": invader if invader is not None else spec["invader"],
              "defender": defender if defender is not None else spec["defender"]}
    problems = []
    for side, choice in forces.items():
        found = check_force(campaign.map, side, choice, budget=int(record["availability"][side]),
                            unit_cap=unit_cap(n))
        if found and choice is spec[side] and campaign.doc is not None:
            # the file's own recruitment breaks the rules: say where (file, line, field)
            raise campaign.doc.error(("games", n - 1, side), f"campaign game {n}: illegal recruiting: "
                                                             + "; ".join(map(str, found)))
        problems += found
    if problems:
        raise DataError(f"campaign game {n}: illegal recruiting: " + "; ".join(map(str, problems)))
    elowyn = bool(spec.get("elowyn", campaign.data.get("elowyn", False)))
    lines = objective_lines(campaign.map, forces["invader"], forces["defender"], elowyn=elowyn,
                            table="campaign", game=n)
    vp_start, objective_up = balance(record["availability"])
    # given hexes are marked at set-up; else the invader marks them in play (head_start.py)
    marked = head_start_hexes(campaign.map, vp_start, head_start) if vp_start and head_start is not None else []
    in_play = vp_start if vp_start and head_start is None else 0
    princess = sum(line.add for line in lines if line.id == "princess")
    objective = sum(line.add for line in lines) + objective_up - princess
    calc = " ".join(f"{line.add:+d} ({line.text})" if i else f"{line.add} ({line.text})"
                    for i, line in enumerate(lines))
    if objective_up:
        calc += f" {objective_up:+d} (availability gap, DR 4.3.3)"
    av = record["availability"]
    names = campaign.data.get("players", {})
    data = scenario_data(
        campaign.map,
        {s: placed_entries(campaign.map, s, c) for s, c in forces.items()},
        objective=max(1, objective), elowyn=elowyn, turns=campaign.data.get("turns"),
        name=f"{campaign.data['name']} - game {n}: {spec['name']}",
        description=spec.get("description", campaign.data.get("description", "A campaign game (DR 4).")),
        notes=(f"Campaign game {n} of {campaign.games} (DR 4). Availability: invader {av['invader']}, defender "
               f"{av['defender']}; forces cost {cost(forces['invader'])} and {cost(forces['defender'])} points "
               f"({sum(counts(forces['invader']).values())} and {sum(counts(forces['defender']).values())} units, "
               f"cap {unit_cap(n)}). Objective: {calc}"
               + (f" (the Princess's {princess:+d} is added by the engine)" if princess else "")
               + (f". Head start: {sum(board_for(f'dragon_rage/{campaign.map}').vp[h] for h in marked)} VP "
                  f"in {', '.join(marked)} (DR 4.3.3)" if marked else "")
               + (f". Head start: {in_play} VP, the invader marks the VP hexes before play (DR 4.3.3)"
                  if in_play else "") + "."),
        extra_setup={**({"destroyed_vp": marked} if marked else {}),
                     **({"head_start_vp": in_play} if in_play else {}), "campaign": _plain(record)},
    )
    for player in data["players"]:
        if player["id"] in names:
            player["name"] = f"{player['name']} ({names[player['id']]})"
    return data


def first_scenario(campaign: Campaign, **choices: Any) -> dict[str, Any]:
    """Scenario data for game 1, asking for the same force-selection screen as the later games
    (``force_selection: {mode: campaign}``): each player recruits with his starting availability
    under the first game's unit cap (DR 4.1, 4.3.1). Its forces (the campaign file's suggestion,
    or ``invader=``/``defender=``) are what is played without the screen."""
    data = game_scenario(campaign, start(campaign), **choices)
    data["force_selection"] = {"mode": "campaign"}
    return data


def record_of(session: Any) -> Record:
    """The campaign progress a campaign game's session was started with."""
    rec = session.scenario.setup.get("campaign")
    if rec is None:
        raise DataError(f"scenario {session.scenario.id!r} is not a campaign game (no setup.campaign)")
    return _checked_record(rec, session.scenario.id)


def progress_after(session: Any) -> Record:
    """The campaign progress after the game ``session`` played to its end (DR 4.4)."""
    outcome = session.outcome()
    if outcome is None:
        raise DataError("the campaign game is not finished yet (no outcome)")
    return after_game(record_of(session), outcome, session.state_data())


def next_scenario(campaign: Campaign, previous_session: Any, **choices: Any) -> dict[str, Any]:
    """Scenario data for the game after the one ``previous_session`` finished, availability carried
    forward (DR 4.4). ``choices``: ``invader=``, ``defender=`` forces, ``head_start=`` hexes."""
    return game_scenario(campaign, progress_after(previous_session), **choices)


# ------------------------------------------------------------------ linked games (the client)
def _checked_record(rec: Any, where: str) -> Record:
    doc = parse_yaml(yaml.safe_dump(_plain(rec)), f"{where}: setup.campaign")
    validate(doc, schemas()["record"])
    return _plain(rec)


def default_forces(campaign: Campaign, record: Record, side: str) -> dict[str, int]:
    """The force a side brings to game ``record['game']`` unless its player chooses another:
    the campaign file's suggested recruitment for that game when it is legal within the side's
    availability and the game's unit cap (DR 4.3.1), else the greedy pick of the point-buy
    catalogue (dearest counter that still fits, one at a time) within those limits."""
    from simulator.core.view import ForceOption, ForceSelection, greedy_forces
    n = int(record["game"])
    budget, cap = int(record["availability"][side]), unit_cap(n)
    suggested = counts(campaign.data["games"][n - 1][side])
    if not check_force(campaign.map, side, suggested, budget=budget, unit_cap=cap):
        return suggested
    selection = ForceSelection(side, side, budget, options=tuple(
        ForceOption(o.unit_type, o.name, o.cost, o.max) for o in catalogue(campaign.map, side)),
        unit_limit=(1, cap))
    return greedy_forces(selection)


def linked_next_scenario(state: Mapping[str, Any], scenario: Any) -> dict[str, Any] | None:
    """``Game.next_scenario`` for Dragon Rage: after a finished campaign game (its scenario
    carries ``setup.campaign``), the data of the next game with the availability carried
    forward (DR 4.4), the default forces of :func:`default_forces` and ``force_selection:
    {mode: campaign}``, so the client lets both players recruit again before it starts.
    None when the game is no campaign game, is not finished, or was the campaign's last."""
    rec = scenario.setup.get("campaign")
    over = state.get("game_over")
    if rec is None or not over:
        return None
    record = after_game(_checked_record(rec, scenario.id), {"winner": over["winner"], "text": over["text"]}, state)
    campaign = load_campaign(record["campaign"])
    if is_over(campaign, record):
        return None
    forces = {side: default_forces(campaign, record, side) for side in ("invader", "defender")}
    data = game_scenario(campaign, record, **forces)
    data["force_selection"] = {"mode": "campaign"}
    return data


def chosen_game_scenario(scenario: Any, invader: Choice, defender: Choice) -> dict[str, Any]:
    """The campaign game of ``scenario`` (a ``force_selection: {mode: campaign}`` scenario)
    played with the forces the players chose; raises DataError if a force is illegal."""
    record = _checked_record(scenario.setup["campaign"], scenario.id)
    return game_scenario(load_campaign(record["campaign"]), record, invader=invader, defender=defender)


def _plain(value: Any) -> Any:
    """A deep plain copy (frozen mappings from a session's scenario become dicts and lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
