"""CLI subcommands beyond ``chunk`` and ``strategies``: one module per command, each
exposing ``command`` (a ``click.Command``). ``chunkwise.cli`` adds the ones present."""

COMMAND_MODULES = ("inspect", "eval", "calibrate", "stats", "index", "serve")
