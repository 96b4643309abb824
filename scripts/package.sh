#!/usr/bin/env bash
# Builds the Debian package build/package/netcube_<version>_<arch>.deb: a release build for the /usr
# prefix (the `package` preset), then CPack, whose dependencies come from dpkg-shlibdeps (dpkg-dev). Prints
# the package's size, dependencies and contents.
#   scripts/package.sh                 then: sudo apt install ./build/package/netcube_*.deb
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
"$repo/scripts/setup-deps.sh"
command -v dpkg-shlibdeps >/dev/null || { echo "package.sh: dpkg-shlibdeps missing: apt install dpkg-dev" >&2; exit 2; }
cmake --preset package
cmake --build --preset package -j"$(nproc)"
rm -f build/package/netcube_*.deb
cpack --preset package
deb=$(ls build/package/netcube_*.deb)
echo
echo "$deb: $(du -k "$deb" | cut -f1) KiB"
dpkg-deb --field "$deb" Package Version Architecture Installed-Size Maintainer Depends
# Listed once into a variable: `grep -q` quitting early would break dpkg-deb's pipe and, with pipefail, fail.
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
grep -qx './usr/share/doc/netcube/copyright' <<< "$contents" ||
  { echo "package.sh: the package has no /usr/share/doc/netcube/copyright" >&2; exit 1; }
echo "$contents"
