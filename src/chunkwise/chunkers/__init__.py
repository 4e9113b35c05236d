"""Chunking strategies. Each is a boundary parser over the shared merge engine."""
