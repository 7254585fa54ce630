"""The pygame-ce front end: scenes, board views, tools and panels (docs/client.md).

The client draws what a game's :class:`~simulator.core.view.Presentation` describes and
proposes actions to the :class:`~simulator.core.session.Session`; the engine decides.
"""
