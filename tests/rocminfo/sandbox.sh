# Sourced by the rocminfo tests: fakes rocminfo's pre-check inside this test only.
# rocminfo refuses to start unless `lsmod | grep amdgpu` prints something and /dev/kfd opens
# read-write; a PATH-first `lsmod` script and an LD_PRELOAD shim (fake_kfd.c: opens a scratch file
# instead of /dev/kfd) satisfy it without a driver or privileges.
# Defines: lib (softhsa's library directory), tmp (scratch), rocminfo_run ENV... (stdout to
# $tmp/out, stderr to $tmp/err).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lib=${SOFTHSA_LIB_DIR:?run through scripts/run-c-tests.sh}
tmp=${SOFTHSA_TEST_TMP:-$(mktemp -d)}
command -v rocminfo >/dev/null || { echo "rocminfo is not installed (apt-get install rocminfo)"; exit 1; }
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "amdgpu              9990144  0"\n' >"$tmp/bin/lsmod"
chmod +x "$tmp/bin/lsmod"
: >"$tmp/kfd"
cc -shared -fPIC -O1 -o "$tmp/fake_kfd.so" "$here/fake_kfd.c" -ldl

rocminfo_run() {
  # Line-buffered: rocminfo popen()s lsmod, and a full stdio buffer would be flushed twice.
  env -u SOFTHSA_GPU -u SOFTHSA_GPUS "$@" PATH="$tmp/bin:$PATH" FAKE_KFD="$tmp/kfd" \
    LD_PRELOAD="$tmp/fake_kfd.so" LD_LIBRARY_PATH="$lib" stdbuf -oL rocminfo >"$tmp/out" 2>"$tmp/err"
}
