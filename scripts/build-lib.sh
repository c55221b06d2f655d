#!/usr/bin/env bash
# Builds the drop-in HSA runtime: target/release/libhsa-runtime64.so.1 (soname libhsa-runtime64.so.1)
# plus the symlink libhsa-runtime64.so, exporting exactly the functions of crates/capi/hsa.map, each
# under the ELF version ROCR_1, and then checks that export list.
#
# Usage: scripts/build-lib.sh [--debug] [--strict]
#   --debug   link the debug build of softhsa-capi (faster to build; output goes to target/debug)
#   --strict  fail when any function of hsa.map is missing (the default only lists the missing ones)
# Environment: CARGO_TARGET_DIR (where cargo builds), SOFTHSA_LIB_OUT (where the library goes;
# default target/release or target/debug of the repository).
#
# Why not a cdylib: rustc gives a cdylib its own anonymous version script, and GNU ld refuses a
# second, named one. So the capi staticlib is linked whole into a shared object by cc.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

profile=release
strict=0
for arg in "$@"; do
  case "$arg" in
    --debug) profile=debug ;;
    --strict) strict=1 ;;
    *) echo "build-lib.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

cargo_dir=${CARGO_TARGET_DIR:-$top/target}
out=${SOFTHSA_LIB_OUT:-$top/target/$profile}
map=crates/capi/hsa.map

if [ "$profile" = release ]; then
  cargo build --release -p softhsa-capi
else
  cargo build -p softhsa-capi
fi

mkdir -p "$out"
lib="$out/libhsa-runtime64.so.1"
cc -shared -o "$lib.tmp" \
  -Wl,--whole-archive "$cargo_dir/$profile/libsofthsa_capi.a" -Wl,--no-whole-archive \
  -Wl,--version-script="$map" -Wl,-soname,libhsa-runtime64.so.1 \
  -Wl,--gc-sections -Wl,-z,relro,-z,now -Wl,-z,noexecstack \
  -lpthread -ldl -lm -lgcc_s -lc
mv -f "$lib.tmp" "$lib"
ln -sf libhsa-runtime64.so.1 "$out/libhsa-runtime64.so"

# The export check: every defined dynamic symbol must be a function of hsa.map under @@ROCR_1
# (plus the version definition itself), and every function of hsa.map must be there.
expected=$(sed -n 's/^ *\(hsa_[a-z0-9_]*\);$/\1/p' "$map" | sort)
actual=$(nm -D --defined-only --with-symbol-versions "$lib" | awk '{print $3}' | { grep -v "^ROCR_1$" || true; } | sort)
bad=$(echo "$actual" | grep -v '@@ROCR_1$' || true)
names=$(echo "$actual" | sed 's/@@ROCR_1$//' | sort)
extra=$(comm -13 <(echo "$expected") <(echo "$names") | grep . || true)
missing=$(comm -23 <(echo "$expected") <(echo "$names") | grep . || true)
status=0
if [ -n "$bad" ]; then
  echo "build-lib.sh: symbols not versioned ROCR_1:" >&2; echo "$bad" | sed 's/^/  /' >&2; status=1
fi
if [ -n "$extra" ]; then
  echo "build-lib.sh: exports not in hsa.map:" >&2; echo "$extra" | sed 's/^/  /' >&2; status=1
fi
nexp=$(echo "$expected" | grep -c .)
nmiss=$(echo "$missing" | grep -c . || true)
if [ "$nmiss" -gt 0 ]; then
  echo "build-lib.sh: $nmiss of $nexp functions of hsa.map not exported yet:" >&2
  echo "$missing" | sed 's/^/  /' >&2
  [ "$strict" -eq 0 ] || status=1
fi
[ "$status" -ne 0 ] || echo "build-lib.sh: $lib exports $((nexp - nmiss)) of $nexp functions @@ROCR_1"
exit "$status"
