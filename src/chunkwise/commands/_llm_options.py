"""The chat model's options of the commands (``chunk``, ``index build``, ``calibrate``):
``--llm-model``, ``--llm-base-url``, ``--llm-cache``, ``--no-llm-cache``, ``--llm-price``,
``--llm-concurrency``, ``--contextualize``, ``--dry-run`` as one :class:`LlmOptions`, and
the one :class:`chunkwise.llm.ChatClient` they make with an LLM strategy's ``-p``
parameters (:func:`llm_client_or_fail`). The other option groups are in
:mod:`chunkwise.commands._options`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ._options import Decorator, given_explicitly, option_group, parse_params

__all__ = [
    "LLM_PARAMS",
    "LLM_STRATEGIES",
    "LlmOptions",
    "chunker_params",
    "default_llm_cache",
    "llm_client_or_fail",
    "llm_options",
    "uses_llm",
]

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
