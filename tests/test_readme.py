"""The README is executable: its Python examples run, and its quick start is true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(r"```" + lang + r"\n(.*?)```", README, flags=re.S)


@pytest.mark.parametrize("code", _blocks("python"), ids=lambda c: c.splitlines()[0][:40])
def test_python_examples_run(code, tmp_path, monkeypatch):
    from chunkwise import MissingDependencyError

    monkeypatch.chdir(ROOT)
    try:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    except MissingDependencyError as exc:  # an example of an extra that is not installed
        pytest.skip(str(exc))


def test_quick_start_is_two_commands_that_the_makefile_defines():
    quick = README.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = [line for line in _blocks_in(quick) if line.strip()]
    assert commands == ["make chunk", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^chunk:", makefile, flags=re.M) and re.search(r"^test:", makefile, flags=re.M)
    assert "data/chroma_eval/corpora" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _blocks_in(section: str) -> list[str]:
    found = re.findall(r"```console\n(.*?)```", section, flags=re.S)
    return [line for block in found for line in block.splitlines()]


def test_cli_examples_run(tmp_path):
    from click.testing import CliRunner

    from chunkwise.cli import cli

    for block in _blocks("console"):
        for line in block.splitlines():
            if line.startswith("chunkwise chunk data/"):
                args = line.split()[1:]
                args = [a for a in args if a != "-o" and not a.endswith(".jsonl")]
                result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "out.jsonl")], catch_exceptions=False)
                assert result.exit_code == 0, result.output


def test_evaluation_examples_use_real_options(tmp_path):
    """The eval and calibrate examples name options the commands have; stats runs as shown."""
    from click.testing import CliRunner

    from chunkwise.cli import cli

    lines = [line for block in _blocks("console") for line in block.splitlines()]
    for name in ("eval", "calibrate"):
        line = next(x for x in lines if x.startswith(f"chunkwise {name} "))
        command = cli.commands[name]
        known = {opt for p in command.params for opt in getattr(p, "opts", [])}
        used = {a for a in line.split()[2:] if a.startswith("-")}
        assert used <= known, (name, used - known)
    line = next(x for x in lines if x.startswith("chunkwise stats "))
    result = CliRunner().invoke(cli, line.split()[1:], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "recursive" in result.output and "fixed" in result.output
