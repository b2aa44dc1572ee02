"""Finding games: the installed ones, their plugin managers, and which
game a scenario is resolved under.

Games are discovered through the entry-point group ``tcgtrig.games`` — the
bundled ones exactly like a third-party package's.  Each resolution gets its
own plugin manager holding one game (plus any extra plugins a caller passes),
so ``firstresult`` policies are never ambiguous.  :func:`load_ruleset` binds
it in a :class:`~tcgtrig.games.ruleset.Ruleset` (:mod:`.ruleset`).
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pluggy

from ..base.errors import PluginError, TcgTrigError, UnknownGameError
from . import entry_points, hookspecs
from .entry_points import GameEntryPoint
from .guard import Unfinished, guarded, is_left_behind, printed
from .ruleset import Ruleset

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

if TYPE_CHECKING:
    from ..scenario.reading import Scenario

__all__ = [
    "ENTRY_POINT_GROUP",
    "GameListing",
    "Ruleset",
    "available_games",
    "list_games",
    "load_ruleset",
    "make_plugin_manager",
    "pick_game",
    "shared_ruleset",
]

#: The entry-point group games register under.
ENTRY_POINT_GROUP = "tcgtrig.games"


#: The distribution tcgtrig itself comes in: its games win a name another package also registers.
_BUNDLED = "tcgtrig"


@frozen
class _Claim:
    """The entry points registered under one game name: the one used
    (``None`` when two packages claim the name and neither is bundled),
    and those refused, with why."""

    name: str
    used: GameEntryPoint | None
    refused: tuple[GameEntryPoint, ...] = ()
    why: str = ""


def _entry_points() -> list[_Claim]:
    """The games' entry points, found once per import path (one command
    looks several times).  They are read from the installed packages'
    metadata by :mod:`.entry_points` (what :mod:`importlib.metadata` would
    say, without its import)."""
    return list(_scan(tuple(sys.path)))


@functools.lru_cache(maxsize=8)
def _scan(path: tuple[str, ...]) -> tuple[_Claim, ...]:
    by_name: dict[str, dict[str, GameEntryPoint]] = {}
    for ep in entry_points.find(ENTRY_POINT_GROUP):
        by_name.setdefault(ep.name, {}).setdefault(ep.value, ep)  # one module named twice is one game
    return tuple(_claim(name, list(by_name[name].values())) for name in sorted(by_name))


def _claim(name: str, eps: list[GameEntryPoint]) -> _Claim:
    """Who gets a game name two packages register: the bundled game, and
    the other is refused; between two others, neither (which one Python
    happens to find first is no way to choose a game's rules)."""
    if len(eps) == 1:
        return _Claim(name, eps[0])
    bundled = [ep for ep in eps if ep.distribution == _BUNDLED]
    if bundled:
        others = tuple(ep for ep in eps if ep is not bundled[0])
        return _Claim(
            name,
            bundled[0],
            others,
            f"the name {name!r} is taken by the bundled game "
            f"({_origin(bundled[0])}), which is used; uninstall the other "
            "package or register the game under another name",
        )
    return _Claim(
        name,
        None,
        tuple(eps),
        f"the name {name!r} is registered by {len(eps)} packages: "
        f"{'; '.join(map(_origin, eps))}: neither is used; uninstall all but one",
    )


def _origin(ep: GameEntryPoint) -> str:
    """Where an entry point comes from: ``tcgtrig 0.1.0 · tcgtrig.plugins.digimon.hooks``."""
    return f"{ep.distribution} {ep.version} · {ep.value}" if ep.distribution else ep.value


def available_games() -> list[str]:
    """Names of the installed games (without importing them)."""
    return [claim.name for claim in _entry_points()]


#: Entry points that failed to load in this process, and those being loaded: each plugin is imported once
_failed: dict[tuple[str, str, str], PluginError] = {}
_loading: dict[tuple[str, str, str], threading.Thread] = {}
#: One lock per entry point, held while it is imported: a second thread
#: loading the same game at once waits for the first (issue 37 item 27)
_import_locks: dict[tuple[str, str, str], threading.RLock] = {}
_bookkeeping = threading.Lock()


def _load_entry_point(ep: GameEntryPoint) -> object:
    """Import a game's entry point (guarded: see :mod:`tcgtrig.games.guard`); a
    plugin that failed is not imported again in this process."""
    key = (ep.name, ep.value, ep.location)
    if key in _failed:
        raise PluginError(ep.name, _failed[key].detail)
    loader = _loading.get(key)
    if loader is not None and is_left_behind(loader):
        raise PluginError(ep.name, f"is still loading from {ep.value!r}: an earlier attempt did not finish")
    try:
        return guarded(ep.name, functools.partial(_import, ep, key), what=f"loading from {ep.value!r}")
    except PluginError as exc:
        _failed.setdefault(key, exc)
        raise


def _import(ep: GameEntryPoint, key: tuple[str, str, str]) -> object:
    with _bookkeeping:
        lock = _import_locks.setdefault(key, threading.RLock())
    with lock:  # another thread importing it now: wait for it (this call's deadline bounds the wait)
        if key in _failed:
            raise PluginError(ep.name, _failed[key].detail)
        return _import_once(ep, key)


def _import_once(ep: GameEntryPoint, key: tuple[str, str, str]) -> object:
    _loading[key] = threading.current_thread()
    try:
        return ep.load()
    except MemoryError:
        raise  # the budget's verdict, not the plugin's fault
    except BaseException as exc:  # noqa: BLE001 - a broken plugin must be named, not crash us (SystemExit too;
        # this runs in a guarded worker thread: the user's Ctrl-C arrives in the thread that waits)
        _failed[key] = PluginError(ep.name, f"could not be loaded from {ep.value!r}: {type(exc).__name__}: {exc}")
        raise _failed[key] from exc
    finally:
        del _loading[key]


def make_plugin_manager(
    game: str | None,
    *,
    plugins: Iterable[object] = (),
    autoload: bool = True,
) -> pluggy.PluginManager:
    """Build a plugin manager holding one game.

    :param game: the entry-point name to load (``None`` loads none).
    :param plugins: extra plugin objects to register (tests, house rules, or
        a game defined in Python without an entry point).
    :param autoload: load ``game`` from the ``tcgtrig.games`` entry points.
    :raises UnknownGameError: ``game`` is not installed.
    :raises PluginError: the plugin failed to import or to register.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    if autoload and game is not None:
        claims = {claim.name: claim for claim in _entry_points()}
        if game not in claims:
            raise UnknownGameError(game, sorted(claims))
        used = claims[game].used
        if used is None:
            raise PluginError(game, claims[game].why)
        _register(pm, game, _load_entry_point(used))
    for number, plugin in enumerate(plugins):
        name = getattr(plugin, "__name__", None) or f"{type(plugin).__name__}-{number}"
        _register(pm, name, plugin)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(_plugin_name(pm, exc.plugin), str(exc)) from exc
    pm.hook.tcgtrig_addhooks.call_historic(kwargs={"pluginmanager": pm})
    return pm


def _plugin_name(pm: pluggy.PluginManager, plugin: object) -> str:
    return pm.get_name(plugin) or repr(plugin)


def _register(pm: pluggy.PluginManager, name: str, plugin: object) -> None:
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise PluginError(name, f"does not fit the hook contract: {exc}") from exc
    except ValueError as exc:
        raise PluginError(name, str(exc)) from exc


def split_game(name: str) -> tuple[str, str | None]:
    """``yugioh/ocg`` → ``("yugioh", "ocg")``; ``digimon`` → ``("digimon", None)``."""
    game, _, variant = name.partition("/")
    return game, variant or None


def load_ruleset(game: str, *, plugins: Iterable[object] = (), autoload: bool = True) -> Ruleset:
    """The ruleset called ``game``: load its plugin and wrap it.

    :param game: an installed game name (see ``tcgtrig games``), or
        ``GAME/VARIANT`` for one of its variants.
    :param plugins: extra plugins; with ``autoload=False`` they may *be* the
        game (a ruleset defined in Python, no entry point needed).
    :raises UnknownGameError: the game, or the variant, does not exist.
    """
    base, variant = split_game(game)
    if not base or game.endswith("/"):
        raise UnknownGameError(game, available_games() if autoload else [])
    plugins = tuple(plugins)
    installed = autoload and not plugins  # an installed game as it is: one whose loading hung is not tried again
    if installed and base in _hung:
        raise PluginError(base, _hung[base])
    # the plugin's import and the hooks asked once run guarded: see tcgtrig.games.guard
    try:
        return guarded(base, functools.partial(_load_ruleset, game, base, variant, plugins, autoload), what="loading")
    except Unfinished as exc:
        if installed:  # a hook never returned: another try would wait as long again (issue 37 item 31)
            used = {claim.name: claim.used for claim in _entry_points()}.get(base)
            where = f" from {used.value!r}" if used is not None else ""
            said = exc.detail.removeprefix("did not finish loading")  # " in 2 s (…); TCGTRIG_PLUGIN_TIMEOUT …"
            _hung.setdefault(base, f"is still loading{where}: an earlier attempt did not finish{said}")
        raise


@functools.cache
def shared_ruleset(game: str) -> Ruleset:
    """The ruleset of ``game`` (an installed game's name, no variant) that
    files are checked against at load time, whose printed card text they
    give is read with, and whose words a file written in them
    (``words: GAME``) is read by, under any game: built once per game, since
    checking compiles and reading reads with it, so one serves every file.
    A file is resolved under the ruleset it is bound to
    (:func:`tcgtrig.scenario.reading.bind`), loaded by itself."""
    return load_ruleset(game)


#: Installed games whose loading (a hook asked once: game info, words,
#: variants) did not finish in time, and what was said then
_hung: dict[str, str] = {}


def _load_ruleset(game: str, base: str, variant: str | None, plugins: tuple[object, ...], autoload: bool) -> Ruleset:
    pm = make_plugin_manager(base, plugins=plugins, autoload=autoload)
    ruleset = Ruleset(pm, base)
    if autoload and ruleset.game != base:
        raise PluginError(base, f"is registered as {base!r} but calls itself {ruleset.game!r}")
    if variant is None or variant == ruleset.info.default_variant:
        return ruleset
    known = [name for name, _ in ruleset.info.variants]
    if variant not in known:
        raise UnknownGameError(game, [f"{ruleset.game}/{name}" for name in known] or [ruleset.game], what="variant")
    plugin = ruleset._call("tcgtrig_variant", pm.hook.tcgtrig_variant, variant=variant)
    if plugin is None:
        raise PluginError(ruleset.game, f"lists the variant {variant!r} but tcgtrig_variant gives no plugin for it")
    _register(pm, f"{ruleset.game}/{variant}", plugin)
    return Ruleset(pm, base, variant=variant)


@frozen(kw_only=True)
class GameListing:
    """One installed game, for ``tcgtrig games``."""

    name: str
    title: str = ""
    version: str = ""
    module: str = ""
    distribution: str = ""
    distribution_version: str = ""
    error: str | None = None
    variants: tuple[tuple[str, str], ...] = ()
    #: what the plugin printed while loading (kept off the output)
    printed: str = ""
    #: ``GameInfo.trigger_multiplicity`` ("" when not stated)
    trigger_multiplicity: str = ""
    #: the rules it should state and does not (``GameInfo.unstated``)
    unstated: tuple[str, ...] = ()


def list_games() -> list[GameListing]:
    """Every installed game, loaded to read its info; broken ones say why.
    A package that registers a name another package has is listed too,
    with why it is not used."""
    listings = []
    for claim in _entry_points():
        if claim.used is not None:
            listings.append(_listing(claim.name, claim.used))
        listings.extend(_listing(claim.name, ep, refused=claim.why) for ep in claim.refused)
    return listings


def _listing(name: str, ep: GameEntryPoint, refused: str | None = None) -> GameListing:
    base: dict[str, Any] = dict(name=name, module=ep.value, distribution=ep.distribution)
    base["distribution_version"] = ep.version
    if refused is not None:
        return GameListing(**base, error=str(PluginError(name, f"{_origin(ep)} is not used: {refused}")))
    try:
        info = load_ruleset(name).info
    except TcgTrigError as exc:
        return GameListing(**base, error=str(exc), printed=printed(name))
    return GameListing(
        **base,
        title=info.title,
        version=info.version,
        variants=info.variants,
        printed=printed(name),
        trigger_multiplicity=info.trigger_multiplicity,
        unstated=info.unstated,
    )


def pick_game(scenario: Scenario, game: str | None) -> str:
    """The game to use: the one asked for, else the file's ``game``, else
    the first installed game its ``expect`` block names (deciding the game
    is the games' layer's; :mod:`tcgtrig.resolution` re-exports it)."""
    if game:
        return game
    installed = available_games()
    if scenario.game:
        if split_game(scenario.game)[0] not in installed:
            raise scenario.source.error(
                ("game",),
                f"unknown game {scenario.game!r}: it is not installed here "
                "(tcgtrig games lists what is; --game picks another)",
                installed,
            )
        return scenario.game
    for name in scenario.games():
        if split_game(name)[0] in installed:
            return name
    raise UnknownGameError(None, installed)
