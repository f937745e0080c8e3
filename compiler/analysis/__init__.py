"""Analyses passes share: what a pass asks of the program before it rewrites it.

Contraction dims, encoding properties, constant expressions, integer facts,
devices and dispatch sites, and moving ops across dispatch-region boundaries.
"""
