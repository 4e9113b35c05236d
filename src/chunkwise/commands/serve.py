"""``chunkwise serve [PATH]``: the browser playground (see :mod:`chunkwise.serve`)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

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
@click.option(
    "--llm-base-url",
    default=None,
    metavar="URL",
    help="Offer the LLM strategies (agentic, propositions) on the page, calling this OpenAI-compatible "
    "endpoint (for example http://localhost:11434/v1). Without it they are not offered: nothing leaves the machine.",
)
@click.option("--llm-model", default=None, metavar="NAME", help="The chat model of the LLM strategies.")
@click.option(
    "--llm-api-key-env",
    default=None,
    metavar="VAR",
    help="The environment variable holding the key sent to --llm-base-url (none is read otherwise, "
    "not even OPENAI_API_KEY).",
)
def command(path: Path | None, port: int, host: str, max_upload: int, llm_base_url: str | None,
            llm_model: str | None, llm_api_key_env: str | None) -> None:
    """Compare strategies side by side in the browser: chunks coloured, overlaps hatched,
    boundary kinds on hover, size strip, statistics, the similarity curve of the semantic
    strategies, and the Python call and CLI command of each pane (extra: serve).

    PATH is a folder (or file) whose files the page may open; text can also be pasted or
    uploaded. Nothing leaves this machine: the page and its scripts are in the package, and
    the LLM strategies are offered only with --llm-base-url.

    The address is bound before anything is printed: a port in use is a usage error
    (exit 2); --port 0 takes a free port and prints it. Ctrl-C or SIGTERM stops the server
    within a few seconds, work in progress abandoned (exit 130).

    Example:

        chunkwise serve docs/ --port 8000
    """

    from ..errors import MissingDependencyError

    if (llm_model or llm_api_key_env) and not llm_base_url:
        raise click.UsageError("--llm-model and --llm-api-key-env need --llm-base-url URL (the endpoint to call)")
    api_key = None
    if llm_api_key_env:
        api_key = os.environ.get(llm_api_key_env)
        if not api_key:
            raise click.UsageError(f"--llm-api-key-env {llm_api_key_env}: that environment variable is not set")
    try:
        from ..serve import create_app

        app = create_app(path, max_upload=max_upload, llm_base_url=llm_base_url, llm_model=llm_model,
                         llm_api_key=api_key)
        import uvicorn
    except (MissingDependencyError, ImportError) as exc:
        raise click.UsageError(f"{exc} (install the extra: pip install 'chunkwise[serve]')") from exc
    sock = bind(host, port)
    real = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"chunkwise playground on http://{shown}:{real}/ (Ctrl-C to stop)", err=True)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def bind(host: str, port: int) -> Any:
    """A listening socket on ``host``:``port`` (0: a free port), or a usage error naming
    the cause (a port in use, an address not of this machine)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.BadParameter(f"{host!r} is not an address of this machine ({exc.strerror})",
                                 param_hint="'--host'") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        if os.name != "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise click.BadParameter(f"port {port} on {host} is in use; stop what holds it or pick another "
                                     "(--port 0 takes a free one)", param_hint="'--port'") from None
        raise click.BadParameter(f"cannot listen on {host}:{port} ({exc.strerror or exc})",
                                 param_hint="'--host'") from None
    sock.set_inheritable(True)
    return sock
