"""``chunkwise serve [PATH]``: the browser playground (see :mod:`chunkwise.serve`)."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["command"]


@click.command("serve")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (127.0.0.1: this machine only; 0.0.0.0 opens it to the network).",
)
@click.option(
    "--max-upload",
    default=10 * 1024 * 1024,
    show_default=True,
    type=click.IntRange(1, None),
    help="Largest upload or file opened, in bytes.",
)
def command(path: Path | None, port: int, host: str, max_upload: int) -> None:
    """Compare strategies side by side in the browser: chunks coloured, overlaps hatched,
    boundary kinds on hover, size strip, statistics, the similarity curve of the semantic
    strategies, and the Python call and CLI command of each pane (extra: serve).

    PATH is a folder (or file) whose files the page may open; text can also be pasted or
    uploaded. Nothing leaves this machine: the page and its scripts are in the package.

    Example:

        chunkwise serve docs/ --port 8000
    """
    from ..errors import MissingDependencyError

    try:
        from ..serve import create_app

        app = create_app(path, max_upload=max_upload)
        import uvicorn
    except (MissingDependencyError, ImportError) as exc:
        raise click.UsageError(f"{exc} (install the extra: pip install 'chunkwise[serve]')") from exc
    click.echo(f"chunkwise playground on http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
