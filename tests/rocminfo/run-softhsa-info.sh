#!/usr/bin/env bash
# `softhsa info` prints what Debian's real rocminfo prints over the same library, line for line
# (trailing padding aside). One known difference is filtered: rocminfo shows the ISA's 64-bit
# GRID_MAX_SIZE truncated to 32 bits; softhsa info shows the value the library returns.
set -euo pipefail
source "$(dirname "$0")/sandbox.sh"
profile=${SOFTHSA_TEST_PROFILE:-release}
target=${CARGO_TARGET_DIR:-$(cd "$here/../.." && pwd)/target}
if [ "$profile" = release ]; then cargo build -q --release -p softhsa; else cargo build -q -p softhsa; fi
softhsa=$target/$profile/softhsa

# The default gfx906 (MI50) and the CDNA boards: MI100, MI210 (with XNACK on as well), MI300X.
for gpu in "" gfx908 gfx90a gfx90a:xnack+ gfx942; do
  rocminfo_run ${gpu:+SOFTHSA_GPU=$gpu} || { echo "rocminfo ${gpu:-gfx906} failed:"; cat "$tmp/out" "$tmp/err"; exit 1; }
  grep -v "ROCk module" "$tmp/out" | sed 's/[[:space:]]*$//' | grep -v "^      Grid Max Size: " >"$tmp/rocminfo.txt"
  env -u SOFTHSA_GPU -u SOFTHSA_GPUS ${gpu:+SOFTHSA_GPU=$gpu} \
    "$softhsa" info --library "$lib/libhsa-runtime64.so.1" >"$tmp/info.raw"
  sed 's/[[:space:]]*$//' "$tmp/info.raw" | grep -v "^      Grid Max Size: " >"$tmp/info.txt"
  diff "$tmp/rocminfo.txt" "$tmp/info.txt"
  echo "softhsa info matches rocminfo for ${gpu:-gfx906} ($(wc -l <"$tmp/info.txt") lines)"
done
