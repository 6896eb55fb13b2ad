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
ensure_test_system_packages() {
  local wanted=(chromium xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
                libxcb-randr0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxkbcommon-x11-0
                libxcb-cursor0 libnss3 libxcomposite1 libxdamage1 libxrandr2 libxtst6 libxkbfile1
                libegl1 libgl1 libfontconfig1 libdbus-1-3 libasound2)
  local missing=()
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "Installing Debian packages for the browser/desktop tests: ${missing[*]}"
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
      echo "Missing Debian packages (browser/desktop tests will be skipped): ${missing[*]}" >&2
    fi
  fi
}

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
    exec "$VENV/bin/python" -m pytest "$@"
    ;;
  *)
    echo "usage: scripts/dev.sh run|test [args...]" >&2
    exit 2
    ;;
esac
