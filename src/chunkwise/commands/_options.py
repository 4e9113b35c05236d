"""The options of the commands, declared once and shared, and handed to a command as
values, not as one keyword per option.

* :func:`chunking_options` (``chunk``, ``inspect``, ``index build``; ``stats``, ``eval``,
  ``calibrate`` as comma-separated grids): ``--strategy``, ``--chunk-size``,
  ``--chunk-overlap``, ``--unit``, ``--tokenizer``, ``--param`` -- the arguments of
  :func:`chunkwise.chunk` -- as one :class:`ChunkingOptions` (``chunking``).
* :func:`input_options`: ``--include``, ``--exclude``, ``--root``, ``--encoding``,
  ``--format`` (standard input) and ``--loader-option``/``-L KEY=VALUE``
  (``chunkwise.load(path, **options)``) as one :class:`InputOptions` (``reading``).
* :func:`llm_options`: the chat model (``--llm-*``, ``--contextualize``, ``--dry-run``)
  as one :class:`LlmOptions` (``llm``).
* :func:`chunker_and_client`: the one function from those values to the chunker and its
  chat client.
* :func:`progress_option`, :func:`json_option`.
"""

from __future__ import annotations

import codecs
import functools
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

__all__ = [
    "CLI_DEFAULTS",
    "ChunkingOptions",
    "InputOptions",
    "LlmOptions",
    "build_grid",
    "chunker_and_client",
    "default_llm_cache",
    "given_explicitly",
    "json_option",
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
    "option_group",
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


def option_group(options: list[Decorator], into: str, make: Callable[..., Any], names: tuple[str, ...]) -> Decorator:
    """``options``, whose parsed values (``names``) reach the command as one keyword
    argument ``into``: ``make(**values)``. The command's signature lists ``into``, not
    the options."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)  # shares the options declared below it (``__click_params__``)
        def command(*args: Any, **kwargs: Any) -> Any:
            kwargs[into] = make(**{name: kwargs.pop(name) for name in names if name in kwargs})
            return fn(*args, **kwargs)

        return _apply(options)(command)

    return deco


def given_explicitly(name: str, ctx: click.Context | None = None) -> bool:
    """Whether the parameter ``name`` of the running command was given (on the command
    line or from the environment), not left at its default."""
    from click.core import ParameterSource

    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None or name not in ctx.params:
        return False
    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


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
    if isinstance(sizes, list) and sizes:
        if given_explicitly("chunk_size", ctx) and chunk_size != sizes[-1]:  # only the default gives way
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


@dataclass(frozen=True)
class ChunkingOptions:
    """The chunking options as given: one configuration (``chunk_size`` and
    ``chunk_overlap`` integers, in ``unit``) or a grid (comma-separated text of each);
    ``params`` the ``-p KEY=VALUE`` items as given."""

    strategy: str
    chunk_size: Any
    chunk_overlap: Any
    unit: str
    tokenizer: str
    params: tuple[str, ...] = ()

    def chunker(self, **extra: Any) -> Any:
        """The chunker of this configuration, every ``-p`` parameter its own (``extra``:
        parameters the command computed); see :func:`make_chunker_or_fail`."""
        return make_chunker_or_fail(
            self.strategy, self.chunk_size, self.chunk_overlap, self.unit, self.tokenizer, self.params, **extra
        )

    def grid(self) -> list[Any]:
        """The :class:`~chunkwise.evaluation.EvalConfig` of every combination of the grid."""
        return build_grid(self.strategy, self.chunk_size, self.chunk_overlap, self.unit, self.tokenizer, self.params)

    def settings(self) -> dict[str, Any]:
        """``strategy``, ``chunk_size``, ``chunk_overlap``, ``unit``, ``tokenizer`` and the
        parsed ``params`` (a playground configuration)."""
        return {"strategy": self.strategy, "chunk_size": self.chunk_size, "chunk_overlap": self.chunk_overlap,
                "unit": self.unit, "tokenizer": self.tokenizer, "params": parse_params(self.params)}


_CHUNKING_NAMES = ("strategy", "chunk_size", "chunk_overlap", "unit", "tokenizer", "params")


def _int_list(value: str, name: str) -> list[int]:
    try:
        out = list(dict.fromkeys(int(v) for v in value.split(",") if v.strip()))  # a value given twice: once
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of integers", param_hint=name) from None
    if not out:
        raise click.BadParameter("give at least one value", param_hint=name)
    return out


def build_grid(
    strategy: str, chunk_size: str, chunk_overlap: str, unit: str, tokenizer: str, params: tuple[str, ...] | list[str]
) -> list[Any]:
    """The list of :class:`~chunkwise.evaluation.EvalConfig` for the grid options (every
    chunker made once: an invalid combination is a usage error before any work)."""
    from ..errors import ChunkwiseError
    from ..evaluation import make_grid
    from ..registry import strategy_names

    names = [s.strip() for s in strategy.split(",") if s.strip()]
    unknown = [s for s in names if s not in strategy_names()]
    if unknown:
        raise click.BadParameter(
            f"unknown strategy {', '.join(unknown)}; known: {', '.join(strategy_names())}", param_hint="--strategy"
        )
    try:
        configs = make_grid(
            names,
            _int_list(chunk_size, "--chunk-size"),
            _int_list(chunk_overlap, "--chunk-overlap"),
            unit,
            tokenizer,
            parse_params(tuple(params)),
        )
        for cfg in configs:
            cfg.make_chunker()
    except ChunkwiseError as exc:
        raise click.UsageError(str(exc)) from exc
    return configs


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
    command's own default strategy and the help that says so. The command gets them as
    ``chunking``, a :class:`ChunkingOptions`."""
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
    return option_group(
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
        ],
        "chunking",
        ChunkingOptions,
        _CHUNKING_NAMES,
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


@dataclass(frozen=True)
class InputOptions:
    """How the files are found and read: ``include``/``exclude`` globs, the ``root`` of
    the document ids, the ``encoding`` (None: detected), the ``fmt`` of standard input,
    and the ``-L`` ``loader_options`` (``chunkwise.load(path, **loader_options)``). An
    option a command does not have keeps its default here."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    root: Path | None = None
    encoding: str | None = None
    fmt: str = "text"
    loader_options: Mapping[str, str] = field(default_factory=dict)


def _input_options_of(**values: Any) -> InputOptions:
    return InputOptions(**values, loader_options=loader_options_of())


def input_options(*, globs: bool = True, format: bool = True, root: bool = False) -> Decorator:
    """``--include`` and ``--exclude`` (``globs=True``), ``--root`` (``root=True``: the
    commands that read files named on the command line), ``--encoding``, ``--format`` of
    standard input (``format=True``) and ``--loader-option``. The command gets them as
    ``reading``, an :class:`InputOptions`."""
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
    return option_group(options, "reading", _input_options_of, ("include", "exclude", "root", "encoding", "fmt"))


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


def json_option(what: str) -> Decorator:
    """``--json FILE`` (the command's ``json_path``): "Also write ``what`` as JSON."."""
    return click.option(
        "--json",
        "json_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help=f"Also write {what} as JSON.",
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


@dataclass(frozen=True)
class LlmOptions:
    """The chat model's options as given: ``--llm-model``, ``--llm-base-url``,
    ``--llm-cache``, ``--no-llm-cache``, ``--llm-price``, ``--llm-concurrency``,
    ``--contextualize``, ``--dry-run`` (an option a command does not have keeps its
    default here)."""

    model: str | None = None
    base_url: str | None = None
    cache: Path | None = None
    no_cache: bool = False
    price: str | None = None
    concurrency: int = 4
    contextualize: bool = False
    dry_run: bool = False


_LLM_OPTION_NAMES = (
    "llm_model", "llm_base_url", "llm_cache", "no_llm_cache", "llm_price", "llm_concurrency", "contextualize", "dry_run"
)


def _llm_options_of(**values: Any) -> LlmOptions:
    return LlmOptions(**{name.replace("no_llm_", "no_").replace("llm_", ""): v for name, v in values.items()})


def llm_options(
    *, dry_run: bool = True, contextualize: bool = True, helps: Mapping[str, str] | None = None
) -> Decorator:
    """``--llm-model``, ``--llm-base-url``, ``--llm-cache``, ``--no-llm-cache``,
    ``--llm-concurrency``, (with ``contextualize``) ``--contextualize`` and (with
    ``dry_run``) ``--llm-price`` and ``--dry-run``: the chat model of the LLM strategies
    and of contextual retrieval (:mod:`chunkwise.llm`). ``helps``: a command's own help of
    an option, by its name (``llm_model``). The command gets them as ``llm``, an
    :class:`LlmOptions`."""
    helps = dict(helps or {})
    options = {
        "llm_model": click.option(
            "--llm-model", metavar="NAME", default=None,
            help=helps.get("llm_model", "Chat model of an OpenAI-compatible endpoint (agentic, propositions, "
                                        "--contextualize).")),
        "llm_base_url": click.option(
            "--llm-base-url", metavar="URL", default=None, callback=_check_base_url,
            help=helps.get("llm_base_url", "API root, e.g. http://localhost:11434/v1 for Ollama [default: "
                                           "$OPENAI_BASE_URL, else OpenAI's]; the key is read from $OPENAI_API_KEY.")),
        "llm_cache": click.option(
            "--llm-cache", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="FILE",
            help=helps.get("llm_cache", "Response cache [default: $XDG_CACHE_HOME/chunkwise/llm.sqlite].")),
        "no_llm_cache": click.option(
            "--no-llm-cache", is_flag=True, help=helps.get("no_llm_cache", "Do not read or write the response cache.")),
        "llm_price": click.option(
            "--llm-price", metavar="IN,OUT", default=None,
            help=helps.get("llm_price", "USD per million input and output tokens, for the --dry-run cost.")),
        "llm_concurrency": click.option(
            "--llm-concurrency", type=click.IntRange(1, 256), default=4, show_default=True,
            help=helps.get("llm_concurrency", "Chat requests in flight at once.")),
        "contextualize": click.option(
            "--contextualize", is_flag=True,
            help=helps.get("contextualize", "The chat model writes a short context situating each chunk (in the "
                                            "chunk's context).")),
        "dry_run": click.option(
            "--dry-run", is_flag=True,
            help=helps.get("dry_run", "Print the requests, tokens and cost the chat model would get; send and write "
                                      "nothing.")),
    }
    left_out = {"llm_price", "dry_run"} if not dry_run else set()
    if not contextualize:
        left_out.add("contextualize")
    return option_group([opt for name, opt in options.items() if name not in left_out], "llm", _llm_options_of,
                   _LLM_OPTION_NAMES)


def default_llm_cache() -> Path:
    """``$XDG_CACHE_HOME/chunkwise/llm.sqlite`` (``~/.cache`` when unset): the response
    cache of the chat model unless ``--llm-cache`` or ``--no-llm-cache``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "chunkwise" / "llm.sqlite"


def chunker_and_client(chunking: ChunkingOptions, llm: LlmOptions) -> tuple[Any, Any]:
    """``(chunker, client)`` of a command with the chunking and the chat model's options:
    the one :class:`chunkwise.llm.ChatClient` (None when no chat model is asked for:
    :func:`llm_client_or_fail`), given to the chunker when its strategy asks the model;
    the ``-p`` parameters that made the client are not the chunker's
    (:func:`chunker_params`).

    Raises:
        click.UsageError: see :func:`llm_client_or_fail` and :func:`make_chunker_or_fail`.
    """
    client = llm_client_or_fail(llm, chunking.strategy, chunking.params)
    extra = {"client": client} if client is not None and uses_llm(chunking.strategy, chunking.params) else {}
    chunker = make_chunker_or_fail(
        chunking.strategy, chunking.chunk_size, chunking.chunk_overlap, chunking.unit, chunking.tokenizer,
        chunker_params(chunking.strategy, chunking.params, llm.contextualize), **extra,
    )
    return chunker, client


def llm_client_or_fail(llm: LlmOptions, strategy: str, params: tuple[str, ...] = ()) -> Any:
    """The one :class:`chunkwise.llm.ChatClient` of a command, or None when no chat model
    is asked for (:func:`uses_llm`, ``--contextualize``).

    The ``--llm-*`` options and, when the strategy asks a chat model, the ``-p``
    :data:`LLM_PARAMS` (``model``, ``base_url``, ``api_key``, ``cache``, ``concurrency``,
    ``timeout``, ``max_retries``) combine: either may give a setting; both giving it with
    different values is a usage error. ``--dry-run``: a cache file that does not exist is
    not created (nothing is written).

    Raises:
        click.UsageError: no model; neither a base URL nor ``OPENAI_API_KEY``; settings
            that disagree or are invalid; a malformed price.
    """
    contextualize, price, dry_run = llm.contextualize, llm.price, llm.dry_run
    model, base_url, cache, no_cache, concurrency = llm.model, llm.base_url, llm.cache, llm.no_cache, llm.concurrency
    asks = uses_llm(strategy, params)
    if not asks and not contextualize:
        return None
    keys = _endpoint_keys(strategy, params, contextualize)
    given = parse_params(params) if keys else {}
    from_p = {k: given[k] for k in LLM_PARAMS if k in given and k in keys}
    for key, option, value, set_ in (
        ("model", "--llm-model", model, model is not None),
        ("base_url", "--llm-base-url", base_url, base_url is not None),
        ("cache", "--llm-cache", cache, cache is not None),
        ("concurrency", "--llm-concurrency", concurrency, given_explicitly("llm_concurrency")),
    ):
        if key in from_p and set_ and str(from_p[key]) != str(value):
            raise click.UsageError(f"-p {key}={from_p[key]} and {option} {value} disagree; give one of them")
    if no_cache and "cache" in from_p:
        raise click.UsageError(f"-p cache={from_p['cache']} and --no-llm-cache disagree; give one of them")
    model = model or (str(from_p["model"]) if from_p.get("model") else None)
    if base_url is None and from_p.get("base_url"):
        try:
            base_url = _check_base_url(None, None, str(from_p["base_url"]))  # type: ignore[arg-type]
        except click.BadParameter as exc:
            raise click.UsageError(f"-p base_url: {exc.message}") from None
    if cache is None and from_p.get("cache"):
        cache = Path(str(from_p["cache"]))
    if not given_explicitly("llm_concurrency") and "concurrency" in from_p:
        concurrency = from_p["concurrency"]
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
        cache = default_llm_cache()
    if dry_run and cache is not None and not cache.exists():
        no_cache = True  # nothing cached to count, and a dry run writes nothing
    extra = {k: from_p[k] for k in ("api_key", "timeout", "max_retries") if k in from_p}
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
