"""The options of the commands, declared once and shared, and handed to a command as
values, not as one keyword per option.

* :func:`chunking_options` (``chunk``, ``inspect``, ``index build``; ``stats``, ``eval``,
  ``calibrate`` as comma-separated grids): ``--strategy``, ``--chunk-size``,
  ``--chunk-overlap``, ``--unit``, ``--tokenizer``, ``--param`` -- the arguments of
  :func:`chunkwise.chunk` -- as one :class:`ChunkingOptions` (``chunking``).
* :func:`input_options`: ``--include``, ``--exclude``, ``--root``, ``--encoding``,
  ``--format`` (standard input) and ``--loader-option``/``-L KEY=VALUE``
  (``chunkwise.load(path, **options)``) as one :class:`InputOptions` (``reading``).
* :func:`~chunkwise.commands._llm_options.llm_options` (in ``_llm_options.py``): the chat
  model (``--llm-*``, ``--contextualize``, ``--dry-run``) as one ``LlmOptions`` (``llm``).
* :func:`chunker_and_client`: the one function from those values to the chunker and its
  chat client.
* :func:`progress_option`, :func:`json_option`.
* :func:`echo_view`, :func:`silence_stdout`: printing on standard output when its reader
  may leave (``| head``).
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ._llm_options import LlmOptions

__all__ = [
    "CLI_DEFAULTS",
    "EVAL_GRID_DEFAULTS",
    "FORMATS",
    "GRID_DEFAULTS",
    "PYTHON_DEFAULTS",
    "UNITS",
    "ChunkingOptions",
    "InputOptions",
    "auto_help",
    "build_grid",
    "chunker_and_client",
    "chunking_options",
    "echo_view",
    "given_explicitly",
    "input_options",
    "json_option",
    "loader_option",
    "loader_options_of",
    "make_chunker_or_fail",
    "option_group",
    "parse_loader_options",
    "parse_params",
    "progress_option",
    "refuse_folder",
    "silence_stdout",
]

UNITS = ("chars", "words", "tokens")


def _stdin_formats() -> tuple[str, ...]:
    """The formats ``--format`` accepts: those of the registered loaders, ``text`` first."""
    from ..loaders import registered_loaders

    return tuple(dict.fromkeys(["text", *(ld.format for ld in registered_loaders())]))


FORMATS = _stdin_formats()

PYTHON_DEFAULTS = {
    "strategy": "auto",
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


def _chunking_options_of(**values: Any) -> ChunkingOptions:
    """The :class:`ChunkingOptions` of a command; ``--tokenizer`` given with a unit that
    counts no tokens is a usage error (it would be ignored: sizes in chars or words, and
    the token counts of ``eval`` and ``calibrate`` are cl100k whatever the option)."""
    options = ChunkingOptions(**values)
    if options.unit != "tokens" and given_explicitly("tokenizer"):
        raise click.UsageError(
            f"--tokenizer {options.tokenizer} goes with --unit tokens, not --unit {options.unit} (sizes in "
            f"{options.unit} count no tokens); give --unit tokens, or leave --tokenizer out"
        )
    return options


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
        _chunking_options_of,
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


def chunker_and_client(chunking: ChunkingOptions, llm: LlmOptions) -> tuple[Any, Any]:
    """``(chunker, client)`` of a command with the chunking and the chat model's options:
    the one :class:`chunkwise.llm.ChatClient` (None when no chat model is asked for:
    :func:`~chunkwise.commands._llm_options.llm_client_or_fail`), given to the chunker when its strategy asks the model;
    the ``-p`` parameters that made the client are not the chunker's
    (:func:`~chunkwise.commands._llm_options.chunker_params`).

    Raises:
        click.UsageError: see :func:`llm_client_or_fail` and :func:`make_chunker_or_fail`.
    """
    from ._llm_options import chunker_params, llm_client_or_fail, uses_llm

    client = llm_client_or_fail(llm, chunking.strategy, chunking.params)
    extra = {"client": client} if client is not None and uses_llm(chunking.strategy, chunking.params) else {}
    chunker = make_chunker_or_fail(
        chunking.strategy, chunking.chunk_size, chunking.chunk_overlap, chunking.unit, chunking.tokenizer,
        chunker_params(chunking.strategy, chunking.params, llm.contextualize), **extra,
    )
    return chunker, client


def silence_stdout() -> None:
    """Send what is still to be written on standard output to the null device: its reader
    left (a broken pipe), so the buffered rest and the interpreter's flush at exit raise no
    second error (the recipe of the Python documentation's "Note on SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def echo_view(text: str) -> bool:
    """Print ``text`` (a view: a table, chunks, results) on standard output and flush it;
    False when the reader left (``| head``: a broken pipe). Then standard output goes to
    the null device for the rest of the command, which carries on quietly: the files it
    writes are written, its messages on standard error are said, and its exit status is
    the one it would have had."""
    try:
        click.echo(text)
        if sys.stdout is not None:  # None: started with standard output closed (click writes nothing)
            sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return False
    return True
