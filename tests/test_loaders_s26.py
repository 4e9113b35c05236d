"""A script without a suffix is told by its ``#!`` line, whatever its spelling."""

from __future__ import annotations

import pytest

import chunkwise


@pytest.mark.parametrize(
    ("line", "language"),
    [
        ("#!/bin/sh", "bash"),
        ("#! /bin/sh", "bash"),  # (a space after "#!": 20 scripts of a Debian /usr/bin)
        ("#!\t/bin/bash", "bash"),
        ("#! /usr/bin/env python3", "python"),
        ("#!/usr/bin/env -S python3 -u", "python"),
        ("#!/usr/local/bin/python3.11", "python"),
        ("#!/opt/node/bin/node", "javascript"),
        ("\ufeff#! /usr/bin/ruby", "ruby"),
    ],
)
def test_a_script_is_code_by_its_shebang_line(tmp_path, line, language):
    path = tmp_path / "tool"
    path.write_text(f"{line}\necho hello\n", encoding="utf-8")
    doc = chunkwise.load(path)
    assert doc.metadata["format"] == "code"
    assert doc.metadata["language"] == language


@pytest.mark.parametrize("line", ["#! /usr/bin/perl", "#!", "#!/usr/bin/awk -f", "# /bin/sh"])
def test_a_line_that_names_no_supported_interpreter_is_text(tmp_path, line):
    path = tmp_path / "tool"
    path.write_text(f"{line}\nprint 1\n", encoding="utf-8")
    assert chunkwise.load(path).metadata["format"] == "text"


@pytest.mark.parametrize(
    ("head", "language"),
    [
        ("// <optional> -*- C++ -*-", "cpp"),  # (libstdc++'s headers have no suffix)
        ("/* -*- mode: c; indent-tabs-mode: nil -*- */", "c"),
        ("#!/usr/bin/env perl\n# -*- python -*-", "python"),
        ("// vim: set ft=javascript:", "javascript"),
        ("# -*- shell-script -*-", "bash"),
    ],
)
def test_a_file_without_suffix_is_code_by_its_mode_line(tmp_path, head, language):
    path = tmp_path / "vector"
    path.write_text(f"{head}\n\nint x;\n", encoding="utf-8")
    doc = chunkwise.load(path)
    assert doc.metadata["format"] == "code"
    assert doc.metadata["language"] == language


@pytest.mark.parametrize("head", ["-*- text -*-", "-*- mode: markdown -*-", "see ft=unknown here"])
def test_a_mode_line_of_no_supported_language_leaves_text(tmp_path, head):
    path = tmp_path / "notes"
    path.write_text(f"{head}\n\nSome words.\n", encoding="utf-8")
    assert chunkwise.load(path).metadata["format"] == "text"


def test_front_matter_after_a_byte_order_mark_is_read():
    text = "\ufeff---\ntitle: Notes\n---\n# H\n\ntext\n"
    doc = chunkwise.parse(text, format="markdown")
    assert doc.metadata["title"] == "Notes"
    chunks = chunkwise.chunk(doc, strategy="markdown")
    assert chunks[0].metadata["is_front_matter"] and chunks[0].text == "\ufeff---\ntitle: Notes\n---"
    assert [c.text for c in chunks[1:]] == ["# H\n\ntext"]


def test_front_matter_keys_that_are_not_strings_are_written_as_json_writes_them():
    doc = chunkwise.parse("---\nnull: 1\ntrue: 2\n3: x\n---\n# H\n\ntext\n", format="markdown")
    assert doc.metadata["front_matter"] == {"null": 1, "true": 2, "3": "x"}
