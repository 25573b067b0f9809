#!/usr/bin/env bash
# Installs what the editor tests need and builds the VS Code extension.
# Run from anywhere; .ci/run calls it before pytest. Idempotent.
#   - Neovim: Debian's package (0.7.2 on bookworm) when `nvim` is missing.
#   - The extension: `npm ci`, lint, typecheck, then the .vsix
#     (editors/vscode/distaff.vsix), whose contents are listed.
#   - A real VS Code for tests/editors/test_code_server.py: code-server (pinned
#     in editors/code-server/package-lock.json, installed into that folder) and
#     Debian's chromium, which Playwright drives; the test extra installs
#     Playwright for Python, and no browser is downloaded.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
# neovim for the plugin; chromium to drive code-server; ripgrep, the Kerberos
# and xkbfile headers and a C++ toolchain for code-server's native modules;
# tmux, the terminal of `distaff check`'s progress-line test (tests/cli/test_progress.py);
# gdb (and build-essential's cc) for the reproducers of tests/playback.
debs="neovim chromium tmux gdb ripgrep libkrb5-dev libxkbfile-dev libsecret-1-dev build-essential pkg-config"
missing=""
for deb in $debs; do
  dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q "install ok installed" || missing="$missing $deb"
done
if [ -n "$missing" ]; then
  echo "ci-setup: installing$missing"
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  $sudo apt-get install -y -qq $missing >/dev/null
fi
nvim --version | sed -n 1p

if ! command -v npm >/dev/null 2>&1; then
  echo "ci-setup: npm is required to build editors/vscode" >&2
  exit 1
fi
cd "$here/vscode"
npm ci --no-audit --no-fund --loglevel=error
npm run --silent lint
npm run --silent typecheck
npm run --silent package
ls -l distaff.vsix
python3 -m zipfile -l distaff.vsix

# code-server. Its install builds VS Code's native modules here, and
# @vscode/ripgrep's install script would download rg from outside the package
# registries: it takes a cached archive from $TMPDIR first, so the archive is
# made from Debian's rg. Its name follows the pinned @vscode/ripgrep (1.15.11
# in code-server 4.100.3).
cd "$here/code-server"
if [ ! -x node_modules/.bin/code-server ]; then
  seed="$here/code-server/.tmp"
  cache="$seed/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$cache/rg"
  cp "$(command -v rg)" "$cache/rg/rg"
  tar czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$cache/rg" rg
  TMPDIR="$seed" npm_config_yes=true npm_config_unsafe_perm=true \
    npm ci --no-audit --no-fund --loglevel=error
  rm -rf "$seed"
fi
node_modules/.bin/code-server --version | sed -n 1p
chromium --version
