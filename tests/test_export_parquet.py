"""The public chunk record -> Parquet row API of :mod:`chunkwise.export` (used by the
Parquet writer of ``chunkwise chunk`` and by :mod:`chunkwise.ray`)."""

from __future__ import annotations

import json

import pytest

import chunkwise
from chunkwise.export import (
    PARQUET_COLUMNS,
    PARQUET_FIELDS,
    RECORD_COLUMNS,
    chunk_record,
    dumps,
    parquet_row,
    parquet_schema,
    record_of_row,
)


def _records() -> list[dict]:
    text = "# Guide\n\n## Install\n\n" + "Run the installer. " * 30 + "\n\n## Use\n\n" + "Call it. " * 40
    doc = chunkwise.Document(text, source="guide.md", id="guide")
    chunks = chunkwise.chunk(doc, strategy="markdown", chunk_size=120, unit="chars")
    assert len(chunks) > 3
    return [{**chunk_record(c, doc), "content_id": "0123456789abcdef"} for c in chunks]


def test_rows_have_the_schema_columns_and_read_back_as_the_records() -> None:
    for rec in _records():
        row = parquet_row(rec)
        assert tuple(row) == PARQUET_FIELDS
        assert json.loads(row["metadata"]) == rec["metadata"]
        assert row["header_path"] == rec["metadata"]["header_path"]
        back = record_of_row(row)
        assert dumps(back) == dumps(rec)  # the JSON lines record, key order included


def test_common_keys_of_another_type_are_null_in_their_column_but_kept_in_metadata() -> None:
    meta = {"page_number": "3", "level": True, "header_path": ["a", 1], "language": 7, "boundary": "sentence"}
    row = parquet_row({"id": "x", "metadata": meta})
    assert row["page_number"] is None and row["level"] is None and row["header_path"] is None
    assert row["language"] is None and row["boundary"] == "sentence"
    assert json.loads(row["metadata"]) == meta
    assert row["text"] is None  # a missing record field: null


def test_the_schema_names_every_field_and_the_extra_columns() -> None:
    pa = pytest.importorskip("pyarrow")
    schema = parquet_schema()
    assert tuple(schema.names) == PARQUET_FIELDS
    assert len(PARQUET_FIELDS) == len(RECORD_COLUMNS) + 1 + len(PARQUET_COLUMNS)
    assert schema.field("start_index").type == pa.int64()
    assert schema.field("header_path").type == pa.list_(pa.string())
    assert parquet_schema(["error"]).names == [*PARQUET_FIELDS, "error"]
    table = pa.Table.from_pylist([parquet_row(r) for r in _records()], schema=schema)
    assert [record_of_row(r) for r in table.to_pylist()] == _records()
