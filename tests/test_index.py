"""The embedded vector index: build, query, incremental rebuilds, expansions, crash safety,
concurrent readers, the command line."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("usearch")

import chunkwise  # noqa: E402
from chunkwise.errors import ConfigError  # noqa: E402
from chunkwise.index import Index, build_index, query  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


class CountingEmbedder:
    """Deterministic bag of hashed words in 32 dimensions; counts the texts it embeds."""

    name = "hash-bag-32"
    dim = 32

    def __init__(self, delay: float = 0.0) -> None:
        self.texts: list[str] = []
        self.delay = delay

    def embed(self, texts):
        self.texts.extend(texts)
        if self.delay:
            time.sleep(self.delay)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                h = hashlib.blake2b(w.strip(".,;:!?").encode("utf-8", "surrogatepass"), digest_size=2).digest()
                out[i, h[0] % self.dim] += 1.0 if h[1] % 2 else -1.0
            out[i, 0] += 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)


TOPICS = {
    "pumps.txt": "The pump moves water uphill. A pump needs a motor. Pumps fail when the seal wears.",
    "valves.txt": "A valve controls the flow. The valve opens at dawn. Valves close at dusk.",
    "tanks.md": "# Tanks\n\nA tank stores water. The tank fills at night.\n\n## Cleaning\n\nTanks are cleaned yearly.",
}


def _folder(tmp_path: Path, files: dict[str, str] = TOPICS) -> Path:
    src = tmp_path / "docs"
    src.mkdir(exist_ok=True)
    for name, text in files.items():
        (src / name).write_text(text, encoding="utf-8")
    return src


def _chunker(**kw):
    kw.setdefault("chunk_size", 40)
    return chunkwise.make_chunker(kw.pop("strategy", "recursive"), **kw)


def test_build_and_query(tmp_path):
    src = _folder(tmp_path)
    emb = CountingEmbedder()
    report = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    assert report.documents == 3 and len(report.added) == 3 and report.embedded == report.chunks == len(emb.texts)
    hits = query(tmp_path / "ix", "the valve opens at dawn", k=3, model=emb)
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].source.endswith("valves.txt") and "valve opens" in hits[0].chunk.text
    assert hits[0].score >= hits[1].score >= hits[2].score
    for h in hits:  # every result is an exact slice of its file
        text = chunkwise.load(h.source).text
        assert h.chunk.text == text[h.chunk.start_index : h.chunk.end_index]
    record = json.loads(json.dumps(hits[0].to_dict()))
    assert record["rank"] == 1 and record["text"] == hits[0].chunk.text and record["matched"] == [hits[0].chunk.id]


def test_rebuild_embeds_only_the_edited_file(tmp_path):
    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    (src / "pumps.txt").write_text("The pump was replaced by a turbine. Turbines spin fast.", encoding="utf-8")
    emb = CountingEmbedder()
    with Index(tmp_path / "ix", model=emb) as index:
        report = index.build([src], chunker=_chunker(), model=emb)
        expected = [c.text_for_embedding() for c in _chunker().chunk(chunkwise.load(src / "pumps.txt", root=src))]
        assert emb.texts == expected  # only the edited file's chunks were embedded
        assert len(report.changed) == 1 and len(report.unchanged) == 2 and not report.added and not report.removed
        texts = [h.chunk.text for h in index.query("turbine spin", k=20)]
    assert any("turbine" in t for t in texts) and not any("uphill" in t for t in texts)


def test_unchanged_rebuild_embeds_nothing_and_keeps_the_generation(tmp_path):
    src = _folder(tmp_path)
    first = build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    emb = CountingEmbedder()
    again = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    assert emb.texts == [] and again.generation == first.generation and len(again.unchanged) == 3


def test_deleted_file_loses_its_chunks(tmp_path):
    src = _folder(tmp_path)
    emb = CountingEmbedder()
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    (src / "valves.txt").unlink()
    report = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    assert len(report.removed) == 1 and report.documents == 2
    with Index(tmp_path / "ix", model=emb) as index:
        hits = index.query("valve flow dawn dusk", k=50)
        assert hits and not any("valve" in h.chunk.text.lower() for h in hits)
        assert index.info()["chunks"] == len(hits)  # every stored chunk is searchable, no stale vector
        con = index._connection()
        assert con.execute("select count(*) from chunks where document_id = ?", (report.removed[0],)).fetchone()[0] == 0


def test_paths_under_which_no_file_reads_change_nothing(tmp_path):
    src = _folder(tmp_path)
    emb = CountingEmbedder()
    first = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "prog.odt").write_bytes(b"PK\x03\x04")  # a format no loader reads: passed over
    (bad / "empty.md").write_bytes(b"")  # a document without text
    with pytest.raises(ConfigError, match=r"no file under .*bad gave a document with text; nothing was changed"):
        build_index([bad], tmp_path / "ix", chunker=_chunker(), model=emb)
    with Index(tmp_path / "ix", model=emb) as index:
        info = index.info()
        assert info["documents"] == first.documents == 3 and int(info["generation"]) == first.generation
    # Documents given as values: an empty list is refused the same way (nothing changes)
    with pytest.raises(ConfigError, match="no document was given"):
        build_index([], tmp_path / "ix", chunker=_chunker(), model=emb)
    with Index(tmp_path / "ix", model=emb) as index:
        assert index.info()["documents"] == 3


def test_changed_configuration_is_refused_then_rebuilt(tmp_path):
    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    with pytest.raises(ConfigError, match=r"chunk_size: 40 -> 60\).*--rebuild"):
        build_index([src], tmp_path / "ix", chunker=_chunker(chunk_size=60), model=CountingEmbedder())

    class Other(CountingEmbedder):
        name = "another-model"

    with pytest.raises(ConfigError, match="embedding model: 'hash-bag-32' -> 'another-model'"):
        build_index([src], tmp_path / "ix", chunker=_chunker(), model=Other())
    emb = CountingEmbedder()
    report = build_index([src], tmp_path / "ix", chunker=_chunker(chunk_size=60), model=emb, rebuild=True)
    assert report.rebuilt and len(report.changed) == 3 and len(emb.texts) == report.chunks


def test_query_with_another_model_is_refused(tmp_path):
    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())

    class Other(CountingEmbedder):
        name = "another-model"

    with pytest.raises(ConfigError, match="built with the model 'hash-bag-32'"):
        query(tmp_path / "ix", "pump", model=Other())
    with pytest.raises(ConfigError, match="pass the same embedder"):
        query(tmp_path / "ix", "pump")  # an embedder object is not recorded by name
    with pytest.raises(ConfigError, match="not a chunkwise index"):
        query(tmp_path / "nothing", "pump", model=CountingEmbedder())
    with pytest.raises(ConfigError, match="k must be"):
        query(tmp_path / "ix", "pump", k=0, model=CountingEmbedder())
    with pytest.raises(ConfigError, match="returns='all' is unknown"):
        query(tmp_path / "ix", "pump", returns="all", model=CountingEmbedder())


def test_documents_and_duplicate_ids(tmp_path):
    emb = CountingEmbedder()
    docs = [chunkwise.Document("alpha beta", id="a"), chunkwise.Document("gamma delta", id="a")]
    with pytest.raises(ConfigError, match="two documents have the id 'a'"):
        build_index(docs, tmp_path / "ix", chunker=_chunker(), model=emb)
    assert not (tmp_path / "ix" / "vectors-00000001.usearch").exists()  # nothing committed


HIER = "\n\n".join(
    f"Section {i}. " + " ".join(f"Sentence {i}.{j} talks about item{i} and thing{j}." for j in range(6))
    for i in range(4)
)


def test_hierarchy_is_stored_leaves_embedded_parents_returned(tmp_path):
    pytest.importorskip("chunkwise.evaluation.expand")
    emb = CountingEmbedder()
    chunker = chunkwise.make_chunker("hierarchical", chunk_sizes=[400, 100], unit="chars")
    doc = chunkwise.Document(HIER, id="h")
    chunks = chunker.chunk(doc)
    leaves = [c for c in chunks if c.metadata["leaf"]]
    report = build_index([doc], tmp_path / "ix", chunker=chunker, model=emb)
    assert report.chunks == len(chunks) and report.embedded == len(leaves) == len(emb.texts)
    by_id = {c.id: c for c in chunks}
    with Index(tmp_path / "ix", model=emb) as index:
        hits = index.query("item2 thing3", k=4)
        assert all(by_id[h.chunk.id].metadata["leaf"] for h in hits)  # only leaves are searched
        stored = {h.chunk.id: h.chunk for h in hits}
        for cid, c in stored.items():
            assert dict(c.metadata) == dict(by_id[cid].metadata)  # hierarchy metadata kept
        parents = index.query("item2 thing3", k=4, returns="parents")
        for p in parents:
            assert p.chunk.metadata["level"] == 0 and set(p.matched) <= set(p.chunk.metadata["child_ids"])
            assert p.chunk.text == HIER[p.chunk.start_index : p.chunk.end_index]
        assert len({p.chunk.id for p in parents}) == len(parents)
        merged = index.query("item2 thing3", k=len(leaves), returns="merged")
        assert all(m.chunk.metadata["level"] == 0 for m in merged)  # every leaf matched: all merge up
        assert sum(len(m.matched) for m in merged) == len(leaves)


def test_window_return(tmp_path):
    pytest.importorskip("chunkwise.evaluation.expand")
    emb = CountingEmbedder()
    text = "Pumps start at six. Valves open at seven. Tanks fill by eight. Lights go out at nine."
    chunker = chunkwise.make_chunker("sentence", chunk_size=25, window_sentences=1)
    build_index([chunkwise.Document(text, id="w")], tmp_path / "ix", chunker=chunker, model=emb)
    hit = query(tmp_path / "ix", "valves open at seven", k=1, model=emb)[0]
    win = query(tmp_path / "ix", "valves open at seven", k=1, returns="window", model=emb)[0]
    assert win.chunk.text == text[win.chunk.start_index : win.chunk.end_index]
    assert win.chunk.start_index <= hit.chunk.start_index and hit.chunk.end_index <= win.chunk.end_index
    assert win.chunk.text == "Pumps start at six. Valves open at seven. Tanks fill by eight."
    with pytest.raises(ConfigError, match="hierarchical"):
        query(tmp_path / "ix", "valves", returns="parents", model=emb)


# -- crash safety and concurrent readers ---------------------------------------------------

KILL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {tests!r})
    import chunkwise
    from test_index import CountingEmbedder
    from chunkwise.index import build_index

    class Marking(CountingEmbedder):
        def embed(self, texts):
            open({marker!r}, "a").write("x")
            time.sleep(0.2)
            return super().embed(texts)

    docs = [chunkwise.Document(f"version two of document {{i}} " * 5, id=f"d{{i}}") for i in range(40)]
    build_index(docs, {index!r}, chunker=chunkwise.make_chunker("recursive", chunk_size=40), model=Marking())
    """
)


def _v1(n: int = 40) -> list:
    return [chunkwise.Document(f"version one of document {i} " * 5, id=f"d{i}") for i in range(n)]


def test_killed_build_leaves_the_previous_index_queryable(tmp_path):
    ix, marker = tmp_path / "ix", tmp_path / "embedding"
    emb = CountingEmbedder()
    first = build_index(_v1(), ix, chunker=_chunker(), model=emb)
    script = tmp_path / "build.py"
    script.write_text(KILL_SCRIPT.format(tests=str(Path(__file__).parent), marker=str(marker), index=str(ix)))
    proc = subprocess.Popen([sys.executable, str(script)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (marker.exists() and len(marker.read_text()) >= 3) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)  # midway: several documents written in the open transaction
    proc.wait()
    proc.stderr.close()
    with Index(ix, model=emb) as index:
        assert index.info()["generation"] == str(first.generation)
        hits = index.query("version document", k=200)
        assert len(hits) == first.chunks and not any("two" in h.chunk.text for h in hits)
    second = build_index([chunkwise.Document("version two", id="d0")], ix, chunker=_chunker(), model=emb)
    assert second.generation == first.generation + 1 and second.documents == 1


def test_reader_sees_old_or_new_never_a_mix(tmp_path):
    ix = tmp_path / "ix"
    build_index(_v1(20), ix, chunker=_chunker(), model=CountingEmbedder())
    seen: list[tuple[int, int]] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def read() -> None:
        try:
            with Index(ix, model=CountingEmbedder()) as index:
                while not done.is_set():
                    texts = [h.chunk.text for h in index.query("version document", k=100)]
                    seen.append((sum("one" in t for t in texts), sum("two" in t for t in texts)))
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    def wait_for(count: int) -> None:
        deadline = time.monotonic() + 30
        while len(seen) < count and not errors and time.monotonic() < deadline:
            time.sleep(0.01)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        wait_for(1)  # the reader has seen the old state
        v2 = [chunkwise.Document(f"version two of document {i} " * 5, id=f"d{i}") for i in range(20)]
        build_index(v2, ix, chunker=_chunker(), model=CountingEmbedder(delay=0.02))
        wait_for(len(seen) + 2)  # and a query begun after the commit
    finally:
        done.set()
        reader.join()
    assert not errors, errors
    assert seen and all(one == 0 or two == 0 for one, two in seen)  # never a mix
    assert seen[0][0] > 0 and seen[-1][1] > 0  # saw the old state, then the new one


def test_import_stays_light():
    code = (
        "import sys, chunkwise, chunkwise.cli, chunkwise.index\n"
        "print(sorted({'usearch', 'numpy'} & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- command line ----------------------------------------------------------------------------


def _need_minilm():
    """The index's default model (all-MiniLM-L6-v2) is installed, else skip."""
    from chunkwise.embeddings import get_embedder

    try:
        get_embedder("minilm")
    except ImportError as exc:
        pytest.skip(f"MiniLM files not installed: {exc}")


def test_cli_build_query_rebuild(tmp_path):
    _need_minilm()
    from click.testing import CliRunner

    from chunkwise.cli import cli

    src = _folder(tmp_path)
    ix = str(tmp_path / "ix")
    runner = CliRunner()
    r = runner.invoke(cli, ["index", "build", str(src), "--index", ix, "--chunk-size", "20"])
    assert r.exit_code == 0, r.output
    assert "3 added" in r.output and "all-MiniLM-L6-v2 in " in r.output  # the retrieval model
    r = runner.invoke(cli, ["index", "query", "valve opens at dawn", "--index", ix, "-k", "2", "--json"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["rank"] for row in rows] == [1, 2] and all(row["text"] for row in rows)
    r = runner.invoke(cli, ["index", "query", "valve", "--index", ix, "-k", "1"])
    assert r.exit_code == 0 and "1  " in r.stdout and "docs/" in r.stdout
    (src / "tanks.md").unlink()
    (src / "bad.txt").write_bytes(b"\xff\xfe\x00\xd8 broken")  # undecodable: reported, skipped
    r = runner.invoke(cli, ["index", "build", str(src), "--index", ix, "--chunk-size", "20"])
    assert r.exit_code == 1 and "1 removed" in r.output and "bad.txt" in r.output
    r = runner.invoke(cli, ["index", "build", str(src), "--index", ix, "--chunk-size", "30"])
    assert r.exit_code != 0 and "chunk_size: 20 -> 30" in r.output and "--rebuild" in r.output
    r = runner.invoke(cli, ["index", "query", "x", "--index", str(tmp_path / "none")])
    assert r.exit_code == 2 and "not a chunkwise index" in r.output  # a usage error: nothing done


def test_readme_index_commands_run(tmp_path):
    """The README's `chunkwise index` lines run as shown (into a temporary index folder)."""
    _need_minilm()
    pytest.importorskip("tiktoken")
    import re

    from click.testing import CliRunner

    from chunkwise.cli import cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [
        line
        for block in re.findall(r"```console\n(.*?)```", readme, flags=re.S)
        for line in block.splitlines()
        if line.startswith("chunkwise index ")
    ]
    assert [line.split()[2] for line in lines[:2]] == ["build", "query"]
    import shlex

    for line in lines:
        args = shlex.split(line)[1:]
        args[args.index("--index") + 1] = str(tmp_path / "ix")
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    assert "state_of_the_union.md" in result.stdout or "finance.md" in result.stdout


def test_corpora_edit_one_file_reembeds_only_it(tmp_path):
    """The corpora of data/: build, edit one file, rebuild: only that file's chunks are embedded."""
    import shutil

    corpora = ROOT / "data" / "chroma_eval" / "corpora"
    src = tmp_path / "corpora"
    shutil.copytree(corpora, src)
    chunker = chunkwise.make_chunker("recursive", chunk_size=2000)
    first = build_index([src], tmp_path / "ix", chunker=chunker, model=CountingEmbedder())
    assert first.documents == len(list(corpora.glob("*.md"))) and first.chunks > 500
    target = src / "state_of_the_union.md"
    before = len(chunker.chunk(chunkwise.load(target, root=src)))
    target.write_text(target.read_text(encoding="utf-8") + "\n\nA closing line added later.\n", encoding="utf-8")
    emb = CountingEmbedder()
    report = build_index([src], tmp_path / "ix", chunker=chunker, model=emb)
    doc = chunkwise.load(target, root=src)
    assert report.changed == (doc.id,) and len(report.unchanged) == first.documents - 1
    assert emb.texts == [c.text_for_embedding() for c in chunker.chunk(doc)]
    assert report.chunks == first.chunks - before + len(emb.texts)
    last = chunker.chunk(doc)[-1]
    hits = query(tmp_path / "ix", last.text, k=1, model=CountingEmbedder())
    assert hits[0].chunk.text == last.text and "closing line" in last.text and hits[0].score > 0.999


def test_one_build_at_a_time(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    from chunkwise.errors import ChunkwiseError

    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    with open(tmp_path / "ix" / "build.lock", "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)  # as a running build holds it
        with pytest.raises(ChunkwiseError, match="another build of the index .* is running"):
            build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    assert query(tmp_path / "ix", "pump", k=1, model=CountingEmbedder())


def test_default_model_is_the_retrieval_model_and_another_is_refused(tmp_path):
    """A new index embeds with RETRIEVAL_MODEL; queries and updates with another model are refused
    with a message naming both models and --rebuild; --rebuild switches the index's model."""
    _need_minilm()
    pytest.importorskip("wordllama")
    from click.testing import CliRunner

    from chunkwise.cli import cli
    from chunkwise.embeddings import MINILM_NAME, RETRIEVAL_MODEL, get_embedder

    wordllama = get_embedder("wordllama").name
    src = _folder(tmp_path)
    ix = str(tmp_path / "ix")
    runner = CliRunner()
    build = ["index", "build", str(src), "--index", ix, "--chunk-size", "20"]
    assert runner.invoke(cli, build).exit_code == 0
    with Index(ix) as index:
        assert index.info()["model"] == get_embedder(RETRIEVAL_MODEL).name == MINILM_NAME
    r = runner.invoke(cli, ["index", "query", "valve", "--index", ix, "--model", "wordllama"])
    assert r.exit_code == 2  # a usage error: nothing done
    assert f"built with the model {MINILM_NAME!r}, not {wordllama!r}" in r.output and "--rebuild" in r.output
    r = runner.invoke(cli, [*build, "--model", "wordllama"])
    assert r.exit_code == 2 and f"embedding model: {MINILM_NAME!r} -> {wordllama!r}" in r.output, r.output
    r = runner.invoke(cli, [*build, "--model", "wordllama", "--rebuild"])
    assert r.exit_code == 0 and "(rebuilt)" in r.output and f"embedded with {wordllama}" in r.output
    # from now on the index's own model is used without --model, for queries and updates
    r = runner.invoke(cli, ["index", "query", "valve opens", "--index", ix, "-k", "1", "--json"])
    assert r.exit_code == 0 and "valve" in json.loads(r.stdout)["text"].lower()
    (src / "pumps.txt").write_text("The pump was replaced by a turbine.", encoding="utf-8")
    r = runner.invoke(cli, build)
    assert r.exit_code == 0 and "1 changed" in r.output and f"embedded with {wordllama}" in r.output


def test_index_of_the_old_default_model_keeps_it(tmp_path):
    """Indexes written when WordLlama was the default recorded the model as "default": they keep
    WordLlama for queries and updates (not the new default), without --model."""
    pytest.importorskip("wordllama")
    import sqlite3

    from chunkwise.embeddings import get_embedder

    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model="wordllama")
    con = sqlite3.connect(tmp_path / "ix" / "index.sqlite")
    with con:
        con.execute("update meta set value = 'default' where key = 'model_spec'")
    con.close()
    hits = query(tmp_path / "ix", "When does the valve open?", k=1)
    assert "valve" in hits[0].chunk.text.lower()
    (src / "pumps.txt").write_text("The pump was replaced by a turbine.", encoding="utf-8")
    report = build_index([src], tmp_path / "ix", chunker=_chunker())
    assert report.changed and report.model == get_embedder("wordllama").name and not report.rebuilt


def test_cli_hierarchical_index_returns_parents(tmp_path):
    pytest.importorskip("wordllama")
    pytest.importorskip("chunkwise.evaluation.expand")
    from click.testing import CliRunner

    from chunkwise.cli import cli

    (tmp_path / "doc.txt").write_text(HIER, encoding="utf-8")
    ix = str(tmp_path / "ix")
    runner = CliRunner()
    args = ["index", "build", str(tmp_path / "doc.txt"), "--index", ix, "-s", "hierarchical", "--unit", "chars"]
    args += ["--model", "wordllama"]  # the fast model, selectable
    r = runner.invoke(cli, [*args, "-p", "chunk_sizes=[400, 100]"])
    assert r.exit_code == 0, r.output
    for mode in ("chunks", "parents", "merged"):
        r = runner.invoke(cli, ["index", "query", "item1 thing2", "--index", ix, "-k", "3", "--return", mode, "--json"])
        assert r.exit_code == 0, r.output
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        assert rows and all(row["text"] == HIER[row["start_index"] : row["end_index"]] for row in rows)
        levels = {row["metadata"]["level"] for row in rows}
        assert levels == {1} if mode == "chunks" else levels <= {0, 1}
        if mode == "parents":
            assert levels == {0}
    r = runner.invoke(cli, ["index", "query", "item1", "--index", ix, "--return", "window"])
    assert r.exit_code == 2 and "window_sentences" in r.output
    assert "supports --return chunks|parents|merged" in r.output


# -- bad input: what a user meets ------------------------------------------------------------


def test_cli_mistyped_or_unreadable_paths_change_nothing(tmp_path, monkeypatch):
    """A build makes the index hold exactly the files under PATHS: a path that does not exist, or
    one where nothing can be read, must be refused before the index is touched (not empty it)."""
    from click.testing import CliRunner

    from chunkwise import embeddings
    from chunkwise.cli import cli

    monkeypatch.setattr(embeddings, "RETRIEVAL_MODEL", CountingEmbedder())  # the CLI's default, offline
    src = _folder(tmp_path)
    ix = str(tmp_path / "ix")
    runner = CliRunner()
    assert runner.invoke(cli, ["index", "build", str(src), "--index", ix]).exit_code == 0
    before = (tmp_path / "ix" / "index.sqlite").read_bytes()
    r = runner.invoke(cli, ["index", "build", str(tmp_path / "dcos"), "--index", ix])
    assert r.exit_code == 2 and "no such file or folder" in r.output and "nothing was changed" in r.output
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "x.bin").write_bytes(bytes(range(256)) * 8)
    r = runner.invoke(cli, ["index", "build", str(tmp_path / "bin"), "--index", ix])
    assert r.exit_code == 2 and "no file to read" in r.output and "x.bin" in r.output
    assert (tmp_path / "ix" / "index.sqlite").read_bytes() == before
    with Index(ix, model=CountingEmbedder()) as index:
        assert index.info()["documents"] == 3
    r = runner.invoke(cli, ["index", "build", str(tmp_path / "dcos"), "--index", str(tmp_path / "new")])
    assert r.exit_code == 2 and not (tmp_path / "new").exists()


def test_damaged_database_is_one_line_naming_the_fix(tmp_path):
    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    for f in (tmp_path / "ix").glob("index.sqlite*"):
        f.unlink()
    (tmp_path / "ix" / "index.sqlite").write_bytes(b"not a database, garbage " * 40)
    from chunkwise.errors import ChunkwiseError

    with pytest.raises(ChunkwiseError, match=r"damaged or not a chunkwise index .*build the index again"):
        query(tmp_path / "ix", "pump", model=CountingEmbedder())
    with pytest.raises(ChunkwiseError, match="damaged"):
        build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())


@pytest.mark.parametrize("harm", ["delete", "garble"])
def test_lost_or_damaged_vector_file_is_written_again_without_embedding(tmp_path, harm):
    from chunkwise.errors import ChunkwiseError

    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    (vectors,) = (tmp_path / "ix").glob("vectors-*.usearch")
    if harm == "delete":
        vectors.unlink()
    else:
        vectors.write_bytes(os.urandom(4096))
    word = "missing" if harm == "delete" else "damaged"
    with pytest.raises(ChunkwiseError, match=f"{vectors.name} of the index .* is {word}.*nothing is re-embedded"):
        query(tmp_path / "ix", "pump", model=CountingEmbedder())
    emb = CountingEmbedder()
    report = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    assert emb.texts == [] and len(report.unchanged) == 3 and report.generation == 2
    hits = query(tmp_path / "ix", "The pump moves water uphill.", k=1, model=CountingEmbedder())
    assert hits[0].chunk.text.startswith("The pump moves water uphill.")


def test_return_parents_of_a_flat_index_says_how_to_build_one(tmp_path):
    src = _folder(tmp_path)
    build_index([src], tmp_path / "ix", chunker=_chunker(), model=CountingEmbedder())
    for returns, how in (("parents", "-s hierarchical"), ("merged", "-s hierarchical"), ("window", "window_sentences")):
        with pytest.raises(ConfigError, match=f"--return {returns} .*supports --return chunks\\. .*{how}.*--rebuild"):
            query(tmp_path / "ix", "pump", returns=returns, model=CountingEmbedder())


def test_cli_interrupted_build_leaves_the_index_as_it_was(tmp_path, monkeypatch):
    """Ctrl-C (SIGINT) during a build: exit status 130, the index as before, queryable."""
    from click.testing import CliRunner

    from chunkwise import embeddings
    from chunkwise.cli import cli

    src = _folder(tmp_path)
    ix = tmp_path / "ix"
    args = ["index", "build", str(src), "--index", str(ix), "-s", "recursive", "--chunk-size", "40", "--unit", "chars"]
    monkeypatch.setattr(embeddings, "RETRIEVAL_MODEL", CountingEmbedder())  # the CLI's default, offline
    assert CliRunner().invoke(cli, args).exit_code == 0
    (src / "more.txt").write_text("Turbines spin. " * 200, encoding="utf-8")
    started = tmp_path / "started"
    code = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_index import CountingEmbedder
        import chunkwise.embeddings as e
        from chunkwise.cli import main

        class Slow(CountingEmbedder):
            def embed(self, texts):
                open({str(started)!r}, "w").close()
                time.sleep(0.5)
                return super().embed(texts)

        e.RETRIEVAL_MODEL = Slow()
        sys.argv = ["chunkwise", *{args!r}, "--batch-size", "1"]
        main()
        """
    )
    with Index(ix, model=CountingEmbedder()) as index:
        before = index.info()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in out, out
    with Index(ix, model=CountingEmbedder()) as index:
        assert index.info() == before and before["documents"] == 3
        assert "valve" in index.query("valve opens", k=1)[0].chunk.text.lower()


def test_overlapping_windows_come_back_once_at_the_first_rank(tmp_path):
    pytest.importorskip("chunkwise.evaluation.expand")
    emb = CountingEmbedder()
    text = "Pumps start at six. Valves open at seven. Tanks fill by eight. Lights go out at nine. Doors lock at ten."
    chunker = chunkwise.make_chunker("sentence", chunk_size=25, window_sentences=1)
    build_index([chunkwise.Document(text, id="w")], tmp_path / "ix", chunker=chunker, model=emb)
    hits = query(tmp_path / "ix", "valves open at seven", k=5, model=emb)
    wins = query(tmp_path / "ix", "valves open at seven", k=5, returns="window", model=emb)
    # every sentence matched: the windows overlap into one span, the whole text, at rank 1
    assert [(w.chunk.start_index, w.chunk.end_index) for w in wins] == [(0, len(text))]
    assert wins[0].score == hits[0].score and wins[0].matched[0] == hits[0].chunk.id
    assert sorted(wins[0].matched) == sorted(h.chunk.id for h in hits)
    # two sentences apart: windows that only touch stay apart, in rank order
    two = query(tmp_path / "ix", "pumps start at six doors lock at ten", k=2, returns="window", model=emb)
    spans = [(w.chunk.start_index, w.chunk.end_index) for w in two]
    assert all(a[1] <= b[0] or b[1] <= a[0] for i, a in enumerate(spans) for b in spans[i + 1 :])
    assert [w.rank for w in two] == list(range(1, len(two) + 1))


def test_an_empty_question_and_leaves_only_parents_are_refused(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    src = _folder(tmp_path)
    emb = CountingEmbedder()
    build_index([src], tmp_path / "ix", chunker=chunkwise.make_chunker("hierarchical", chunk_sizes=[80, 20],
                                                                      leaves_only=True), model=emb)
    for blank in ("", "  \n"):
        with pytest.raises(ConfigError, match="question must hold a word"):
            query(tmp_path / "ix", blank, model=emb)
        r = CliRunner().invoke(cli, ["index", "query", blank, "--index", str(tmp_path / "ix")])
        assert r.exit_code == 2 and "the question is empty" in r.output, r.output
    with pytest.raises(ConfigError, match="without -p leaves_only=true"):
        query(tmp_path / "ix", "pump", returns="parents", model=emb)


class _NoChunks:
    """A chunker that finds nothing to keep in any document."""

    def chunk(self, doc):
        return []


def test_a_build_whose_documents_give_no_chunk_creates_nothing(tmp_path):
    src = _folder(tmp_path)
    emb = CountingEmbedder()
    ix = tmp_path / "new" / "ix"
    with pytest.raises(ConfigError, match=r"none of the 3 documents read gave a chunk \(3 chunked into none\); "
                       r"the index .*ix was not created"):
        build_index([src], ix, chunker=_NoChunks(), model=emb)
    assert not ix.exists() and emb.texts == []
    # nor does a build whose files give no document with text
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.md").write_bytes(b"")
    with pytest.raises(ConfigError, match=r"no file under .*bad gave a document with text; the index .* was not"):
        build_index([bad], ix, chunker=_chunker(), model=emb)
    assert not ix.exists()
    # a folder that was there is kept, without the files of the build
    ix.mkdir(parents=True)
    with pytest.raises(ConfigError, match="gave a chunk"):
        build_index([src], ix, chunker=_NoChunks(), model=emb)
    assert ix.is_dir() and list(ix.iterdir()) == []


def test_a_build_whose_documents_give_no_chunk_changes_nothing(tmp_path):
    src = _folder(tmp_path)
    emb = CountingEmbedder()
    first = build_index([src], tmp_path / "ix", chunker=_chunker(), model=emb)
    before = {p.name: p.read_bytes() for p in sorted((tmp_path / "ix").iterdir())}
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("Notes on gears.", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"none of the 1 document read gave a chunk .*; nothing was changed"):
        build_index([other], tmp_path / "ix", chunker=_NoChunks(), model=emb, rebuild=True)
    docs = [chunkwise.Document("Gears turn.", id="g"), chunkwise.Document("Belts run.", id="b")]
    with pytest.raises(ConfigError, match=r"none of the 2 documents read gave a chunk"):
        build_index(docs, tmp_path / "ix", chunker=_NoChunks(), model=emb, rebuild=True)
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "ix").iterdir())} == before
    with Index(tmp_path / "ix", model=emb) as index:
        assert index.info()["documents"] == first.documents == 3
    # a document that gives no chunk beside others that do is stored, without chunks
    mixed = build_index([*docs, chunkwise.Document("   ", id="w")], tmp_path / "ix", chunker=_chunker(), model=emb)
    assert mixed.documents == 3 and mixed.chunks == 2
