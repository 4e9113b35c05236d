"""The public surface, import weight, configuration errors and the shared cases' contract."""

from __future__ import annotations

import subprocess
import sys

import pytest

import chunkwise
from chunkwise import ConfigError, Document


def test_all_is_complete_and_importable():
    public = {n for n in dir(chunkwise) if not n.startswith("_") and n not in {"annotations"}}
    modules = {n for n in public if type(getattr(chunkwise, n)).__name__ == "module"}
    assert set(chunkwise.__all__) - {"__version__"} == public - modules
    for name in chunkwise.__all__:
        assert getattr(chunkwise, name) is not None


def test_import_is_light():
    code = (
        "import sys, chunkwise, chunkwise.cli\n"
        "heavy = {'numpy', 'tiktoken', 'tokenizers', 'torch', 'quicktok', 'markdown_it', 'onnxruntime',"
        " 'sklearn', 'matplotlib', 'selectolax', 'lxml', 'bs4', 'safetensors', 'regex', 'yaml'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_leaves_unneeded_subpackages_unloaded():
    """``chunkwise embed``/``evaluate`` and the embeddings, evaluation, LLM, index,
    integrations and server packages load on first use, not with the package."""
    code = (
        "import sys, chunkwise\n"
        "lazy = ('chunkwise.embeddings', 'chunkwise.evaluation', 'chunkwise.llm', 'chunkwise.index',"
        " 'chunkwise.integrations', 'chunkwise.serve')\n"
        "print(sorted(m for m in sys.modules if m.startswith(lazy)))\n"
        "print('embed' in dir(chunkwise), 'evaluate' in dir(chunkwise))\n"
        "from chunkwise import embed\n"
        "print(embed.__module__, 'chunkwise.embeddings' in sys.modules, 'chunkwise.evaluation' in sys.modules)\n"
        "print(chunkwise.evaluate.__module__, type(chunkwise.llm).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "[]",
        "True True",
        "chunkwise.embeddings True False",
        "chunkwise.evaluation.runner module",
    ]


def test_lazy_names_are_the_real_ones_and_unknown_names_raise():
    from chunkwise.embeddings import embed_chunks
    from chunkwise.evaluation import evaluate

    assert chunkwise.embed is embed_chunks
    assert chunkwise.evaluate is evaluate
    assert set(chunkwise.__all__) <= set(dir(chunkwise))
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        chunkwise.no_such_name  # noqa: B018
    with pytest.raises(ImportError):
        from chunkwise import no_such_name  # noqa: F401


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({"chunk_size": 0}, "chunk_size (0 chars) must be greater than 0"),
        ({"chunk_size": -5}, "chunk_size (-5 chars)"),
        ({"chunk_size": 10, "chunk_overlap": 10}, "chunk_overlap (10 chars) must be smaller than chunk_size (10 chars)"),
        ({"chunk_size": 10, "chunk_overlap": 12}, "chunk_overlap (12 chars)"),
        ({"chunk_overlap": -1}, "chunk_overlap (-1 chars) must be 0 or more"),
        ({"chunk_size": 1.5}, "chunk_size must be an integer"),
        ({"unit": "bytes"}, "unit 'bytes' is unknown"),
        ({"strategy": "nope"}, "strategy 'nope' is unknown"),
        ({"separatorz": ["\n"]}, "no parameter 'separatorz'"),
        ({"strategy": "sentence", "step": 2}, "step needs sentences_per_chunk"),
        ({"strategy": "sentence", "overlap_sentences": -1}, "overlap_sentences (-1)"),
    ],
)
def test_invalid_configuration_names_the_parameter(params, fragment):
    with pytest.raises(ConfigError) as err:
        chunkwise.chunk("Some text.", **params)
    assert fragment in str(err.value)
    assert isinstance(err.value, ValueError)


def test_token_overlap_error_names_the_unit():
    pytest.importorskip("numpy")
    with pytest.raises(ValueError, match=r"chunk_overlap \(600 tokens\) must be smaller than chunk_size \(512 tokens\)"):
        chunkwise.RecursiveChunker(chunk_size=512, chunk_overlap=600, unit="tokens")


def test_chunkers_are_frozen_and_keyword_only():
    c = chunkwise.RecursiveChunker(chunk_size=100)
    with pytest.raises(AttributeError):
        c.chunk_size = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        chunkwise.RecursiveChunker(100)  # type: ignore[misc]


def test_empty_and_whitespace_give_no_chunks():
    for strategy in chunkwise.strategy_names():
        if strategy in {"semantic", "semantic_cluster", "topic", "late", "code", "hierarchical", "table", "agentic", "propositions"}:
            continue
        assert chunkwise.chunk("", strategy=strategy) == []
        assert chunkwise.chunk(" \n\t\r\n ", strategy=strategy) == []


def test_chunks_carry_document_metadata_position_and_neighbours():
    doc = Document("One. Two. Three.", source="notes.txt", metadata={"lang": "en"})
    chunks = chunkwise.chunk(doc, strategy="sentence", chunk_size=6)
    assert [c.text for c in chunks] == ["One.", "Two.", "Three."]
    assert [c.index for c in chunks] == [0, 1, 2]
    assert all(c.metadata["lang"] == "en" and c.metadata["source"] == "notes.txt" for c in chunks)
    assert chunks[0].metadata["prev_id"] is None and chunks[-1].metadata["next_id"] is None
    assert chunks[1].metadata["prev_id"] == chunks[0].id and chunks[1].metadata["next_id"] == chunks[2].id
    assert all(c.document_id == doc.id for c in chunks)
    with pytest.raises(TypeError):
        chunks[0].metadata["lang"] = "fr"  # type: ignore[index]


def test_ids_are_stable_and_content_addressed():
    a = chunkwise.chunk(Document("Alpha beta. Gamma.", source="x.txt"), chunk_size=11)
    b = chunkwise.chunk(Document("Alpha beta. Gamma.", source="x.txt"), chunk_size=11)
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == len(a)
    c = chunkwise.chunk(Document("Alpha beta. Gamma.", source="y.txt"), chunk_size=11)
    assert {x.id for x in a}.isdisjoint({x.id for x in c})


def test_context_is_separate_from_text():
    chunk = chunkwise.Chunk(text="body", start_index=0, end_index=4, context="Guide > Install")
    assert chunk.text_for_embedding() == "Guide > Install\nbody"
    assert chunkwise.Chunk(text="body", start_index=0, end_index=4).text_for_embedding() == "body"


def test_repeated_passages_get_their_own_offsets():
    text = "Same line here.\n\nSame line here.\n\nSame line here."
    chunks = chunkwise.chunk(text, chunk_size=16)
    assert [(c.start_index, c.end_index) for c in chunks] == [(0, 15), (17, 32), (34, 49)]


def test_custom_separators_strings_and_regex():
    import re

    text = "a;b;c---d"
    chunks = chunkwise.chunk(text, chunk_size=3, separators=["---", ";"])
    # "---" first: "a;b;c" | "---d"; then ";" inside the first (closing punctuation stays
    # with the text before it); "---d" has no separator left
    assert [c.text for c in chunks] == ["a;", "b;c", "---", "d"]
    assert all(c.text == text[c.start_index : c.end_index] for c in chunks)
    chunks = chunkwise.chunk("x1y22z", chunk_size=3, separators=[re.compile(r"\d+")], keep_separator="end")
    assert [c.text for c in chunks] == ["x1", "y22", "z"]


def test_cjk_text_is_split_at_cjk_punctuation():
    text = "今天天气很好。我们去公园散步，然后吃午饭。晚上看电影！"
    chunks = chunkwise.chunk(text, chunk_size=12)
    # the second sentence is too big: cut at its comma, and its rest goes on with the next
    assert [c.text for c in chunks] == ["今天天气很好。", "我们去公园散步，", "然后吃午饭。晚上看电影！"]


def test_chunk_defaults_to_auto_as_the_command_line_does():
    import inspect

    from chunkwise.commands._options import CLI_DEFAULTS, PYTHON_DEFAULTS

    signature = inspect.signature(chunkwise.chunk).parameters
    assert signature["strategy"].default == CLI_DEFAULTS["strategy"] == "auto"
    assert {k: signature[k].default for k in PYTHON_DEFAULTS} == PYTHON_DEFAULTS
    assert '``"auto"`` (the default' in chunkwise.chunk.__doc__

    md = chunkwise.parse("# Setup\n\nInstall it.\n\n## Run\n\nRun it.\n", format="markdown")
    chunks = chunkwise.chunk(md, chunk_size=40)
    assert [c.metadata["strategy"] for c in chunks] == ["markdown", "markdown"]
    assert [c.metadata["header_path"] for c in chunks] == [["Setup"], ["Setup", "Run"]]
    table = chunkwise.parse("name,age\nAda,36\nAlan,41\n", format="csv")
    assert {c.metadata["strategy"] for c in chunkwise.chunk(table, chunk_size=40)} == {"table"}


def test_auto_on_plain_text_gives_the_recursive_chunks():
    """A str that is neither MediaWiki markup nor speaker turns gets recursive's chunks, with
    metadata["strategy"] == "recursive" appended: the same text, offsets, ids and context."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    texts = [
        (root / "tests/corpus/structure/sqlite-testing.md").read_text(encoding="utf-8"),
        (root / "data/chroma_eval/corpora/state_of_the_union.md").read_text(encoding="utf-8")[:60_000],
        (root / "tests/corpus/structure/service-agreement.txt").read_text(encoding="utf-8"),
        "Dr. Lee paid 2.5 dollars. She left.\r\n\r\nMr. Diaz stayed late. 会議は終わった。",
    ]
    for text in texts:
        for params in ({}, {"chunk_size": 60, "unit": "words", "chunk_overlap": 10}):
            default = chunkwise.chunk(text, **params)
            recursive = chunkwise.chunk(text, strategy="recursive", **params)
            assert len(default) == len(recursive) >= 1
            for d, r in zip(default, recursive):
                assert list(d.metadata.items()) == [*r.metadata.items(), ("strategy", "recursive")]
                assert (d.text, d.start_index, d.end_index, d.size, d.unit, d.context, d.id) == (
                    r.text, r.start_index, r.end_index, r.size, r.unit, r.context, r.id
                )
