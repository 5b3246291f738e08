"""scripts/build-python-package.sh: the self-contained package runs with no
LLVM, MLIR or Z3 on the loader's path and installs offline with pip."""

import os
import pathlib
import subprocess
import sys
import tarfile

import pytest

from mirage import CHECKOUT

SMOKE = """
import mirage as mi
from mirage import compiler
print(compiler.find_library())
graph = mi.new_kernel_graph()
x = graph.new_input((2, 64))
w = graph.new_input((64, 32))
graph.mark_output(graph.matmul(graph.rms_norm(x, (64,)), w))
kernel = graph.superoptimize(time_limit=5, search_threads=1)
assert (kernel.directory / "plan.json").is_file()
assert mi.check_equivalence(graph, kernel.mlir)
print("ok")
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    from mirage import compiler
    try:
        compiler.find_library()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    out = tmp_path_factory.mktemp("package")
    built = subprocess.run(
        ["bash", str(CHECKOUT / "scripts" / "build-python-package.sh"),
         str(out)], capture_output=True, text=True, check=True)
    archive = pathlib.Path(built.stdout.strip().splitlines()[-1])
    with tarfile.open(archive) as tar:
        tar.extractall(out)
    return next(p for p in out.iterdir() if p.is_dir())


def smoke(site, tmp_path):
    """Runs SMOKE with `site` as the only Python path, no LLVM or MLIR on
    the loader's path, a fresh cache and nothing of the checkout's build;
    asserts it succeeds with the library of `site`'s package."""
    run = subprocess.run(
        [sys.executable, "-c", SMOKE], cwd=tmp_path, capture_output=True,
        text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                        "MIRAGE_CACHE_DIR": str(tmp_path / "cache"),
                        "PYTHONPATH": str(site)})
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == str(site / "mirage" / "lib" / "libmirage_compiler.so")
    assert lines[-1] == "ok"


def pip_install(source, target):
    """`pip install` of `source` into `target`, offline; skips without
    pip."""
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation",
         "--no-deps", "--no-index", "--target", str(target), str(source)],
        capture_output=True, text=True, env={**os.environ,
                                             "PIP_NO_CACHE_DIR": "1"})
    if "No module named pip" in install.stderr:
        pytest.skip("pip is not installed")
    assert install.returncode == 0, install.stderr


def test_the_library_needs_no_llvm_mlir_or_system_z3(package):
    library = package / "mirage" / "lib" / "libmirage_compiler.so"
    needed = subprocess.run(["ldd", str(library)], capture_output=True,
                            text=True, check=True).stdout
    assert "libMLIR" not in needed and "libLLVM" not in needed
    assert str(package / "mirage" / "lib" / "libz3") in needed


def test_runs_from_the_extracted_directory(package, tmp_path):
    smoke(package, tmp_path)


def test_installs_offline_with_pip(package, tmp_path):
    site = tmp_path / "site"
    pip_install(package, site)
    assert (site / "mirage" / "lib" / "libmirage_compiler.so").is_file()
    # The torch.compile backend, under the name Dynamo looks up.
    assert (site / "mirage" / "torch" / "dynamo.py").is_file()
    [entry_points] = site.glob("mirage-*.dist-info/entry_points.txt")
    text = entry_points.read_text()
    assert "[torch_dynamo_backends]" in text
    assert "mirage = mirage.torch:backend" in text
    smoke(site, tmp_path)


def test_pip_install_of_the_checkout_after_a_build(compiler_library,
                                                   tmp_path):
    """The README's set-up builds the compiler library, which the build
    copies into python/mirage/lib/; `pip install ./python` then installs a
    package that finds it."""
    pip_install(CHECKOUT / "python", tmp_path / "site")
    smoke(tmp_path / "site", tmp_path)
