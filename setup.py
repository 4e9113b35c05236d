"""The optional C part of Python's structural scan (chunkwise.parsers._code_scan).

Everything else is declared in pyproject.toml. The extension is optional: where it cannot
be built (no C compiler), the install goes on and the scan runs in pure Python, with the
same results.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "chunkwise.parsers._code_scan",
            ["src/chunkwise/parsers/_code_scan.c"],
            optional=True,
        )
    ]
)
