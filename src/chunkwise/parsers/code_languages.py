"""The languages of the ``code`` strategy: grammar packages, file suffixes and node types.

One :class:`LanguageSpec` per language says where its tree-sitter grammar comes from (a
per-language wheel on PyPI, such as ``tree-sitter-python``) and which syntax nodes matter
for chunking: definitions (a function, a class, a method: they start chunks and are kept
whole while they fit), wrappers around a definition (``export``, decorators, templates),
transparent containers (a namespace whose members are the real top level), imports, and
siblings that belong to the next node (decorators, attributes). Comments always belong to
the node right below them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LANGUAGES", "LanguageSpec", "language_for_suffix", "resolve_language", "unsupported_language"]


@dataclass(frozen=True)
class LanguageSpec:
    """What the code parser needs to know about one language.

    Attributes:
        name: the canonical name (``"python"``, ``"typescript"``, ``"cpp"``).
        module, function: the grammar package's module and the function returning its
            language pointer (``tree_sitter_typescript.language_tsx``).
        package: the distribution on PyPI that ships the grammar.
        suffixes: file endings (lower case, with the dot).
        aliases: other accepted names (``"py"``, ``"c++"``).
        definitions: node types that define a named thing.
        wrappers: node types that wrap one definition (``export_statement``).
        containers: node types whose members count as top level (namespaces).
        imports: node types of imports (for ``include_imports``).
        attached: sibling node types that belong to the node after them.
        annotations: node types of the annotations, attributes or decorators a grammar
            reads inside a definition (Java's ``@Override`` in its ``modifiers``, C#'s
            ``[Test]``): the definition's own text starts after them, as a Python
            function's starts after its decorators.
    """

    name: str
    module: str
    function: str
    package: str
    suffixes: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    definitions: frozenset[str] = frozenset()
    wrappers: frozenset[str] = frozenset()
    containers: frozenset[str] = frozenset()
    imports: frozenset[str] = frozenset()
    attached: frozenset[str] = frozenset()
    annotations: frozenset[str] = frozenset()


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


_JS_DEFS = _f(
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "method_definition",
    "lexical_declaration",  # const f = () => ... (kept only when it holds a function or class)
    "variable_declaration",
)
_TS_DEFS = _JS_DEFS | _f(
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "internal_module",
    "module",
    "function_signature",
    "abstract_method_signature",
)
_JS_WRAPPERS = _f("export_statement", "ambient_declaration", "expression_statement")
_C_DEFS = _f("function_definition", "struct_specifier", "union_specifier", "enum_specifier", "type_definition")
_PREPROC = _f("preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif")

LANGUAGES: dict[str, LanguageSpec] = {
    spec.name: spec
    for spec in (
        LanguageSpec(
            "python", "tree_sitter_python", "language", "tree-sitter-python", (".py", ".pyi", ".pyw"),
            ("py", "python3"),
            definitions=_f("function_definition", "class_definition"),
            wrappers=_f("decorated_definition"),
            imports=_f("import_statement", "import_from_statement", "future_import_statement"),
            attached=_f("decorator"),
        ),
        LanguageSpec(
            "javascript", "tree_sitter_javascript", "language", "tree-sitter-javascript",
            (".js", ".mjs", ".cjs", ".jsx"), ("js", "jsx", "node", "ecmascript"),
            definitions=_JS_DEFS, wrappers=_JS_WRAPPERS, imports=_f("import_statement"), attached=_f("decorator"),
            annotations=_f("decorator"),
        ),
        LanguageSpec(
            "typescript", "tree_sitter_typescript", "language_typescript", "tree-sitter-typescript",
            (".ts", ".mts", ".cts"), ("ts",),
            definitions=_TS_DEFS, wrappers=_JS_WRAPPERS, imports=_f("import_statement", "import_alias"),
            attached=_f("decorator"), annotations=_f("decorator"),
        ),
        LanguageSpec(
            "tsx", "tree_sitter_typescript", "language_tsx", "tree-sitter-typescript", (".tsx",), (),
            definitions=_TS_DEFS, wrappers=_JS_WRAPPERS, imports=_f("import_statement", "import_alias"),
            attached=_f("decorator"), annotations=_f("decorator"),
        ),
        LanguageSpec(
            "java", "tree_sitter_java", "language", "tree-sitter-java", (".java",), (),
            definitions=_f(
                "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
                "annotation_type_declaration", "method_declaration", "constructor_declaration",
                "compact_constructor_declaration",
            ),
            imports=_f("import_declaration", "package_declaration"),
            annotations=_f("marker_annotation", "annotation"),
        ),
        LanguageSpec(
            "go", "tree_sitter_go", "language", "tree-sitter-go", (".go",), ("golang",),
            definitions=_f("function_declaration", "method_declaration", "type_declaration"),
            imports=_f("import_declaration", "package_clause"),
        ),
        LanguageSpec(
            "rust", "tree_sitter_rust", "language", "tree-sitter-rust", (".rs",), ("rs",),
            definitions=_f(
                "function_item", "function_signature_item", "struct_item", "enum_item", "union_item",
                "trait_item", "impl_item", "mod_item", "macro_definition", "type_item",
            ),
            imports=_f("use_declaration", "extern_crate_declaration"),
            attached=_f("attribute_item"),
        ),
        LanguageSpec(
            "c", "tree_sitter_c", "language", "tree-sitter-c", (".c", ".h"), (),
            definitions=_C_DEFS, containers=_PREPROC | _f("linkage_specification"),
            imports=_f("preproc_include"),
        ),
        LanguageSpec(
            "cpp", "tree_sitter_cpp", "language", "tree-sitter-cpp",
            (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"), ("c++", "cxx"),
            definitions=_C_DEFS | _f("class_specifier", "concept_definition"),
            wrappers=_f("template_declaration"),
            containers=_PREPROC | _f("namespace_definition", "linkage_specification"),
            imports=_f("preproc_include", "using_declaration"),
            annotations=_f("attribute_declaration"),
        ),
        LanguageSpec(
            "csharp", "tree_sitter_c_sharp", "language", "tree-sitter-c-sharp", (".cs",), ("c#", "cs", "c-sharp"),
            definitions=_f(
                "class_declaration", "struct_declaration", "interface_declaration", "enum_declaration",
                "record_declaration", "record_struct_declaration", "delegate_declaration", "method_declaration",
                "constructor_declaration", "destructor_declaration", "property_declaration",
                "operator_declaration", "conversion_operator_declaration", "indexer_declaration",
                "local_function_statement",
            ),
            containers=_f("namespace_declaration"),
            imports=_f("using_directive"),
            annotations=_f("attribute_list"),
        ),
        LanguageSpec(
            "ruby", "tree_sitter_ruby", "language", "tree-sitter-ruby", (".rb", ".rake", ".gemspec"), ("rb",),
            definitions=_f("method", "singleton_method", "class", "module", "singleton_class"),
        ),
        LanguageSpec(
            "php", "tree_sitter_php", "language_php", "tree-sitter-php", (".php", ".phtml"), (),
            definitions=_f(
                "function_definition", "class_declaration", "interface_declaration", "trait_declaration",
                "enum_declaration", "method_declaration",
            ),
            containers=_f("namespace_definition"),
            imports=_f("namespace_use_declaration"),
            annotations=_f("attribute_list"),
        ),
        LanguageSpec(
            "kotlin", "tree_sitter_kotlin", "language", "tree-sitter-kotlin", (".kt", ".kts"), ("kt",),
            definitions=_f(
                "class_declaration", "object_declaration", "function_declaration", "companion_object",
                "secondary_constructor", "type_alias",
            ),
            imports=_f("import", "import_header", "import_list", "package_header"),
            annotations=_f("annotation"),
        ),
        LanguageSpec(
            "swift", "tree_sitter_swift", "language", "tree-sitter-swift", (".swift",), (),
            definitions=_f(
                "class_declaration", "protocol_declaration", "function_declaration", "init_declaration",
                "deinit_declaration", "typealias_declaration", "subscript_declaration",
            ),
            imports=_f("import_declaration"),
            annotations=_f("attribute"),
        ),
        LanguageSpec(
            "bash", "tree_sitter_bash", "language", "tree-sitter-bash", (".sh", ".bash", ".zsh", ".ksh"),
            ("sh", "shell", "zsh"),
            definitions=_f("function_definition"),
        ),
        LanguageSpec(
            "sql", "tree_sitter_sql", "language", "tree-sitter-sql", (".sql",), (),
            definitions=_f(
                "create_table", "create_view", "create_materialized_view", "create_function", "create_index",
                "create_type", "create_trigger", "create_schema", "create_sequence", "create_extension",
                "create_procedure", "create_database", "create_role",
            ),
            wrappers=_f("statement"),
        ),
    )
}

_BY_NAME: dict[str, str] = {}
for _spec in LANGUAGES.values():
    _BY_NAME[_spec.name] = _spec.name
    for _alias in _spec.aliases:
        _BY_NAME[_alias] = _spec.name

_BY_SUFFIX: dict[str, str] = {s: spec.name for spec in LANGUAGES.values() for s in spec.suffixes}


def resolve_language(name: str) -> str | None:
    """The canonical name of a language name or alias (case-insensitive), or None."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    return _BY_NAME.get(key) or _BY_SUFFIX.get(key if key.startswith(".") else "." + key)


def language_for_suffix(filename: str) -> str | None:
    """The language of a file name by its ending (``"a.tsx"`` -> ``"tsx"``), or None."""
    lower = filename.lower()
    dot = lower.rfind(".")
    return _BY_SUFFIX.get(lower[dot:]) if dot >= 0 else None


# languages a source file may be in that the code strategy does not read: by file ending
# and by the interpreter of a "#!" line (named in the warning for such a file)
_OTHER_SUFFIXES = {
    ".pl": "Perl", ".pm": "Perl", ".pod": "Perl", ".lua": "Lua", ".r": "R", ".scala": "Scala", ".hs": "Haskell",
    ".ex": "Elixir", ".exs": "Elixir", ".erl": "Erlang", ".clj": "Clojure", ".dart": "Dart", ".jl": "Julia",
    ".groovy": "Groovy", ".tcl": "Tcl", ".ps1": "PowerShell", ".awk": "AWK", ".zig": "Zig", ".nim": "Nim",
    ".ml": "OCaml", ".fs": "F#", ".vb": "Visual Basic", ".pas": "Pascal", ".f90": "Fortran", ".el": "Emacs Lisp",
    ".vim": "Vim script", ".fish": "fish",
}
_OTHER_INTERPRETERS = {
    "perl": "Perl", "lua": "Lua", "rscript": "R", "tclsh": "Tcl", "wish": "Tcl", "awk": "AWK", "gawk": "AWK",
    "mawk": "AWK", "pwsh": "PowerShell", "fish": "fish", "julia": "Julia", "escript": "Erlang", "elixir": "Elixir",
    "scala": "Scala", "groovy": "Groovy", "csh": "C shell", "tcsh": "C shell", "expect": "Expect",
}
_SHEBANG_WORD = re.compile(r"#![ \t]*(?:\S*/)?(?:env[ \t]+(?:-\S+[ \t]+)*)?([A-Za-z]+)")


def unsupported_language(filename: str | None, text: str) -> tuple[str, str] | None:
    """``(language, how it was told)`` for a source file in a language the code strategy
    does not read (``("Perl", "its ending .pl")``, ``("Perl", "its #! line")``), by its
    file name's ending, else by its ``#!`` line; None when neither names one."""
    if isinstance(filename, str):
        lower = filename.lower()
        dot = lower.rfind(".")
        if dot >= 0 and lower.rfind("/") < dot and lower[dot:] in _OTHER_SUFFIXES:
            return _OTHER_SUFFIXES[lower[dot:]], f"its ending {filename[dot:]}"
    m = _SHEBANG_WORD.match(text.lstrip("\ufeff")[:200])
    if m is not None:
        word = m.group(1).lower()
        name = _OTHER_INTERPRETERS.get(word) or _OTHER_INTERPRETERS.get(word.rstrip("0123456789."))
        if name is not None:
            return name, "its #! line"
    return None
