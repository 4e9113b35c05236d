"""The SQLite base of the on-disk caches: file format, pickling, threads, closing."""

from __future__ import annotations

import copy
import pickle
import sqlite3
import threading

import numpy as np
import pytest

from chunkwise._kvcache import SQLiteCache
from chunkwise.embeddings.cache import EmbeddingCache
from chunkwise.llm.cache import ResponseCache

# the tables as the caches have always created them: a file written before must still open
EMBEDDINGS_TABLE = (
    "CREATE TABLE embeddings (model TEXT NOT NULL, key BLOB NOT NULL, dim INTEGER NOT NULL, "
    "vector BLOB NOT NULL, PRIMARY KEY (model, key)) WITHOUT ROWID"
)
ANSWERS_TABLE = (
    "CREATE TABLE answers (model TEXT NOT NULL, key BLOB NOT NULL, answer TEXT NOT NULL, "
    "PRIMARY KEY (model, key)) WITHOUT ROWID"
)


def _tables(path) -> list[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        db.close()


@pytest.mark.parametrize(
    ("cls", "name", "sql"), [(EmbeddingCache, "embeddings", EMBEDDINGS_TABLE), (ResponseCache, "answers", ANSWERS_TABLE)]
)
def test_the_file_format_is_unchanged(tmp_path, cls, name, sql):
    path = tmp_path / "deep" / "folder" / "c.sqlite"  # the folder is created
    cache = cls(path)
    cache.close()
    assert _tables(path) == [(name, sql)]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()


def test_files_written_with_the_old_tables_open_and_answer(tmp_path):
    emb_path, ans_path = tmp_path / "e.sqlite", tmp_path / "a.sqlite"
    vec = np.array([0.5, -2.0, 3.25], dtype=np.float32)
    from chunkwise.embeddings.cache import text_hash

    db = sqlite3.connect(emb_path)
    db.execute(EMBEDDINGS_TABLE)
    db.execute("INSERT INTO embeddings VALUES (?, ?, ?, ?)", ("m", text_hash("hello"), 3, vec.tobytes()))
    db.commit()
    db.close()
    db = sqlite3.connect(ans_path)
    db.execute(ANSWERS_TABLE)
    db.execute("INSERT INTO answers VALUES (?, ?, ?)", ("m", b"k" * 16, "an answer"))
    db.commit()
    db.close()

    with EmbeddingCache(emb_path) as emb:
        got = emb.get_many("m", ["nope", "hello"])
        assert list(got) == [1] and got[1].tolist() == vec.tolist() and len(emb) == 1
    answers = ResponseCache(ans_path)
    assert answers.get("m", b"k" * 16) == "an answer" and answers.get("m", b"x" * 16) is None
    assert len(answers) == 1
    answers.close()


@pytest.mark.parametrize("clone", [lambda c: pickle.loads(pickle.dumps(c)), copy.deepcopy])
def test_both_caches_pickle_and_deep_copy_by_reopening_the_file(tmp_path, clone):
    answers = ResponseCache(tmp_path / "a.sqlite")
    answers.put("m", b"k" * 16, "yes")
    emb = EmbeddingCache(tmp_path / "e.sqlite")
    emb.put_many("m", ["x"], np.array([[1.0, 2.0]], dtype=np.float32))

    answers2, emb2 = clone(answers), clone(emb)
    assert type(answers2) is ResponseCache and type(emb2) is EmbeddingCache
    assert answers2.path == answers.path and emb2.path == emb.path
    assert answers2.get("m", b"k" * 16) == "yes"
    assert emb2.get_many("m", ["x"])[0].tolist() == [1.0, 2.0]
    answers2.put("m", b"j" * 16, "seen by the first")  # one file: a write shows in the original
    assert answers.get("m", b"j" * 16) == "seen by the first"
    for c in (answers, answers2, emb, emb2):
        c.close()


def test_an_in_memory_cache_unpickles_empty():
    cache = ResponseCache()
    cache.put("m", b"k" * 16, "gone")
    again = pickle.loads(pickle.dumps(cache))
    assert again.path == ":memory:" and len(again) == 0 and len(cache) == 1
    assert repr(again) == "ResponseCache(':memory:')" and repr(EmbeddingCache()) == "EmbeddingCache(':memory:')"


def test_threads_share_one_cache(tmp_path):
    answers = ResponseCache(tmp_path / "a.sqlite")
    emb = EmbeddingCache(tmp_path / "e.sqlite")
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(25):
                answers.put("m", f"{t:02d}{i:02d}".encode() * 4, f"{t}-{i}")
                emb.put_many("m", [f"{t}-{i}"], np.full((1, 4), t, dtype=np.float32))
                assert answers.get("m", f"{t:02d}{i:02d}".encode() * 4) == f"{t}-{i}"
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert len(answers) == 200 and len(emb) == 200
    assert emb.get_many("m", ["7-24"])[0].tolist() == [7.0] * 4


def test_closing_ends_use_and_a_with_block_closes():
    cache = ResponseCache()
    cache.close()
    with pytest.raises(sqlite3.ProgrammingError):
        cache.get("m", b"k" * 16)
    with EmbeddingCache() as emb:
        assert len(emb) == 0
    with pytest.raises(sqlite3.ProgrammingError):
        len(emb)


def test_a_new_cache_needs_only_its_table(tmp_path):
    class Notes(SQLiteCache):
        table = "notes"
        schema = "CREATE TABLE IF NOT EXISTS notes (k TEXT PRIMARY KEY, v TEXT NOT NULL)"

    with Notes(tmp_path / "n.sqlite") as notes:
        with notes._lock:
            notes._db.executemany("INSERT INTO notes VALUES (?, ?)", [("a", "1"), ("b", "2")])
        assert len(notes) == 2 and repr(notes) == f"Notes({str(tmp_path / 'n.sqlite')!r})"
    with Notes(tmp_path / "n.sqlite") as again:
        assert len(again) == 2


def test_doctests_of_the_cache_modules():
    import doctest
    import importlib

    for name in ["chunkwise._kvcache", "chunkwise.embeddings.cache", "chunkwise.llm.cache"]:
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 0, name
