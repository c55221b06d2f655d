//! Vector memory data movement shared by MUBUF and FLAT/GLOBAL/SCRATCH: what an op moves
//! (classified once from its mnemonic) and the per-lane loads, stores and host atomics on
//! addresses that the caller computed.
//!
//! Memory model: plain loads and stores are relaxed host atomics, and every naturally aligned
//! 8-byte piece of a multi-dword access is one 64-bit host access per lane (single-copy
//! atomicity, which LLVM relies on when it compiles 64-bit atomic loads and stores, and
//! idempotent atomic RMWs, to plain `dwordx2` accesses). GPU atomics are SeqCst host RMWs.

use super::ExecFault;
use crate::memory::{self, Checker};
use crate::wave::{Wave, UNFENCED_VECTOR};
use std::sync::atomic::{AtomicI32, AtomicI64, Ordering::SeqCst};

/// A GPU atomic's operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Swap,
    CmpSwap,
    Add,
    Sub,
    Smin,
    Umin,
    Smax,
    Umax,
    And,
    Or,
    Xor,
    Inc,
    Dec,
}

/// What a vector memory op moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VmemKind {
    /// `bytes` per element (1, 2 or 4 × `dwords`), `sext` for signed sub-dword loads, `d16`:
    /// Some(hi) writes only one 16-bit half of the destination.
    Load {
        bytes: u8,
        dwords: u8,
        sext: bool,
        d16: Option<bool>,
    },
    /// `hi`: store bits from the upper half (d16_hi).
    Store {
        bytes: u8,
        dwords: u8,
        hi: bool,
    },
    Atomic {
        op: AtomicOp,
        wide: bool,
    },
    /// buffer_wbinvl1*: cache maintenance = an ordering point.
    Fence,
}

/// The operation of an atomic mnemonic's suffix (`add` of `buffer_atomic_add`; also the image
/// atomics).
pub fn atomic_op(name: &str) -> Option<AtomicOp> {
    Some(match name {
        "swap" => AtomicOp::Swap,
        "cmpswap" => AtomicOp::CmpSwap,
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "smin" => AtomicOp::Smin,
        "umin" => AtomicOp::Umin,
        "smax" => AtomicOp::Smax,
        "umax" => AtomicOp::Umax,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        _ => return None,
    })
}

/// Classifies `buffer_*`, `flat_*`, `global_*`, `scratch_*` mnemonics, and the scalar
/// atomics `s_atomic_*` / `s_buffer_atomic_*`.
pub fn classify(name: &str) -> Option<VmemKind> {
    let rest = ["buffer_", "flat_", "global_", "scratch_", "s_buffer_", "s_"]
        .iter()
        .find_map(|p| name.strip_prefix(p))?;
    if rest.starts_with("wbinvl1") {
        return Some(VmemKind::Fence);
    }
    if let Some(a) = rest.strip_prefix("atomic_") {
        let (a, wide) = match a.strip_suffix("_x2") {
            Some(a) => (a, true),
            None => (a, false),
        };
        return Some(VmemKind::Atomic {
            op: atomic_op(a)?,
            wide,
        });
    }
    let dwords = |s: &str| match s {
        "dword" => Some(1),
        "dwordx2" => Some(2),
        "dwordx3" => Some(3),
        "dwordx4" => Some(4),
        _ => None,
    };
    if let Some(t) = rest.strip_prefix("load_") {
        if let Some(n) = dwords(t) {
            return Some(VmemKind::Load {
                bytes: 4 * n,
                dwords: n,
                sext: false,
                d16: None,
            });
        }
        let (t, d16) = match (t.strip_suffix("_d16_hi"), t.strip_suffix("_d16")) {
            (Some(t), _) => (t, Some(true)),
            (None, Some(t)) => (t, Some(false)),
            _ => (t, None),
        };
        let (bytes, sext) = match t {
            "ubyte" => (1, false),
            "sbyte" => (1, true),
            "ushort" | "short" => (2, false),
            "sshort" => (2, true),
            _ => return None,
        };
        return Some(VmemKind::Load {
            bytes,
            dwords: 1,
            sext,
            d16,
        });
    }
    if let Some(t) = rest.strip_prefix("store_") {
        if let Some(n) = dwords(t) {
            return Some(VmemKind::Store {
                bytes: 4 * n,
                dwords: n,
                hi: false,
            });
        }
        let (t, hi) = match t.strip_suffix("_d16_hi") {
            Some(t) => (t, true),
            None => (t, false),
        };
        let bytes = match t {
            "byte" => 1,
            "short" => 2,
            _ => return None,
        };
        return Some(VmemKind::Store {
            bytes,
            dwords: 1,
            hi,
        });
    }
    None
}

/// The value an atomic leaves in memory: `old` combined with `data` (`cmp`: the compare value
/// of cmpswap). Used where no other thread can see the location (LDS, scratch), so a plain
/// read-modify-write is exact.
pub fn rmw(op: AtomicOp, old: u64, data: u64, cmp: u64, wide: bool) -> u64 {
    let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
    let (old, d) = (old & mask, data & mask);
    let signed = |v: u64| {
        if wide {
            v as i64
        } else {
            i64::from(v as u32 as i32)
        }
    };
    let new = match op {
        AtomicOp::Swap => d,
        AtomicOp::CmpSwap => {
            if old == cmp & mask {
                d
            } else {
                old
            }
        }
        AtomicOp::Add => old.wrapping_add(d),
        AtomicOp::Sub => old.wrapping_sub(d),
        AtomicOp::Smin => signed(old).min(signed(d)) as u64,
        AtomicOp::Smax => signed(old).max(signed(d)) as u64,
        AtomicOp::Umin => old.min(d),
        AtomicOp::Umax => old.max(d),
        AtomicOp::And => old & d,
        AtomicOp::Or => old | d,
        AtomicOp::Xor => old ^ d,
        AtomicOp::Inc => {
            if old >= d {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > d {
                d
            } else {
                old - 1
            }
        }
    };
    new & mask
}

/// One lane's host atomic; returns the old value.
///
/// # Safety
/// `addr` is checked, live host memory of 4 (or 8 when `wide`) bytes.
pub(crate) unsafe fn host_atomic(
    op: AtomicOp,
    addr: u64,
    data: u64,
    cmp: u64,
    wide: bool,
) -> Option<u64> {
    macro_rules! rmw {
        ($a:expr, $t:ty, $st:ty, $ity:ty) => {{
            let a = $a;
            let d = data as $t;
            let c = cmp as $t;
            // SAFETY: same address and size as the unsigned atomic, alignment already checked.
            let s = unsafe { &*(addr as *const $ity) };
            let old: $t = match op {
                AtomicOp::Swap => a.swap(d, SeqCst),
                AtomicOp::CmpSwap => match a.compare_exchange(c, d, SeqCst, SeqCst) {
                    Ok(v) | Err(v) => v,
                },
                AtomicOp::Add => a.fetch_add(d, SeqCst),
                AtomicOp::Sub => a.fetch_sub(d, SeqCst),
                AtomicOp::Umin => a.fetch_min(d, SeqCst),
                AtomicOp::Umax => a.fetch_max(d, SeqCst),
                AtomicOp::Smin => s.fetch_min(d as $st, SeqCst) as $t,
                AtomicOp::Smax => s.fetch_max(d as $st, SeqCst) as $t,
                AtomicOp::And => a.fetch_and(d, SeqCst),
                AtomicOp::Or => a.fetch_or(d, SeqCst),
                AtomicOp::Xor => a.fetch_xor(d, SeqCst),
                AtomicOp::Inc => {
                    match a.fetch_update(SeqCst, SeqCst, |o| Some(if o >= d { 0 } else { o + 1 })) {
                        Ok(v) | Err(v) => v,
                    }
                }
                AtomicOp::Dec => {
                    match a.fetch_update(SeqCst, SeqCst, |o| {
                        Some(if o == 0 || o > d { d } else { o - 1 })
                    }) {
                        Ok(v) | Err(v) => v,
                    }
                }
            };
            old as u64
        }};
    }
    if wide {
        // SAFETY: live and checked per the caller.
        let a = unsafe { memory::atomic_u64(addr) }?;
        Some(rmw!(a, u64, i64, AtomicI64))
    } else {
        // SAFETY: live and checked per the caller.
        let a = unsafe { memory::atomic_u32(addr) }?;
        Some(rmw!(a, u32, i32, AtomicI32))
    }
}

/// Per-lane host addresses of each dword of an access (dword k of lane l at `addr[k][l]`).
pub type DwordAddrs = [[u64; 64]; 4];

/// Runs `kind` for the lanes of `mask` at addresses `addr` (global, or scratch backing with
/// the swizzle applied per dword), checked and then translated in place. `contiguous`: dword k is at
/// `addr[0] + 4k` (one span check per lane); else each dword is checked.
/// `vdata`/`vdst`: VGPR numbers; `glc`: atomics return the old value.
#[allow(clippy::too_many_arguments)]
pub fn access(
    w: &mut Wave,
    mem: &mut Checker,
    kind: VmemKind,
    addr: &mut DwordAddrs,
    contiguous: bool,
    mask: u64,
    vdata: usize,
    vdst: usize,
    glc: bool,
) -> Result<(), ExecFault> {
    if mask == 0 {
        return Ok(());
    }
    let (write, size, nd) = match kind {
        VmemKind::Load { bytes, dwords, .. } => (false, u64::from(bytes), usize::from(dwords)),
        VmemKind::Store { bytes, dwords, .. } => (true, u64::from(bytes), usize::from(dwords)),
        VmemKind::Atomic { wide, .. } => (true, if wide { 8 } else { 4 }, if wide { 2 } else { 1 }),
        VmemKind::Fence => return Ok(()),
    };
    if let VmemKind::Store { .. } = kind {
        // A later `s_waitcnt vmcnt(0)` orders these stores before the wave's later loads
        // (atomics need nothing: host RMWs are full barriers).
        w.unfenced_stores |= UNFENCED_VECTOR;
    }
    // The checks translate the addresses to host addresses in place.
    if contiguous || nd == 1 {
        mem.lanes(&mut addr[0], mask, size, write)?;
    } else {
        for a in addr.iter_mut().take(nd) {
            mem.lanes(a, mask, 4, write)?;
        }
    }
    let addr = &*addr;
    let at = |k: usize, l: usize| {
        if contiguous {
            addr[0][l] + 4 * k as u64
        } else {
            addr[k][l]
        }
    };
    let lanes = (0..64usize).filter(|l| mask >> l & 1 != 0);
    match kind {
        VmemKind::Load {
            bytes: 4.., dwords, ..
        } if contiguous && dwords > 1 => {
            // Lane by lane, so that each aligned 8-byte piece is one host access (the memory
            // model's single-copy atomicity for 64-bit words).
            let n = usize::from(dwords);
            let mut buf = [0u32; 4];
            for l in lanes {
                // SAFETY: every active lane's span was checked above.
                unsafe { memory::read_dwords(addr[0][l], &mut buf[..n]) };
                for (k, &v) in buf[..n].iter().enumerate() {
                    w.v[(vdst + k) & 255][l] = v;
                }
            }
        }
        VmemKind::Load {
            bytes: 4.., dwords, ..
        } => {
            for k in 0..usize::from(dwords) {
                let d = (vdst + k) & 255;
                for l in lanes.clone() {
                    // SAFETY: every active lane's span was checked above.
                    w.v[d][l] = unsafe { memory::read_u32(at(k, l)) };
                }
            }
        }
        VmemKind::Load {
            bytes, sext, d16, ..
        } => {
            for l in lanes {
                let a = at(0, l);
                // SAFETY: checked above.
                let raw = unsafe {
                    if bytes == 1 {
                        u32::from(memory::read_u8(a))
                    } else {
                        u32::from(memory::read_u16(a))
                    }
                };
                let bits = 8 * u32::from(bytes);
                let v = if sext {
                    (((raw << (32 - bits)) as i32) >> (32 - bits)) as u32
                } else {
                    raw
                };
                let old = w.v[vdst][l];
                w.v[vdst][l] = match d16 {
                    None => v,
                    Some(false) => (old & 0xffff_0000) | (v & 0xffff),
                    Some(true) => (old & 0xffff) | v << 16,
                };
            }
        }
        VmemKind::Store {
            bytes: 4.., dwords, ..
        } if contiguous && dwords > 1 => {
            let n = usize::from(dwords);
            let mut buf = [0u32; 4];
            for l in lanes {
                for (k, b) in buf[..n].iter_mut().enumerate() {
                    *b = w.v[(vdata + k) & 255][l];
                }
                // SAFETY: every active lane's span was checked above.
                unsafe { memory::write_dwords(addr[0][l], &buf[..n]) };
            }
        }
        VmemKind::Store {
            bytes: 4.., dwords, ..
        } => {
            for k in 0..usize::from(dwords) {
                let d = (vdata + k) & 255;
                for l in lanes.clone() {
                    // SAFETY: checked above.
                    unsafe { memory::write_u32(at(k, l), w.v[d][l]) };
                }
            }
        }
        VmemKind::Store { bytes, hi, .. } => {
            for l in lanes {
                let v = w.v[vdata][l] >> if hi { 16 } else { 0 };
                // SAFETY: checked above.
                unsafe {
                    if bytes == 1 {
                        memory::write_u8(at(0, l), v as u8)
                    } else {
                        memory::write_u16(at(0, l), v as u16)
                    }
                }
            }
        }
        VmemKind::Atomic { op, wide } if !contiguous => {
            // Scratch: each lane's dwords are swizzled apart and private to the lane, so the
            // atomic is a plain read-modify-write of its dwords.
            let n = if wide { 2 } else { 1 };
            for l in lanes {
                let get = |r: usize| {
                    (0..n).fold(0u64, |v, k| {
                        v | u64::from(w.v[(r + k) & 255][l]) << (32 * k)
                    })
                };
                let (data, cmp) = (get(vdata), get(vdata + n));
                let old = addr.iter().take(n).enumerate().fold(0u64, |v, (k, a)| {
                    // SAFETY: each dword of each active lane was checked above.
                    let d = unsafe { memory::read_u32(a[l]) };
                    v | u64::from(d) << (32 * k)
                });
                let new = rmw(op, old, data, cmp, wide);
                for (k, a) in addr.iter().take(n).enumerate() {
                    // SAFETY: checked above.
                    unsafe { memory::write_u32(a[l], (new >> (32 * k)) as u32) };
                    if glc {
                        w.v[(vdst + k) & 255][l] = (old >> (32 * k)) as u32;
                    }
                }
            }
        }
        VmemKind::Atomic { op, wide } => {
            let n = if wide { 2 } else { 1 };
            for l in lanes {
                let get = |r: usize| {
                    let lo = u64::from(w.v[r & 255][l]);
                    if wide {
                        lo | u64::from(w.v[(r + 1) & 255][l]) << 32
                    } else {
                        lo
                    }
                };
                // cmpswap data is {new value, compare value}.
                let (data, cmp) = (get(vdata), get(vdata + n));
                // SAFETY: checked above; alignment is checked inside.
                let old =
                    unsafe { host_atomic(op, at(0, l), data, cmp, wide) }.ok_or(ExecFault {
                        kind: crate::fault::FaultKind::MemoryViolation {
                            address: at(0, l),
                            write: true,
                        },
                        lane: Some(l as u32),
                        address: Some(at(0, l)),
                    })?;
                if glc {
                    w.v[vdst][l] = old as u32;
                    if wide {
                        w.v[(vdst + 1) & 255][l] = (old >> 32) as u32;
                    }
                }
            }
        }
        VmemKind::Fence => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_mnemonics() {
        assert_eq!(
            classify("global_load_dwordx4"),
            Some(VmemKind::Load {
                bytes: 16,
                dwords: 4,
                sext: false,
                d16: None
            })
        );
        assert_eq!(
            classify("buffer_load_sbyte_d16_hi"),
            Some(VmemKind::Load {
                bytes: 1,
                dwords: 1,
                sext: true,
                d16: Some(true)
            })
        );
        assert_eq!(
            classify("scratch_store_short_d16_hi"),
            Some(VmemKind::Store {
                bytes: 2,
                dwords: 1,
                hi: true
            })
        );
        assert_eq!(
            classify("flat_atomic_cmpswap_x2"),
            Some(VmemKind::Atomic {
                op: AtomicOp::CmpSwap,
                wide: true
            })
        );
        assert_eq!(classify("buffer_wbinvl1_vol"), Some(VmemKind::Fence));
        assert_eq!(classify("buffer_load_format_x"), None);
    }

    #[test]
    fn plain_rmw_matches_host_atomics() {
        use AtomicOp::*;
        let ops = [
            Swap, CmpSwap, Add, Sub, Smin, Umin, Smax, Umax, And, Or, Xor, Inc, Dec,
        ];
        let vals = [
            0u64,
            1,
            5,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x1_0000_0000,
            u64::MAX,
        ];
        for op in ops {
            for wide in [false, true] {
                for &old in &vals {
                    for &data in &vals {
                        let mask = if wide { u64::MAX } else { 0xffff_ffff };
                        let mut cell = [old & mask];
                        let a = cell.as_mut_ptr() as u64;
                        // SAFETY: `cell` is live, 8-byte aligned local memory.
                        let got = unsafe { host_atomic(op, a, data, old, wide) };
                        assert_eq!(got, Some(old & mask));
                        let host = if wide { cell[0] } else { cell[0] & mask };
                        let plain = rmw(op, old, data, old, wide);
                        assert_eq!(
                            plain, host,
                            "{op:?} wide={wide} old={old:#x} data={data:#x}"
                        );
                        let miss = rmw(op, old, data, old ^ 1, wide);
                        if op == CmpSwap {
                            assert_eq!(miss, old & mask, "cmpswap miss");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn host_atomics_match_reference() {
        let mut cell = [5u32, 0];
        let a = cell.as_mut_ptr() as u64;
        // SAFETY: `cell` is live local memory.
        unsafe {
            assert_eq!(host_atomic(AtomicOp::Inc, a, 5, 0, false), Some(5));
            assert_eq!(cell[0], 0);
            assert_eq!(
                host_atomic(AtomicOp::Smin, a, (-3i32) as u32 as u64, 0, false),
                Some(0)
            );
            assert_eq!(cell[0] as i32, -3);
            assert_eq!(
                host_atomic(AtomicOp::CmpSwap, a, 9, (-3i32) as u32 as u64, false),
                Some((-3i32) as u32 as u64)
            );
            assert_eq!(cell[0], 9);
            assert_eq!(host_atomic(AtomicOp::Dec, a, 4, 0, false), Some(9));
            assert_eq!(cell[0], 4);
            assert_eq!(host_atomic(AtomicOp::Add, a + 1, 1, 0, false), None); // misaligned
        }
    }
}
