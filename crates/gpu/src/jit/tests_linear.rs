//! Lane-linear accesses (`lane_linear.rs`): addresses computed from the work-item id as a
//! kernel computes `x[i]`, under the conditions the proof rests on and under each way it can
//! fail (an index that wraps within the wave, zero- or sign-extended; ids that do not count up;
//! a value written with lanes inactive). Each case runs after a warm-up wave on the same
//! checker (the inline paths need a site's range cache), and must leave the interpreter's
//! registers, memory and fault.

use super::tests::{isas, random_wave, Rig, Rng};
use super::tests_carry::map_at;
use super::tests_mem::OneBuffer;
use super::{first_difference, run_code, JitCode};
use crate::exec::ExecFault;
use crate::memory::Checker;
use crate::program::Program;
use crate::wave::Wave;

/// Bytes of each mapping.
const LEN: usize = 1 << 16;
/// How far apart the first and last mappings start: an index that wraps within a wave moves
/// its lanes' 4-byte elements by 2^34. (A 32-bit byte offset that wraps moves them by 2^32:
/// the middle mapping.)
const APART: u64 = 1 << 34;

/// Mappings at `start` (`LEN` bytes) and around `start` + 4 GiB and + 16 GiB (`LEN` on each
/// side), claimed valid with everything between them, as one 16 GiB allocation would be.
struct Wide {
    start: u64,
    maps: Vec<(*mut u8, usize)>,
}

impl Wide {
    fn new() -> Option<Wide> {
        'next: for hi in (0x200u64..0x6000).step_by(0x1c0) {
            let start = hi << 32;
            let mut maps = Vec::new();
            // (`map_at` maps twice LEN below a boundary that is not 4 GiB-aligned.)
            for (at, len) in [
                (start, LEN),
                (start + (1 << 32) - LEN as u64, 2 * LEN),
                (start + APART - LEN as u64, 2 * LEN),
            ] {
                match map_at(at) {
                    Some(p) => maps.push((p, len)),
                    None => {
                        drop(Wide { start, maps });
                        continue 'next;
                    }
                }
            }
            return Some(Wide { start, maps });
        }
        None
    }

    fn map(&self) -> OneBuffer {
        OneBuffer(self.start..self.start + APART + LEN as u64)
    }

    /// Every mapping's bytes, in address order.
    fn bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(5 * LEN);
        for &(p, len) in &self.maps {
            // SAFETY: a mapping of `len` bytes, readable while `self` lives.
            v.extend_from_slice(unsafe { std::slice::from_raw_parts(p, len) });
        }
        v
    }

    /// Writes `b` (as [`Self::bytes`] returned them) back.
    fn set(&mut self, mut b: &[u8]) {
        for &(p, len) in &self.maps {
            // SAFETY: as in `bytes`, writable; `&mut self` is the only reference.
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), p, len) };
            b = &b[len..];
        }
    }
}

impl Drop for Wide {
    fn drop(&mut self) {
        for &(p, len) in &self.maps {
            // SAFETY: a mapping made by `new`, no longer referred to.
            unsafe { libc::munmap(p.cast(), len) };
        }
    }
}

/// A program from (llvm-mc's text, encoding) lines; its disassembly must be that text.
pub(super) fn program(lines: &[(&str, &[u32])]) -> Program {
    let code: Vec<u8> = lines
        .iter()
        .flat_map(|(_, d)| d.iter())
        .flat_map(|d| d.to_le_bytes())
        .collect();
    let prog = Program::new(&code, 0x1000);
    for (i, (text, _)) in lines.iter().enumerate() {
        assert_eq!(prog.text(i as u32).to_string(), *text, "line {i}");
    }
    prog
}

/// The index: the id plus s8 (`v_add_u32`), or zero-extended (`exec`: with EXEC = s[20:21]
/// while it is added), or sign-extended, or s6 << 12 | id | 0x400 (the reduction's); or
/// (`Saddr`) the id plus s8 as a 32-bit byte offset (times 4) from s[10:11].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Index {
    Zext,
    PartialAdd,
    Sext,
    ShiftOr,
    Saddr,
    /// A 2-D kernel's `(s9 + y) * s12 + s8 + x` (`v_mad_u64_u32`, its low dword
    /// zero-extended).
    Rows,
    /// The same, accessed with EXEC = s[20:21].
    RowsExec,
    /// The same times 4 in 32 bits, a byte offset zero-extended and added to s[10:11].
    RowsBytes,
}

/// `x[index]` loaded, 7 added, stored to `x[index] + 256 bytes`, through a 64-bit address
/// s[10:11] + 4 * index.
pub(super) fn kernel(index: Index) -> Program {
    let add = ("v_add_u32_e32 v0, s8, v0", &[0x6800_0008u32][..]);
    let mut lines: Vec<(&str, &[u32])> = Vec::new();
    if index == Index::Saddr {
        return program(&[
            add,
            ("v_lshlrev_b32_e32 v0, 2, v0", &[0x2400_0082]),
            (
                "global_load_dword v4, v0, s[10:11]",
                &[0xdc50_8000, 0x040a_0000],
            ),
            ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
            ("v_add_u32_e32 v4, 7, v4", &[0x6808_0887]),
            (
                "global_store_dword v0, v4, s[10:11] offset:256",
                &[0xdc70_8100, 0x000a_0400],
            ),
            ("s_endpgm", &[0xbf81_0000]),
        ]);
    }
    match index {
        Index::Zext | Index::Sext | Index::Saddr => lines.push(add),
        Index::Rows | Index::RowsExec | Index::RowsBytes => lines.extend_from_slice(&[
            ("v_add_u32_e32 v4, s9, v1", &[0x6808_0209][..]),
            ("v_add_u32_e32 v2, s8, v0", &[0x6804_0008]),
            ("v_mov_b32_e32 v3, 0", &[0x7e06_0280]),
            (
                "v_mad_u64_u32 v[0:1], s[4:5], v4, s12, v[2:3]",
                &[0xd1e8_0400, 0x0408_1904],
            ),
        ]),
        Index::PartialAdd => {
            lines.push(("s_mov_b64 exec, s[20:21]", &[0xbefe_0114]));
            lines.push(add);
            lines.push(("s_mov_b64 exec, -1", &[0xbefe_01c1]));
        }
        Index::ShiftOr => {
            lines.push(("v_lshl_or_b32 v0, s6, 12, v0", &[0xd200_0000, 0x0401_1806]));
            lines.push(("v_or_b32_e32 v0, 0x400, v0", &[0x2800_00ff, 0x400]));
        }
    }
    if index == Index::RowsBytes {
        lines.push(("v_lshlrev_b32_e32 v0, 2, v0", &[0x2400_0082]));
    }
    if index == Index::Sext {
        lines.push(("v_ashrrev_i32_e32 v1, 31, v0", &[0x2202_009f]));
    } else {
        lines.push(("v_mov_b32_e32 v1, 0", &[0x7e02_0280]));
    }
    if index != Index::RowsBytes {
        lines.push((
            "v_lshlrev_b64 v[0:1], 2, v[0:1]",
            &[0xd28f_0000, 0x0002_0082],
        ));
    }
    lines.extend_from_slice(&[
        ("v_mov_b32_e32 v3, s11", &[0x7e06_020b][..]),
        ("v_add_co_u32_e32 v2, vcc, s10, v0", &[0x3204_000a]),
        ("v_addc_co_u32_e32 v3, vcc, v3, v1, vcc", &[0x3806_0303]),
    ]);
    if index == Index::RowsExec {
        lines.push(("s_mov_b64 exec, s[20:21]", &[0xbefe_0114]));
    }
    lines.extend_from_slice(&[
        (
            "global_load_dword v4, v[2:3], off",
            &[0xdc50_8000, 0x047f_0002][..],
        ),
        ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
    ]);
    // (Rows: each lane stores a value of its own, so where rows overlap the order shows.)
    lines.push(
        if matches!(index, Index::Rows | Index::RowsExec | Index::RowsBytes) {
            ("v_add_u32_e32 v4, v5, v4", &[0x6808_0905])
        } else {
            ("v_add_u32_e32 v4, 7, v4", &[0x6808_0887])
        },
    );
    lines.extend_from_slice(&[
        (
            "global_store_dword v[2:3], v4, off offset:256",
            &[0xdc70_8100, 0x007f_0402],
        ),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    program(&lines)
}

/// A wave whose ids count up from `first` (`lin`: one row, as `Wave::lin_rows` says), with
/// s8 = `add`, s6 = `group`, the array at `base` and EXEC = s[20:21] = `exec` while the index
/// is added.
pub(super) fn wave(first: u32, lin: bool, add: u32, group: u32, base: u64, exec: u64) -> Wave {
    let mut w = random_wave(&mut Rng(9));
    w.v[0] = std::array::from_fn(|l| first + l as u32);
    w.lin_rows = if lin { 64 } else { 0 };
    w.s[8] = add;
    w.s[6] = group;
    w.s[10] = base as u32;
    w.s[11] = (base >> 32) as u32;
    w.s[20] = exec as u32;
    w.s[21] = (exec >> 32) as u32;
    w.set_exec(!0);
    w
}

/// Runs `prog` on `w0` over the mappings (reset to `init`), after a run of `warm` on the same
/// checker for the JIT; the result, the wave and the memory.
fn run(
    m: &mut Wide,
    init: &[u8],
    prog: &Program,
    warm: &Wave,
    w0: &Wave,
    code: Option<&JitCode>,
) -> (Result<(), ExecFault>, Wave, Vec<u8>) {
    m.set(init);
    let map = m.map();
    let mut rig = Rig::new(0);
    let mut cx = rig.cx(prog, Checker::new(&map, 0..0), 0);
    if let Some(c) = code {
        let mut first = warm.clone();
        run_code(&mut first, &mut cx, c).expect("the warm-up runs");
        m.set(init);
    }
    let mut w = w0.clone();
    let r = match code {
        Some(c) => run_code(&mut w, &mut cx, c),
        None => crate::exec::run(&mut w, &mut cx),
    };
    (r, w, m.bytes())
}

#[test]
fn lane_linear_accesses_are_exact_and_their_conditions_checked() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let Some(mut m) = Wide::new() else {
        panic!("no free address range for the test's mappings");
    };
    let mut r = Rng(43);
    let init: Vec<u8> = (0..5 * LEN).map(|_| r.next() as u8).collect();
    let low = m.start + 0x40;
    // (index, what, the wave)
    let mut cases: Vec<(Index, &str, Wave)> = Vec::new();
    for index in [Index::Zext, Index::Sext, Index::Saddr] {
        cases.push((index, "linear", wave(64, true, 128, 0, low, !0)));
        cases.push((index, "ids not counting up", {
            let mut w = wave(64, false, 128, 0, low, !0);
            w.v[0].swap(3, 40);
            w
        }));
        cases.push((
            index,
            "linear ids, flag clear",
            wave(64, false, 128, 0, low, !0),
        ));
    }
    // Indexes that wrap within the wave: lanes 0-15 at the high mapping, 16-63 at the low
    // one, 2^34 bytes below (zero extension: past 2^32; sign extension: past 2^31, from an
    // array in the middle).
    cases.push((
        Index::Zext,
        "wrapping past 2^32",
        wave(0, true, 0xffff_fff0, 0, low, !0),
    ));
    cases.push((
        Index::Sext,
        "wrapping past 2^31",
        wave(0, true, 0x7fff_fff0, 0, low + (APART >> 1), !0),
    ));
    // A byte offset that wraps past 2^32 at lane 16: lanes 0-15 at the middle mapping.
    cases.push((
        Index::Saddr,
        "offset wrapping past 2^32",
        wave(0, true, 0x3fff_fff0, 0, low, !0),
    ));
    // Negative indexes, sign-extended: linear.
    cases.push((
        Index::Sext,
        "negative indexes",
        wave(0, true, (-32i32) as u32, 0, low + 256, !0),
    ));
    // The id added with lanes inactive: those keep the bare id.
    for exec in [!0u64 ^ 1 << 17, 0xffff_0000_ffff_ffff, !0] {
        cases.push((Index::PartialAdd, "added with EXEC s[20:21]", {
            wave(64, true, 128, 0, low, exec)
        }));
    }
    cases.push((
        Index::ShiftOr,
        "group << 12 | id | 0x400",
        wave(64, true, 0, 1, low, !0),
    ));
    for (index, what, w0) in &cases {
        let prog = kernel(*index);
        let (ra, wa, ma) = run(&mut m, &init, &prog, w0, w0, None);
        let warm = wave(0, true, 0, 0, low, !0);
        for &isa in &isas {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            assert_eq!(jit.native, jit.reachable, "{index:?}: translated");
            let (rb, wb, mb) = run(&mut m, &init, &prog, &warm, w0, Some(&jit));
            let ctx = format!("{isa:?}, {index:?}, {what}");
            assert_eq!(ra, rb, "{ctx}");
            assert_eq!(first_difference(&wb, &wa, 0..256), None, "{ctx}");
            assert!(ma == mb, "{ctx}: memory differs");
        }
    }
}

/// A wave of a 2-D work-group `r` lanes wide: x = l % r, y = 3 + l / r (its flag `rows`),
/// s9 = 5 added to y, s12 = `stride` elements per row, s8 = `add` to x, the array at `base`.
fn rows_wave(r: usize, rows: u8, add: u32, stride: u32, base: u64) -> Wave {
    let mut w = wave(0, false, add, 0, base, !0);
    w.v[0] = std::array::from_fn(|l| (l % r) as u32);
    w.v[1] = std::array::from_fn(|l| 3 + (l / r) as u32);
    w.s[9] = 5;
    w.s[12] = stride;
    w.lin_rows = rows;
    w
}

/// Accesses linear along the rows of a 2-D work-group (`(y + s9) * s12 + x + s8`): rows
/// apart, overlapping, identical and descending; rows of 16, 32 and 8; a flag that is clear;
/// an index that wraps within a row; a row across a 4 GiB boundary, with and without a
/// wrap of a zero-extended byte offset there; rows past the buffer's end; lanes inactive
/// from the start and at the access only, among them each row's first (a 2-D grid's left
/// edge: stale addresses where a group's base would be read). Compiled for a kernel with y ids (the rows path)
/// and without (the stub): both as the interpreter.
#[test]
fn lane_linear_rows_accesses_are_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let Some(mut m) = Wide::new() else {
        panic!("no free address range for the test's mappings");
    };
    let mut r = Rng(44);
    let init: Vec<u8> = (0..5 * LEN).map(|_| r.next() as u8).collect();
    let (start, low) = (m.start, m.start + 0x40);
    let across = start + (1 << 32) - 32;
    // Row 0 of the rows 256 bytes apart 128 bytes before the end, the others past it.
    let past = start + APART + LEN as u64 - 640;
    let exec = |mut w: Wave, e: u64| {
        w.set_exec(e);
        w
    };
    let exec_at_access = |mut w: Wave, e: u64| {
        w.s[20] = e as u32;
        w.s[21] = (e >> 32) as u32;
        w
    };
    use Index::{Rows, RowsBytes, RowsExec};
    let cases: Vec<(Index, &str, Wave)> = vec![
        (Rows, "rows of 16 apart", rows_wave(16, 16, 0, 64, low)),
        (Rows, "rows of 32 apart", rows_wave(32, 32, 7, 100, low)),
        (Rows, "rows of 16, the same", rows_wave(16, 16, 3, 0, low)),
        (Rows, "rows of 16 overlapping", rows_wave(16, 16, 0, 8, low)),
        (
            Rows,
            "rows of 16 descending",
            rows_wave(16, 16, 400, (-20i32) as u32, low),
        ),
        (Rows, "rows of 8", rows_wave(8, 8, 0, 64, low)),
        (Rows, "rows of 16, flag clear", rows_wave(16, 0, 0, 64, low)),
        (
            Rows,
            "index wrapping past 2^32 in each row",
            rows_wave(16, 16, 0xffff_fff8, 0, low),
        ),
        (Rows, "a row across 4 GiB", rows_wave(16, 16, 0, 0, across)),
        (Rows, "rows past the end", rows_wave(16, 16, 0, 16, past)),
        (
            Rows,
            "a lane inactive",
            exec(rows_wave(16, 16, 0, 64, low), !(1 << 20)),
        ),
        (
            RowsExec,
            "a lane inactive at the access",
            exec_at_access(rows_wave(16, 16, 0, 64, low), !(1 << 20)),
        ),
        (
            RowsExec,
            "all lanes active at the access",
            rows_wave(16, 16, 0, 64, low),
        ),
        (
            Rows,
            "each row's first lane inactive",
            exec(rows_wave(16, 16, 0, 64, low), ROW_STARTS_OFF),
        ),
        (
            Rows,
            "a group's first three lanes and a whole group inactive",
            exec(rows_wave(16, 16, 0, 64, low), !0b111 & !(0xff << 24)),
        ),
        (
            RowsExec,
            "each row's first lane inactive at the access",
            exec_at_access(rows_wave(16, 16, 0, 64, low), ROW_STARTS_OFF),
        ),
        (RowsBytes, "byte offsets", rows_wave(16, 16, 0, 64, low)),
        // (Lanes 4-15 of each row at the array's start, lanes 0-3 inactive: their offsets
        // wrap to the top of the 4 GiB, so a row base taken from lane 4 would wrap too.)
        (
            RowsBytes,
            "byte offsets wrapping before each row's first active lane",
            exec(
                rows_wave(16, 16, 0x3fff_fffc, 0, start),
                !0xf_000f_000f_000f,
            ),
        ),
        // (A byte offset wrapping past 2^32 from a 4 GiB-aligned base: the row's last
        // address has the first's high dword, 60 bytes below it.)
        (
            RowsBytes,
            "byte offsets wrapping past 2^32 at a 4 GiB boundary",
            rows_wave(16, 16, 0x3fff_fff8, 0, start),
        ),
    ];
    // (Its y ids within the mappings: the range between them is claimed but not mapped.)
    let warm = rows_wave(16, 16, 0, 0, low);
    for (index, what, w0) in &cases {
        let prog = kernel(*index);
        let (ra, wa, ma) = run(&mut m, &init, &prog, w0, w0, None);
        for &isa in &isas {
            for ids in [0, 1] {
                let jit = JitCode::compile_kernel(&prog, 0, false, false, isa, ids, None)
                    .expect("compiles");
                assert_eq!(jit.native, jit.reachable, "translated");
                let (rb, wb, mb) = run(&mut m, &init, &prog, &warm, w0, Some(&jit));
                let ctx = format!("{isa:?}, y ids {ids}, {what}");
                assert_eq!(ra, rb, "{ctx}");
                // (A fault's report names no registers: see `tests_mem`.)
                let mut wb = wb;
                if ra.is_err() {
                    for r in super::tests_mem::maybe_unwritten(&prog) {
                        wb.v[usize::from(r)] = wa.v[usize::from(r)];
                    }
                }
                assert_eq!(first_difference(&wb, &wa, 0..256), None, "{ctx}");
                assert!(ma == mb, "{ctx}: memory differs");
            }
        }
    }
}

/// EXEC without lane 0 of each row of 16 (a 2-D grid's left edge).
const ROW_STARTS_OFF: u64 = !0x0001_0001_0001_0001;

/// The analysis proves the accesses of the kernels above linear (else the test above would
/// not reach the path it is about), and nothing of a kernel that indexes by a loaded value.
#[test]
fn the_analysis_finds_the_linear_accesses() {
    for index in [
        Index::Zext,
        Index::Sext,
        Index::PartialAdd,
        Index::ShiftOr,
        Index::Saddr,
    ] {
        let prog = kernel(index);
        let plan = super::plan::Plan::new(&prog, 0, false, false);
        let lin = super::lane_linear::analyse(&prog, &plan);
        let at = |t: &str| {
            (0..prog.slots.len() as u32)
                .find(|&i| prog.text(i).to_string().starts_with(t))
                .expect("in the program")
        };
        let (load, store) = (at("global_load"), at("global_store"));
        assert_eq!(lin.accesses, vec![load, store], "{index:?}");
    }
    // Rows: linear only where the waves start with y ids (the same along each row).
    for (index, ids) in [Index::Rows, Index::RowsExec, Index::RowsBytes]
        .into_iter()
        .flat_map(|x| [(x, 0), (x, 1)])
    {
        let prog = kernel(index);
        let mut plan = super::plan::Plan::new(&prog, 0, false, false);
        plan.ids = ids;
        let lin = super::lane_linear::analyse(&prog, &plan);
        assert_eq!(
            lin.accesses.len(),
            2 * usize::from(ids),
            "{index:?}, y ids {ids}"
        );
        assert_eq!(lin.rows, ids > 0);
    }
    // The id's value replaced by a loaded one: nothing is known of the address.
    let prog = program(&[
        (
            "global_load_dword v0, v[2:3], off",
            &[0xdc50_8000, 0x007f_0002],
        ),
        ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
        ("v_mov_b32_e32 v1, 0", &[0x7e02_0280]),
        (
            "v_lshlrev_b64 v[0:1], 2, v[0:1]",
            &[0xd28f_0000, 0x0002_0082],
        ),
        (
            "global_load_dword v4, v[0:1], off",
            &[0xdc50_8000, 0x047f_0000],
        ),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let plan = super::plan::Plan::new(&prog, 0, false, false);
    assert!(super::lane_linear::analyse(&prog, &plan)
        .accesses
        .is_empty());
}

/// LDS dword reads and writes at lane-linear addresses (`4 * id + s8`), with all lanes and
/// with some inactive, in range, unaligned, partly out of range and wrapping: registers and
/// LDS as the interpreter leaves them.
#[test]
fn lane_linear_lds_accesses_are_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = program(&[
        ("v_lshlrev_b32_e32 v1, 2, v0", &[0x2402_0082]),
        ("v_add_u32_e32 v1, s8, v1", &[0x6802_0208]),
        ("s_mov_b64 exec, s[20:21]", &[0xbefe_0114]),
        ("ds_write_b32 v1, v2 offset:16", &[0xd81a_0010, 0x0000_0201]),
        ("ds_read_b32 v3, v1 offset:32", &[0xd86c_0020, 0x0300_0001]),
        (
            "ds_read2_b32 v[4:5], v1 offset0:1 offset1:70",
            &[0xd86e_4601, 0x0400_0001],
        ),
        (
            "ds_read2_b32 v[1:2], v1 offset1:3",
            &[0xd86e_0300, 0x0100_0001],
        ),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let plan = super::plan::Plan::new(&prog, 0, false, false);
    assert_eq!(
        super::lane_linear::analyse(&prog, &plan).accesses,
        vec![3, 4, 5, 6],
        "the LDS accesses are proven linear"
    );
    const LDS: usize = 2048;
    let mut r = Rng(47);
    let lds_init: Vec<u8> = (0..LDS).map(|_| r.next() as u8).collect();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    for add in [0u32, 1024, 2, 1800, 0xffff_ff00] {
        for (exec, lin) in [(!0u64, true), (0xffff_0000_f0f0_fff1, true), (!0, false)] {
            let mut w0 = wave(0, lin, add, 0, 0, exec);
            w0.v[0] = std::array::from_fn(|l| l as u32);
            if !lin {
                // Ids that do not count up (their flag says so).
                w0.v[0].swap(3, 40);
            }
            let what = format!("s8 {add:#x}, EXEC {exec:#x}, one row {lin}");
            let a = super::tests_mem::run(&prog, &w0, &mut buf, &init, LDS, &lds_init, None);
            for &isa in &isas {
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                let b =
                    super::tests_mem::run(&prog, &w0, &mut buf, &init, LDS, &lds_init, Some(&jit));
                assert_eq!(a.r, b.r, "{isa:?} {what}");
                assert_eq!(first_difference(&b.w, &a.w, 0..256), None, "{isa:?} {what}");
                assert!(a.lds == b.lds, "{isa:?} {what}: LDS differs");
            }
        }
    }
}

/// LDS reads and writes of a 2-D kernel: through `64 * y + s8` (the same along each row),
/// `64 * y + s8 + 4 * x` (linear) and `(0x400 | 4 * x) + s9` (linear only where x < 256:
/// proven for rows of 16-32 lanes), in rows of 16, 32 and 8, a clear flag and a wave of one
/// row whose x ids cross 256 inside a group of 16 lanes (`0x400 | 4 * x` is not linear
/// there); in range, unaligned, partly out of range; all lanes and some inactive. Registers
/// and LDS as the interpreter leaves them, with the kernel compiled with y ids (the rows
/// paths) and without.
#[test]
fn lane_linear_lds_rows_accesses_are_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = program(&[
        ("v_lshlrev_b32_e32 v3, 6, v1", &[0x2406_0286]),
        ("v_add_u32_e32 v3, s8, v3", &[0x6806_0608]),
        ("v_lshlrev_b32_e32 v4, 2, v0", &[0x2408_0082]),
        ("v_or_b32_e32 v4, 0x400, v4", &[0x2808_08ff, 0x0000_0400]),
        ("v_add_u32_e32 v4, s9, v4", &[0x6808_0809]),
        ("v_lshlrev_b32_e32 v9, 2, v0", &[0x2412_0082]),
        ("v_add_u32_e32 v9, v3, v9", &[0x6812_1303]),
        ("s_mov_b64 exec, s[20:21]", &[0xbefe_0114]),
        ("ds_write_b32 v4, v2 offset:16", &[0xd81a_0010, 0x0000_0204]),
        (
            "ds_write_b32 v9, v11 offset:512",
            &[0xd81a_0200, 0x0000_0b09],
        ),
        (
            "ds_read2_b32 v[5:6], v3 offset0:1 offset1:9",
            &[0xd86e_0901, 0x0500_0003],
        ),
        ("ds_read_b32 v7, v4 offset:32", &[0xd86c_0020, 0x0700_0004]),
        ("ds_read_b32 v8, v3", &[0xd86c_0000, 0x0800_0003]),
        ("ds_read_b32 v10, v9 offset:4", &[0xd86c_0004, 0x0a00_0009]),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    // What the analysis proves, with y ids and without.
    for ids in [0, 1] {
        let mut plan = super::plan::Plan::new(&prog, 0, false, false);
        plan.ids = ids;
        let lin = super::lane_linear::analyse(&prog, &plan);
        let got = [&lin.accesses, &lin.same, &lin.narrow, &lin.narrow_same];
        let want: [&[u32]; 4] = match ids {
            0 => [&[], &[], &[], &[]],
            _ => [&[9, 13], &[10, 12], &[8, 11], &[]],
        };
        assert_eq!(got, want.map(|w| w.to_vec()).each_ref(), "y ids {ids}");
    }
    const LDS: usize = 4096;
    let mut r = Rng(48);
    let lds_init: Vec<u8> = (0..LDS).map(|_| r.next() as u8).collect();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    // (row length, flag, first x id)
    let shapes = [
        (16, 16, 0),
        (32, 32, 0),
        (8, 8, 0),
        (16, 0, 0),
        (64, 64, 232),
    ];
    for (width, flag, x0) in shapes {
        for (s8, s9) in [(0u32, 0u32), (100, 8), (2, 6), (3900, 0), (0, 2800)] {
            for exec in [!0u64, 0xffff_0000_f0f0_fff1] {
                let mut w0 = wave(0, false, s8, 0, 0, exec);
                w0.v[0] = std::array::from_fn(|l| x0 + (l % width) as u32);
                w0.v[1] = std::array::from_fn(|l| 1 + (l / width) as u32);
                w0.s[9] = s9;
                w0.lin_rows = flag;
                let what =
                    format!("rows of {width}, flag {flag}, s8 {s8}, s9 {s9}, EXEC {exec:#x}");
                let a = super::tests_mem::run(&prog, &w0, &mut buf, &init, LDS, &lds_init, None);
                for &isa in &isas {
                    for ids in [0, 1] {
                        let jit = JitCode::compile_kernel(&prog, 0, false, false, isa, ids, None)
                            .expect("compiles");
                        let b = super::tests_mem::run(
                            &prog,
                            &w0,
                            &mut buf,
                            &init,
                            LDS,
                            &lds_init,
                            Some(&jit),
                        );
                        let ctx = format!("{isa:?}, y ids {ids}, {what}");
                        assert_eq!(a.r, b.r, "{ctx}");
                        assert_eq!(first_difference(&b.w, &a.w, 0..256), None, "{ctx}");
                        assert!(a.lds == b.lds, "{ctx}: LDS differs");
                    }
                }
            }
        }
    }
}

/// Compares of the index `id + s8` against a uniform bound (`lane_prefix.rs`): unsigned and
/// signed, each condition, the index on either side, bounds in SGPRs, constants and a
/// uniform VGPR; bounds below, at, inside and past the wave's span; indexes at the largest
/// value that does not wrap within the wave and past it, negative ones; ids that do not
/// count up (a clear flag); lanes inactive at the compares (EXEC = s[20:21] after the index
/// is computed). Each compare in a block of its own (`s_branch 0`), so it ends its segment.
/// Every mask (and register) as the interpreter leaves it.
#[test]
fn prefix_compares_are_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let prog = program(&[
        ("v_add_u32_e32 v1, s8, v0", &[0x6802_0008]),
        ("s_mov_b64 exec, s[20:21]", &[0xbefe_0114]),
        ("v_cmp_gt_u32_e32 vcc, s9, v1", &[0x7d98_0209]),
        ("s_branch 0", &[0xbf82_0000]),
        (
            "v_cmp_lt_u32_e64 s[0:1], v1, s9",
            &[0xd0c9_0000, 0x0000_1301],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        (
            "v_cmp_le_i32_e64 s[2:3], v1, s9",
            &[0xd0c3_0002, 0x0000_1301],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        (
            "v_cmp_ge_i32_e64 s[4:5], s9, v1",
            &[0xd0c6_0004, 0x0002_0209],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        (
            "v_cmp_gt_i32_e64 s[6:7], v1, 17",
            &[0xd0c4_0006, 0x0001_2301],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        (
            "v_cmp_ge_u32_e64 s[10:11], v1, s9",
            &[0xd0ce_000a, 0x0000_1301],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        ("v_mov_b32_e32 v3, s9", &[0x7e06_0209]),
        (
            "v_cmp_lt_u32_e64 s[12:13], v1, v3",
            &[0xd0c9_000c, 0x0002_0701],
        ),
        ("s_branch 0", &[0xbf82_0000]),
        (
            "v_cmp_le_u32_e64 s[14:15], s9, v1",
            &[0xd0cb_000e, 0x0002_0209],
        ),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let plan = super::plan::Plan::new(&prog, 0, false, false);
    let lin = super::lane_linear::analyse(&prog, &plan);
    let want: Vec<(u32, bool)> = vec![
        (2, true),
        (4, false),
        (6, false),
        (8, true),
        (10, false),
        (12, false),
        (15, false),
        (17, true),
    ];
    assert_eq!(lin.prefix, want, "the compares are found");
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let mut cases: Vec<(u32, u32)> = Vec::new();
    // (s8: lane 0's index minus 64, s9: the bound)
    for first in [0u32, 1000, u32::MAX - 63, u32::MAX - 62, u32::MAX - 5] {
        for d in [-100i64, -1, 0, 1, 17, 63, 64, 65, 5000] {
            cases.push((first.wrapping_sub(64), (i64::from(first) + d) as u32));
        }
    }
    for first in [i32::MAX - 63, i32::MAX - 62, -30, i32::MIN, -64] {
        for d in [-70i64, -1, 0, 1, 31, 64, 65] {
            let bound = (i64::from(first) + d) as i32;
            cases.push(((first as u32).wrapping_sub(64), bound as u32));
        }
    }
    for (s8, s9) in cases {
        for (exec, lin) in [(!0u64, true), (0xffff_0000_f0f0_fff1, true), (!0, false)] {
            let mut w0 = wave(64, lin, s8, 0, 0, exec);
            if !lin {
                // Ids that do not count up (their flag says so).
                w0.v[0].swap(3, 40);
            }
            w0.s[9] = s9;
            let what = format!("s8 {s8:#x}, s9 {s9:#x}, EXEC {exec:#x}, one row {lin}");
            let a = super::tests_mem::run(&prog, &w0, &mut buf, &init, 0, &[], None);
            for &isa in &isas {
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                let b = super::tests_mem::run(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit));
                assert_eq!(a.r, b.r, "{isa:?} {what}");
                assert_eq!(first_difference(&b.w, &a.w, 0..256), None, "{isa:?} {what}");
            }
        }
    }
}

/// `z[i] = x[i] + y[i]` as clang compiles it, each array's 64-bit address in a pair that only
/// its access reads (x at s[10:11], y at s[12:13], z at s[14:15]; the index the id plus s8),
/// the pairs and the carry replaced at the end: each segment leaves its address out of a full
/// wave's middle chunks (`addr_defer.rs`).
/// `x[i]` as clang-15 compiles it for gfx900 from the index in v0: widened to 64 bits, shifted,
/// added to s[10:11] and loaded into v4 (saxpy's first load; `addr_defer.rs` tests it too).
pub(super) const FIRST_LOAD: &[(&str, &[u32])] = &[
    ("v_mov_b32_e32 v1, 0", &[0x7e02_0280]),
    (
        "v_lshlrev_b64 v[0:1], 2, v[0:1]",
        &[0xd28f_0000, 0x0002_0082],
    ),
    ("v_mov_b32_e32 v3, s11", &[0x7e06_020b]),
    ("v_add_co_u32_e32 v2, vcc, s10, v0", &[0x3204_000a]),
    ("v_addc_co_u32_e32 v3, vcc, v3, v1, vcc", &[0x3806_0303]),
    (
        "global_load_dword v4, v[2:3], off",
        &[0xdc50_8000, 0x047f_0002],
    ),
];

pub(super) fn streams() -> Program {
    let mut lines = vec![("v_add_u32_e32 v0, s8, v0", &[0x6800_0008u32][..])];
    lines.extend_from_slice(FIRST_LOAD);
    lines.extend_from_slice(&[
        ("v_mov_b32_e32 v3, s13", &[0x7e06_020d]),
        ("v_add_co_u32_e32 v2, vcc, s12, v0", &[0x3204_000c]),
        ("v_addc_co_u32_e32 v3, vcc, v3, v1, vcc", &[0x3806_0303]),
        (
            "global_load_dword v2, v[2:3], off",
            &[0xdc50_8000, 0x027f_0002],
        ),
        ("v_mov_b32_e32 v3, s15", &[0x7e06_020f]),
        ("v_add_co_u32_e32 v0, vcc, s14, v0", &[0x3200_000e]),
        ("v_addc_co_u32_e32 v1, vcc, v3, v1, vcc", &[0x3802_0303]),
        ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
        ("v_add_u32_e32 v2, v4, v2", &[0x6804_0504]),
        (
            "global_store_dword v[0:1], v2, off",
            &[0xdc70_8000, 0x007f_0200],
        ),
        ("v_mov_b32_e32 v0, 7", &[0x7e00_0287]),
        ("v_mov_b32_e32 v1, 7", &[0x7e02_0287]),
        ("v_mov_b32_e32 v3, 7", &[0x7e06_0287]),
        ("s_mov_b64 vcc, 0", &[0xbeea_0180]),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    program(&lines)
}

/// [`streams`]'s wave: ids from `first` (`lin`: one row), s8 = `add`, x at `base`, y and z
/// 1 KiB and 2 KiB above it.
fn streams_wave(first: u32, lin: bool, add: u32, base: u64) -> Wave {
    let mut w = wave(first, lin, add, 0, base, !0);
    for (k, b) in [(12, base + 0x400), (14, base + 0x800)] {
        w.s[k] = b as u32;
        w.s[k + 1] = (b >> 32) as u32;
    }
    w
}

/// Addresses left out of a full wave's middle chunks (`addr_defer.rs`): where the access
/// takes its fast path, and wherever it does not (the segment's middle chunks completed
/// first), the registers, memory and fault are the interpreter's.
#[test]
fn deferred_addresses_are_exact_on_every_path_of_their_access() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let Some(mut m) = Wide::new() else {
        panic!("no free address range for the test's mappings");
    };
    let mut r = Rng(47);
    let init: Vec<u8> = (0..5 * LEN).map(|_| r.next() as u8).collect();
    let low = m.start + 0x40;
    let prog = streams();
    let mut cases = vec![
        ("linear: the fast path", streams_wave(64, true, 128, low)),
        ("linear ids, flag clear", streams_wave(64, false, 128, low)),
        ("ids not counting up", {
            let mut w = streams_wave(64, true, 128, low);
            w.v[0].swap(3, 40);
            w.lin_rows = 0;
            w
        }),
        // Lanes 0-15 at the high mapping, 16-63 2^34 bytes below.
        (
            "an index wrapping past 2^32",
            streams_wave(0, true, 0xffff_fff0, low),
        ),
        ("a partial wave", {
            let mut w = streams_wave(64, true, 128, low);
            w.set_exec(!0 ^ 1 << 17);
            w
        }),
        // Past every mapping the checker was told of: x's load faults.
        (
            "a fault",
            streams_wave(64, true, 128, m.start + APART + 4 * LEN as u64),
        ),
    ];
    // z's store faults after both loads.
    let mut w = streams_wave(64, true, 128, low);
    let z = m.start + APART + 4 * LEN as u64;
    w.s[14] = z as u32;
    w.s[15] = (z >> 32) as u32;
    cases.push(("the store faults", w));
    let warm = streams_wave(0, true, 0, low);
    for (what, w0) in &cases {
        let (ra, wa, ma) = run(&mut m, &init, &prog, w0, w0, None);
        for &isa in &isas {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            assert_eq!(jit.native, jit.reachable, "translated");
            let (rb, mut wb, mb) = run(&mut m, &init, &prog, &warm, w0, Some(&jit));
            let ctx = format!("{isa:?}, {what}");
            assert_eq!(ra, rb, "{ctx}");
            // (A fault's report names no registers, as in `tests_mem`: lane masks and VGPRs
            // the rest of the block would have replaced may keep older values.)
            if ra.is_err() {
                for m in super::tests_mem::mask_outputs(&prog) {
                    for r in [m, m + 1] {
                        wb.s[usize::from(r)] = wa.s[usize::from(r)];
                    }
                }
                for r in super::tests_mem::maybe_unwritten(&prog) {
                    wb.v[usize::from(r)] = wa.v[usize::from(r)];
                }
            }
            assert_eq!(first_difference(&wb, &wa, 0..256), None, "{ctx}");
            assert!(ma == mb, "{ctx}: memory differs");
        }
    }
}

/// Scattered accesses through address pairs (`mem_gather32.rs`, `uniform_high`;
/// `mem_gather64.rs`): lanes permuted and repeated within one 4 GiB (the offsets path:
/// dword gathers and scatters, or AVX2's gathers), the same with inactive lanes whose high
/// dwords differ, lanes on both sides of a 4 GiB boundary (the general path), a store whose
/// offset carries its lanes across that boundary, few active lanes, and one address for
/// every active lane (loaded once); for a dword per lane and for two (elements 8 bytes
/// apart, and 4: some lanes not 8-byte aligned, the general path); as the interpreter,
/// registers and memory.
#[test]
fn scattered_address_pairs_are_exact() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let Some(mut m) = Wide::new() else {
        panic!("no free address range for the test's mappings");
    };
    let mut r = Rng(46);
    let init: Vec<u8> = (0..5 * LEN).map(|_| r.next() as u8).collect();
    let dword = program(&[
        (
            "global_load_dword v4, v[2:3], off",
            &[0xdc50_8000, 0x047f_0002][..],
        ),
        ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
        ("v_add_u32_e32 v4, v5, v4", &[0x6808_0905]),
        (
            "global_store_dword v[2:3], v4, off offset:256",
            &[0xdc70_8100, 0x007f_0402],
        ),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let qword = program(&[
        (
            "global_load_dwordx2 v[4:5], v[2:3], off",
            &[0xdc54_8000, 0x047f_0002][..],
        ),
        ("s_waitcnt vmcnt(0)", &[0xbf8c_0f70]),
        ("v_add_u32_e32 v4, v6, v4", &[0x6808_0906]),
        (
            "global_store_dwordx2 v[2:3], v[4:5], off offset:256",
            &[0xdc74_8100, 0x007f_0402],
        ),
        ("s_endpgm", &[0xbf81_0000]),
    ]);
    let (low, boundary) = (m.start + 0x40, m.start + (1 << 32));
    // A wave whose lane l is at `at(l)` under `exec`.
    let lanes = |at: &dyn Fn(u64) -> u64, exec: u64| {
        let mut w = wave(0, false, 0, 0, low, !0);
        for l in 0..64 {
            let a = at(l as u64);
            w.v[2][l] = a as u32;
            w.v[3][l] = (a >> 32) as u32;
        }
        w.set_exec(exec);
        w
    };
    // Elements `e` bytes apart.
    let cases = |e: u64| -> Vec<(&str, Wave)> {
        vec![
            ("permuted", lanes(&|l| low + e * ((l * 37) % 64), !0)),
            (
                "repeated (the highest lane's store stays)",
                lanes(&|l| low + e * ((l * 7) % 23), !0),
            ),
            (
                "inactive lanes 16 GiB away",
                lanes(
                    &|l| {
                        if l % 3 == 0 {
                            low + APART + e * l
                        } else {
                            low + e * ((l * 37) % 64)
                        }
                    },
                    !0x9249_2492_4924_9249,
                ),
            ),
            (
                "on both sides of 4 GiB",
                lanes(&|l| boundary - 32 * e + e * ((l * 37) % 64), !0),
            ),
            (
                "a store carried across 4 GiB by its offset",
                lanes(&|l| boundary - 64 * e + e * ((l * 37) % 64), !0),
            ),
            (
                "five lanes",
                lanes(&|l| low + e * ((l * 37) % 64), 0x8000_0100_0010_0101),
            ),
            ("one address", lanes(&|_| low + 1000, !0)),
            (
                "one address, the inactive lanes elsewhere",
                lanes(
                    &|l| low + if l % 5 == 2 { e * l } else { 1000 },
                    (0..64).filter(|l| l % 5 != 2).fold(0, |x, l| x | 1 << l),
                ),
            ),
        ]
    };
    let runs = [
        (&dword, 4, "dword"),
        (&qword, 8, "two dwords"),
        (&qword, 4, "two dwords 4 apart"),
    ];
    for (prog, e, kind) in runs {
        let warm = lanes(&|l| low + e * l, !0);
        for (what, w0) in &cases(e) {
            let (ra, wa, ma) = run(&mut m, &init, prog, w0, w0, None);
            assert!(ra.is_ok(), "{kind}, {what}: {ra:?}");
            for &isa in &isas {
                let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
                assert_eq!(jit.native, jit.reachable, "translated");
                let (rb, wb, mb) = run(&mut m, &init, prog, &warm, w0, Some(&jit));
                let ctx = format!("{isa:?}, {kind}, {what}");
                assert_eq!(ra, rb, "{ctx}");
                assert_eq!(first_difference(&wb, &wa, 0..256), None, "{ctx}");
                assert!(ma == mb, "{ctx}: memory differs");
            }
        }
    }
}
