#!/usr/bin/env bash
# Builds and runs softhsa's libFuzzer targets (fuzz/fuzz_targets: codeobj, isa, packets, capi)
# on the stable toolchain: libfuzzer-sys with rustc's sanitizer-coverage instrumentation, the
# way `cargo fuzz --sanitizer none` builds them. `--asan` adds AddressSanitizer (a nightly flag,
# enabled on stable with RUSTC_BOOTSTRAP=1).
#
# Usage: scripts/fuzz.sh [options] [TARGET...]
#   --seconds N     run each target for N seconds (default 60)
#   --minutes N     run each target for N minutes
#   --jobs N        N fuzzing processes per target, sharing one corpus (default 1)
#   --fast-jobs N   of those N processes, run N with a build without compare tracing: about twice
#                   the executions per second on the parsers, while the others keep tracing
#                   compares for magic values (AFL++'s one-cmplog-instance practice); the fast
#                   build goes to target/fuzz/bin/fast (with --prebuilt DIR: DIR/fast)
#   --asan          build and run with AddressSanitizer (LeakSanitizer included)
#   --build-only    build the binaries, run nothing
#   --prebuilt DIR  run binaries already built in DIR (no compiler needed: the long campaign on
#                   another machine); building leaves copies without debug info (small enough to
#                   carry) in target/fuzz/bin (target/fuzz/bin-asan with --asan)
#   --replay        run each target once over its seed corpus and regression inputs, no fuzzing
#
# Each target's corpus: fuzz/corpus/TARGET (committed seeds and regression inputs, read-only
# here); new inputs go to target/fuzz/corpus/TARGET. Crashes go to target/fuzz/artifacts/TARGET.
# Prints one line per target, "TARGET: N executions, N crashes, N s", and the closing line
# "N passed, N failed" (a target passes when it found nothing).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

seconds=60
jobs=1
fast_jobs=0
asan=0
build_only=0
replay=0
prebuilt=""
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift ;;
    --minutes) seconds=$(($2 * 60)); shift ;;
    --jobs) jobs=$2; shift ;;
    --fast-jobs) fast_jobs=$2; shift ;;
    --asan) asan=1 ;;
    --build-only) build_only=1 ;;
    --prebuilt) prebuilt=$2; shift ;;
    --replay) replay=1 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
all=(codeobj isa packets capi)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

triple=x86_64-unknown-linux-gnu
[ "$fast_jobs" -le "$jobs" ] || { echo "fuzz.sh: --fast-jobs $fast_jobs exceeds --jobs $jobs" >&2; exit 2; }
# build VARIANT TARGET_DIR STRIPPED_DIR: builds the targets with the variant's instrumentation
# ("traced": cargo fuzz's, compare tracing included; "fast": coverage counters only) and leaves
# copies without debug info in STRIPPED_DIR.
build() {
  local variant=$1 target_dir=$2 stripped=$3 flags
  flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
  flags+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table"
  [ "$variant" = traced ] && flags+=" -Cllvm-args=-sanitizer-coverage-trace-compares"
  flags+=" --cfg fuzzing -Cdebug-assertions -Coverflow-checks -Cforce-frame-pointers"
  [ "$asan" = 1 ] && flags+=" -Zsanitizer=address"
  echo "== building fuzz targets ($variant, $target_dir)"
  if ! RUSTFLAGS="$flags" cargo build --release --manifest-path fuzz/Cargo.toml \
      --target "$triple" --target-dir "$target_dir" $(printf -- '--bin %s ' "${targets[@]}"); then
    echo "fuzz.sh: build failed"
    echo "0 passed, 1 failed"
    exit 1
  fi
  mkdir -p "$stripped"
  for t in "${targets[@]}"; do
    objcopy --strip-debug "$target_dir/$triple/release/$t" "$stripped/$t" 2>/dev/null ||
      cp "$target_dir/$triple/release/$t" "$stripped/$t"
  done
}
if [ -n "$prebuilt" ]; then
  bindir=$(cd "$prebuilt" && pwd)
  fastdir=$bindir/fast
else
  target_dir=$top/fuzz/target
  stripped=$top/target/fuzz/bin
  if [ "$asan" = 1 ]; then
    export RUSTC_BOOTSTRAP=1
    target_dir=$top/fuzz/target-asan
    stripped=$top/target/fuzz/bin-asan
  fi
  build traced "$target_dir" "$stripped"
  bindir=$target_dir/$triple/release
  fastdir=$target_dir-fast/$triple/release
  [ "$fast_jobs" -gt 0 ] && build fast "$target_dir-fast" "$stripped/fast"
fi
[ "$build_only" = 1 ] && exit 0

# The fuzzed runtime: small budgets so random dispatches end quickly (see fuzz/src/lib.rs).
export SOFTHSA_INSTRUCTION_BUDGET=${SOFTHSA_INSTRUCTION_BUDGET:-200000}
export SOFTHSA_DEVICE_MEMORY=${SOFTHSA_DEVICE_MEMORY:-256M}
export SOFTHSA_WORKERS=${SOFTHSA_WORKERS:-2}
[ "$asan" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}

work=$top/target/fuzz
passed=0
failed=0
total_execs=0
for t in "${targets[@]}"; do
  bin=$bindir/$t
  if [ ! -x "$bin" ]; then
    echo "$t: no binary at $bin"
    failed=$((failed + 1))
    continue
  fi
  seeds=$top/fuzz/corpus/$t
  corpus=$work/corpus/$t
  artifacts=$work/artifacts/$t
  logs=$work/logs/$t
  mkdir -p "$corpus" "$artifacts" "$logs"
  rm -f "$logs"/*.log "$logs"/fast/*.log
  dict=()
  [ -f "$top/fuzz/dict/$t.dict" ] && dict=(-dict="$top/fuzz/dict/$t.dict")
  before=$(ls "$artifacts" | wc -l)
  start=$SECONDS
  if [ "$replay" = 1 ]; then
    "$bin" -runs=0 "${dict[@]}" "$seeds" >"$logs/replay.log" 2>&1
    rc=$?
  else
    # Input sizes: a code object needs room; instruction streams and call sequences do not.
    case "$t" in codeobj) max_len=65536 ;; isa) max_len=512 ;; *) max_len=1024 ;; esac
    common=(-max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len="$max_len"
            -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}")
    traced_jobs=$((jobs - fast_jobs))
    fast_pid=
    if [ "$fast_jobs" -gt 0 ]; then
      # Both builds share the corpus directory: libFuzzer reloads it, so each side picks up
      # what the other found.
      [ -x "$fastdir/$t" ] || { echo "$t: no fast binary at $fastdir/$t"; failed=$((failed + 1)); continue; }
      mkdir -p "$logs/fast"
      (cd "$logs/fast" && "$fastdir/$t" "${common[@]}" -jobs="$fast_jobs" -workers="$fast_jobs" \
        "$corpus" "$seeds" >"$logs/fast/main.log" 2>&1) &
      fast_pid=$!
    fi
    rc=0
    if [ "$traced_jobs" -gt 1 ]; then
      (cd "$logs" && "$bin" "${common[@]}" -jobs="$traced_jobs" -workers="$traced_jobs" \
        "$corpus" "$seeds" >"$logs/main.log" 2>&1) || rc=$?
    elif [ "$traced_jobs" = 1 ]; then
      "$bin" "${common[@]}" "$corpus" "$seeds" >"$logs/fuzz-0.log" 2>&1 || rc=$?
    fi
    if [ -n "$fast_pid" ]; then
      wait "$fast_pid" || rc=$?
    fi
  fi
  execs=$(cat "$logs"/*.log "$logs"/fast/*.log 2>/dev/null | grep -Eo 'stat::number_of_executed_units: *[0-9]+' |
          awk '{s+=$2} END {print s+0}')
  crashes=$(( $(ls "$artifacts" | wc -l) - before ))
  total_execs=$((total_execs + execs))
  echo "$t: $execs executions, $crashes crashes, $((SECONDS - start)) s (logs: $logs)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    failed=$((failed + 1))
    echo "FAIL $t (exit $rc); last lines:"
    cat "$logs"/*.log "$logs"/fast/*.log 2>/dev/null | grep -v '^#[0-9]' | tail -n 30 | sed 's/^/    /'
  else
    passed=$((passed + 1))
  fi
done
echo "total: $total_execs executions"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
