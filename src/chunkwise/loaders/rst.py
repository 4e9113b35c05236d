"""reStructuredText (``.rst``, ``.rest``, Sphinx's ``.rst.txt`` sources): parsed by
docutils and rendered as Markdown through the HTML path, sections as ATX headings.

docutils parses the text (section levels from the order of their underline styles, as the
reStructuredText spec says); its HTML5 writer renders the tree and
:func:`chunkwise.parsers.html.html_to_markdown` turns that into Markdown, so the
``markdown`` strategy gives header paths whatever adornment the author used. The text of
the document is the rendered Markdown (offsets index it); the title (a lone top-level
section, promoted by docutils) goes to ``metadata["title"]``.

Sphinx markup, which plain docutils does not know, keeps its text: an unknown directive
(``.. function:: f(x)``, ``.. versionadded:: 3.2``) becomes its arguments as a line
followed by its content parsed as reStructuredText (``code-block``, ``doctest`` and the
like as code blocks; ``index``, ``toctree``, ``highlight`` and other directives without
readable content left out); the arguments of other directives (``.. seealso:: :mod:`sys```,
``.. deprecated:: 3.1 Use :func:`f```) are parsed for inline markup; an unknown role
becomes the text Sphinx shows for it (``:ref:`text <label>``` is ``text``,
``:func:`~os.path.join``` is ``join``: :func:`_role_text`), as code for roles that name
code. Math (``:math:``, ``.. math::``) is kept as its LaTeX source.
Nothing is read from other files or run: ``include`` and ``raw`` are switched off, and
docutils' warnings are not printed.

Method:
    docutils' reStructuredText parser with its ``Body`` state and ``Inliner`` extended
    for unknown directives and roles; the HTML5 writer; chunkwise's HTML renderer.
"""

from __future__ import annotations

import copy
import io
import re
import types
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import MissingDependencyError
from ..types import Document
from .base import Loader, register_loader

__all__ = ["RstLoader"]

_CODE_DIRECTIVES = frozenset(["code-block", "sourcecode", "doctest", "testcode", "testoutput", "productionlist"])
_SILENT_DIRECTIVES = frozenset(
    ["index", "toctree", "highlight", "testsetup", "testcleanup", "currentmodule", "module", "moduleauthor",
     "sectionauthor", "codeauthor", "tabularcolumns", "literalinclude", "autosummary", "automodule",
     "autoclass", "autofunction", "only", "ifconfig", "spelling:word-list", "raw"]
)
_CODE_ROLES = frozenset(
    ["func", "meth", "class", "mod", "attr", "data", "exc", "obj", "const", "envvar", "option", "program",
     "file", "command", "samp", "kbd", "keyword", "mailheader", "makevar", "c:func", "c:macro", "c:type",
     "c:member", "c:data", "py:func", "py:meth", "py:class", "py:mod", "py:attr", "py:data", "py:exc",
     "py:obj", "py:const", "opcode", "token", "cmd", "regexp", "code"]
)
_VERSION_DIRECTIVES = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "deprecated-removed": "Deprecated since version",
}
# the directives that describe an API object (Sphinx domains): their argument is a signature
_SIGNATURE = re.compile(
    r"(?:^|:)(?:function|method|classmethod|staticmethod|class|attribute|data|exception|decorator|"
    r"decoratormethod|describe|object|macro|member|type|var|opcode|cmdoption|option|envvar|module|property)$"
)
_TITLE_TARGET = re.compile(r"^(.*?)\s*<[^<>]+>$", re.DOTALL)


class _AnyOption(dict):  # type: ignore[type-arg]
    """An option spec that takes every option (docutils reads options only when the spec is
    true, and looks each name up)."""

    def __init__(self, convert: Any) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, key: str) -> Any:
        return self.convert

    def __bool__(self) -> bool:
        return True


def _role_text(role: str, value: str) -> str:
    """The text Sphinx shows for a role it knows and docutils does not.

    ``title <target>``: the title; ``!target``: the target (no link); ``~a.b.c``: the
    last component, ``c``; ``:guilabel:`&Cancel```: ``Cancel`` (``&`` marks the
    accelerator key, ``&&`` is an ampersand); ``:menuselection:`File --> Open```:
    ``File ‣ Open``; ``:samp:`print({x})```: ``print(x)`` (braces mark the variable part).

    Example:
        >>> _role_text("ref", "the guide <guide-label>"), _role_text("func", "~os.path.join")
        ('the guide', 'join')
    """
    m = _TITLE_TARGET.match(value)
    if m and m.group(1):
        return m.group(1)
    value = value.lstrip("!")
    if value.startswith("~"):
        value = value[1:]
        head, paren, tail = value.partition("(")
        value = head.rsplit(".", 1)[-1] + paren + tail
    if role in ("guilabel", "menuselection"):
        value = re.sub(r"&(&?)", lambda k: k.group(1), value)
    if role == "menuselection":
        value = value.replace("-->", "\N{TRIANGULAR BULLET}")
    if role in ("samp", "file"):
        value = re.sub(r"(?<!\\)\{([^{}]*)\}", r"\1", value)
    return value


def _docutils() -> Any:
    try:
        import docutils  # noqa: F401
    except ImportError:
        raise MissingDependencyError("docutils", "rst", "reading reStructuredText") from None
    return docutils


def _parser() -> Any:
    """A docutils reStructuredText parser that keeps the text of unknown directives and
    roles (built on first use: docutils is imported only here)."""
    from docutils import nodes, utils
    from docutils.parsers import rst
    from docutils.parsers.rst import Directive, directives, roles, states

    class GenericDirective(Directive):
        """An unknown directive: its arguments as a line, its content as body text."""

        has_content = True
        optional_arguments = 64
        final_argument_whitespace = True
        option_spec = _AnyOption(directives.unchanged)

        def run(self) -> list[Any]:
            name = self.name.lower()
            if name in _SILENT_DIRECTIVES:
                return []
            out: list[Any] = []
            args = " ".join(self.arguments).strip()
            if name in _CODE_DIRECTIVES:
                code = "\n".join(self.content)
                if code.strip():
                    block = nodes.literal_block(code, code)
                    if args and name in ("code-block", "sourcecode"):
                        block["classes"].append("language-" + args.split()[0])
                    out.append(block)
                return out
            if name in _VERSION_DIRECTIVES:
                # Sphinx: "Changed in version 3.2: <the explanation, inline markup rendered>"
                version, _, rest = args.partition(" ")
                if "\n" in version:
                    version, _, more = version.partition("\n")
                    rest = (more + " " + rest).strip()
                line = f"{_VERSION_DIRECTIVES[name]} {version}".strip()
                if rest.strip():
                    inline, messages = self.state.inline_text(" ".join(rest.split()), self.lineno)
                    out.append(nodes.paragraph(args, "", nodes.Text(line + ": "), *inline))
                else:
                    out.append(nodes.paragraph(line, line))
            elif args and _SIGNATURE.search(name):  # an API object's signature: code
                out.append(nodes.paragraph(args, "", nodes.literal(args, args)))
            elif args:  # seealso, admonitions, ...: inline markup (roles) rendered
                inline, messages = self.state.inline_text(args, self.lineno)
                label = [nodes.Text("See also: ")] if name == "seealso" else []
                out.append(nodes.paragraph(args, "", *label, *inline))
            if self.content:
                box = nodes.container()
                self.state.nested_parse(self.content, self.content_offset, box)
                out.append(box)
            return out

    def directive(self: Any, match: Any, **option_presets: Any) -> Any:
        """``Body.directive``, with :class:`GenericDirective` for an unknown name."""
        type_name = match.group(1)
        directive_class, messages = directives.directive(type_name, self.memo.language, self.document)
        self.parent += messages
        return self.run_directive(directive_class or GenericDirective, match, type_name, option_presets)

    # explicit markup is dispatched through a table of functions (Body.explicit.constructs)
    # that every state derived from Body shares: each gets a copy naming the new directive
    explicit = copy.copy(states.Body.explicit)
    explicit.constructs = [
        (directive if method is states.Body.directive else method, pattern)
        for method, pattern in states.Body.explicit.constructs
    ]
    cache: list[Any] = []

    def derive(base: type) -> type:
        """``base`` whose nested parses use these state classes (docutils' states name the
        module's own in ``__init__``), with a cache of nested machines of their own."""

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N807
            base.__init__(self, *args, **kwargs)
            self.nested_sm_kwargs = {"state_classes": classes, "initial_state": "Body"}

        attrs: dict[str, Any] = {"__init__": __init__, "nested_sm_cache": cache}
        if issubclass(base, states.Body):
            attrs.update(explicit=explicit, directive=directive)
        return type(base.__name__, (base,), attrs)  # states are found by class name

    classes = tuple(derive(c) for c in states.state_classes)

    def interpreted(self: Any, rawsource: str, text: str, role: str, lineno: int) -> Any:
        """An unknown role keeps its text (docutils' Inliner would report it and keep the
        markup)."""
        role_fn, messages = roles.role(role, self.language, lineno, self.reporter)
        if role_fn:
            found, more = role_fn(role, rawsource, text, lineno, self)
            return found, messages + more
        value = _role_text(role.lower(), utils.unescape(text))
        if role.lower() in _CODE_ROLES:
            return [nodes.literal(rawsource, value)], messages
        return [nodes.Text(value)], messages

    # the Inliner builds its patterns from its own class's attributes: a subclass would
    # not inherit them, so the one method is replaced on the instance
    inliner = states.Inliner()
    inliner.interpreted = types.MethodType(interpreted, inliner)
    parser = rst.Parser(inliner=inliner)
    parser.state_classes = classes
    return parser


def rst_to_html(text: str, source: str | None = None, fields: dict[str, str] | None = None) -> str:
    """The HTML5 rendering of reStructuredText by docutils (see the module's description
    for Sphinx markup; nothing is included from files, no warning printed). A field list
    that opens the document (Sphinx's file-wide metadata, ``:tocdepth: 2``) is not
    rendered: its fields go into ``fields`` when a dict is given.

    Raises:
        MissingDependencyError: docutils is not installed: ``pip install 'chunkwise[rst]'``.
    """
    _docutils()
    from docutils.core import publish_doctree, publish_from_doctree
    from docutils.writers import html5_polyglot

    settings = {
        "report_level": 5,
        "halt_level": 5,
        "warning_stream": io.StringIO(),
        "file_insertion_enabled": False,
        "raw_enabled": False,
        "_disable_config": True,
        "input_encoding": "unicode",
        "output_encoding": "unicode",
        "embed_stylesheet": False,
        "stylesheet_path": "",
        "syntax_highlight": "none",
        "line_length_limit": 10**7,
        # math as its LaTeX source (Sphinx's text builder does so), never through docutils'
        # LaTeX-to-MathML converter, which fails on some input (``\\`` in a role)
        "math_output": "LaTeX",
    }
    tree = publish_doctree(text, source_path=source or "<rst>", parser=_parser(), settings_overrides=settings)
    if fields is not None:
        fields.update(_file_fields(tree))
    return publish_from_doctree(tree, writer=html5_polyglot.Writer(), settings_overrides=settings)


def _file_fields(tree: Any) -> dict[str, str]:
    """Take out a field list that opens the document before any other content (Sphinx's
    file-wide metadata: ``:tocdepth: 2``, ``:orphan:``) and return its fields; they are
    settings for the builder, not text (a chunk of ``tocdepth: 2`` helps nobody)."""
    from docutils import nodes

    for child in list(tree.children):
        if isinstance(child, (nodes.comment, nodes.target, nodes.substitution_definition, nodes.decoration)):
            continue
        if isinstance(child, (nodes.field_list, nodes.docinfo)):  # docutils: docinfo when first
            out: dict[str, str] = {}
            for item in child.children:
                if isinstance(item, nodes.field):
                    name, body = item.next_node(nodes.field_name), item.next_node(nodes.field_body)
                    if name is not None:
                        out[name.astext().strip()] = " ".join(body.astext().split()) if body is not None else ""
                elif isinstance(item, nodes.Element):  # a bibliographic field: <author>, <version>
                    out[item.tagname] = " ".join(item.astext().split())
            tree.remove(child)
            return out
        return {}
    return {}


class RstLoader(Loader):
    """reStructuredText (``metadata["format"] == "rst"``), rendered as Markdown.

    Needs ``pip install 'chunkwise[rst]'`` (docutils) and the HTML extra's lxml.

    Example:
        >>> doc = RstLoader().parse("Guide\\n=====\\n\\nIntro.\\n\\nInstall\\n-------\\n\\nRun :func:`setup`.\\n")
        >>> print(doc.text, end="")
        # Guide
        <BLANKLINE>
        Intro.
        <BLANKLINE>
        ## Install
        <BLANKLINE>
        Run `setup`.
        >>> doc.metadata["title"]
        'Guide'
    """

    format: ClassVar[str] = "rst"
    suffixes: ClassVar[tuple[str, ...]] = (".rst", ".rest", ".rst.txt")
    mime_types: ClassVar[tuple[str, ...]] = ("text/x-rst", "text/prs.fallenstein.rst")
    aliases: ClassVar[tuple[str, ...]] = ("restructuredtext", "rest")

    def parse_text(
        self, text: str, *, source: str | None = None, metadata: Mapping[str, Any] | None = None, id: str = ""
    ) -> Document:
        from ..parsers.html import html_to_markdown

        fields: dict[str, str] = {}
        rendered, found = html_to_markdown(rst_to_html(text, source, fields))
        meta = dict(metadata or {})
        if fields:  # the file-wide metadata (``:tocdepth: 2``): settings, not text
            meta.setdefault("file_fields", fields)
        for key, value in found.items():
            if key != "language":  # the writer's default, not the author's
                meta.setdefault(key, value)
        meta.setdefault("format", self.format)
        return Document(rendered, id=id, source=source, metadata=meta)


register_loader(RstLoader())
