"""results.json records the k each configuration used; counts print as whole numbers."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")

from chunkwise.cli import cli  # noqa: E402
from chunkwise.evaluation.report import format_table  # noqa: E402

A = "Alpha river flows north. Beta mountain stands tall.\n\nGamma forest grows dense. Delta lake lies still.\n"
B = "Owls hunt at night. Bees make honey.\n\nWhales sing songs. Ants carry leaves. Moles dig tunnels.\n"


class Bag:
    name = "test-bag-s26"
    dim = 64

    def embed(self, texts):  # type: ignore[no-untyped-def]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                out[i, int.from_bytes(hashlib.blake2b(w.strip(".,").encode(), digest_size=4).digest(), "little") % 64] += 1
        n = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(n == 0, 1.0, n)


@pytest.fixture()
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from chunkwise import embeddings

    monkeypatch.setattr(embeddings, "get_embedder", lambda model=None, **kw: Bag())
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.md").write_text(A, encoding="utf-8")
    (corpus / "b.md").write_text(B, encoding="utf-8")
    lines = []
    for doc, text, phrase in [("a", A, "Delta lake lies still."), ("b", B, "Whales sing songs.")]:
        s = text.index(phrase)
        lines.append(json.dumps({"question": phrase.lower(), "document_id": doc,
                                 "references": [{"start_index": s, "end_index": s + len(phrase)}]}))  # fmt: skip
    q = tmp_path / "q.jsonl"
    q.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ["eval", "--corpus", str(corpus), "--questions", str(q), "--no-cache", "--no-plot",
            "-s", "fixed", "-n", "10,40", "--unit", "chars", "-o", str(tmp_path / "out")]  # fmt: skip


def test_run_k_at_a_budget_is_null_and_each_configuration_has_its_k(probe, tmp_path):
    r = CliRunner().invoke(cli, [*probe, "--budget-tokens", "12"])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    ks = {row["config"]: row["k"] for row in data["results"]}
    assert len(set(ks.values())) == 2  # two chunk sizes, two ks at one budget
    assert data["run"]["k"] is None and data["run"]["budget_tokens"] == 12
    assert data["run"]["k_by_config"] == ks


def test_run_k_is_the_fixed_k(probe, tmp_path):
    r = CliRunner().invoke(cli, [*probe, "--k", "3"])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert data["run"]["k"] == 3 and data["run"]["k_by_config"] == {"fixed/10/0": 3, "fixed/40/0": 3}


def test_tokens_print_as_whole_numbers_whatever_their_size():
    rows = [{"config": "a", "tokens": 6.0, "recall": 0.5}, {"config": "b", "tokens": 16.4, "recall": 0.25}]
    table = format_table(rows, ["config", "tokens", "recall"])
    lines = table.splitlines()[1:]
    assert re.search(r"\b6\s+0\.500$", lines[0]) and re.search(r"\b16\s+0\.250$", lines[1]), table
    assert "6.000" not in table


def test_the_eval_table_prints_small_token_counts_whole(probe):
    r = CliRunner().invoke(cli, [*probe, "--k", "1"])
    assert r.exit_code == 0, r.output
    header = next(line for line in r.stdout.splitlines() if "tokens" in line)
    col = header.split().index("tokens")
    values = [line.split()[col] for line in r.stdout.splitlines()[1:] if line.strip().startswith("fixed/")]
    assert values and all(re.fullmatch(r"\d+", v) for v in values), r.stdout
