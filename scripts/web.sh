#!/usr/bin/env bash
# The lab in a browser: installs what it needs (emscripten, chromium, the imgui and libsdl2 source
# packages), builds the page into build/web/ and serves it on 127.0.0.1.
#   scripts/web.sh               build, then serve and print the URL (Ctrl-C stops the server)
#   scripts/web.sh --build-only  build only (tests, CI)
# What does not change (SDL2 for wasm, Dear ImGui's sources) is built once and cached in build/web-deps/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_only=0
case "${1-}" in
  "") ;;
  --build-only) build_only=1 ;;
  -h | --help)
    sed -n '2,6s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    exit 0
    ;;
  *)
    echo "web.sh: unknown option '$1' (use --build-only or nothing)" >&2
    exit 2
    ;;
esac

readonly ROOT="$PWD"
readonly DEPS="$ROOT/build/web-deps"
readonly SDL_PREFIX="$DEPS/sdl2"
readonly BUILD_DIR="$ROOT/build/web-build"
readonly OUT_DIR="$ROOT/build/web"
# The compiler, the browser the tests drive, apt-get source's unpacker, and the header-only libraries the
# desktop build takes from Debian too (CLI11, nlohmann/json, stb_image_write).
readonly PACKAGES=(emscripten chromium dpkg-dev cmake make python3 gzip libcli11-dev nlohmann-json3-dev libstb-dev)
jobs="$(nproc)"
# emscripten's JavaScript tools need Debian's node modules (acorn): a node not from Debian does not look there.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

as_root=()
if [[ $EUID -ne 0 ]]; then
  command -v sudo > /dev/null || {
    echo "web.sh: installing packages needs root; run as root or install sudo" >&2
    exit 1
  }
  as_root=(sudo)
fi

apt_updated=0
apt_update() {
  if [[ $apt_updated -eq 0 ]]; then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    apt_updated=1
  fi
}

install_packages() {
  local missing=() package
  for package in "${PACKAGES[@]}"; do
    [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2> /dev/null)" == ii* ]] || missing+=("$package")
  done
  [[ ${#missing[@]} -eq 0 ]] && return
  echo "web.sh: installing ${missing[*]}"
  apt_update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends "${missing[@]}"
}

# apt-get source needs a deb-src entry; add one for the archive the system already uses.
ensure_deb_src() {
  if grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return
  fi
  echo "web.sh: adding a deb-src entry for bookworm (apt-get source)"
  "${as_root[@]}" tee /etc/apt/sources.list.d/netcube-web-src.sources > /dev/null << 'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  apt_updated=0
}

# Unpacks source package $1 into build/web-deps/src/ once; sets `source_dir` to its directory.
source_package() {
  local name=$1
  mkdir -p "$DEPS/src"  # a cold cache has none: find must not fail on it
  source_dir="$(find "$DEPS/src" -maxdepth 1 -mindepth 1 -type d -name "${name}-*" | head -n 1)"
  [[ -n "$source_dir" ]] && return
  ensure_deb_src
  apt_update
  (cd "$DEPS/src" && apt-get source -q "$name")
  rm -f "$DEPS/src/${name}_"*  # the tarballs, once unpacked
  source_dir="$(find "$DEPS/src" -maxdepth 1 -mindepth 1 -type d -name "${name}-*" | head -n 1)"
}

# SDL2 for wasm from Debian's source (emscripten's own SDL port would need the internet).
build_sdl2() {
  [[ -f "$SDL_PREFIX/lib/libSDL2.a" ]] && return
  source_package libsdl2
  echo "web.sh: building SDL2 for wasm from ${source_dir#"$ROOT"/} (once)"
  rm -rf "$DEPS/sdl2-build"
  emcmake cmake -S "$source_dir" -B "$DEPS/sdl2-build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$SDL_PREFIX" -DSDL_SHARED=OFF -DSDL_STATIC=ON -DSDL_TEST=OFF \
    -DSDL2_DISABLE_SDL2MAIN=ON -DSDL_AUDIO=OFF -DSDL_HAPTIC=OFF -DSDL_SENSOR=OFF -DSDL_POWER=OFF \
    -DSDL_PTHREADS=OFF -DSDL_THREADS=OFF
  cmake --build "$DEPS/sdl2-build" -j "$jobs"
  cmake --install "$DEPS/sdl2-build"
  rm -rf "$DEPS/sdl2-build" "$source_dir"  # the install is what is kept (and what CI caches)
}

# The page: the project's CMake under emscripten, the lab alone (no ENet, no tests).
build_page() {
  # Configured once; the build step configures again by itself when a CMakeLists.txt changes.
  if [[ ! -f "$BUILD_DIR/Makefile" ]]; then
    emcmake cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DNETCUBE_BUILD_TESTS=OFF \
      -DNETCUBE_WEB_SDL2_DIR="$SDL_PREFIX/lib/cmake/SDL2" -DNETCUBE_WEB_IMGUI_DIR="$1" \
      -DNETCUBE_WEB_OUTPUT_DIR="$OUT_DIR" > "$BUILD_DIR/configure.log" ||
      { cat "$BUILD_DIR/configure.log" >&2; return 1; }
  fi
  cmake --build "$BUILD_DIR" -j "$jobs" --target netcube-web
}

# Serves build/web on 127.0.0.1 (a free port) until Ctrl-C.
serve_page() {
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  echo "web.sh: the lab is at http://127.0.0.1:${port}/ (Ctrl-C stops the server)"
  exec python3 -m http.server --bind 127.0.0.1 --directory "$OUT_DIR" "$port"
}

# The page's files and their sizes, raw and gzipped (what a server with compression sends).
report_sizes() {
  local file
  for file in "$OUT_DIR"/index.html "$OUT_DIR"/netcube.js "$OUT_DIR"/netcube.wasm; do
    printf 'web.sh: %-12s %8d bytes, %8d gzipped\n' "${file##*/}" "$(stat -c %s "$file")" \
      "$(gzip -9 -c "$file" | wc -c)"
  done
}

install_packages
build_sdl2
source_package imgui
mkdir -p "$BUILD_DIR" "$OUT_DIR"
build_page "$source_dir"
report_sizes
[[ $build_only -eq 1 ]] && exit 0
serve_page
