#!/usr/bin/env bash
# The two commands behind `make run` and `make test`: create/refresh the project venv, then
# start the app or run every test. Safe to re-run; installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
shift || true
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}
VENV=.venv

ensure_venv() {
  local extras=$1 stamp="$VENV/.installed-$1"
  if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    # torch is pinned to exactly 2.13.0: a CPU build of it lies on this kind of machine.
    "$VENV/bin/python" -m pip install --quiet "torch==2.13.0"
    "$VENV/bin/python" -m pip install --quiet -e ".[$extras]"
    touch "$stamp"
  fi
}

# Debian packages the browser and desktop tests need; installed only when missing and root.
# Chromium + Xvfb for the browser tests; the rest is what Qt WebEngine (PyQt6 wheels) links
# against for the offscreen and xcb platforms (checked with ldd on the wheel's libraries).
ensure_test_system_packages() {
  local wanted=(chromium xvfb xauth fonts-dejavu-core fonts-liberation
                libnss3 libnspr4 libglib2.0-0 libdbus-1-3 libfontconfig1 libfreetype6 libegl1 libgl1
                libgbm1 libdrm2 libasound2 libxkbcommon0 libxkbcommon-x11-0 libxkbfile1 libx11-6
                libx11-xcb1 libxext6 libxfixes3 libxrender1 libxcomposite1 libxdamage1 libxrandr2
                libxtst6 libxcb1 libxcb-cursor0 libxcb-dri3-0 libxcb-glx0 libxcb-icccm4 libxcb-image0
                libxcb-keysyms1 libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0
                libxcb-shm0 libxcb-sync1 libxcb-util1 libxcb-xfixes0 libxcb-xinerama0 libxcb-xkb1)
  local missing=()
  for p in "${wanted[@]}"; do
    # Newer Debian renamed some libraries with a t64 suffix (libasound2 -> libasound2t64).
    installed "$p" || installed "${p}t64" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "Missing Debian packages (browser/desktop tests will be skipped): ${missing[*]}" >&2
    return 0
  fi
  apt-get update -qq >/dev/null || echo "apt-get update failed; trying the cached lists" >&2
  local install=()
  for p in "${missing[@]}"; do
    if available "$p"; then install+=("$p")
    elif available "${p}t64"; then install+=("${p}t64")
    else echo "No Debian package $p here; the tests that need it will be skipped" >&2
    fi
  done
  [ ${#install[@]} -gt 0 ] || return 0
  echo "Installing Debian packages for the browser/desktop tests: ${install[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${install[@]}" >/dev/null \
    || echo "Could not install some Debian packages; the tests that need them will be skipped" >&2
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
available() { apt-cache show --no-all-versions "$1" >/dev/null 2>&1; }

case "$mode" in
  run)
    ensure_venv desktop
    exec "$VENV/bin/studyhall" "$@"
    ;;
  test)
    ensure_venv "desktop,dev"
    ensure_test_system_packages
    export LITELLM_LOCAL_MODEL_COST_MAP=True
    "$VENV/bin/lint-imports" --config importlinter.ini
    "$VENV/bin/ruff" check src tests bench
    # Strict on studyhall.core, default checks elsewhere (pyproject.toml [tool.mypy]).
    "$VENV/bin/mypy"
    # The real_model tests' llama.cpp server: built once per machine (10-20 min on 2 cores),
    # cached outside the repo; says why they will skip when cmake or a compiler is missing.
    "$VENV/bin/python" -m tests.support.llama_server
    exec "$VENV/bin/python" -m pytest "$@"
    ;;
  *)
    echo "usage: scripts/dev.sh run|test [args...]" >&2
    exit 2
    ;;
esac
