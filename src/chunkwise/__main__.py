"""``python -m chunkwise``: the ``chunkwise`` command line."""

from chunkwise.cli import cli

if __name__ == "__main__":
    cli(prog_name="chunkwise")
