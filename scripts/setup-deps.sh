#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages netcube needs to build, test and fuzz. Idempotent: it asks
# dpkg what is already there and installs only what is missing, so a second run does nothing (and needs
# no network). Works as root or through sudo.
set -euo pipefail

# The one list of the project's system dependencies (cmake/NetcubeDependencies.cmake names the same).
PACKAGES=(
  # Toolchain
  g++ make cmake pkg-config
  # Libraries
  libenet-dev libcli11-dev nlohmann-json3-dev
  # The graphical client: SDL2, Dear ImGui 1.86 (whose SDL backends ship as sources), stb_image_write
  libsdl2-dev libimgui-dev libstb-dev
  # Tests
  googletest libgtest-dev
  # libFuzzer targets (the `fuzz` preset): clang and its runtime libraries
  clang libclang-rt-14-dev
  # The format check (Format.clang_format)
  clang-format
  # Headless screenshot tests of the graphical client
  xvfb xauth
  # The Debian package (scripts/package.sh): dpkg-shlibdeps finds its dependencies
  dpkg-dev
)

missing=()
for package in "${PACKAGES[@]}"; do
  if [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null)" != ii* ]]; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup-deps: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

if [[ $EUID -eq 0 ]]; then
  as_root=()
elif command -v sudo > /dev/null; then
  as_root=(sudo)
else
  echo "setup-deps: missing packages: ${missing[*]}" >&2
  echo "setup-deps: run this script as root (or install sudo) to install them" >&2
  exit 1
fi

echo "setup-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
