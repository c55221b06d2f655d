//! The JIT against the interpreter on memory instructions: random sequences of global, flat,
//! scratch (MUBUF), scalar and LDS loads and stores of bytes, shorts and 1 to 4 dwords (with
//! address patterns that are consecutive, strided,
//! scattered, uniform, misaligned and partly out of range) mixed with VALU address arithmetic,
//! run by both engines on the same memory; registers, memory, LDS and the fault (kind, pc,
//! lane, address) must be bit-identical.

use super::tests::{isas, random_wave, Rig, Rng};
use super::{first_difference, run_code, JitCode};
use crate::exec::ExecFault;
use crate::memory::{Checker, MemCache};
use crate::program::{Program, Slot};
use crate::wave::Wave;
use crate::MemoryMap;
use std::ops::Range;

/// Bytes of the test buffer.
pub(super) const BUF: usize = 1 << 16;

/// A memory map of one valid range (the tests' buffer).
pub(super) struct OneBuffer(pub Range<u64>);
impl MemoryMap for OneBuffer {
    fn lookup(&self, addr: u64, len: u64) -> Option<Range<u64>> {
        let end = addr.checked_add(len)?;
        (addr >= self.0.start && end <= self.0.end).then(|| self.0.clone())
    }
}

/// The SGPR pairs the program's lane instructions write as lane masks.
pub(super) fn mask_outputs(prog: &Program) -> Vec<u8> {
    prog.slots
        .iter()
        .filter_map(|s| match s {
            Slot::Ok(x) => match super::select::select(x, false) {
                Some(super::select::Kind::Lane(li)) => li.mask_out,
                _ => None,
            },
            Slot::Illegal(_) => None,
        })
        .collect()
}

/// The VGPRs the JIT may leave unwritten in `prog` where the block replaces them
/// ([`super::vgpr_dead::maybe_unwritten`]): a wave that faults may end with older values there.
pub(super) fn maybe_unwritten(prog: &Program) -> Vec<u8> {
    super::vgpr_dead::maybe_unwritten(&super::plan::Plan::new(prog, 0, false, false))
}

/// What a run left: how it stopped, the wave, the buffer and the LDS.
pub(super) struct Outcome {
    pub r: Result<(), ExecFault>,
    pub w: Wave,
    pub mem: Vec<u8>,
    pub lds: Vec<u8>,
}

pub(super) fn run(
    prog: &Program,
    w0: &Wave,
    buf: &mut [u8],
    init: &[u8],
    lds_size: usize,
    lds_init: &[u8],
    code: Option<&JitCode>,
) -> Outcome {
    let mut fresh = Carry::default();
    run_cached(prog, w0, buf, init, lds_size, lds_init, code, &mut fresh)
}

/// What a worker keeps from one work-group to the next: the proven ranges (with the JIT's
/// site hints) and its scratch backing (empty: none).
#[derive(Default)]
pub(super) struct Carry {
    pub cache: MemCache,
    pub scratch: Range<u64>,
    /// The dispatch's private segment size per work-item (FLAT accesses to scratch).
    pub private_size: u32,
}

/// [`run`], starting from what `carry` holds and leaving the run's proven ranges there.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_cached(
    prog: &Program,
    w0: &Wave,
    buf: &mut [u8],
    init: &[u8],
    lds_size: usize,
    lds_init: &[u8],
    code: Option<&JitCode>,
    carry: &mut Carry,
) -> Outcome {
    buf.copy_from_slice(init);
    let base = buf.as_ptr() as u64;
    let map = OneBuffer(base..base + buf.len() as u64);
    let mut rig = Rig::new(lds_size);
    // SAFETY: the LDS has `lds_size` bytes (plus slack); `lds_init` is as long.
    unsafe { std::ptr::copy_nonoverlapping(lds_init.as_ptr(), rig.lds.as_mut_ptr(), lds_size) };
    let mut w = w0.clone();
    let r = {
        let mem =
            Checker::new(&map, carry.scratch.clone()).with_cache(std::mem::take(&mut carry.cache));
        let mut cx = rig.cx(prog, mem, carry.private_size);
        let r = match code {
            Some(c) => run_code(&mut w, &mut cx, c),
            None => crate::exec::run(&mut w, &mut cx),
        };
        carry.cache = cx.mem.take_cache();
        r
    };
    let mut l = vec![0u8; lds_size];
    // SAFETY: as above.
    unsafe { std::ptr::copy_nonoverlapping(rig.lds.as_mut_ptr(), l.as_mut_ptr(), lds_size) };
    Outcome {
        r,
        w,
        mem: buf.to_vec(),
        lds: l,
    }
}

pub(super) fn ds(
    op: u32,
    addr: u32,
    d0: u32,
    d1: u32,
    vdst: u32,
    off0: u32,
    off1: u32,
) -> [u32; 2] {
    [
        0x36 << 26 | op << 17 | off1 << 8 | off0,
        vdst << 24 | d1 << 16 | d0 << 8 | addr,
    ]
}

/// A global (seg 2) or flat (seg 0) op; `saddr` 0x7f = off.
pub(super) fn flat(
    op: u32,
    seg: u32,
    addr: u32,
    data: u32,
    saddr: u32,
    vdst: u32,
    off: i32,
) -> [u32; 2] {
    let off = (off as u32) & if seg == 2 { 0x1fff } else { 0xfff };
    [
        0x37 << 26 | op << 18 | seg << 14 | off,
        vdst << 24 | saddr << 16 | data << 8 | addr,
    ]
}

/// A MUBUF op (`buffer_load_dword` 0x14, `buffer_store_dword` 0x1c) through the V# at
/// s[4*rsrc..], with a per-lane VGPR offset (OFFEN) or none.
pub(super) fn mubuf(
    op: u32,
    offen: bool,
    vaddr: u32,
    vdata: u32,
    rsrc: u32,
    soffset: u32,
    off: u32,
) -> [u32; 2] {
    [
        0x38 << 26 | op << 18 | u32::from(offen) << 12 | (off & 0xfff),
        soffset << 24 | rsrc << 16 | vdata << 8 | vaddr,
    ]
}

/// `s_load_dword*` (op 0..4 = x1..x16) with an immediate offset.
fn smem(op: u32, sdata: u32, sbase: u32, off: u32) -> [u32; 2] {
    [
        0x30 << 26 | op << 18 | 1 << 17 | sdata << 6 | (sbase / 2),
        off & 0xf_ffff,
    ]
}

/// One random memory instruction over data VGPRs v0..v7, address registers v20..v23 and
/// SGPR bases s[10:11] (buffer) for saddr and scalar loads; MUBUF through the V# in s[12:15]
/// with soffset s16 or a constant and lane offsets in v24.
fn random_mem(r: &mut Rng) -> [u32; 2] {
    // Data registers, now and then the address registers themselves (a load that overwrites
    // its own address).
    let d = if r.next().is_multiple_of(8) {
        r.pick(&[20u32, 21, 22, 23])
    } else {
        (r.next() % 6) as u32
    };
    match r.next() % 16 {
        // v_add_u32 v23, k, v23: the LDS address register moves (classifications go stale).
        15 => [
            0x34 << 25 | 23 << 17 | 23 << 9 | r.pick(&[128u32, 132, 136, 192]),
            0,
        ],
        0..=3 if r.next().is_multiple_of(5) => {
            // A global atomic (`mem_atomic.rs`): swap .. dec, 32 or 64 bits, GLC or not
            // (vdst only with GLC: valid encodings), through a pair or `saddr`.
            let op = 0x40 + (r.next() % 13) as u32 + r.pick(&[0u32, 0x20]);
            let glc = r.next().is_multiple_of(2);
            let vdst = if glc { (d + 4) % 8 } else { 0 };
            let off = (r.next() % 16) as i32 * 8 - 64;
            let mut inst = match r.next() % 2 {
                0 => flat(op, 2, 22, d, 10, vdst, off),
                _ => flat(op, 2, 20, d, 0x7f, vdst, off),
            };
            inst[0] |= u32::from(glc) << 16;
            inst
        }
        0..=3 => {
            // global/flat load or store of 1, 2, 3 or 4 dwords, or of a byte or short (sign- or
            // zero-extended, or into one half of the register; stores from either half) at
            // an odd offset now and then
            let (ld, st) = r.pick(&[
                (0x14, 0x1c),
                (0x15, 0x1d),
                (0x16, 0x1e),
                (0x17, 0x1f),
                (0x10, 0x18),
                (0x11, 0x19),
                (0x12, 0x1a),
                (0x13, 0x1b),
                (0x21, 0x18),
                (0x22, 0x1a),
                (0x25, 0x1b),
            ]);
            let load = r.next().is_multiple_of(2);
            let op = if load { ld } else { st };
            let odd = if (0x14..=0x17).contains(&ld) {
                0
            } else {
                r.pick(&[0, 0, 1, 2, 3])
            };
            let off = (r.next() % 64) as i32 * 4 - 64 + odd;
            match r.next() % 3 {
                0 => flat(op, 2, 22, d, 10, d, off), // saddr + 32-bit offset
                // (FLAT's saddr field is 0: 0x7f does not decode.)
                1 => flat(op, 0, 20, d, 0, d, off.max(0)),
                _ => flat(op, 2, 20, d, 0x7f, d, off),
            }
        }
        4..=7 if r.next().is_multiple_of(4) => {
            // An LDS atomic (`mem_lds_atomic.rs`), 32 or 64 bits, with or without return;
            // data1 only where the op reads it, vdst only with return (valid encodings).
            let op = r.pick(&[
                0x00u32, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
                0x10,
            ]);
            let rtn = r.next().is_multiple_of(2);
            let op = op | u32::from(rtn) << 5 | ((r.next() % 2) as u32 * 0x40);
            let off = (r.next() % 64) as u32 * 4;
            let d1 = if matches!(op & 0x1f, 0x0c | 0x10) {
                (d + 2) % 8
            } else {
                0
            };
            ds(op, 23, d, d1, if rtn { (d + 4) % 8 } else { 0 }, off, 0)
        }
        4..=7 => {
            // LDS
            let (op, two) = r.pick(&[
                (0x36, false),
                (0x76, false),
                (0x37, true),
                (0x38, true),
                (0x77, true),
                (0x0d, false),
                (0x4d, false),
                (0x0e, true),
                (0x0f, true),
                (0x4e, true),
                (0x4f, true),
                (0x78, true),
                // bytes, shorts and their d16 forms; 3 and 4 dwords
                (0x3a, false),
                (0x39, false),
                (0x3c, false),
                (0x3b, false),
                (0x1e, false),
                (0x1f, false),
                (0x54, false),
                (0x55, false),
                (0x57, false),
                (0x58, false),
                (0x5a, false),
                (0x5b, false),
                (0xfe, false),
                (0xff, false),
                (0xde, false),
                (0xdf, false),
            ]);
            let (o0, o1) = if two {
                let o0 = (r.next() % 8) as u32;
                let any = (r.next() % 16) as u32;
                (o0, r.pick(&[o0 + 1, o0 + 2, any]))
            } else {
                let odd = if matches!(op, 0x1e | 0x1f | 0x39..=0x3c | 0x54..=0x5b) {
                    r.pick(&[0, 1, 2, 3])
                } else {
                    0
                };
                ((r.next() % 64) as u32 * 4 + odd, 0)
            };
            // (A read's data fields and a write's vdst are zero in valid encodings.)
            if matches!(op, 0x36..=0x3c | 0x56..=0x5b | 0x76..=0x78 | 0xfe | 0xff) {
                ds(op, 23, 0, 0, d, o0, o1)
            } else if two {
                ds(op, 23, d, (d + 2) % 8, 0, o0, o1)
            } else {
                ds(op, 23, d, 0, 0, o0, o1)
            }
        }
        12 | 13 => {
            // buffer_load/store_dword (or of a byte or short, d16 forms too), OFFEN or not,
            // soffset s16, 0 or 4; a byte offset now and then (the swizzle keeps its low two
            // bits). Half of them at offset 0 or 8 through s16: a load and a store of the same
            // element (a read-modify-write, `buf_reuse.rs`).
            let op = r.pick(&[
                0x14, 0x1c, 0x14, 0x1c, 0x10, 0x11, 0x12, 0x13, 0x18, 0x19, 0x1a, 0x1b, 0x20, 0x23,
                0x25,
            ]);
            let (off, soffset) = match r.next() % 2 {
                0 => (r.pick(&[0u32, 8]), 16),
                _ => (
                    (r.next() % 64) as u32 * 4 + r.pick(&[0u32, 0, 0, 1, 2]),
                    r.pick(&[16u32, 128, 132]),
                ),
            };
            mubuf(op, !r.next().is_multiple_of(4), 24, d, 3, soffset, off)
        }
        14 => {
            // v_writelane_b32 v[d], s-or-constant, lane s-or-constant (SGPR spills)
            let src0 = r.pick(&[0u32, 5, 16, 106, 128, 129, 200]);
            let lane = r.pick(&[1u32, 16, 128, 130, 191, 192, 193, 208]);
            [0x34 << 26 | 0x28a << 16 | d, src0 | lane << 9]
        }
        _ => {
            let op = (r.next() % 3) as u32;
            let sdata = 20 + 4 * (r.next() % 4) as u32;
            smem(op, sdata, 10, (r.next() % 1024) as u32 * 4)
        }
    }
}

/// Lane offsets for the MUBUF ops: one offset for all lanes, or one per lane, inside the
/// reach of a private V# over the buffer (4 KiB-aligned rows of 64 dwords), a few past it.
fn buffer_offsets(r: &mut Rng) -> [u32; 64] {
    let one = (r.next() % 768) as u32 & !3;
    let mut o = [0u32; 64];
    let kind = r.next() % 4;
    for v in o.iter_mut() {
        *v = match kind {
            0 | 1 => one,
            2 => (r.next() % 768) as u32 & !3,
            _ => (r.next() % 768) as u32,
        };
    }
    if r.next().is_multiple_of(8) {
        // A lane out of reach: past the buffer (a fault), or past the JIT's 2^24 limit.
        o[(r.next() % 64) as usize] = r.pick(&[1024u32, 1 << 24, u32::MAX - 8]);
    }
    o
}

/// Lane address offsets (bytes from a region's start, `limit` bytes long) in one of the
/// patterns real kernels produce, some a little out of range.
fn pattern(r: &mut Rng, limit: u64, size: u64) -> [u64; 64] {
    let start = (r.next() % (limit / 2)) & !7;
    let mut o = [0u64; 64];
    let kind = r.next() % 12;
    let stride = r.pick(&[4u64, 8, 12, 16, 32, 256]);
    for (l, v) in o.iter_mut().enumerate() {
        let l = l as u64;
        *v = match kind {
            0 | 1 => start + size * l,
            2 => start + stride * l,
            3 => start,
            4 => (r.next() % (limit - 16)) & !3,
            5 => start + size * l + 4, // consecutive but 4 mod 8
            6 => start + size * ((l * 7) % 64),
            // Rows of a 2-D work-group: consecutive within 16 (or 8) lanes.
            7 => start + size * (l % 16) + (limit / 8) * (l / 16),
            // Groups of 8 over the same 8 slots (stores: the highest lane wins).
            8 => start + size * (l % 8),
            // Bytes and shorts: consecutive bytes, odd addresses two apart.
            10 => start + l,
            11 => start + 2 * l + 1,
            _ => start + size * (l % 8) + 64 * size * (l / 8),
        };
    }
    if r.next().is_multiple_of(8) {
        // One lane past the end (a fault, or an out-of-range LDS access).
        let l = (r.next() % 64) as usize;
        o[l] = limit - size / 2 + (r.next() % 64) * 4;
    }
    o
}

#[test]
fn random_memory_sequences_match_the_interpreter() {
    let isas = isas();
    if isas.is_empty() {
        return;
    }
    let (seed, cases) = super::tests::fuzz_params(0x9e37_79b9_7f4a_7c15, 1500);
    let mut r = Rng(seed);
    let mut buf = vec![0u8; BUF];
    let (mut native, mut total, mut faults) = (0, 0, 0);
    let mut seen = std::collections::HashSet::new();
    for case in 0..cases {
        let mut code: Vec<u8> = Vec::new();
        let mut n = 0;
        let mut pending: Vec<[u32; 2]> = Vec::new();
        while n < 12 {
            let inst = if let Some(i) = pending.pop() {
                i
            } else if r.next().is_multiple_of(8) {
                // A scratch read-modify-write (`buf_reuse.rs`): a load, a lane op on its
                // data (or on anything), the store to the same element.
                let (d, off) = (r.next() as u32 % 8, r.pick(&[0u32, 4, 8]));
                let xor = [
                    0x15 << 25 | d << 17 | d << 9 | r.pick(&[0x80u32, 0x81, 0xc1]),
                    0,
                ];
                let between = match r.next() % 3 {
                    0 => super::tests::random_inst(&mut r),
                    _ => xor,
                };
                pending = vec![mubuf(0x1c, true, 24, d, 3, 16, off), between];
                mubuf(0x14, true, 24, d, 3, 16, off)
            } else if r.next().is_multiple_of(3) {
                super::tests::random_inst(&mut r)
            } else {
                random_mem(&mut r)
            };
            let bytes: Vec<u8> = inst.iter().flat_map(|d| d.to_le_bytes()).collect();
            let probe = Program::new(&bytes, 0);
            let Some(Slot::Ok(x)) = probe.slots.first() else {
                continue;
            };
            if !super::tests::fuzzable(x) {
                continue;
            }
            seen.insert(x.inst.op.name());
            code.extend_from_slice(&bytes[..usize::from(x.inst.len)]);
            n += 1;
        }
        code.extend_from_slice(&0xbf81_0000u32.to_le_bytes()); // s_endpgm
        let prog = Program::new(&code, 0x1000);
        // Wave: random registers, then addresses in the address registers.
        let base = buf.as_ptr() as u64;
        let mut w0 = random_wave(&mut r);
        let size = r.pick(&[4u64, 8, 16]);
        let lds_size = r.pick(&[0usize, 256, 4096]);
        let g = pattern(&mut r, BUF as u64, size);
        let lds = pattern(&mut r, lds_size.max(64) as u64, size);
        for l in 0..64 {
            let a = base + g[l];
            w0.v[20][l] = a as u32;
            w0.v[21][l] = (a >> 32) as u32;
            w0.v[22][l] = g[l] as u32;
            w0.v[23][l] = lds[l] as u32;
        }
        match r.next() % 6 {
            0 | 1 => {
                // Inactive lanes' addresses are anything at all.
                let exec = w0.exec();
                for l in (0..64).filter(|l| exec >> l & 1 == 0) {
                    for v in 20..24 {
                        w0.v[v][l] = r.next() as u32;
                    }
                }
            }
            2 => {
                // Consecutive 32-bit offsets from below zero (`lid * 4 - 4`): the lanes
                // that wrap are inactive, the others start at 0.
                let k = 1 + r.next() % 15;
                for l in 0..64u64 {
                    for v in [22, 23] {
                        w0.v[v][l as usize] = (size * l).wrapping_sub(size * k) as u32;
                    }
                }
                w0.set_exec(w0.exec() & !((1u64 << k) - 1));
            }
            _ => {}
        }
        w0.set_s64(10, base);
        // The V#: the ABI's private-segment shape over the buffer, or (a quarter of the cases)
        // a plain one (the interpreter's), or the private one with a stride.
        let mut v = crate::wave::private_vsharp(base);
        match r.next() % 8 {
            0 => v = [base as u32, (base >> 32) as u32, BUF as u32, 0],
            1 => v[1] |= 4 << 16,
            _ => {}
        }
        w0.s[12..16].copy_from_slice(&v);
        w0.s[16] = r.pick(&[0u32, 4, 64, 4096, 4097]);
        w0.v[24] = buffer_offsets(&mut r);
        let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
        let lds_init: Vec<u8> = (0..lds_size).map(|_| r.next() as u8).collect();
        // Half the cases with the buffer as the worker's scratch backing (private sites).
        let scratch = match r.next() % 2 {
            0 => base..base + BUF as u64,
            _ => 0..0,
        };
        let fresh = || Carry {
            scratch: scratch.clone(),
            ..Default::default()
        };
        let a = run_cached(
            &prog,
            &w0,
            &mut buf,
            &init,
            lds_size,
            &lds_init,
            None,
            &mut fresh(),
        );
        faults += usize::from(a.r.is_err());
        for &isa in &isas {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            native += jit.native;
            total += jit.reachable;
            // Cold (every site's range cache empty), then again on the ranges and hints the
            // first run left, as a kernel's later waves run (`mem_inline.rs` needs a hit).
            let mut carry = fresh();
            let mut again = || {
                let (b, l) = (&mut buf, &lds_init);
                run_cached(&prog, &w0, b, &init, lds_size, l, Some(&jit), &mut carry)
            };
            let (cold, warm) = (again(), again());
            for (b, how) in [(cold, "cold"), (warm, "warm")] {
                let which = format!("{isa:?} {how}");
                let listing = || {
                    (0..prog.slots.len() as u32)
                        .map(|i| prog.text(i))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                assert_eq!(
                    a.r,
                    b.r,
                    "case {case} {which}: how the wave stopped\n{}",
                    listing()
                );
                assert_eq!(a.w.pc, b.w.pc, "case {case} {which}: pc\n{}", listing());
                // A fault ends the wave, and its report names kind, pc, lane and address, not
                // registers: the JIT need not have stored a lane mask, SCC or a VGPR that the
                // rest of the block would have overwritten unread (`mask_live`, `scc_live`,
                // `vgpr_dead`). Everything else must match.
                let mut jw = b.w.clone();
                if a.r.is_err() {
                    jw.scc = a.w.scc;
                    for m in mask_outputs(&prog) {
                        for r in [m, m + 1] {
                            jw.s[usize::from(r)] = a.w.s[usize::from(r)];
                        }
                    }
                    for r in maybe_unwritten(&prog) {
                        jw.v[usize::from(r)] = a.w.v[usize::from(r)];
                    }
                }
                let diff = first_difference(&jw, &a.w, 0..256);
                assert!(
                    diff.is_none(),
                    "case {case} {which}: {}\n{}",
                    diff.unwrap_or_default(),
                    listing()
                );
                let mem_diff = a.mem.iter().zip(&b.mem).position(|(x, y)| x != y);
                assert!(
                    mem_diff.is_none(),
                    "case {case} {which}: memory byte {mem_diff:?}\n{}",
                    listing()
                );
                let lds_diff = a.lds.iter().zip(&b.lds).position(|(x, y)| x != y);
                assert!(
                    lds_diff.is_none(),
                    "case {case} {which}: LDS byte {lds_diff:?}\n{}",
                    listing()
                );
                assert_eq!(
                    a.w.executed, b.w.executed,
                    "case {case}: instruction counts"
                );
            }
        }
    }
    eprintln!("{native} of {total} translated; {faults} runs faulted");
    if cases >= 1000 {
        // The generator's encodings decode (an illegal one is skipped silently).
        for name in [
            "flat_load_dword",
            "flat_store_dwordx4",
            "global_load_sbyte",
            "global_load_short_d16_hi",
            "flat_store_byte",
            "global_store_short_d16_hi",
            "buffer_load_ushort",
            "buffer_store_byte_d16_hi",
            "ds_read_i16",
            "ds_read_u8_d16_hi",
            "ds_write_b8",
            "ds_read_b128",
            "ds_write_b96",
            "ds_add_u32",
            "ds_cmpst_rtn_b64",
            "global_atomic_add",
            "global_atomic_cmpswap_x2",
        ] {
            assert!(seen.contains(name), "{name} never generated");
        }
    }
    assert!(native * 2 > total, "{native} of {total} translated");
    assert!(
        faults * 100 > cases && faults * 100 < cases * 90,
        "{faults} faults: the patterns should fault sometimes"
    );
}

/// A program of one 64-bit instruction and `s_endpgm`.
pub(super) fn then_endpgm(inst: [u32; 2]) -> Program {
    let code: Vec<u8> = [inst[0], inst[1], 0xbf81_0000]
        .iter()
        .flat_map(|d| d.to_le_bytes())
        .collect();
    Program::new(&code, 0x1000)
}

/// Compiles `prog` for each of `isas`, asserts every instruction was translated, runs it from
/// `w0` and compares how the wave stopped, its registers and the memory with the interpreter's
/// run `a` (`what` names the case in a failure).
pub(super) fn assert_native_and_exact(
    prog: &Program,
    w0: &Wave,
    a: &Outcome,
    isas: &[super::Isa],
    buf: &mut [u8],
    init: &[u8],
    what: &str,
) {
    for &isa in isas {
        let jit = JitCode::compile(prog, 0, false, false, isa).expect("compiles");
        assert_eq!(jit.native, jit.reachable, "{isa:?} {what}: translated");
        let b = run(prog, w0, buf, init, 0, &[], Some(&jit));
        assert_eq!(a.r, b.r, "{isa:?} {what}: how the wave stopped");
        let diff = first_difference(&b.w, &a.w, 0..256);
        assert!(diff.is_none(), "{isa:?} {what}: {diff:?}");
        assert!(a.mem == b.mem, "{isa:?} {what}: memory");
    }
}

/// LDS offsets computed as `lid * 4 - 4` with lane 0 inactive (its offset wraps to
/// 0xfffffffc): the active lanes are consecutive only modulo 2^32, so the vector fast path
/// must not take lane 0's offset as its base (a host access 4 GiB past the LDS).
#[test]
fn lds_reads_next_to_a_wrapping_inactive_lane() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    for (op, dwords) in [(0x36u32, 1usize), (0x76, 2)] {
        let prog = then_endpgm(ds(op, 23, 0, 0, 0, 0, 0));
        let mut w0 = random_wave(&mut Rng(5));
        for l in 0..64u32 {
            w0.v[23][l as usize] = (4 * dwords as u32 * l).wrapping_sub(4 * dwords as u32);
        }
        w0.set_exec(!1);
        let lds_init: Vec<u8> = (0..1024).map(|i| i as u8).collect();
        let a = run(&prog, &w0, &mut buf, &init, 1024, &lds_init, None);
        for &isa in &isas {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            let b = run(&prog, &w0, &mut buf, &init, 1024, &lds_init, Some(&jit));
            assert_eq!(a.r, b.r);
            assert!(first_difference(&b.w, &a.w, 0..256).is_none(), "{isa:?}");
        }
    }
}

/// Global accesses whose active lanes' span wraps past the top of the address space to
/// exactly its start (lanes at 2^64 - size and at 0; the fuzzer's `saddr` = 0 with a negative
/// offset): the span is empty, not a hit in a fresh site's empty range at 0. Each engine
/// reports the interpreter's fault instead of touching host address 2^64 - size.
#[test]
fn global_lanes_whose_span_wraps_to_its_start_fault() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    // global_store_dword, global_load_dword, global_store_dwordx4, global_load_dwordx4
    for (op, dwords) in [(0x1cu32, 1u64), (0x14, 1), (0x1f, 4), (0x17, 4)] {
        let (data, vdst) = if op >= 0x1c { (2, 0) } else { (0, 2) };
        let prog = then_endpgm(flat(op, 2, 20, data, 0x7f, vdst, 0));
        for lanes in [
            [0u64.wrapping_sub(4 * dwords), 0],
            [0, 0u64.wrapping_sub(4 * dwords)],
        ] {
            let mut w0 = random_wave(&mut Rng(7));
            for (l, a) in lanes.iter().enumerate() {
                w0.v[20][l] = *a as u32;
                w0.v[21][l] = (*a >> 32) as u32;
            }
            w0.set_exec(0b11);
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert!(a.r.is_err(), "the interpreter faults");
            for &isa in &isas {
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                let b = run(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit));
                assert_eq!(a.r, b.r, "{isa:?} op {op:#x}");
            }
        }
    }
}

/// Scratch through the private-segment V#: `buffer_load_dword` and `buffer_store_dword` with a
/// uniform offset and with per-lane offsets (some unaligned, some lanes inactive) are
/// translated, and leave registers and memory as the interpreter does.
#[test]
fn scratch_buffer_accesses_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; BUF];
    let mut r = Rng(11);
    let init: Vec<u8> = (0..BUF).map(|_| r.next() as u8).collect();
    for (op, offen, imm) in [
        (0x14u32, false, 8u32),
        (0x1c, false, 4),
        (0x14, true, 0),
        (0x1c, true, 6),
    ] {
        let prog = then_endpgm(mubuf(op, offen, 24, 2, 3, 16, imm));
        // Per lane: offsets in reach; with an inactive lane's (7) beyond the JIT's 2^24
        // limit, which must not matter; with an active lane's (8) beyond it.
        for (per_lane, far) in [
            (false, None),
            (true, None),
            (true, Some(7)),
            (true, Some(8)),
        ] {
            let mut w0 = random_wave(&mut Rng(3));
            let base = buf.as_ptr() as u64;
            w0.s[12..16].copy_from_slice(&crate::wave::private_vsharp(base));
            w0.s[16] = 1024;
            for l in 0..64 {
                w0.v[24][l] = if per_lane {
                    (r.next() % 700) as u32
                } else {
                    96
                };
            }
            if let Some(l) = far {
                w0.v[24][l] = (1 << 26) + 8; // swizzled, it would wrap to 512
            }
            w0.set_exec(0xffff_fff0_ffff_ff7f);
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            // (An active lane out of reach: whatever the interpreter does, the JIT must too.)
            assert!(a.r.is_ok() || far == Some(8));
            let what = format!("{} (per lane {per_lane}, far {far:?})", prog.text(0));
            assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
        }
    }
}

/// The bit-field ops, `v_bcnt_u32_b32`, the lane-count idiom (`v_mbcnt_*_u32_b32 d, -1, s`) and lane counts of
/// uniform masks (SGPRs, constants: a ballot's bits below each lane) are translated
/// and match the interpreter for random values, shifts and widths (0 and 31 included), with
/// VGPR, SGPR and constant sources, under a partial EXEC.
#[test]
fn bit_field_and_lane_count_ops_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let vop3 =
        |op: u32, s0: u32, s1: u32, s2: u32| [0x34 << 26 | op << 16 | 5, s0 | s1 << 9 | s2 << 18];
    // Both halves' lane counts: of all ones (-1), of SGPR masks, of a constant mask (8).
    const MBCNT_SOURCES: &[[u32; 3]] = &[
        [193, 258, 0],
        [193, 128, 0],
        [193, 3, 0],
        [3, 258, 0],
        [4, 128, 0],
        [136, 3, 0],
    ];
    // (opcode, mnemonic, source sets: VGPR 256+n, SGPR n, inline 128+k, -1 = 193)
    let cases: &[(u32, &str, &[[u32; 3]])] = &[
        (
            0x1c8,
            "v_bfe_u32",
            &[
                [257, 258, 259],
                [257, 3, 259],
                [257, 136, 152],
                [4, 258, 128],
            ],
        ),
        (
            0x1c9,
            "v_bfe_i32",
            &[
                [257, 258, 259],
                [257, 3, 259],
                [257, 136, 152],
                [4, 258, 159],
            ],
        ),
        (
            0x1ca,
            "v_bfi_b32",
            &[[257, 258, 259], [3, 258, 4], [257, 193, 128]],
        ),
        (
            0x1ce,
            "v_alignbit_b32",
            &[[257, 258, 259], [257, 258, 128], [3, 258, 159]],
        ),
        (
            0x1cf,
            "v_alignbyte_b32",
            &[[257, 258, 259], [257, 258, 131], [3, 258, 4]],
        ),
        (
            0x28b,
            "v_bcnt_u32_b32",
            &[[257, 258, 0], [3, 258, 0], [257, 128, 0], [193, 3, 0]],
        ),
        (0x28c, "v_mbcnt_lo_u32_b32", MBCNT_SOURCES),
        (0x28d, "v_mbcnt_hi_u32_b32", MBCNT_SOURCES),
    ];
    let mut r = Rng(13);
    for &(op, name, srcs) in cases {
        for s in srcs {
            let prog = then_endpgm(vop3(op, s[0], s[1], s[2]));
            assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
            for round in 0..4 {
                let mut w0 = random_wave(&mut r);
                if round < 2 {
                    // Shifts and widths from their whole range, the edges included.
                    for l in 0..64 {
                        w0.v[2][l] = r.pick(&[0u32, 1, 31, 32, 33, 7]);
                        w0.v[3][l] = r.pick(&[0u32, 1, 16, 31, 32, 255]);
                    }
                    w0.s[3] = r.pick(&[0u32, 5, 31, 32]);
                    w0.s[4] = r.pick(&[0u32, 24, 31, 33]);
                }
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
            }
        }
    }
}

/// `v_min3/max3/med3` of u32 and i32 are translated and match the interpreter: VGPR, SGPR
/// and constant sources, a source twice, values at the edges of both orders (0, 1, -1,
/// i32::MIN, i32::MAX, equal values), all lanes and lanes off.
#[test]
fn three_way_min_max_med_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let vop3 = |op: u32, s: [u32; 3]| [0x34 << 26 | op << 16 | 5, s[0] | s[1] << 9 | s[2] << 18];
    let ops = [
        (0x1d1u32, "v_min3_i32"),
        (0x1d2, "v_min3_u32"),
        (0x1d4, "v_max3_i32"),
        (0x1d5, "v_max3_u32"),
        (0x1d7, "v_med3_i32"),
        (0x1d8, "v_med3_u32"),
    ];
    // Sources: VGPR 256+n, SGPR n, inline 1 = 129, -1 = 193.
    let sources = [
        [257u32, 258, 259],
        [257, 3, 259],
        [3, 258, 193],
        [129, 258, 257],
        [257, 257, 258],
    ];
    let edges = [0u32, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xffff_fffe, 5];
    let mut r = Rng(23);
    for (op, name) in ops {
        for s in sources {
            let prog = then_endpgm(vop3(op, s));
            assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
            for round in 0..4 {
                let mut w0 = random_wave(&mut r);
                if round < 3 {
                    for v in 1..4 {
                        for l in 0..64 {
                            w0.v[v][l] = r.pick(&edges);
                        }
                    }
                    w0.s[3] = r.pick(&edges);
                }
                if round % 2 == 1 {
                    w0.set_exec(r.next() | 1);
                }
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
            }
        }
    }
}

/// f64 add, mul, fma, min and max are translated (both ISAs) and match the interpreter bit for bit on
/// special values (signed zeros, infinities, quiet and signaling NaNs, denormals) and random
/// ones, with abs/neg modifiers and VGPR-pair, SGPR-pair and constant sources.
#[test]
fn f64_arithmetic_is_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let special: [u64; 14] = [
        0,
        1 << 63,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        0xfff4_0000_0000_0000,
        1,
        0x000f_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x3cb0_0000_0000_0000,
    ];
    // VOP3a: abs [10:8], neg [31:29]; sources VGPR 256+n, SGPR n, inline 1.0 = 242.
    let vop3 = |op: u32, abs: u32, neg: u32, s: [u32; 3]| {
        [
            0x34 << 26 | op << 16 | abs << 8 | 6,
            s[0] | s[1] << 9 | s[2] << 18 | neg << 29,
        ]
    };
    let mut r = Rng(17);
    for (op, name) in [
        (0x280u32, "v_add_f64"),
        (0x281, "v_mul_f64"),
        (0x1cc, "v_fma_f64"),
        (0x282, "v_min_f64"),
        (0x283, "v_max_f64"),
    ] {
        for s in [
            [258u32, 260, 264],
            [2, 260, 242],
            [258, 242, 4],
            [260, 258, 258],
        ] {
            for (abs, neg) in [(0, 0), (1, 2), (6, 5), (7, 7)] {
                // (Two-source ops take src2 = 0 and no third abs/neg bit.)
                let (s, abs, neg) = if op == 0x1cc {
                    (s, abs, neg)
                } else {
                    ([s[0], s[1], 0], abs & 3, neg & 3)
                };
                let prog = then_endpgm(vop3(op, abs, neg, s));
                assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
                for _ in 0..3 {
                    let mut w0 = random_wave(&mut r);
                    for l in 0..64 {
                        for v in [2usize, 4, 8] {
                            let q = if r.next().is_multiple_of(2) {
                                r.pick(&special) ^ (r.next() & (1 << 63))
                            } else {
                                r.next()
                            };
                            w0.v[v][l] = q as u32;
                            w0.v[v + 1][l] = (q >> 32) as u32;
                        }
                        if r.next().is_multiple_of(4) {
                            // Equal operands (min/max: ±0 of either sign).
                            w0.v[4][l] = w0.v[2][l];
                            w0.v[5][l] = w0.v[3][l] ^ (r.next() as u32 & 0x8000_0000);
                        }
                    }
                    let q = r.pick(&special);
                    w0.set_s64(2, q);
                    w0.set_s64(4, r.next());
                    w0.mode = 0x2f0;
                    let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                    assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
                }
            }
        }
    }
}

/// f64 rcp, sqrt, rsq and fract are translated (both ISAs) and match the interpreter bit for
/// bit on special values (signed zeros, infinities, NaNs, denormals, negative operands of the
/// roots, tiny negative numbers whose fraction rounds to 1) and random ones, in VOP1 and VOP3
/// (abs/neg) form, from VGPR pairs, SGPR pairs and constants.
#[test]
fn f64_rcp_sqrt_rsq_fract_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let special: [u64; 12] = [
        0,
        1 << 63,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        1,
        0x000f_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x0010_0000_0000_0001,
    ];
    let mut r = Rng(29);
    for (op, name) in [
        (0x25u32, "v_rcp_f64"),
        (0x26, "v_rsq_f64"),
        (0x28, "v_sqrt_f64"),
        (0x32, "v_fract_f64"),
    ] {
        for (src, abs, neg, vop3) in [
            (258u32, 0u32, 0u32, false),
            (258, 0, 0, true),
            (258, 1, 0, true),
            (258, 0, 1, true),
            (2, 1, 1, true),
            (242, 0, 0, true),
            (2, 0, 0, false),
        ] {
            let words = match vop3 {
                false => [0x3f << 25 | 6 << 17 | op << 9 | src, 0xbf81_0000],
                true => [
                    0x34 << 26 | (0x140 + op) << 16 | abs << 8 | 6,
                    src | neg << 29,
                ],
            };
            let prog = then_endpgm(words);
            assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
            for _ in 0..4 {
                let mut w0 = random_wave(&mut r);
                for l in 0..64 {
                    let q = match r.next() % 3 {
                        0 => r.pick(&special) ^ (r.next() & (1 << 63)),
                        1 => r.next(),
                        // Ordinary magnitudes: most of a kernel's operands.
                        _ => (r.next() & 0x800f_ffff_ffff_ffff) | (900 + r.next() % 250) << 52,
                    };
                    w0.v[2][l] = q as u32;
                    w0.v[3][l] = (q >> 32) as u32;
                }
                w0.set_s64(2, r.pick(&special));
                w0.mode = 0x2f0;
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
            }
        }
    }
}

/// `v_cmp_class_f32` and `v_cmpx_class_f32` are translated (both ISAs) and match the
/// interpreter: every class (signaling and quiet NaNs, infinities, normals, denormals and
/// zeros of both signs, their boundaries), masks of one bit, all bits and random ones, from
/// a VGPR, an SGPR or a constant; VOPC and VOP3 (abs/neg on src0, the mask in a pair).
#[test]
fn f32_class_compares_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let special: [u32; 14] = [
        0x7f80_0001, // sNaN
        0x7fbf_ffff, // sNaN, every payload bit
        0x7fc0_0000, // qNaN
        0x7fff_ffff,
        0x7f80_0000, // inf
        0x7f7f_ffff, // the largest normal
        0x0080_0000, // the smallest normal
        0x007f_ffff, // the largest denormal
        0x0000_0001,
        0,
        0x3f80_0000,
        0x4b80_0000,
        0x0040_0000,
        0x7f00_0000,
    ];
    let mut r = Rng(41);
    for prog in class_programs([(0x10, "v_cmp_class_f32"), (0x11, "v_cmpx_class_f32")], 3) {
        for _ in 0..6 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                w0.v[2][l] = match r.next() % 3 {
                    0 => r.pick(&special) ^ (r.next() as u32 & 0x8000_0000),
                    _ => r.next() as u32,
                };
                w0.v[3][l] = class_mask(&mut r);
            }
            w0.s[4] = r.next() as u32;
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
        }
    }
}

/// The class compares `ops` (VOPC opcode, mnemonic) of src0 v2 (or v[2:3]): VOPC with the
/// mask in VGPR `mask`, VOP3 with abs/neg on src0 and the mask in that VGPR, s4 or a
/// constant (the result in s[10:11]).
fn class_programs(ops: [(u32, &str); 2], mask: u32) -> Vec<Program> {
    let mut progs = Vec::new();
    for (op, name) in ops {
        let v = 256 + mask;
        for (vop3, abs, neg, src1) in [
            (false, 0u32, 0u32, v),
            (true, 0, 0, v),
            (true, 1, 0, v),
            (true, 0, 1, v),
            (true, 1, 1, 4),
            (true, 0, 0, 128 + 3),
            (true, 0, 0, 4),
        ] {
            let words = match vop3 {
                false => [0x3e << 25 | op << 17 | (src1 - 256) << 9 | 258, 0xbf81_0000],
                true => [
                    0x34 << 26 | op << 16 | abs << 8 | 10,
                    258 | src1 << 9 | neg << 29,
                ],
            };
            let prog = then_endpgm(words);
            assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
            progs.push(prog);
        }
    }
    progs
}

/// A class mask: one class, every class, or random bits.
fn class_mask(r: &mut Rng) -> u32 {
    match r.next() % 4 {
        0 => 1 << (r.next() % 10),
        1 => 0x3ff,
        _ => r.next() as u32,
    }
}

/// `v_cmp_class_f64` and `v_cmpx_class_f64` likewise: every class with its boundaries in
/// both dwords (a NaN or a denormal whose only set bits are in the low dword, the largest
/// ones, the smallest normal), from VGPR pairs; VOPC and VOP3 (abs/neg on src0; the mask
/// from a VGPR, an SGPR or a constant).
#[test]
fn f64_class_compares_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let special: [(u32, u32); 14] = [
        (1, 0x7ff0_0000),           // sNaN, low bits only
        (0, 0x7ff0_0001),           // sNaN
        (0xffff_ffff, 0x7ff7_ffff), // sNaN, every payload bit
        (0, 0x7ff8_0000),           // qNaN
        (0xffff_ffff, 0x7fff_ffff),
        (0, 0x7ff0_0000),           // inf
        (0xffff_ffff, 0x7fef_ffff), // the largest normal
        (0, 0x0010_0000),           // the smallest normal
        (0xffff_ffff, 0x000f_ffff), // the largest denormal
        (1, 0),                     // the smallest denormal
        (0, 0x0008_0000),
        (0, 0),
        (0, 0x3ff0_0000),
        (5, 0x7fe0_0000),
    ];
    let mut r = Rng(43);
    for prog in class_programs([(0x12, "v_cmp_class_f64"), (0x13, "v_cmpx_class_f64")], 4) {
        for _ in 0..6 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                (w0.v[2][l], w0.v[3][l]) = match r.next() % 3 {
                    0 => {
                        let (lo, hi) = r.pick(&special);
                        (lo, hi ^ (r.next() as u32 & 0x8000_0000))
                    }
                    _ => (r.next() as u32, r.next() as u32),
                };
                w0.v[4][l] = class_mask(&mut r);
            }
            w0.s[4] = r.next() as u32;
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
        }
    }
}

/// Conversions to and from f64 are translated (both ISAs) and match the
/// interpreter: f32 -> f64 and back (NaN payloads, denormals, overflow and underflow in the
/// narrowing), i32/u32 -> f64, f64 -> i32/u32 (NaNs, both ends of the range); VOP1 and VOP3
/// (abs/neg) encodings.
#[test]
fn f64_conversions_are_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let f32s: [u32; 8] = [
        0x7fc0_0001,
        0x7f80_0001,
        1,
        0x0080_0000,
        0x7f80_0000,
        0x8000_0000,
        0x3f80_0000,
        0xff7f_ffff,
    ];
    let f64s: [u64; 8] = [
        0x7ff4_0000_0000_0001,
        0x47ef_ffff_f000_0000, // rounds to f32 infinity
        0x47ef_ffff_efff_ffff, // to the largest f32
        0x36a0_0000_0000_0000, // an f32 denormal
        0x3690_0000_0000_0000, // half the smallest f32 denormal: ties to even, 0
        1,
        0x3ff0_0000_1000_0000, // a tie between two f32s
        0xfff0_0000_0000_0000,
    ];
    // (encoding, mnemonic) with v2 / v[2:3] as the source, v[6:7] or v6 as the destination.
    let vop1 = |op: u32| [0x3f << 25 | 6 << 17 | op << 9 | 258, 0];
    let vop3 =
        |op: u32, abs: u32, neg: u32| [0x34 << 26 | op << 16 | abs << 8 | 6, 258 | neg << 29];
    let cases = [
        (vop1(0x0f), "v_cvt_f32_f64"),
        (vop1(0x10), "v_cvt_f64_f32"),
        (vop1(0x04), "v_cvt_f64_i32"),
        (vop1(0x16), "v_cvt_f64_u32"),
        (vop3(0x14f, 1, 0), "v_cvt_f32_f64"),
        (vop3(0x150, 0, 1), "v_cvt_f64_f32"),
        (vop3(0x150, 1, 1), "v_cvt_f64_f32"),
        (vop1(0x03), "v_cvt_i32_f64"),
        (vop3(0x143, 1, 0), "v_cvt_i32_f64"),
        (vop3(0x143, 0, 1), "v_cvt_i32_f64"),
        (vop1(0x15), "v_cvt_u32_f64"),
        (vop3(0x155, 1, 0), "v_cvt_u32_f64"),
        (vop3(0x155, 0, 1), "v_cvt_u32_f64"),
    ];
    // f64 -> u32: around both ends of u32's range.
    // (AVX2 converts x - 2^31 signed: fractions on both sides of 2^31 and below 1.)
    let to_u32: [u64; 14] = [
        0x41e0_0000_0010_0000, // 2^31 + 0.5
        0x41df_ffff_fff0_0000, // 2^31 - 0.5
        0x41df_ffff_ffe0_0000, // 2^31 - 1
        0x3fe0_0000_0000_0000, // 0.5
        0x3ff8_0000_0000_0000, // 1.5
        0x7ff8_0000_0000_0000, // NaN
        0x41ef_ffff_ffe0_0000, // u32::MAX
        0x41ef_ffff_ffff_ffff, // just below 2^32
        0x41f0_0000_0000_0000, // 2^32
        0x41e0_0000_0000_0000, // 2^31
        0xbfe0_0000_0000_0000, // -0.5
        0xbff0_0000_0000_0000, // -1
        0x3fef_ffff_ffff_ffff, // just below 1
        0x7ff0_0000_0000_0000,
    ];
    // f64 -> i32: around both ends of i32's range, small values, NaNs.
    let to_i32: [u64; 10] = [
        0x41df_ffff_ffc0_0000, // i32::MAX
        0x41df_ffff_ffff_ffff, // just below 2^31
        0x41e0_0000_0000_0000, // 2^31
        0xc1e0_0000_0000_0000, // i32::MIN
        0xc1e0_0000_0010_0000, // i32::MIN - 0.5
        0xc1e0_0000_0020_0000, // i32::MIN - 1
        0x3fe0_0000_0000_0000, // 0.5
        0x4059_0000_0000_0000, // 100
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
    ];
    let mut r = Rng(19);
    for (inst, name) in cases {
        let prog = then_endpgm(inst);
        assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
        let isas = isas();
        for _ in 0..6 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                let q = if r.next().is_multiple_of(2) {
                    r.pick(&f64s) ^ (r.next() & (1 << 63))
                } else {
                    r.next()
                };
                let q = if name == "v_cvt_i32_f64" && r.next().is_multiple_of(2) {
                    r.pick(&to_i32) ^ (r.next() & (1 << 63))
                } else if name == "v_cvt_u32_f64" && r.next().is_multiple_of(2) {
                    r.pick(&to_u32) ^ (r.next() & (1 << 63))
                } else {
                    q
                };
                w0.v[2][l] = q as u32;
                w0.v[3][l] = (q >> 32) as u32;
                if name == "v_cvt_f64_f32" && r.next().is_multiple_of(2) {
                    w0.v[2][l] = r.pick(&f32s) ^ (r.next() as u32 & 0x8000_0000);
                }
            }
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
        }
    }
}

/// `v_cvt_f32_f16` is translated (both ISAs) and matches the interpreter:
/// zeros, denormals, the largest and smallest normals, infinities, quiet and signaling NaNs
/// with payloads, random values, garbage in the high halves; VOP1 and VOP3.
#[test]
fn f16_to_f32_conversion_is_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let halves: [u32; 10] = [
        0, 0x8000, 1, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e01, 0x7d55,
    ];
    let mut r = Rng(83);
    for words in [
        [0x3f << 25 | 1 << 17 | 0x0b << 9 | 258, 0xbf81_0000],
        [0x34 << 26 | 0x14b << 16 | 1, 258],
    ] {
        let prog = then_endpgm(words);
        assert!(
            prog.text(0).starts_with("v_cvt_f32_f16"),
            "{}",
            prog.text(0)
        );
        for _ in 0..6 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                if r.next().is_multiple_of(2) {
                    w0.v[2][l] = r.pick(&halves) ^ (r.next() as u32 & 0xffff_0000);
                }
            }
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            let text = prog.text(0);
            assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &text);
        }
    }
}

/// `v_cvt_f16_f32` is translated (both ISAs) and matches the interpreter:
/// the largest f16 and the f32s that round to it or overflow, ties to even at 1 and at the
/// smallest denormal, f32 denormals, infinities, signaling and quiet NaNs with payloads of
/// either sign, random values; VOP1, and VOP3 with abs and neg.
#[test]
fn f32_to_f16_conversion_is_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let values: [u32; 14] = [
        0x477f_e000, // 65504
        0x477f_efff,
        0x477f_f000, // 65520: a tie, to infinity
        0x3380_0000, // 2^-24
        0x3300_0000, // 2^-25: a tie, to zero
        0x3340_0000, // 3 * 2^-26
        0x3f80_1000, // 1 + 2^-11: a tie
        0x3f80_3000,
        0x0000_0001,
        0x7f80_0000,
        0x7f80_0001,
        0xffc1_2345,
        0x7fbf_ffff,
        0x8000_0000,
    ];
    let mut r = Rng(101);
    for words in [
        [0x3f << 25 | 1 << 17 | 0x0a << 9 | 258, 0xbf81_0000],
        [0x34 << 26 | 0x14a << 16 | 1 << 8 | 1, 258],
        [0x34 << 26 | 0x14a << 16 | 1, 258 | 1 << 29],
    ] {
        let prog = then_endpgm(words);
        let text = prog.text(0);
        assert!(text.starts_with("v_cvt_f16_f32"), "{text}");
        for _ in 0..6 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                if r.next().is_multiple_of(2) {
                    w0.v[2][l] = r.pick(&values) ^ (r.next() as u32 & 0x8000_0000);
                }
            }
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &text);
        }
    }
}

/// f64 compares are translated (both ISAs) and match the interpreter: every condition, as
/// `v_cmp` (VCC) and `v_cmpx` (EXEC too), and as VOP3 into an SGPR pair with abs/neg, on signed
/// zeros, infinities, quiet and signaling NaNs, denormals, equal and random values; in a MODE
/// that flushes f64 denormals too.
#[test]
fn f64_compares_are_native_and_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let special: [u64; 10] = [
        0,
        1 << 63,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        1,
        0x000f_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x7fef_ffff_ffff_ffff,
    ];
    // VOPC: v[2:3] (258) against v[4:5]; VOP3: into s[6:7], abs [10:8], neg [31:29].
    let vopc = |op: u32| [0x3e << 25 | op << 17 | 4 << 9 | 258, 0];
    let vop3 = |op: u32, abs: u32, neg: u32, src1: u32| {
        [
            0x34 << 26 | op << 16 | abs << 8 | 6,
            258 | src1 << 9 | neg << 29,
        ]
    };
    let mut r = Rng(37);
    for cond in 0..16u32 {
        let cases = [
            vopc(0x60 + cond),
            vopc(0x70 + cond),
            vop3(0x60 + cond, 1, 2, 260),
            vop3(0x60 + cond, 2, 1, 242),
            vop3(0x70 + cond, 3, 0, 8),
        ];
        for inst in cases {
            let prog = then_endpgm(inst);
            assert!(prog.text(0).contains("_f64"), "{}", prog.text(0));
            for _ in 0..3 {
                let mut w0 = random_wave(&mut r);
                for l in 0..64 {
                    let x = if r.next().is_multiple_of(2) {
                        r.pick(&special) ^ (r.next() & (1 << 63))
                    } else {
                        r.next()
                    };
                    // Equal to x now and then, else special or random.
                    let y = match r.next() % 3 {
                        0 => x ^ (r.next() & (1 << 63)),
                        1 => r.pick(&special) ^ (r.next() & (1 << 63)),
                        _ => r.next(),
                    };
                    for (v, q) in [(2usize, x), (4, y)] {
                        w0.v[v][l] = q as u32;
                        w0.v[v + 1][l] = (q >> 32) as u32;
                    }
                }
                w0.set_s64(8, r.pick(&special));
                // Denormals kept (the compiled code), or f64 inputs flushed (MODE's f64
                // denormal bits clear: the block's guard hands the wave to the interpreter).
                for mode in [0x2f0, 0x230] {
                    w0.mode = mode;
                    let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                    let what = format!("{} mode {mode:#x}", prog.text(0));
                    assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
                }
            }
        }
    }
}

/// `v_fmac_f32` is translated in both encodings (the VOP3 one with abs/neg on its two sources:
/// the decoder refuses modifiers on the accumulator) and matches the interpreter on NaNs,
/// infinities, signed zeros, denormals and random values.
#[test]
fn fmac_f32_is_native_in_both_encodings() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let special: [u32; 8] = [
        0,
        0x8000_0000,
        0x7f80_0000,
        0x7fc0_0001,
        0x7f80_0001,
        1,
        0x3f80_0000,
        0x7f7f_ffff,
    ];
    // VOP2: v6 = v2 * v4 + v6; VOP3 (0x13b): abs [9:8], neg [30:29], sources v2 and v4 or s8.
    let vop2 = [0x3b << 25 | 6 << 17 | 4 << 9 | 258, 0];
    let vop3 = |abs: u32, neg: u32, src1: u32| {
        [
            0x34 << 26 | 0x13b << 16 | abs << 8 | 6,
            258 | src1 << 9 | neg << 29,
        ]
    };
    let mut r = Rng(41);
    for inst in [
        vop2,
        vop3(0, 0, 260),
        vop3(1, 2, 260),
        vop3(2, 1, 8),
        vop3(3, 3, 260),
    ] {
        let prog = then_endpgm(inst);
        assert!(prog.text(0).starts_with("v_fmac_f32"), "{}", prog.text(0));
        for _ in 0..4 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                for v in [2usize, 4, 6] {
                    w0.v[v][l] = if r.next().is_multiple_of(2) {
                        r.pick(&special) ^ (r.next() as u32 & 0x8000_0000)
                    } else {
                        r.next() as u32
                    };
                }
            }
            w0.s[8] = r.pick(&special);
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
        }
    }
}

/// `buffer_wbinvl1` and `buffer_wbinvl1_vol` (cache maintenance: an ordering point) compile to
/// nothing and the wave runs on as in the interpreter.
#[test]
fn cache_invalidates_are_native() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    for (op, name) in [(0x3eu32, "buffer_wbinvl1"), (0x3f, "buffer_wbinvl1_vol")] {
        // MUBUF: 0b111000 [31:26], op [24:18]; then v_add_u32 v1, v2, v3 (VOP2 0x34).
        let words = [
            0xe000_0000 | op << 18,
            0,
            0x34 << 25 | 1 << 17 | 3 << 9 | 258,
        ];
        let code: Vec<u8> = words
            .iter()
            .chain(&[0xbf81_0000u32])
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let prog = Program::new(&code, 0x1000);
        assert_eq!(prog.text(0), name);
        let w0 = random_wave(&mut Rng(43));
        let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
        assert!(a.r.is_ok(), "{name}: {:?}", a.r);
        assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, name);
    }
}

/// f32 <-> 32-bit integer conversions are translated (both ISAs; AVX2 has no unsigned ones)
/// and match the interpreter at the edges: 2^31 and 2^32 and their neighbours, between -1
/// and 0, signed zeros, NaNs, infinities, denormals; VOP1 and VOP3 with abs/neg.
#[test]
fn f32_int_conversions_are_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let edges: [u32; 16] = [
        0x4f00_0000, // 2^31
        0x4eff_ffff,
        0x4f00_0001,
        0x4f80_0000, // 2^32
        0x4f7f_ffff,
        0x4f80_0001,
        0xbf00_0000, // -0.5
        0xbf80_0000,
        0x8000_0000,
        0x7fc0_0001,
        0x7f80_0001,
        0x7f80_0000,
        0xff80_0000,
        1,
        0x3fc0_0000,
        0xcf00_0000, // -2^31
    ];
    let vop1 = |op: u32| [0x3f << 25 | 6 << 17 | op << 9 | 258, 0];
    let vop3 =
        |op: u32, abs: u32, neg: u32| [0x34 << 26 | op << 16 | abs << 8 | 6, 258 | neg << 29];
    let mut r = Rng(47);
    for (inst, name) in [
        (vop1(0x07), "v_cvt_u32_f32"),
        (vop1(0x08), "v_cvt_i32_f32"),
        (vop1(0x06), "v_cvt_f32_u32"),
        (vop1(0x05), "v_cvt_f32_i32"),
        (vop3(0x147, 1, 0), "v_cvt_u32_f32"),
        (vop3(0x147, 0, 1), "v_cvt_u32_f32"),
        (vop3(0x148, 0, 1), "v_cvt_i32_f32"),
    ] {
        let prog = then_endpgm(inst);
        assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
        for _ in 0..4 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                w0.v[2][l] = match r.next() % 3 {
                    0 => r.pick(&edges) ^ (r.next() as u32 & 0x8000_0000),
                    1 => r.pick(&edges),
                    _ => r.next() as u32,
                };
            }
            w0.mode = 0x2f0;
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &prog.text(0));
        }
    }
}

/// `ds_bpermute_b32` is translated (both ISAs) and matches the interpreter: addresses in and
/// beyond the wave's 256 bytes, unaligned ones, 16-bit offsets, inactive source lanes (0),
/// sparse and full EXEC, and a destination that is the address or the data register.
#[test]
fn bpermute_is_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let mut r = Rng(53);
    // (addr, data, vdst): separate, vdst = data, vdst = addr.
    for (addr, data, vdst) in [(2u32, 3u32, 4u32), (2, 3, 3), (2, 3, 2)] {
        for (off0, off1) in [(0u32, 0u32), (4, 0), (0xfc, 0x01), (3, 0x80)] {
            let prog = then_endpgm(ds(0x3f, addr, data, 0, vdst, off0, off1));
            assert!(
                prog.text(0).starts_with("ds_bpermute_b32"),
                "{}",
                prog.text(0)
            );
            for exec in [u64::MAX, r.next(), r.next() & r.next(), 1 << 63] {
                let mut w0 = random_wave(&mut r);
                w0.set_exec(exec);
                for l in 0..64 {
                    let a = r.next() as u32;
                    // Mostly lane numbers times 4 (as __shfl computes them), some anywhere.
                    w0.v[addr as usize][l] = match r.next() % 4 {
                        0 => a,
                        1 => a % 256,
                        _ => 4 * (a % 64),
                    };
                }
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "{:?}", a.r);
                assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &prog.text(0));
            }
        }
    }
}

/// `v_mov_b32_dpp` is translated (both ISAs) and matches the interpreter for every kind of
/// DPP pattern (quad permutes, row shifts and rotations, wave shifts and rotations, mirrors,
/// row broadcasts), with row and bank masks, with and without `bound_ctrl`, under full and
/// sparse EXEC, into another register and into its own source.
#[test]
fn dpp_moves_are_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let mut r = Rng(59);
    // VOP1 v_mov_b32 with src0 = DPP (0xfa); DPP dword: src [7:0], ctrl [16:8], bound_ctrl
    // [19], bank_mask [27:24], row_mask [31:28].
    let dpp = |vdst: u32, src: u32, ctrl: u32, bound: u32, bank: u32, row: u32| {
        [
            0x3f << 25 | vdst << 17 | 0x01 << 9 | 0xfa,
            src | ctrl << 8 | bound << 19 | bank << 24 | row << 28,
        ]
    };
    let mut ctrls: Vec<u32> = vec![0x1b, 0xe4, 0x4e, 0xb1];
    ctrls.extend([
        0x101, 0x108, 0x10f, 0x111, 0x114, 0x11f, 0x121, 0x127, 0x12f,
    ]);
    ctrls.extend([0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143]);
    for ctrl in ctrls {
        for (vdst, bound, bank, row) in [
            (4u32, 0u32, 0xfu32, 0xfu32),
            (4, 1, 0xf, 0xf),
            (2, 0, 0xf, 0xf),
            (4, 0, 0x5, 0xa),
            (2, 1, 0xe, 0x7),
        ] {
            let prog = then_endpgm(dpp(vdst, 2, ctrl, bound, bank, row));
            let text = prog.text(0);
            assert!(text.starts_with("v_mov_b32_dpp"), "{ctrl:#x}: {text}");
            for exec in [u64::MAX, r.next(), r.next() | r.next()] {
                let mut w0 = random_wave(&mut r);
                w0.set_exec(exec);
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "{:?}", a.r);
                assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &text);
            }
        }
    }
}

/// DPP forms of the two-source integer ops (`v_add_u32_dpp`, ..., the steps of LLVM's wave
/// reductions and scans) are translated (both ISAs) and match the interpreter: row shifts
/// and broadcasts, wave shifts, row and bank masks, with and without `bound_ctrl`, under
/// full and sparse EXEC, the destination one of the sources or not.
#[test]
fn dpp_integer_ops_are_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let mut r = Rng(107);
    // VOP2 with src0 = DPP (0xfa): op [30:25], vdst [24:17], vsrc1 [16:9].
    let dpp = |op: u32, vdst: u32, ctrl: u32, bound: u32, bank: u32, row: u32| {
        [
            op << 25 | vdst << 17 | 3 << 9 | 0xfa,
            2 | ctrl << 8 | bound << 19 | bank << 24 | row << 28,
        ]
    };
    let ops = [
        (0x34u32, "v_add_u32_dpp"),
        (0x35, "v_sub_u32_dpp"),
        (0x36, "v_subrev_u32_dpp"),
        (19, "v_and_b32_dpp"),
        (20, "v_or_b32_dpp"),
        (21, "v_xor_b32_dpp"),
        (12, "v_min_i32_dpp"),
        (13, "v_max_i32_dpp"),
        (14, "v_min_u32_dpp"),
        (15, "v_max_u32_dpp"),
    ];
    for (op, name) in ops {
        for (ctrl, vdst, bound, bank, row) in [
            (0x111u32, 4u32, 0u32, 0xfu32, 0xfu32),
            (0x112, 3, 1, 0xf, 0xf),
            (0x114, 2, 0, 0xf, 0xa),
            (0x118, 4, 1, 0xe, 0xf),
            (0x142, 4, 0, 0xf, 0xa),
            (0x143, 3, 0, 0xf, 0xc),
            (0x138, 4, 1, 0x5, 0xf),
            (0x1b, 2, 0, 0xf, 0xf),
        ] {
            let prog = then_endpgm(dpp(op, vdst, ctrl, bound, bank, row));
            let text = prog.text(0);
            assert!(text.starts_with(name), "{text} is not {name}");
            for exec in [u64::MAX, r.next(), r.next() | r.next()] {
                let mut w0 = random_wave(&mut r);
                w0.set_exec(exec);
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert!(a.r.is_ok(), "{:?}", a.r);
                assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &text);
            }
        }
    }
}

/// SDWA integer compares are translated (both ISAs) and match the interpreter: 16- and
/// 32-bit, signed and unsigned, `v_cmp` and `v_cmpx`, every byte and word select with and
/// without sign extension on either source, into VCC or an SGPR pair, an SGPR second source.
#[test]
fn sdwa_compares_are_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let mut r = Rng(61);
    // VOPC with src0 = SDWA (0xf9): vsrc1 [16:9], op [24:17]. SDWA dword: src0 [7:0], sdst
    // [14:8] with sd [15], src0_sel [18:16], src0_sext [19], s0 [23], src1_sel [26:24],
    // src1_sext [27], s1 [31].
    let sdwa = |op: u32, vsrc1: u32, sdst: Option<u32>, sel: [u32; 2], sext: [u32; 2], s1: u32| {
        let sd = sdst.map_or(0, |s| s << 8 | 1 << 15);
        [
            0x3e << 25 | op << 17 | vsrc1 << 9 | 0xf9,
            2 | sd | sel[0] << 16 | sext[0] << 19 | sel[1] << 24 | sext[1] << 27 | s1 << 31,
        ]
    };
    let mut compared = 0;
    for op in [
        0xa1u32, 0xa2, 0xa3, 0xa4, 0xa9, 0xaa, 0xad, 0xc1, 0xcd, 0xb1, 0xba,
    ] {
        for _ in 0..12 {
            let sel = [(r.next() % 7) as u32, (r.next() % 7) as u32];
            let sext = [(r.next() % 2) as u32, (r.next() % 2) as u32];
            let sdst = r.next().is_multiple_of(2).then_some(4);
            let (vsrc1, s1) = if r.next().is_multiple_of(4) {
                (8, 1)
            } else {
                (3, 0)
            };
            let prog = then_endpgm(sdwa(op, vsrc1, sdst, sel, sext, s1));
            let text = prog.text(0);
            if text.starts_with("<illegal") {
                continue; // a select the op does not take (32-bit compares on gfx9 do)
            }
            assert!(text.contains("_sdwa"), "{text}");
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                // Fields equal now and then, so that eq/ne/le see both outcomes.
                if r.next().is_multiple_of(3) {
                    w0.v[3][l] = w0.v[2][l];
                }
            }
            let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
            assert!(a.r.is_ok(), "{text}: {:?}", a.r);
            assert_native_and_exact(&prog, &w0, &a, &isas(), &mut buf, &init, &text);
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared} cases");
}

/// [`assert_native_and_exact`] for a program that touches no memory, from wave `w0`.
fn assert_registers_exact(prog: &Program, w0: &Wave, what: &str) {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let a = run(prog, w0, &mut buf, &init, 0, &[], None);
    assert_native_and_exact(prog, w0, &a, &isas(), &mut buf, &init, what);
}

/// A program of the one-dword scalar instruction `inst`, then `s_cselect_b32 s5, 1, 0` (SCC
/// into s5, where the register comparison sees it) and `s_endpgm`.
fn scc_captured(inst: u32) -> Program {
    let words = [
        inst,
        2 << 30 | 10 << 23 | 5 << 16 | 0x80 << 8 | 0x81,
        0xbf81_0000,
    ];
    let code: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
    Program::new(&code, 0x1000)
}

/// `s_min/max_i32/u32` are translated and match the interpreter, SCC included: equal
/// sources, signed and unsigned orders that differ, constants.
#[test]
fn scalar_min_max_are_native_and_exact() {
    let mut r = Rng(67);
    let values = [0u32, 1, 0x7fff_ffff, 0x8000_0000, u32::MAX, 5, 0xffff_fffb];
    // SOP2: 0b10 [31:30], op [29:23] (6 min_i32, 7 min_u32, 8 max_i32, 9 max_u32), sdst
    // [22:16], ssrc1 [15:8], ssrc0 [7:0].
    for op in 6u32..=9 {
        for (s0, s1) in [(2u32, 3u32), (2, 2), (2, 0xc1), (0x85, 3)] {
            let prog = scc_captured(2 << 30 | op << 23 | 4 << 16 | s1 << 8 | s0);
            let text = prog.text(0);
            assert!(text.starts_with("s_m"), "{text}");
            for _ in 0..6 {
                let mut w0 = random_wave(&mut r);
                w0.s[2] = r.pick(&values);
                w0.s[3] = if r.next().is_multiple_of(3) {
                    w0.s[2]
                } else {
                    r.pick(&values)
                };
                assert_registers_exact(&prog, &w0, &text);
            }
        }
    }
}

/// `v_perm_b32` with a selector in an SGPR or a constant is translated and matches the
/// interpreter: selector bytes from either source, 12 (zero), 13 and up (0xff), sign bytes
/// (8-11, which the interpreter runs); the destination one of the sources; a partial EXEC.
#[test]
fn byte_permutes_are_native_and_exact() {
    let mut r = Rng(73);
    // VOP3 0x1ed: vdst, then src0 | src1 << 9 | src2 << 18 (256 + n: VGPR n).
    let perm = |d: u32, s0: u32, s1: u32, s2: u32| [0xd1ed_0000 | d, s0 | s1 << 9 | s2 << 18];
    let bytes = [0u32, 1, 2, 3, 4, 5, 6, 7, 12, 13, 0x80, 0xff, 7, 4, 3, 0];
    for (d, s2) in [
        (5u32, 3u32),
        (1, 3),
        (2, 3),
        (5, 128 + 12),
        (5, 193),
        (1, 128 + 64),
    ] {
        let prog = then_endpgm(perm(d, 257, 258, s2));
        let text = prog.text(0);
        assert!(text.starts_with("v_perm_b32"), "{text}");
        for round in 0..12 {
            let mut w0 = random_wave(&mut r);
            // Selector bytes from the table, a sign byte (8-11) in every fourth wave.
            let mut sel = 0;
            for k in 0..4 {
                sel |= r.pick(&bytes) << (8 * k);
            }
            if round % 4 == 3 {
                sel = sel & !0xff00 | (8 + (r.next() % 4) as u32) << 8;
            }
            w0.s[3] = sel;
            if round % 2 == 1 {
                w0.set_exec(r.next() | 1);
            }
            assert_registers_exact(&prog, &w0, &format!("{text} sel {sel:#x}"));
        }
    }
}

/// SDWA forms of the 32-bit integer ops are translated and match the interpreter: every
/// source select (bytes, words, the dword; sign-extended or not), every destination select
/// with each unused-bits rule (zeros, the field's sign, the old bits kept), VGPR and SGPR
/// first sources, a partial EXEC.
#[test]
fn sdwa_integer_ops_are_native_and_exact() {
    let mut r = Rng(79);
    // VOP2 opcodes (src1 v2, vdst v5, src0 0xf9: the SDWA dword follows), and v_mov/v_not
    // (VOP1 0x01, 0x2b).
    let vop2 = [
        (0x0cu32, "v_min_i32"),
        (0x0d, "v_max_i32"),
        (0x0e, "v_min_u32"),
        (0x0f, "v_max_u32"),
        (0x10, "v_lshrrev_b32"),
        (0x11, "v_ashrrev_i32"),
        (0x12, "v_lshlrev_b32"),
        (0x13, "v_and_b32"),
        (0x14, "v_or_b32"),
        (0x15, "v_xor_b32"),
        (0x34, "v_add_u32"),
        (0x35, "v_sub_u32"),
        (0x36, "v_subrev_u32"),
    ];
    let vop1 = [(0x01u32, "v_mov_b32"), (0x2b, "v_not_b32")];
    let words0: Vec<(u32, &str)> = vop2
        .iter()
        .map(|&(op, n)| (op << 25 | 5 << 17 | 2 << 9 | 0xf9, n))
        .chain(
            vop1.iter()
                .map(|&(op, n)| (0x3f << 25 | 5 << 17 | op << 9 | 0xf9, n)),
        )
        .collect();
    for (w0, name) in words0 {
        for case in 0..24 {
            let (dst_sel, unused) = (case % 7, (case / 7) % 3);
            // (VOP1 has no second source: its fields stay 0.)
            let one = w0 >> 25 == 0x3f;
            let s0_sel = (r.next() % 7) as u32;
            let s1_sel = if one { 0 } else { (r.next() % 7) as u32 };
            let sext = (r.next() % 4) as u32 & if one { 1 } else { 3 };
            let sgpr = r.next().is_multiple_of(4);
            let src0 = if sgpr { 3 } else { 1 };
            let w1 = src0
                | dst_sel << 8
                | unused << 11
                | s0_sel << 16
                | (sext & 1) << 19
                | u32::from(sgpr) << 23
                | s1_sel << 24
                | (sext >> 1) << 27;
            let prog = then_endpgm([w0, w1]);
            let text = prog.text(0);
            assert!(text.starts_with(&format!("{name}_sdwa")), "{text}");
            let mut w0v = random_wave(&mut r);
            for l in 0..64 {
                // Shift counts in range now and then; values with the sign bits of every
                // field set or clear.
                if r.next().is_multiple_of(2) {
                    w0v.v[1][l] = (r.next() % 40) as u32;
                }
            }
            if case % 2 == 1 {
                w0v.set_exec(r.next() | 1);
            }
            assert_registers_exact(&prog, &w0v, &text);
        }
    }
}

/// `s_bcnt0/1_i32_b32/b64` and `s_brev_b32` are translated and match the interpreter, SCC
/// included: zero, all ones, one bit in either half, random values, constants.
#[test]
fn scalar_bit_counts_are_native_and_exact() {
    let mut r = Rng(71);
    let values = [0u32, 1, 0x8000_0000, u32::MAX, 0x0f0f_f0f0, 0x1234_5678];
    // SOP1: 0b1_0111_1101 [31:23], sdst [22:16], op [15:8] (0x08 brev b32, 0x0a/0x0b bcnt0
    // b32/b64, 0x0c/0x0d bcnt1), ssrc0 [7:0].
    for op in [0x08u32, 0x0a, 0x0b, 0x0c, 0x0d] {
        for s0 in [2u32, 0x80, 0xc1] {
            let prog = scc_captured(0xbe80_0000 | 4 << 16 | op << 8 | s0);
            let text = prog.text(0);
            assert!(
                text.starts_with("s_bcnt") || text.starts_with("s_brev"),
                "{text}"
            );
            for k in 0..8 {
                let mut w0 = random_wave(&mut r);
                if k < 6 {
                    w0.s[2] = r.pick(&values);
                    w0.s[3] = r.pick(&values);
                }
                assert_registers_exact(&prog, &w0, &text);
            }
        }
    }
}

/// `v_bfrev_b32`, `v_ffbh_u32`, `v_ffbl_b32` and `v_ffbh_i32` are translated and match the
/// interpreter: zero, all ones, single bits at both ends, values just past a power of two,
/// random ones; from a VGPR, an SGPR and a constant; VOP1 and VOP3.
#[test]
fn vector_bit_scans_are_native_and_exact() {
    let mut r = Rng(73);
    let values = [
        0u32,
        1,
        0x8000_0000,
        u32::MAX,
        0x7fff_ffff,
        0x0001_0000,
        0x0001_0001,
        0xffff_fffe,
        0x1234_5678,
    ];
    // VOP1: 0x3f [31:25], vdst [24:17], op [16:9], src0 [8:0]; VOP3: 0x34 [31:26], op + 0x140.
    for op in 0x2cu32..=0x2f {
        for (vop3, src0) in [(false, 258u32), (false, 2), (true, 258), (true, 0xc1)] {
            let words = match vop3 {
                false => [0x3f << 25 | 1 << 17 | op << 9 | src0, 0xbf81_0000],
                true => [0x34 << 26 | (0x140 + op) << 16 | 1, src0],
            };
            let prog = then_endpgm(words);
            let text = prog.text(0);
            assert!(
                text.starts_with("v_bfrev") || text.starts_with("v_ffb"),
                "{text}"
            );
            for _ in 0..6 {
                let mut w0 = random_wave(&mut r);
                for l in 0..64 {
                    if r.next().is_multiple_of(2) {
                        w0.v[2][l] = r.pick(&values);
                    }
                }
                w0.s[2] = r.pick(&values);
                assert_registers_exact(&prog, &w0, &text);
            }
        }
    }
}

/// `v_mul_i32_i24` and `v_mad_i32_i24` are translated and match the interpreter: sources at
/// the 24-bit sign boundary (with and without bits above it), random ones; VGPRs, SGPRs and
/// constants.
#[test]
fn signed_24_bit_multiplies_are_native_and_exact() {
    let mut r = Rng(79);
    let values = [
        0u32,
        1,
        0x007f_ffff,
        0x0080_0000,
        0x00ff_ffff,
        0xff80_0000,
        0x7f7f_ffff,
        u32::MAX,
    ];
    let progs = [
        // VOP2: op [30:25] (0x06 v_mul_i32_i24), vdst [24:17], vsrc1 [16:9], src0 [8:0].
        [0x06 << 25 | 1 << 17 | 3 << 9 | 258, 0xbf81_0000],
        [0x06 << 25 | 1 << 17 | 3 << 9 | 2, 0xbf81_0000],
        // VOP3: v_mad_i32_i24 v1, src0, v3, src2.
        [0x34 << 26 | 0x1c2 << 16 | 1, 258 | 259 << 9 | 260 << 18],
        [0x34 << 26 | 0x1c2 << 16 | 1, 2 | 259 << 9 | 0xc1 << 18],
    ];
    for words in progs {
        let prog = then_endpgm(words);
        let text = prog.text(0);
        assert!(text.contains("_i32_i24"), "{text}");
        for _ in 0..8 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                for v in 2..5 {
                    if r.next().is_multiple_of(2) {
                        w0.v[v][l] = r.pick(&values);
                    }
                }
            }
            w0.s[2] = r.pick(&values);
            assert_registers_exact(&prog, &w0, &text);
        }
    }
}

/// `v_add/sub/subrev_u32` with clamp (unsigned saturation), `v_mad_legacy_u16/i16` and
/// `v_cndmask_b32` with abs/neg are translated and match the interpreter: sums and
/// differences at and past both ends, signs of selected NaNs and zeros,
/// operands with high halves set (the 16-bit ops read the low halves only); VGPR, SGPR and
/// constant sources.
#[test]
fn clamped_adds_and_legacy_16_bit_mads_are_native_and_exact() {
    let mut r = Rng(89);
    let values = [
        0u32,
        1,
        2,
        0x7fff_ffff,
        0x8000_0000,
        u32::MAX - 1,
        u32::MAX,
        0xffff,
        0x1_8000,
    ];
    // VOP3: clamp [15], op [25:16], vdst [7:0]; second dword src0 | src1 << 9 | src2 << 18.
    let progs = [
        [0x34 << 26 | 1 << 15 | 0x134 << 16 | 1, 258 | 259 << 9],
        [0x34 << 26 | 1 << 15 | 0x135 << 16 | 1, 258 | 2 << 9],
        [0x34 << 26 | 1 << 15 | 0x136 << 16 | 1, 258 | 259 << 9],
        [0x34 << 26 | 1 << 15 | 0x135 << 16 | 1, 0xc1 | 259 << 9],
        [0x34 << 26 | 0x1eb << 16 | 1, 258 | 259 << 9 | 260 << 18],
        [0x34 << 26 | 0x1ec << 16 | 1, 258 | 2 << 9 | 0xc1 << 18],
        // v_cndmask_b32 with abs/neg on its sources (abs [10:8], neg [31:29]), mask s[4:5].
        [
            0x34 << 26 | 0x100 << 16 | 1 << 8 | 1,
            258 | 259 << 9 | 4 << 18 | 2 << 29,
        ],
        [
            0x34 << 26 | 0x100 << 16 | 2 << 8 | 1,
            258 | 2 << 9 | 4 << 18 | 1 << 29,
        ],
    ];
    for words in progs {
        let prog = then_endpgm(words);
        let text = prog.text(0);
        assert!(
            text.contains("clamp") || text.starts_with("v_mad_legacy") || text.contains('|'),
            "{text}"
        );
        for _ in 0..8 {
            let mut w0 = random_wave(&mut r);
            for l in 0..64 {
                for v in 2..5 {
                    if r.next().is_multiple_of(2) {
                        w0.v[v][l] = r.pick(&values);
                    }
                }
            }
            w0.s[2] = r.pick(&values);
            assert_registers_exact(&prog, &w0, &text);
        }
    }
}

/// A call through a pc-relative address (`s_getpc_b64`, `s_add_u32`/`s_addc_u32`,
/// `s_swappc_b64`: how LLVM calls a non-inlined function) makes the callee part of the plan:
/// every instruction is compiled, and the wave returns from it with the interpreter's result.
/// Also when a 32-bit move writes the register below the address between `s_getpc_b64` and
/// the add, and when the address goes through VGPR lanes before the call (-O0 code spills it
/// with `v_writelane_b32`): a callee outside the plan ran instruction by instruction in the
/// interpreter.
#[test]
fn pc_relative_calls_compile_the_callee() {
    const CALLEE: [u32; 3] = [
        0x7e00_0281, // v_mov_b32 v0, 1
        0xbe80_1d1e, // s_setpc_b64 s[30:31]
        0xbf81_0000, // s_endpgm (not reached)
    ];
    let direct: &[u32] = &[
        0xbe84_1c00, // s_getpc_b64 s[4:5]          (next: +4)
        0x8004_ff04, // s_add_u32 s4, s4, 20         (the callee at +24)
        20,
        0x8205_8005, // s_addc_u32 s5, s5, 0
        0xbe9e_1e04, // s_swappc_b64 s[30:31], s[4:5]
        0xbf81_0000, // s_endpgm
    ];
    let moved_below: &[u32] = &[
        0xbe84_1c00, // s_getpc_b64 s[4:5]          (next: +4)
        0xbe83_0080, // s_mov_b32 s3, 0
        0x8004_9404, // s_add_u32 s4, s4, 20         (the callee at +24)
        0x8205_8005, // s_addc_u32 s5, s5, 0
        0xbe9e_1e04, // s_swappc_b64 s[30:31], s[4:5]
        0xbf81_0000, // s_endpgm
    ];
    let spilled: &[u32] = &[
        0xbe84_1c00, // s_getpc_b64 s[4:5]          (next: +4)
        0x8004_b404, // s_add_u32 s4, s4, 52         (the callee at +56)
        0x8205_8005, // s_addc_u32 s5, s5, 0
        0xd28a_0001, // v_writelane_b32 v1, s4, 0
        0x0001_0004,
        0xd28a_0001, // v_writelane_b32 v1, s5, 1
        0x0001_0205,
        0xbe84_0180, // s_mov_b64 s[4:5], 0
        0xd289_0006, // v_readlane_b32 s6, v1, 0
        0x0001_0101,
        0xd289_0007, // v_readlane_b32 s7, v1, 1
        0x0001_0301,
        0xbe9e_1e06, // s_swappc_b64 s[30:31], s[6:7]
        0xbf81_0000, // s_endpgm
    ];
    for caller in [direct, moved_below, spilled] {
        let bytes: Vec<u8> = caller
            .iter()
            .chain(&CALLEE)
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let prog = Program::new(&bytes, 0x1000);
        let text: Vec<String> = (0..prog.slots.len() as u32).map(|i| prog.text(i)).collect();
        assert!(
            text[0].starts_with("s_getpc_b64")
                && text[text.len() - 3].starts_with("v_mov_b32")
                && text[text.len() - 4].starts_with("s_endpgm"),
            "{text:?}"
        );
        let mut buf = vec![0u8; 64];
        let init = buf.clone();
        let w0 = random_wave(&mut Rng(23));
        let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
        assert!(a.r.is_ok());
        for isa in isas() {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            assert_eq!(
                jit.reachable,
                prog.slots.len() - 1,
                "{isa:?}: the callee is planned: {text:?}"
            );
            assert_eq!(
                jit.native, jit.reachable,
                "{isa:?}: the call and return translated"
            );
            let b = run(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit));
            assert_eq!(a.r, b.r);
            let diff = first_difference(&b.w, &a.w, 0..256);
            assert!(diff.is_none(), "{isa:?}: {diff:?}");
        }
    }
}

/// f32 and f64 trunc, floor, ceil and rndne, and f32 fract, are translated (both ISAs) and match the
/// interpreter on halves, ties, signed zeros, denormals, NaNs, infinities and values beyond
/// the fraction bits; VOP1 and VOP3 with abs/neg.
#[test]
fn float_rounding_is_native_and_exact() {
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let f32s: [u32; 13] = [
        0xb089_705f, // -1e-9: fract rounds 1 - 1e-9 to 1, then takes the f32 below
        0x3f7f_ffff,
        0xc2f6_e979, // -123.456
        0x3f00_0000,
        0x3fc0_0000,
        0x4020_0000,
        0x8000_0000,
        1,
        0x7fc0_0001,
        0x7f80_0001,
        0x7f80_0000,
        0x4b00_0001,
        0xbf00_0000,
    ];
    let f64s: [u64; 10] = [
        0x3fe0_0000_0000_0000,
        0x3ff8_0000_0000_0000,
        0x4004_0000_0000_0000,
        1 << 63,
        1,
        0x7ff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        0x7ff0_0000_0000_0000,
        0x4330_0000_0000_0001,
        0xbfe0_0000_0000_0000,
    ];
    let vop1 = |op: u32| [0x3f << 25 | 6 << 17 | op << 9 | 258, 0];
    let vop3 =
        |op: u32, abs: u32, neg: u32| [0x34 << 26 | op << 16 | abs << 8 | 6, 258 | neg << 29];
    let mut r = Rng(29);
    let rounding: [(&[&str], &[u32], bool); 2] = [
        (
            &[
                "v_trunc_f32",
                "v_ceil_f32",
                "v_rndne_f32",
                "v_floor_f32",
                "v_fract_f32",
            ],
            &[0x1c, 0x1d, 0x1e, 0x1f, 0x1b],
            false,
        ),
        (
            &["v_trunc_f64", "v_ceil_f64", "v_rndne_f64", "v_floor_f64"],
            &[0x17, 0x18, 0x19, 0x1a],
            true,
        ),
    ];
    for (names, ops, wide) in rounding {
        let isas = isas();
        for (name, &op) in names.iter().zip(ops) {
            for inst in [vop1(op), vop3(0x140 + op, 1, 0), vop3(0x140 + op, 0, 1)] {
                let prog = then_endpgm(inst);
                assert!(prog.text(0).starts_with(name), "{}", prog.text(0));
                let mut w0 = random_wave(&mut r);
                for l in 0..64 {
                    let sign = r.next() & 1 << 63;
                    if wide {
                        let q = r.pick(&f64s) ^ sign;
                        w0.v[2][l] = q as u32;
                        w0.v[3][l] = (q >> 32) as u32;
                    } else {
                        w0.v[2][l] = r.pick(&f32s) ^ (sign >> 32) as u32;
                    }
                }
                w0.mode = 0x2f0;
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &prog.text(0));
            }
        }
    }
}

/// A jump to an address that is no instruction (`s_setpc_b64` to the middle of an instruction,
/// or outside the code) faults as in the interpreter: illegal instruction, the jump's pc, the
/// address.
#[test]
fn jumps_to_no_instruction_fault_alike() {
    let code: [u32; 4] = [
        0xbe84_1c00, // s_getpc_b64 s[4:5]
        0xbe80_1d04, // s_setpc_b64 s[4:5]
        0xbf81_0000, // s_endpgm
        0xbf81_0000,
    ];
    // s_add_u32 s4, s4, s6 between the two: the target is the next instruction + s6.
    let mut words = vec![code[0], 0x8004_0604, 0x8205_8005];
    words.extend_from_slice(&code[1..]);
    let bytes: Vec<u8> = words.iter().flat_map(|d| d.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0x1000);
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    // From the s_add (at +4): +2 is inside it; +16 is the second s_endpgm (a good target);
    // 1 << 20 is outside the code.
    for (delta, good) in [(2u32, false), (16, true), (1 << 20, false)] {
        let mut w0 = random_wave(&mut Rng(31));
        w0.s[6] = delta;
        let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
        assert_eq!(a.r.is_ok(), good, "{delta}: {:?}", a.r);
        for isa in isas() {
            let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
            let b = run(&prog, &w0, &mut buf, &init, 0, &[], Some(&jit));
            assert_eq!(a.r, b.r, "{isa:?} {delta}");
            assert_eq!(a.w.pc, b.w.pc, "{isa:?} {delta}: pc");
            assert_eq!(a.w.executed, b.w.executed, "{isa:?} {delta}: count");
        }
    }
}

/// `v_mov_b32 v1, 0` then `v_lshlrev_b64` of `v[0:1]` (an index widened to an address, whose
/// zero high half the JIT does not shift): every count, in place and into another pair, and
/// with the high half written again in between (by a VALU op, by the low half of another
/// shift), under random EXEC, match the interpreter.
#[test]
fn shifts_of_a_zeroed_high_half_are_exact() {
    let isas = isas();
    let mut buf = vec![0u8; 64];
    let init = buf.clone();
    let mov0 = |d: u32| 0x3f << 25 | d << 17 | 1 << 9 | 128;
    let shl = |d: u32, n: u32, s: u32| [0x34 << 26 | 0x28f << 16 | d, (128 + n) | (256 + s) << 9];
    let mut r = Rng(29);
    for n in [0u32, 1, 2, 3, 16, 31, 32, 33, 63] {
        let programs: Vec<(Vec<u32>, &str)> = vec![
            (
                [mov0(1)].into_iter().chain(shl(2, n, 0)).collect(),
                "into v[2:3]",
            ),
            (
                [mov0(1)].into_iter().chain(shl(0, n, 0)).collect(),
                "in place",
            ),
            (
                [mov0(1), 0x34 << 25 | 1 << 17 | 1 << 9 | 260]
                    .into_iter()
                    .chain(shl(2, n, 0))
                    .collect(),
                "v1 += v4 in between",
            ),
            (
                [mov0(1)]
                    .into_iter()
                    .chain(shl(1, 2, 0))
                    .chain(shl(4, n, 0))
                    .collect(),
                "v1 written by another shift in between",
            ),
        ];
        for (words, what) in programs {
            let code: Vec<u8> = words
                .iter()
                .chain(&[0xbf81_0000])
                .flat_map(|d| d.to_le_bytes())
                .collect();
            let prog = Program::new(&code, 0x1000);
            for _ in 0..4 {
                let w0 = random_wave(&mut r);
                let a = run(&prog, &w0, &mut buf, &init, 0, &[], None);
                let what = format!("shift {n}, {what}");
                assert_native_and_exact(&prog, &w0, &a, &isas, &mut buf, &init, &what);
            }
        }
    }
}

/// `s_getreg_b32` of a constant hardware register (the aperture bases, whole and as -O0
/// code reads their halves; the register allocation) is a native move and reads what the
/// interpreter reads; of wave state (MODE) it stays a call-out.
#[test]
fn constant_hardware_registers_are_native_and_exact() {
    let mut r = Rng(97);
    // SOPK: 0b1011 [31:28], op [27:23] (17: s_getreg_b32), sdst [22:16], simm16: id [5:0],
    // offset [10:6], size - 1 [15:11].
    let getreg = |sdst: u32, id: u32, off: u32, size: u32| {
        0xb << 28 | 17 << 23 | sdst << 16 | (size - 1) << 11 | off << 6 | id
    };
    for (inst, native) in [
        (getreg(9, 15, 0, 16), true),
        (getreg(4, 15, 16, 16), true),
        (getreg(20, 15, 0, 32), true),
        (getreg(7, 5, 8, 6), true),
        (getreg(7, 1, 0, 32), false),
    ] {
        let prog = scc_captured(inst);
        let text = prog.text(0);
        assert!(text.starts_with("s_getreg_b32"), "{text}");
        let w0 = random_wave(&mut r);
        if native {
            assert_registers_exact(&prog, &w0, &text);
        } else {
            for isa in isas() {
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                assert!(jit.native < jit.reachable, "{text}: a call-out");
            }
        }
    }
}

/// `s_bitcmp0/1_b32`, `s_bfe_u32/i32`, `s_mul_hi_u32/i32`, `s_sext_i32_i8/i16`,
/// `s_ff1_i32_b32` and `s_flbit_i32_b32` are translated and match the interpreter, SCC
/// included: bit offsets past 31, field widths of 0, 1, 31, 32 and more (signed fields whose
/// top bit is set or clear), zero sources (-1 from the bit scans), signs.
#[test]
fn scalar_bit_ops_are_native_and_exact() {
    let mut r = Rng(103);
    let values = [
        0u32,
        1,
        0x8000_0000,
        u32::MAX,
        0x0000_ff80,
        0x0000_0080,
        0x1234_5678,
        0x0005_0003, // bfe: offset 3, width 5
        0x0020_0004, // width 32
        0x0041_0021, // width 65, offset 33 (taken modulo 32)
        0x0008_0004, // width 8, offset 4
        0x0001_001f, // width 1, offset 31
        0x001f_0001, // width 31, offset 1
        0x0010_0010, // width 16, offset 16
        0x0050_0000, // width 80
        0xffff_8000,
        0x7fff_ffff,
    ];
    let sop2 = |op: u32| 2 << 30 | op << 23 | 4 << 16 | 3 << 8 | 2;
    let sop1 = |op: u32| 0x17d << 23 | 4 << 16 | op << 8 | 2;
    let sopc = |op: u32| 0x17e << 23 | op << 16 | 3 << 8 | 2;
    for (inst, name) in [
        (sopc(12), "s_bitcmp0_b32"),
        (sopc(13), "s_bitcmp1_b32"),
        (sop2(37), "s_bfe_u32"),
        (sop2(38), "s_bfe_i32"),
        (sop2(44), "s_mul_hi_u32"),
        (sop2(45), "s_mul_hi_i32"),
        (sop1(22), "s_sext_i32_i8"),
        (sop1(23), "s_sext_i32_i16"),
        (sop1(16), "s_ff1_i32_b32"),
        (sop1(18), "s_flbit_i32_b32"),
    ] {
        let prog = scc_captured(inst);
        let text = prog.text(0);
        assert!(text.starts_with(name), "{text} is not {name}");
        // Every pair of values.
        for (k, (&x, &y)) in values
            .iter()
            .flat_map(|x| values.iter().map(move |y| (x, y)))
            .enumerate()
        {
            let mut w0 = random_wave(&mut r);
            w0.s[2] = x;
            w0.s[3] = y;
            w0.scc = k % 2 == 0;
            assert_registers_exact(&prog, &w0, &text);
        }
    }
}
