#!/usr/bin/env bash
# Installs what the editor tests need and builds the VS Code extension.
# Run from anywhere; .ci/run calls it before pytest. Idempotent.
#   - Neovim: Debian's package (0.7.2 on bookworm) when `nvim` is missing.
#   - The extension: `npm ci`, lint, typecheck, then the .vsix
#     (editors/vscode/distaff.vsix), whose contents are listed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

if ! command -v nvim >/dev/null 2>&1; then
  echo "ci-setup: installing neovim"
  export DEBIAN_FRONTEND=noninteractive
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq neovim >/dev/null
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
