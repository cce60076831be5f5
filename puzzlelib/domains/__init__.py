"""Puzzle domains: each owns its encoding, move generation and hash functions."""

from .sliding import SlidingPuzzle

__all__ = ["SlidingPuzzle"]
