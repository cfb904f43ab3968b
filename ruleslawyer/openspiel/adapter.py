"""One adapter from a game's own state machine to OpenSpiel's game interface.

A game gives a :class:`Machine`: its facts (players, action ids, utility bounds) and
its rules as the project's model states them (legal moves in the model's fixed
order, chance outcomes with their probabilities, the state after a move, the
returns at the end). :func:`register` registers a ``pyspiel`` game that builds its
machine from the game's parameters, and whose states hold the model's immutable
states; :func:`game_of` makes the same game over a machine built in memory. Nothing
here knows a rule of any game.

Perfect-information games get a generic observer: the information state is the
history of actions (perfect recall), the observation the state's text. A game with
hidden information overrides :meth:`Machine.information_state` and
:meth:`Machine.observation` with what each player really knows.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from ruleslawyer.errors import InputError
from ruleslawyer.findings import RulePoint, resolve_rulings

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
GameType = pyspiel.GameType


class Machine(ABC):
    """A game's rules as the adapter drives them.

    Subclasses set the facts in ``__init__`` and answer the questions below from the
    model's own functions. States are the model's (or small immutable records around
    them): never changed, so a cloned OpenSpiel state shares them.
    """

    num_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    min_utility: float
    max_utility: float
    max_game_length: int
    stochastic: bool  # whether any state can be a chance node
    utility: GameType.Utility = GameType.Utility.GENERAL_SUM
    utility_sum: float | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Machine:
        return self  # one machine serves every state of its game

    @abstractmethod
    def initial(self) -> Any:
        """The first state."""

    @abstractmethod
    def player(self, state: Any) -> int:
        """Who acts: a player's index, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def moves(self, state: Any) -> Sequence[tuple[int, Any]]:
        """The legal moves of the player to act, (action id, the model's move), in the
        model's fixed order; the ids ascend in that order."""

    @abstractmethod
    def play(self, state: Any, move: Any) -> Any:
        """The state after a legal move."""

    @abstractmethod
    def chances(self, state: Any) -> Sequence[tuple[int, float, Any]]:
        """At a chance node: (outcome id, probability, the state it leads to), ids ascending."""

    @abstractmethod
    def returns(self, state: Any) -> Sequence[float]:
        """Every player's return at a terminal state."""

    @abstractmethod
    def move_text(self, state: Any, move: Any) -> str:
        """A move in words."""

    @abstractmethod
    def chance_text(self, state: Any, outcome: int, after: Any) -> str:
        """A chance outcome in words (``after``: the state it leads to)."""

    @abstractmethod
    def text(self, state: Any) -> str:
        """The whole state in words."""

    def with_state(self, model: Any) -> Any:
        """The game's state for a model state reached outside it (an agent deciding in a
        loop run on the model): here the model's state itself."""
        return model

    def resample(self, state: Any, player: int, rng: random.Random) -> Any:
        """A state ``player`` cannot tell from ``state``, drawn by their beliefs (games with
        hidden information; information-set searches call it)."""
        raise NotImplementedError(f"{type(self).__name__} does not resample information states")

    def information_state(self, state: ModelState, player: int) -> str:
        """What ``player`` knows, with perfect recall: here every action so far (perfect
        information: everything is public)."""
        return state.history_str()

    def observation(self, state: ModelState, player: int) -> str:
        """What ``player`` sees now: here the whole state (perfect information)."""
        return self.text(state.model)


@dataclass(frozen=True, eq=False)
class _At:
    """A state of the model with the answers computed on it (shared by clones)."""

    state: Any
    found: dict[str, Any] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> _At:
        return self

    def get(self, key: str, compute: Callable[[], Any]) -> Any:
        if key not in self.found:
            self.found[key] = compute()
        return self.found[key]


class ModelState(pyspiel.State):
    """An OpenSpiel state holding one of the model's states."""

    def __init__(self, game: ModelGame, machine: Machine, state: Any) -> None:
        super().__init__(game)
        self._machine = machine
        self._at = _At(state)

    def resample(self, player: int, rng: random.Random) -> ModelState:
        """A state ``player`` cannot tell from this one (:meth:`Machine.resample`)."""
        world = self._machine.resample(self.model, player, rng)
        return ModelState(self.get_game(), self._machine, world)

    def resample_from_infostate(self, player: int, sampler: Any) -> ModelState:
        """OpenSpiel's name for :meth:`resample`: ``sampler()`` seeds the draw."""
        return self.resample(player, random.Random(int(sampler() * 2**32)))

    @property
    def model(self) -> Any:
        """The model's state (the project's own, immutable)."""
        return self._at.state

    def _moves(self) -> dict[int, Any]:
        return self._at.get("moves", lambda: dict(self._machine.moves(self._at.state)))

    def _chances(self) -> Sequence[tuple[int, float, Any]]:
        return self._at.get("chances", lambda: tuple(self._machine.chances(self._at.state)))

    def current_player(self) -> int:
        return self._at.get("player", lambda: self._machine.player(self._at.state))

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return list(self._moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, p) for a, p, _ in self._chances()]

    def _outcome(self, action: int) -> Any:
        """The state a chance outcome leads to (None: not an outcome here)."""
        return next((s for a, _, s in self._chances() if a == action), None)

    def _apply_action(self, action: int) -> None:
        if self.current_player() == CHANCE:
            after = self._outcome(action)
            if after is None:
                raise ValueError(f"{action} is not a chance outcome here")
        else:
            moves = self._moves()
            if action not in moves:
                raise ValueError(f"{action} is not a legal action here")
            after = self._machine.play(self._at.state, moves[action])
        self._at = _At(after)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            after = self._outcome(action) if self.current_player() == CHANCE else None
            if after is None:
                return f"outcome {action}"
            return self._machine.chance_text(self._at.state, action, after)
        moves = self._moves() if player == self.current_player() else {}
        if action not in moves:
            return f"action {action}"
        return self._machine.move_text(self._at.state, moves[action])

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._machine.num_players
        return [float(r) for r in self._machine.returns(self._at.state)]

    def __str__(self) -> str:
        return self._machine.text(self._at.state)


class _StringObserver:
    """OpenSpiel's observer interface over a machine's strings (no tensors)."""

    def __init__(self, machine: Machine, recall: bool, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.machine, self.recall = machine, recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: ModelState, player: int) -> None:
        pass

    def string_from(self, state: ModelState, player: int) -> str:
        if self.recall:
            return self.machine.information_state(state, player)
        return self.machine.observation(state, player)


class ModelGame(pyspiel.Game):
    """An OpenSpiel game over a :class:`Machine`."""

    def __init__(self, game_type: GameType, machine: Machine, params: Mapping[str, Any]) -> None:
        self.machine = machine
        info = pyspiel.GameInfo(
            num_distinct_actions=machine.num_distinct_actions,
            max_chance_outcomes=machine.max_chance_outcomes,
            num_players=machine.num_players,
            min_utility=float(machine.min_utility),
            max_utility=float(machine.max_utility),
            utility_sum=machine.utility_sum,
            max_game_length=machine.max_game_length,
        )
        super().__init__(game_type, info, dict(params))

    def new_initial_state(self) -> ModelState:
        return ModelState(self, self.machine, self.machine.initial())

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _StringObserver:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _StringObserver(self.machine, recall, params)


def game_type(
    short_name: str,
    long_name: str,
    parameters: Mapping[str, Any],
    *,
    players: tuple[int, int],
    stochastic: bool,
    information: GameType.Information = GameType.Information.PERFECT_INFORMATION,
    utility: GameType.Utility = GameType.Utility.GENERAL_SUM,
) -> GameType:
    """A sequential game's static facts, as OpenSpiel states them (terminal rewards only)."""
    chance = GameType.ChanceMode
    return GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if stochastic else chance.DETERMINISTIC,
        information=information,
        utility=utility,
        reward_model=GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=dict(parameters),
    )


_REGISTERED: dict[str, Callable[[Machine], GameType]] = {}


def register(
    short_name: str,
    long_name: str,
    parameters: Mapping[str, Any],
    build: Callable[[Mapping[str, Any]], Machine],
    *,
    players: tuple[int, int],
    pair_parameters: tuple[str, ...] = ("rulings",),
    information: GameType.Information = GameType.Information.PERFECT_INFORMATION,
) -> None:
    """Register a game with OpenSpiel: ``load_game`` builds its machine from the
    parameters (defaults filled in). Each loaded game's type states the machine's chance
    mode and utility (a position with no chance node left says so). The
    ``pair_parameters`` (lists of ``ID=VALUE``, see :func:`pairs`) are kept in the form a
    game string can carry, so ``str(game)`` loads the same game."""

    def kind(machine: Machine | None) -> GameType:
        return game_type(
            short_name, long_name, parameters, players=players, information=information,
            stochastic=machine is None or machine.stochastic,
            utility=GameType.Utility.GENERAL_SUM if machine is None else machine.utility,
        )  # fmt: skip

    class Game(ModelGame):
        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            full = {**parameters, **(params or {})}
            full |= {key: pair_text(pairs(full[key], key)) for key in pair_parameters}
            machine = build(full)
            super().__init__(kind(machine), machine, full)

    Game.__name__ = Game.__qualname__ = short_name
    globals()[short_name] = Game  # where pickle looks a game's class up (its module, its name)
    _REGISTERED[short_name] = kind
    pyspiel.register_game(kind(None), Game)


def game_of(short_name: str, machine: Machine, params: Mapping[str, Any]) -> ModelGame:
    """A registered game over a machine built in memory (not from ``load_game``'s
    parameters): ``params`` say what it was built from."""
    return ModelGame(_REGISTERED[short_name](machine), machine, params)


def pairs(text: str, parameter: str) -> dict[str, str]:
    """``ID=READING`` entries (or ``ID:READING``) separated by commas or semicolons.

    OpenSpiel's game strings (``name(a=1,b=2)``) split on commas and on the last
    ``=``: there, write ``ID:READING;ID:READING``.
    """
    out: dict[str, str] = {}
    for i, entry in enumerate(e.strip() for e in text.replace(";", ",").split(",")):
        if not entry:
            continue
        cut = min((entry.find(s) for s in "=:" if s in entry), default=-1)
        key, value = entry[:cut].strip(), entry[cut + 1 :].strip()
        if cut < 0 or not key or not value or key in out:
            place = f"{parameter}[{i}]"
            raise InputError("OpenSpiel parameter", place, entry, "ID=READING (or ID:READING)")
        out[key] = value
    return out


def pair_text(entries: Mapping[str, str]) -> str:
    """Entries as a parameter a game string carries: ``ID:READING;ID:READING``, sorted."""
    return ";".join(f"{key}:{value}" for key, value in sorted(entries.items()))


def rulings(
    points: Sequence[RulePoint], in_file: Mapping[str, str], given: str, source: str
) -> dict[str, str]:
    """The rulings in force: a file's ``[rulings]`` (if any), then the ``rulings``
    parameter, which wins; unknown ids and readings are input errors."""
    from_file = resolve_rulings(points, in_file, {}, source=source)
    parameter = pairs(given, "rulings")
    chosen = resolve_rulings(points, parameter, {}, source="OpenSpiel parameter")
    return dict(sorted({**from_file, **chosen}.items()))
