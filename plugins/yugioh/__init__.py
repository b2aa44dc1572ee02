"""Yu-Gi-Oh! — planned, not yet registered.

The ordering rules it will implement, and the hook each one uses, are listed
in :mod:`tcgtrig.hookspecs`: chain building with SEGOC, last-in-first-out
resolution (``GameInfo.resolution = "chain"``), spell speeds in response
windows, missing the timing, and the TCG/OCG variants.  Until its issue lands
this package holds no hooks and is not an entry point, so ``tcgtrig games``
does not list it.
"""
