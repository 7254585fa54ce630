"""Who is friendly to whom, and whose turn comes next, in two-player, team and free-for-all games
(digest §3.1, §13).

* ``state["format"]``: ``duel`` (two players), ``teams`` (two teams of players, §13.1) or
  ``free_for_all`` (three or four players, §13.2).
* ``state["teams"]`` maps each player to its team. In a duel and a free-for-all every player is a
  team of its own (the team id is the player id), so "same team" and "same player" agree there.
* Units and NCUs keep their owner in ``side`` (a player: its Tactics deck, hand and choices);
  every friend-or-foe test goes through :func:`friendly`.
* Turn order runs over teams: ``state["first_player"]`` holds the team with the first-player token.
  ``state["players"]`` is the seating order; "to the left" is the next player in it. In a team
  game the choice of the team's activation passes between its players in rotation
  (``state["rotation"]``), a player with nothing of his own left handing it to a teammate; the
  player in turn may pick any of the team's pieces, a teammate's being handed over to its owner
  with ``activate`` (§13.1, rules.py).
* A free-for-all player whose Combat units are all destroyed is eliminated (``state["eliminated"]``).
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def team(state: State, player: str) -> str:
    """The team of ``player`` (its own id outside team games); unknown ids map to themselves."""
    return state.get("teams", {}).get(player, player)


def friendly(state: State, a: str, b: str) -> bool:
    """Players ``a`` and ``b`` (unit owners) are on the same side (§13.1: teammates are friendly)."""
    return team(state, a) == team(state, b)


def team_ids(state: State) -> list[str]:
    """Every team, in seating order of its first player."""
    out: list[str] = []
    for p in state["players"]:
        t = team(state, p)
        if t not in out:
            out.append(t)
    return out


def members(state: State, t: str) -> list[str]:
    """The players of team ``t`` in seating order."""
    return [p for p in state["players"] if team(state, p) == t]


def enemies(state: State, player: str) -> list[str]:
    """The players not on ``player``'s team, starting with the one to its left."""
    ps = state["players"]
    i = ps.index(player) if player in ps else 0
    return [p for p in ps[i + 1:] + ps[:i] if not friendly(state, p, player)]


def enemy_teams(state: State, player: str) -> list[str]:
    return [t for t in team_ids(state) if t != team(state, player)]


def defending(state: State, player: str) -> bool:
    """``player`` (or a team id) is on the Defender's team of A Storm of Swords (§16.3; by teams
    the whole team defends, §13.1 "game-mode set-up is unchanged")."""
    d = state.get("flags", {}).get("defender")
    return d is not None and friendly(state, player, d)


def opponent(state: State, player: str) -> str:
    """The enemy that makes an "opponent's choice" about ``player``'s unit: the first enemy still in
    the game to its left (the only opponent in a duel)."""
    foes = enemies(state, player)
    standing = [p for p in foes if p not in state.get("eliminated", [])]
    return (standing or foes)[0]


def team_order(state: State, start: str) -> list[str]:
    """The teams still in the game from ``start`` (a team) onwards, to the left."""
    ts = team_ids(state)
    i = ts.index(start) if start in ts else 0
    out = ts[i:] + ts[:i]
    return [t for t in out if t not in state.get("eliminated", [])] or out


def players_from_first(state: State) -> list[str]:
    """Every player, the first team's first, then to the left (Cleanup order, round-start windows)."""
    out: list[str] = []
    for t in team_order(state, state["first_player"]):
        out += members(state, t)
    return out + [p for p in state["players"] if p not in out]


def team_vp(state: State, t: str) -> int:
    """VP are scored by teams (§13.1): every member holds the team's total."""
    return int(state["vp"][members(state, t)[0]])


def scores(state: State) -> dict[str, int]:
    """VP per team (per player outside team games)."""
    return {t: team_vp(state, t) for t in team_ids(state)}
