"""The type stubs shipped with the package (bindings/python/continuum/**/*.pyi) are current and
valid: regenerating them from the built extension changes nothing, and mypy's stubtest finds
no difference between the stubs and the runtime module."""

import os
import pathlib
import subprocess
import sys

import continuum

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The folder holding the package under test (build/python), absolute: the checks run elsewhere.
PACKAGE_PARENT = pathlib.Path(continuum.__file__).resolve().parent.parent


def _run(args, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_PARENT), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_stubs_match_the_built_extension(tmp_path):
    result = _run([str(ROOT / "tools" / "generate_stubs.py"), "--check"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


# stubtest's mypy run (never incremental) follows every import of the package, including the
# `import torch` inside continuum._lstm_export.export_torch: with PyTorch installed (CI) that was 602
# torch and 541 SymPy modules of 1,445 (181 without them), and stubtest took 34-38 s of CPU instead of
# 5-6. No stub and no signature names a torch type, so mypy skips torch (an Any module; where PyTorch
# is not installed, the import would otherwise be a mypy error): the same stubs and modules are
# compared (docs/CONTRIBUTING.md, session 17).
MYPY_CONFIG = """[mypy]

[mypy-torch,torch.*]
follow_imports = skip
ignore_missing_imports = True
"""


def test_stubtest_accepts_the_stubs(tmp_path):
    allowlist = ROOT / "tests" / "python" / "stubtest_allowlist.txt"
    config = tmp_path / "mypy.ini"
    config.write_text(MYPY_CONFIG)
    result = _run(["-m", "mypy.stubtest", "continuum", "--allowlist", str(allowlist), "--mypy-config-file", str(config)], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_stub_accepts_any_arguments():
    # A signature of `*args, **kwargs` says nothing; a class without a Python constructor says so in
    # a comment instead (tools/generate_stubs.py), every other callable has its parameters.
    stubs = sorted((ROOT / "bindings" / "python" / "continuum").rglob("*.pyi"))
    assert len(stubs) >= 9
    for path in stubs:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert "*args, **kwargs" not in line, f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
