"""YAML front matter that parses into what cannot be metadata takes the path of invalid YAML:
the block stays a front matter chunk, ``front_matter_error`` says why, a warning is
logged, the body is chunked (no value error loses the document)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.export import dumps
from chunkwise.sizers import CharSizer

pytest.importorskip("yaml")
pytest.importorskip("markdown_it")

_LAUGHS = "".join(
    f"{a}: &{a} [{', '.join([f'*{p}'] * 9) if p else ', '.join(['x'] * 9)}]\n"
    for p, a in zip(["", "a", "b", "c", "d", "e", "f", "g"], "abcdefgh")
).rstrip("\n")

# (YAML between the --- lines, what the error names)
_BAD = [
    ("title: Post\ndate: 2024-13-45", "line 3, column 7: invalid timestamp '2024-13-45' (month must be in 1..12)"),
    ("date: 2024-02-30", "invalid timestamp '2024-02-30' (day is out of range for month)"),
    ("date: 0000-01-01", "invalid timestamp"),
    ("date: 2024-01-01T10:00:00+25:00", "invalid timestamp"),
    ("date: 2024-01-01T25:00:00Z", "invalid timestamp"),
    ("n: " + "9" * 5000, "invalid int"),
    ("n: 0x" + "f" * 5000, "too long to write as text"),
    ("a: &a [*a]", "an alias that contains itself"),
    ("a: &a {b: *a}", "an alias that contains itself"),
    (_LAUGHS, "more than 100000 values"),
    ("x: " + "[" * 5000 + "]" * 5000, "nested too deeply"),
    ("x: !!int abc", "invalid int 'abc'"),
    ("x: !!float abc", "invalid float 'abc'"),
    ("x: !!bool maybe", "invalid bool 'maybe'"),
    ("x: !!timestamp nope", "invalid timestamp 'nope'"),
    ('title: "\\ud800"', "lone surrogate"),
    ("x: !!python/object/apply:os.system ['true']", "could not determine a constructor"),
]


@pytest.mark.parametrize(("yaml_text", "why"), _BAD, ids=[w[:24] for _, w in _BAD])
def test_unusable_front_matter_is_kept_and_reported(yaml_text: str, why: str, caplog: pytest.LogCaptureFixture) -> None:
    text = f"---\n{yaml_text}\n---\n\n# H\n\nbody text\n"
    fm_end = text.index("\n---\n") + 4
    with caplog.at_level(logging.WARNING, logger="chunkwise"):
        doc = chunkwise.parse(text, format="markdown", source="x.md")
    assert why in doc.metadata["front_matter_error"] and doc.metadata["front_matter_error"].startswith("invalid YAML")
    assert "front_matter" not in doc.metadata and "created" not in doc.metadata
    assert any("x.md" in r.getMessage() and "front matter not read" in r.getMessage() for r in caplog.records)
    caplog.clear()
    for source in (doc, text):  # the loaded document, and the bare string
        with caplog.at_level(logging.WARNING, logger="chunkwise"):
            chunks = chunkwise.chunk(source, strategy="markdown", chunk_size=200)
        check_invariants(text, chunks, 200, CharSizer())
        front = [c for c in chunks if c.metadata.get("is_front_matter")]
        assert front and front[0].start_index == 0 and front[-1].end_index == fm_end
        assert chunks[-1].text == "# H\n\nbody text" and chunks[-1].metadata["header_path"] == ["H"]
        assert why in chunks[-1].metadata["front_matter_error"]
        json.dumps([c.to_dict() for c in chunks])  # every value can be written
        # one warning: the loaded document's front matter is not parsed again
        warned = [r for r in caplog.records if "front matter not read" in r.getMessage()]
        assert len(warned) == (0 if source is doc else 1)
        caplog.clear()


def test_a_valid_date_still_gives_created() -> None:
    doc = chunkwise.parse("---\ntitle: T\ndate: 2024-02-29\n---\n# H\n", format="markdown")
    assert doc.metadata["created"] == "2024-02-29" and "front_matter_error" not in doc.metadata
    chunks = chunkwise.chunk("---\ntitle: T\ndate: 2024-02-29\n---\n# H\n\nx\n", strategy="markdown")
    assert "front_matter_error" not in chunks[-1].metadata
    assert chunks[-1].metadata["front_matter"]["title"] == "T"


def test_ordinary_aliases_and_long_integers_still_load() -> None:
    text = "---\nbase: &b {a: 1, b: [x, y]}\nother: *b\nn: " + "9" * 4000 + "\n---\n# H\n"
    front = chunkwise.parse(text, format="markdown").metadata["front_matter"]
    assert front["other"] == {"a": 1, "b": ["x", "y"]} and front["n"] == int("9" * 4000)


def test_cli_keeps_the_document_with_an_impossible_date(tmp_path) -> None:
    path = tmp_path / "x.md"
    path.write_text("---\ntitle: Post\ndate: 2024-13-45\n---\n\n# H\n\nbody text\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "chunkwise", "chunk", str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["text"] for r in rows] == ["---\ntitle: Post\ndate: 2024-13-45\n---", "# H\n\nbody text"]
    assert "month must be in 1..12" in rows[1]["metadata"]["front_matter_error"]
    assert run.stderr.count("front matter not read") == 1


@pytest.mark.parametrize(
    "value",
    ['"2024-01-02T10:00:00+99:00"', '"2024-01-02T10:00:00-2400"', "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"],
)
def test_a_date_the_one_format_cannot_write_is_left_out(value: str) -> None:
    # valid YAML: the front matter is read, only the date is not (as for "date: June")
    doc = chunkwise.parse(f"---\ntitle: T\ndate: {value}\n---\n# H\n\nx\n", format="markdown")
    assert doc.metadata["title"] == "T" and "created" not in doc.metadata
    assert "front_matter_error" not in doc.metadata


def test_iso_date_returns_none_for_zones_and_moments_out_of_range() -> None:
    import datetime

    from chunkwise.loaders._dates import iso_date

    assert iso_date("2024-01-02T10:00:00+24:00") is None
    assert iso_date("D:20230120164927+99'00'") is None
    assert iso_date(datetime.datetime(1, 1, 1, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))) is None
    assert iso_date("2024-01-02T10:00:00+23:59") == "2024-01-01T10:01:00+00:00"
    assert iso_date("2003-12-31T10:14:55-08:00") == "2003-12-31T18:14:55+00:00"


_SCALARS = st.sampled_from([
    "2024-13-45", "2024-02-30", "2024-01-02", "2024-01-01T10:00:00+25:00", "0000-01-01", "9" * 4400, "0x" + "f" * 4000,
    "!!int abc", "!!float x", "!!bool maybe", "!!timestamp nope", "!!binary AAEC", "!!binary '@'", "'\\ud800'",
    '"\\ud800"', "[*a]", "*a", "&a [1]", "{a: 1}", "[", "'", "\"", ":", "- x", "!!python/name:os.system", "~", ".nan",
    "!!set {a}", "\t", "é", "",
])


@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["title", "date", "a", "tags", "x"]), _SCALARS), min_size=1, max_size=5))
def test_property_no_front_matter_loses_the_document(fields: list[tuple[str, str]]) -> None:
    yaml_text = "\n".join(f"{k}: {v}" for k, v in fields)
    text = f"---\n{yaml_text}\n---\n\n# H\n\nbody text\n"
    logging.disable(logging.WARNING)
    try:
        doc = chunkwise.parse(text, format="markdown")
        for source in (doc, text):
            chunks = chunkwise.chunk(source, strategy="markdown", chunk_size=300)
            check_invariants(text, chunks, 300, CharSizer())
            assert chunks[-1].text.endswith("body text")
            dumps([c.to_dict() for c in chunks]).encode("utf-8")  # as the lines written
    finally:
        logging.disable(logging.NOTSET)
    # a block whose first line is key: is front matter, read or reported
    assert ("front_matter" in doc.metadata) != ("front_matter_error" in doc.metadata)
