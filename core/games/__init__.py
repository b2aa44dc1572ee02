"""Finding games and talking to them: the hook contract
(:mod:`~tcgtrig.games.hookspecs`), the games installed under the entry-point
group ``tcgtrig.games`` and the :class:`~tcgtrig.games.manager.Ruleset` that
binds one game's hooks, loading a plugin so a broken one breaks only its own
game, and a game's own words."""
