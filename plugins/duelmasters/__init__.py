"""Duel Masters (デュエル・マスターズ) — planned, not yet registered.

The ordering rules it will implement, and the hook each one uses, are listed
in :mod:`tcgtrig.hookspecs`: one waiting pool (待機状態) with the active
player first, Shield Triggers and Strike Backs ahead of every other pending
effect, static abilities applied before triggers, and substitution
(置換効果, 609.9).  Until its issue lands this package holds no hooks and is
not an entry point, so ``tcgtrig games`` does not list it.
"""
