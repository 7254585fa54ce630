"""A 2D tabletop wargame simulator for four published rule systems.

Layers (see docs/architecture.md): ``core`` (engine), ``geometry`` (pure numpy),
``games`` (one package per rule system) and ``client`` (pygame-ce front end).
"""

from pathlib import Path

__version__ = "0.1.0"

#: The repository root: maps/ and scenarios/ live beside the package.
ROOT = Path(__file__).resolve().parent.parent
