"""One package per rule system. Each exposes ``GAME``, a :class:`simulator.core.Game`."""
