"""OCR of PDF pages without a text layer, for :mod:`chunkwise.loaders.pdf` (``-L ocr=true``):
the page rendered by PDFium, read by the ``tesseract`` program (a system package: Debian's
``tesseract-ocr``), its words' boxes made into :class:`~chunkwise.parsers.pdf.PdfLine`
values so that the layout rules apply as to a text layer.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import ConfigError, LoadError, MissingDependencyError
from ..parsers.pdf import PdfLine, PdfPage

__all__ = ["OCR_DPI", "ocr_language", "ocr_page"]


def _error(message: str, fix: str, kind: str) -> LoadError:
    from .pdf import PdfError  # the loader's error (its module imports this one)

    return PdfError(message, fix, kind)


OCR_DPI = 300
"""The resolution pages are rendered at for OCR (Tesseract reads best at about 300 dpi)."""


def ocr_language(value: Any) -> str | None:
    """The Tesseract language of the ``ocr`` option: ``True``/``"true"``/``"1"`` -> ``"eng"``;
    a language list (``"eng+fra"``) as it is; off -> None.

    Raises:
        ConfigError: a value that is neither.
    """
    if value is None or value is False or str(value).strip().lower() in ("", "0", "false", "no", "off"):
        return None
    if value is True or str(value).strip().lower() in ("1", "true", "yes", "on"):
        return "eng"
    text = str(value).strip()
    # Tesseract's language codes: ISO 639-2 (``eng``, ``chi_sim``, ``deu_latf``) or a script
    # model (``script/Latin``), joined by ``+``
    code = r"(?:[a-z]{3}(?:_[a-z]+)*|script/[A-Za-z_]+)"
    if re.fullmatch(rf"{code}(?:\+{code})*", text):
        return text
    raise ConfigError(
        f"ocr={value!r} is neither true/false nor Tesseract language codes; give ocr=true, or languages such "
        "as 'eng' or 'eng+fra'"
    )


def ocr_page(page: Any, number: int, language: str, name: str) -> PdfPage:
    """A page's lines read by the ``tesseract`` program from the page rendered at
    :data:`OCR_DPI` (its TSV output: words with boxes, grouped by line).

    Raises:
        PdfError: tesseract or Pillow is missing, or tesseract fails.
    """
    import shutil
    import subprocess
    import tempfile

    program = shutil.which("tesseract")
    if program is None:
        raise _error(
            f"{name}: OCR was asked for, but the tesseract program is not installed",
            "install it (apt-get install tesseract-ocr, brew install tesseract) and pip install 'chunkwise[ocr]'",
            "missing dependency",
        )
    try:
        import PIL  # noqa: F401 - pypdfium2 renders to a Pillow image
    except ImportError as exc:
        raise MissingDependencyError("pillow", "ocr", "rendering PDF pages for OCR") from exc
    width, height = page.get_size()
    scale = OCR_DPI / 72
    image = page.render(scale=scale).to_pil()
    with tempfile.TemporaryDirectory() as tmp:
        png = f"{tmp}/page.png"
        image.save(png)
        done = subprocess.run(
            [program, png, "stdout", "-l", language, "tsv"], capture_output=True, text=True, timeout=300, check=False
        )
    if done.returncode != 0:
        raise _error(
            f"{name}: tesseract failed on page {number} ({done.stderr.strip().splitlines()[-1:] or ['no message']})",
            f"check that the language data is installed (apt-get install tesseract-ocr-{language.split('+')[0]})",
            "unreadable",
        )
    words: dict[tuple[str, ...], list[tuple[float, float, float, float, str]]] = {}
    for row in done.stdout.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        left, top, w, h = (float(v) / scale for v in cols[6:10])
        words.setdefault(tuple(cols[2:5]), []).append((left, top, left + w, top + h, cols[11].strip()))
    lines = []
    for found in words.values():
        heights = sorted(b - t for _, t, _, b, _ in found)
        lines.append(
            PdfLine(
                " ".join(text for *_, text in found),
                min(x0 for x0, *_ in found),
                max(x1 for _, _, x1, _, _ in found),
                min(t for _, t, _, _, _ in found),
                max(b for _, _, _, b, _ in found),
                round(heights[len(heights) // 2], 1),
            )
        )
    return PdfPage(number, width, height, tuple(sorted(lines, key=lambda ln: (ln.top, ln.x0))))
