"""Parsers: document structure (headings, blocks, numbered sections) with exact offsets.

Each parser turns a text into an :class:`~chunkwise.parsers.outline.Outline` -- headings
and atomic blocks as half-open ``str`` offsets of the original text -- which the structure
strategies (:mod:`chunkwise.chunkers.structure`) hand to the shared merge engine. Parsers
that need optional libraries import them lazily.
"""

from __future__ import annotations

from .outline import Block, Heading, Outline

__all__ = ["Block", "Heading", "Outline"]
