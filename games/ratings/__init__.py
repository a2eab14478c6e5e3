"""Ratings: Glicko-2 as lichess runs it, for the 1v1 and partnership pools.

``games.ratings.glicko2`` is the pure maths (standard library only, no Django import): the paper's
steps 1-8, lichess's site settings and clamps, the composite opponent of a partnership match and
the expected score shown before a rated match.
"""
