"""``chunkwise stats`` takes ``--progress/--no-progress`` as ``chunk`` and ``eval`` do (it
draws no bar), so one set of options serves every command in a script."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from chunkwise.cli import cli


def test_stats_accepts_no_progress_and_measures_the_same(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("Pumps start at six. Valves open at seven. Tanks fill by eight.\n\n" * 5, encoding="utf-8")
    runs = {}
    for flag in ([], ["--no-progress"], ["--progress"]):
        result = CliRunner().invoke(cli, ["stats", str(doc), "-u", "chars", "-n", "80", *flag])
        assert result.exit_code == 0, result.output
        runs[tuple(flag)] = result.stdout
    assert runs[()] == runs[("--no-progress",)] == runs[("--progress",)]
    assert "recursive" in runs[()] or "auto" in runs[()]
    assert "--no-progress" in CliRunner().invoke(cli, ["stats", "--help"]).output
