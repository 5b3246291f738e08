"""Fixtures shared by the package's tests."""

import pytest


@pytest.fixture
def compiler_library():
    """The compiler library (libmirage_compiler.so), or a skip where it is
    not built (the GPU machine builds the runtime alone)."""
    from mirage import compiler
    try:
        return compiler.find_library()
    except FileNotFoundError as error:
        pytest.skip(str(error))


@pytest.fixture
def kernel_cache(tmp_path, monkeypatch):
    """A fresh kernel cache for the test ($MIRAGE_CACHE_DIR)."""
    monkeypatch.setenv("MIRAGE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"
