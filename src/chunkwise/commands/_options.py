"""The options of the commands, declared once and shared.

* :func:`chunking_options` (``chunk``, ``inspect``; ``stats``, ``eval``, ``calibrate`` as
  comma-separated grids): ``--strategy``, ``--chunk-size``, ``--chunk-overlap``,
  ``--unit``, ``--tokenizer``, ``--param`` -- the arguments of :func:`chunkwise.chunk`.
* :func:`input_options`: ``--include``, ``--exclude``, ``--root``, ``--encoding`` and
  ``--format`` (standard input).
* :func:`progress_option`.
* ``--loader-option``/``-L KEY=VALUE`` (with :func:`input_options`), read by
  :func:`loader_options_of`: ``chunkwise.load(path, **options)``.
"""

from __future__ import annotations

import codecs
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

__all__ = [
    "CLI_DEFAULTS",
    "EVAL_GRID_DEFAULTS",
    "GRID_DEFAULTS",
    "auto_help",
    "FORMATS",
    "PYTHON_DEFAULTS",
    "UNITS",
    "chunking_options",
    "input_options",
    "loader_option",
    "loader_options_of",
    "parse_loader_options",
    "LLM_PARAMS",
    "chunker_params",
    "llm_client_or_fail",
    "llm_options",
    "uses_llm",
    "make_chunker_or_fail",
    "parse_params",
    "progress_option",
    "refuse_folder",
]

UNITS = ("chars", "words", "tokens")


def _stdin_formats() -> tuple[str, ...]:
    """The formats ``--format`` accepts: those of the registered loaders, ``text`` first."""
    from ..loaders import registered_loaders

    return tuple(dict.fromkeys(["text", *(ld.format for ld in registered_loaders())]))


FORMATS = _stdin_formats()

PYTHON_DEFAULTS = {
    "strategy": "recursive",
    "chunk_size": 512,
    "chunk_overlap": 0,
    "unit": "chars",
    "tokenizer": "cl100k_base",
}
"""The defaults of ``chunkwise.chunk(...)``."""

CLI_DEFAULTS = {
    "strategy": "auto",
    "chunk_size": 96,
    "chunk_overlap": 0,
    "unit": "tokens",
    "tokenizer": "cl100k_base",
}
"""The defaults of ``chunkwise chunk``: tokens, ``auto`` and 96 tokens, chosen by retrieval
on Chroma's evaluation data (EVALUATION.md, "Defaults chosen by measurement"): with
all-MiniLM-L6-v2, auto/96 recalls 94.1% at a 1000-token budget (auto/64 93.5, auto/128
93.0) with an IoU of 11.45% at k=5, against LangChain's recursive splitter at 200 tokens
(88.7, 5.96) and Chroma's ClusterSemanticChunker (90.7, 7.73); 96 cl100k tokens stay
inside the 256 word-piece window of MiniLM (512 did not)."""

GRID_DEFAULTS = {"strategy": "recursive,sentence,fixed", "chunk_size": "200,400,800", "chunk_overlap": "0"}
"""The defaults of the grid of ``stats``."""

EVAL_GRID_DEFAULTS = {
    "strategy": "auto,recursive,sentence",
    "chunk_size": f"{CLI_DEFAULTS['chunk_size']},200,400",
    "chunk_overlap": "0",
}
"""The defaults of the grids of ``eval`` and ``calibrate``: the defaults of ``chunk``
(``auto`` at its chunk size) against ``recursive`` and ``sentence``, at that size and at
200 and 400 tokens (compared at an equal token budget, ``--budget-tokens 1000``)."""


def auto_help() -> str:
    """What ``auto`` picks, for ``--help``: generated from the registry
    (:data:`chunkwise.registry.AUTO_BY_FORMAT`, :data:`~chunkwise.registry.AUTO_BY_CONTENT`)."""
    from ..registry import AUTO_BY_CONTENT, AUTO_BY_FORMAT

    by_strategy: dict[str, list[str]] = {}
    for fmt, name in AUTO_BY_FORMAT.items():
        by_strategy.setdefault(name, []).append("source code" if fmt == "code" else fmt)
    content = {"conversation": "speaker-turn text", "wikitext": "MediaWiki text (== Section == lines)"}
    parts = []
    for name, fmts in by_strategy.items():
        extra = [content[name]] if name in AUTO_BY_CONTENT and name in content else []
        parts.append(f"{name} for {', '.join(fmts + extra)}")
    parts += [f"{name} for {content.get(name, name)}" for name in AUTO_BY_CONTENT if name not in by_strategy]
    return "auto: " + "; ".join(parts) + "; recursive for the rest"

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _apply(options: list[Decorator]) -> Decorator:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        for opt in reversed(options):  # the first option listed first in --help
            fn = opt(fn)
        return fn

    return deco


def parse_params(items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``-p KEY=VALUE`` items as keyword arguments (the value read as JSON when it parses).

    Raises:
        click.BadParameter: an item without ``=``.
    """
    params: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--param")
        key, raw = item.split("=", 1)
        try:
            params[key.strip().replace("-", "_")] = json.loads(raw)
        except json.JSONDecodeError:
            params[key.strip().replace("-", "_")] = raw
    return params


def make_chunker_or_fail(
    strategy: str,
    chunk_size: int,
    chunk_overlap: int,
    unit: str,
    tokenizer: str,
    params: tuple[str, ...],
    **extra: Any,
) -> Any:
    """The chunker for the chunking options (``extra``: parameters the command computed,
    such as the ``client`` of an LLM strategy); an invalid value is a usage error (exit 2)."""
    from ..api import make_chunker
    from ..errors import ChunkwiseError

    ctx = click.get_current_context(silent=True)
    metadata = ctx.meta.get(_METADATA_KEY, {}) if ctx is not None else {}
    given = parse_params(params)
    if "contextualize" in given:
        raise click.UsageError(
            "contextualize is an option, not a strategy parameter: give --contextualize with --llm-model NAME "
            "--llm-base-url URL"
        )
    sizes = given.get("chunk_sizes") if strategy == "hierarchical" else None
    if isinstance(sizes, list) and sizes and ctx is not None and "chunk_size" in ctx.params:
        from click.core import ParameterSource

        explicit = ctx.get_parameter_source("chunk_size") not in (None, ParameterSource.DEFAULT,
                                                                  ParameterSource.DEFAULT_MAP)
        if explicit and chunk_size != sizes[-1]:  # only the default gives way to the leaf size
            raise click.UsageError(
                f"--chunk-size {chunk_size} disagrees with the leaf size chunk_sizes[-1] ({sizes[-1]}); "
                "give chunk_sizes alone, or --chunk-size alone for levels of 16x, 4x and 1x it"
            )
    try:
        return make_chunker(
            strategy,
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            unit=unit,
            tokenizer=tokenizer,
            **{**metadata, **extra, **given},
        )
    except (ChunkwiseError, ImportError) as exc:
        raise click.UsageError(str(exc)) from exc


_METADATA_KEY = "chunkwise.metadata_options"


def _metadata_option(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Keep ``--detect-language``/``--density`` for :func:`make_chunker_or_fail` (the
    commands' signatures do not list them)."""
    if value:
        ctx.meta.setdefault(_METADATA_KEY, {})[param.name] = value
    return value


# chunk metadata read from the text (opt-in): chunkwise.language
metadata_options: list[Decorator] = [
    click.option(
        "--detect-language",
        type=click.Choice(["document", "chunk"]),
        default=None,
        expose_value=False,
        callback=_metadata_option,
        help="metadata.language (ISO 639-1, or null when it cannot be told) per document or per chunk (extra: lang).",
    ),
    click.option(
        "--density",
        is_flag=True,
        default=False,
        expose_value=False,
        callback=_metadata_option,
        help="metadata.density: share of distinct content words (extra: lang).",
    ),
]


def chunking_options(
    *,
    grid: bool = False,
    strategy: str | None = None,
    strategy_help: str | None = None,
    grid_defaults: dict[str, str] | None = None,
) -> Decorator:
    """``--strategy``, ``--chunk-size``, ``--chunk-overlap``, ``--unit``, ``--tokenizer``,
    ``--param``: one configuration (``grid=False``: ``chunk``, ``inspect``) or
    comma-separated lists whose every combination is run (``grid=True``; its defaults
    ``grid_defaults``, else :data:`GRID_DEFAULTS`); ``strategy`` and ``strategy_help``: a
    command's own default strategy and the help that says so."""
    if grid:
        defaults = grid_defaults or GRID_DEFAULTS
        strategy_opt = click.option(
            "--strategy",
            "-s",
            default=strategy or defaults["strategy"],
            show_default=True,
            help="Strategies, comma-separated (see `chunkwise strategies`; " + auto_help() + ").",
        )
        size_opt = click.option(
            "--chunk-size",
            "-n",
            default=defaults["chunk_size"],
            show_default=True,
            help="Largest chunks in --unit, comma-separated.",
        )
        overlap_opt = click.option(
            "--chunk-overlap",
            default=defaults["chunk_overlap"],
            show_default=True,
            help="Overlaps in --unit, comma-separated (pairs with overlap >= size are skipped).",
        )
    else:
        strategy_opt = click.option(
            "--strategy",
            "-s",
            default=strategy or CLI_DEFAULTS["strategy"],
            show_default=True,
            help=strategy_help or "Strategy (see `chunkwise strategies`); " + auto_help() + ".",
        )
        size_opt = click.option(
            "--chunk-size",
            "-n",
            default=CLI_DEFAULTS["chunk_size"],
            show_default=True,
            type=int,
            help="Largest chunk, in --unit.",
        )
        overlap_opt = click.option(
            "--chunk-overlap",
            default=CLI_DEFAULTS["chunk_overlap"],
            show_default=True,
            type=int,
            help="Overlap of consecutive chunks, in --unit.",
        )
    return _apply(
        [
            strategy_opt,
            size_opt,
            overlap_opt,
            click.option("--unit", "-u", default=CLI_DEFAULTS["unit"], show_default=True, type=click.Choice(UNITS)),
            click.option(
                "--tokenizer",
                default=CLI_DEFAULTS["tokenizer"],
                show_default=True,
                help="Encoding name or tokenizer.json path (unit tokens).",
            ),
            click.option(
                "--param",
                "-p",
                "params",
                multiple=True,
                metavar="KEY=VALUE",
                help="A strategy parameter (JSON value), repeatable.",
            ),
            *([] if grid else metadata_options),
        ]
    )


def refuse_folder(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Callback of a file to write: an existing folder, or a file in a folder that does not
    exist (it is not created: a typo would scatter output), is a usage error, before any
    work."""
    if value is not None and str(value) != "-":
        if os.path.isdir(value):
            raise click.BadParameter(
                f"{value} is a folder; name a file to write, for example {os.path.join(str(value), 'chunks.jsonl')}"
            )
        parent = os.path.dirname(os.path.abspath(os.fspath(value)))
        if not os.path.isdir(parent):
            shown = os.path.dirname(os.fspath(value)) or parent
            raise click.BadParameter(f"the folder {shown} does not exist; create it first (mkdir -p {shown})")
    return value


def _check_encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return codecs.lookup(value).name
    except LookupError:
        raise click.BadParameter(
            f"{value!r} is not an encoding Python knows (for example utf-8, cp1252, latin-1)"
        ) from None


def input_options(*, globs: bool = True, format: bool = True, root: bool = False) -> Decorator:
    """``--include`` and ``--exclude`` (``globs=True``), ``--root`` (``root=True``: the
    commands that read files named on the command line), ``--encoding``, and ``--format``
    of standard input (``format=True``)."""
    options = []
    if globs:
        options += [
            click.option(
                "--include",
                multiple=True,
                metavar="GLOB",
                help="Read only the files matching this glob (path under the folder given, or name; repeatable).",
            ),
            click.option(
                "--exclude",
                multiple=True,
                metavar="GLOB",
                help="Leave out the files matching this glob (repeatable); wins over --include.",
            ),
        ]
    if root:
        options.append(
            click.option(
                "--root",
                type=click.Path(path_type=Path, file_okay=False, exists=True),
                default=None,
                metavar="DIR",
                help="Folder the document ids are relative to: each file's id derives from its path "
                "under DIR (default: under the folder named; a file named directly: its name).",
            )
        )
    options.append(
        click.option(
            "--encoding",
            default=None,
            callback=_check_encoding,
            metavar="NAME",
            help="Decode every file with this codec (cp1252, latin-1, ...) [default: detected: "
            "UTF-8, a byte-order mark, the encoding an HTML page declares, else a guess].",
        )
    )
    if format:
        options.append(
            click.option(
                "--format",
                "fmt",
                type=click.Choice(FORMATS),
                default="text",
                show_default=True,
                help="Format of standard input (path -); files go by their suffix. Bytes of a PDF or an "
                "office file on standard input are read as such under the default.",
            )
        )
    options.append(loader_option)
    return _apply(options)


LOADER_OPTIONS_KEY = "chunkwise.loader_options"


def parse_loader_options(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``-L KEY=VALUE`` items as loader options (values kept as text: a password stays a
    string).

    Raises:
        click.BadParameter: an item without ``=``, with an empty key, a key given twice,
            a key no loader takes, or a malformed value (``pages=abc``): a usage error,
            before any file is read.
    """
    options: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--loader-option")
        name = key.strip().replace("-", "_")
        if name in options:  # the last one would win silently: say which to keep
            raise click.BadParameter(
                f"{name} given twice ({name}={options[name]!r}, {name}={value!r}); give it once "
                "(pages take a list: pages=1,3)",
                param_hint="--loader-option",
            )
        options[name] = value
    from ..errors import ConfigError
    from ..loaders import check_loader_options

    try:
        check_loader_options(options)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--loader-option") from None
    return options


def _loader_options(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Keep ``-L`` for :func:`loader_options_of` (the commands' signatures do not list it)."""
    if value:
        ctx.meta[LOADER_OPTIONS_KEY] = parse_loader_options(value)
    return value


def loader_options_of(ctx: click.Context | None = None) -> dict[str, str]:
    """The ``-L KEY=VALUE`` loader options of the running command (``{}`` outside one)."""
    ctx = ctx or click.get_current_context(silent=True)
    return dict(ctx.meta.get(LOADER_OPTIONS_KEY, {})) if ctx is not None else {}


loader_option: Decorator = click.option(
    "--loader-option",
    "-L",
    multiple=True,
    metavar="KEY=VALUE",
    expose_value=False,
    callback=_loader_options,
    help="A loader option, repeatable, for the formats that take it (PDF: password=..., "
    "pages=1-5,8, ocr=true); files of other formats ignore it.",
)


progress_option: Decorator = click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on standard error (default: when it is a terminal).",
)


LLM_STRATEGIES = ("agentic", "propositions")
"""The strategies that ask a chat model (they take ``client``)."""

LLM_PARAMS = ("model", "base_url", "api_key", "cache", "concurrency", "timeout", "max_retries")
"""The ``-p`` parameters of an LLM strategy that make its chat client (with ``--llm-*``):
they go to the one client :func:`llm_client_or_fail` builds, not to the chunker."""


def _names(base: Any) -> list[str]:
    if isinstance(base, str):
        return [base]
    if isinstance(base, (list, tuple)):
        return [b for b in base if isinstance(b, str)]
    return []


def uses_llm(strategy: str, params: tuple[str, ...] | list[str] = ()) -> bool:
    """Whether ``strategy`` with ``-p`` ``params`` asks a chat model: an LLM strategy, or
    ``hierarchical`` with one as the base of a level (``-p base=agentic``)."""
    if strategy in LLM_STRATEGIES:
        return True
    if strategy == "hierarchical":
        return any(name in LLM_STRATEGIES for name in _names(parse_params(params).get("base", "recursive")))
    return False


def _endpoint_keys(strategy: str, params: tuple[str, ...] | list[str], contextualize: bool) -> frozenset[str]:
    """The :data:`LLM_PARAMS` that ``-p`` gives the chat client rather than the chunker:
    all of them for a strategy that asks a chat model; with ``--contextualize`` those the
    strategy does not take itself (a semantic strategy's ``model`` is its embedding model)."""
    if uses_llm(strategy, params):
        return frozenset(LLM_PARAMS)
    if not contextualize:
        return frozenset()
    from ..api import AUTO_ALSO, _init_fields
    from ..registry import AUTO, get_strategy

    try:
        names = ("recursive", "markdown", *AUTO_ALSO) if strategy == AUTO else (strategy,)
        own = set().union(*(_init_fields(get_strategy(n)) for n in names))
    except Exception:  # noqa: BLE001 - an unknown strategy: its own error comes later
        own = set()
    return frozenset(k for k in LLM_PARAMS if k not in own)


def chunker_params(strategy: str, params: tuple[str, ...], contextualize: bool = False) -> tuple[str, ...]:
    """The ``-p`` items for the chunker: without the :data:`LLM_PARAMS` that made the chat
    client (all of them when the strategy asks a chat model; with ``--contextualize``
    those the strategy does not take itself)."""
    keys = _endpoint_keys(strategy, params, contextualize)
    if not keys:
        return tuple(params)
    return tuple(p for p in params if p.split("=", 1)[0].strip().replace("-", "_") not in keys)


def _check_base_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--llm-base-url``: an http or https URL with a host, checked before any work."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise click.BadParameter(
            f"{value!r} is not an http(s) URL; give the API root, such as http://localhost:11434/v1 (Ollama)"
        )
    return value


def llm_options(dry_run: bool = True) -> Decorator:
    """``--llm-model``, ``--llm-base-url``, ``--llm-cache``, ``--no-llm-cache``,
    ``--llm-concurrency``, ``--contextualize`` and (with ``dry_run``) ``--llm-price`` and
    ``--dry-run``: the chat model of the LLM strategies and of contextual retrieval
    (:mod:`chunkwise.llm`)."""
    options = [
        click.option("--llm-model", metavar="NAME", default=None,
                     help="Chat model of an OpenAI-compatible endpoint (agentic, propositions, --contextualize)."),
        click.option("--llm-base-url", metavar="URL", default=None, callback=_check_base_url,
                     help="API root, e.g. http://localhost:11434/v1 for Ollama [default: $OPENAI_BASE_URL, else "
                     "OpenAI's]; the key is read from $OPENAI_API_KEY."),
        click.option("--llm-cache", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE",
                     help="Response cache [default: $XDG_CACHE_HOME/chunkwise/llm.sqlite]."),
        click.option("--no-llm-cache", is_flag=True, help="Do not read or write the response cache."),
        click.option("--llm-price", metavar="IN,OUT", default=None,
                     help="USD per million input and output tokens, for the --dry-run cost."),
        click.option("--llm-concurrency", type=click.IntRange(1, 256), default=4, show_default=True,
                     help="Chat requests in flight at once."),
        click.option("--contextualize", is_flag=True,
                     help="The chat model writes a short context situating each chunk (in the chunk's context)."),
        click.option("--dry-run", is_flag=True,
                     help="Print the requests, tokens and cost the chat model would get; send and write nothing."),
    ]
    if not dry_run:
        options = [o for o, name in zip(options, _LLM_OPTION_NAMES) if name not in ("llm_price", "dry_run")]
    return _apply(options)


_LLM_OPTION_NAMES = (
    "llm_model", "llm_base_url", "llm_cache", "no_llm_cache", "llm_price", "llm_concurrency", "contextualize", "dry_run"
)


def llm_client_or_fail(
    strategy: str,
    contextualize: bool,
    model: str | None,
    base_url: str | None,
    cache: Path | None,
    no_cache: bool,
    price: str | None,
    concurrency: int,
    *,
    params: tuple[str, ...] = (),
    dry_run: bool = False,
) -> Any:
    """The one :class:`chunkwise.llm.ChatClient` of a command, or None when no chat model
    is asked for (:func:`uses_llm`, ``--contextualize``).

    The ``--llm-*`` options and, when the strategy asks a chat model, the ``-p``
    :data:`LLM_PARAMS` (``model``, ``base_url``, ``api_key``, ``cache``, ``concurrency``,
    ``timeout``, ``max_retries``) combine: either may give a setting; both giving it with
    different values is a usage error. ``dry_run``: a cache file that does not exist is
    not created (nothing is written).

    Raises:
        click.UsageError: no model; neither a base URL nor ``OPENAI_API_KEY``; settings
            that disagree or are invalid; a malformed price.
    """
    asks = uses_llm(strategy, params)
    if not asks and not contextualize:
        return None
    keys = _endpoint_keys(strategy, params, contextualize)
    given = parse_params(params) if keys else {}
    llm = {k: given[k] for k in LLM_PARAMS if k in given and k in keys}
    ctx = click.get_current_context(silent=True)

    def explicit(name: str) -> bool:
        from click.core import ParameterSource

        if ctx is None or name not in ctx.params:
            return False
        return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)

    for key, option, value, set_ in (
        ("model", "--llm-model", model, model is not None),
        ("base_url", "--llm-base-url", base_url, base_url is not None),
        ("cache", "--llm-cache", cache, cache is not None),
        ("concurrency", "--llm-concurrency", concurrency, explicit("llm_concurrency")),
    ):
        if key in llm and set_ and str(llm[key]) != str(value):
            raise click.UsageError(f"-p {key}={llm[key]} and {option} {value} disagree; give one of them")
    if no_cache and "cache" in llm:
        raise click.UsageError(f"-p cache={llm['cache']} and --no-llm-cache disagree; give one of them")
    model = model or (str(llm["model"]) if llm.get("model") else None)
    if base_url is None and llm.get("base_url"):
        try:
            base_url = _check_base_url(None, None, str(llm["base_url"]))  # type: ignore[arg-type]
        except click.BadParameter as exc:
            raise click.UsageError(f"-p base_url: {exc.message}") from None
    if cache is None and llm.get("cache"):
        cache = Path(str(llm["cache"]))
    if not explicit("llm_concurrency") and "concurrency" in llm:
        concurrency = llm["concurrency"]
    if not model:
        what = "--contextualize" if contextualize and not asks else f"strategy {strategy}"
        raise click.UsageError(f"{what} needs --llm-model NAME (the chat model the server serves)")
    prices: list[float | None] = [None, None]
    if price:
        try:
            prices = [float(v) for v in price.split(",")]
            if len(prices) != 2:
                raise ValueError
        except ValueError:
            raise click.BadParameter(f"{price!r} is not IN,OUT (two numbers)", param_hint="--llm-price") from None
    from ..errors import ChunkwiseError
    from ..llm import ChatClient

    if not no_cache and cache is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        cache = Path(base) / "chunkwise" / "llm.sqlite"
    if dry_run and cache is not None and not cache.exists():
        no_cache = True  # nothing cached to count, and a dry run writes nothing
    extra = {k: llm[k] for k in ("api_key", "timeout", "max_retries") if k in llm}
    if "api_key" in extra:
        extra["api_key"] = str(extra["api_key"])
    try:
        return ChatClient(
            model,
            base_url=base_url,
            cache=None if no_cache else cache,
            concurrency=concurrency,
            price_input=prices[0],
            price_output=prices[1],
            **extra,
        )
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
