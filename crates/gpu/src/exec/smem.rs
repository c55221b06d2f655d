//! Scalar memory: s_load / s_buffer_load / s_store, cache controls, time stamps.

use super::vmem::{host_atomic, AtomicOp, VmemKind};
use super::{fault, ExecCtx, ExecFault, Flow};
use crate::fault::FaultKind;
use crate::memory::{read_dwords, write_dwords};
use crate::program::XInst;
use crate::wave::Wave;
use softhsa_isa::{Class, OpFlags};
use std::sync::atomic::{fence, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Nanoseconds since the first time stamp any wave read (the device's shader clock, 1 GHz).
pub fn clock_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// A buffer resource (V#) as SMEM and MUBUF read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferRsrc {
    pub base: u64,
    pub stride: u32,
    pub num_records: u32,
    pub swizzle: bool,
    /// Index stride in lanes (8, 16, 32, 64).
    pub index_stride: u32,
    pub add_tid: bool,
}

impl BufferRsrc {
    pub fn from_words(w: [u32; 4]) -> Self {
        BufferRsrc {
            base: u64::from(w[0]) | u64::from(w[1] & 0xffff) << 32,
            stride: (w[1] >> 16) & 0x3fff,
            num_records: w[2],
            swizzle: w[1] >> 31 != 0,
            index_stride: 8 << ((w[3] >> 21) & 3),
            add_tid: w[3] >> 23 & 1 != 0,
        }
    }

    pub fn read(w: &Wave, first: u8) -> Self {
        let f = usize::from(first);
        Self::from_words([0, 1, 2, 3].map(|i| w.s[(f + i) & 127]))
    }
}

fn first_sgpr(o: softhsa_isa::Operand) -> u8 {
    (o.raw() & 127) as u8
}

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    match run(w, x, cx) {
        Ok(f) => f,
        Err(e) => Flow::Fault(Box::new(e)),
    }
}

fn run(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Result<Flow, ExecFault> {
    let op = x.inst.op;
    let name = op.name();
    let flags = op.flags();
    let d = first_sgpr(x.inst.dst);
    let is_load = flags.has(OpFlags::LOAD);
    let is_store = flags.has(OpFlags::STORE);
    if let Some(VmemKind::Atomic { op: aop, wide }) = x.vmem {
        return atomic(w, x, cx, aop, wide);
    }
    if !is_load && !is_store {
        return Ok(match name {
            "s_memtime" => {
                w.write_s64(d, clock_ns());
                Flow::Next
            }
            "s_memrealtime" => {
                // The 100 MHz reference clock ROCm reports for gfx9.
                w.write_s64(d, clock_ns() / 10);
                Flow::Next
            }
            "s_dcache_inv"
            | "s_dcache_inv_vol"
            | "s_dcache_wb"
            | "s_dcache_wb_vol"
            | "s_dcache_discard"
            | "s_dcache_discard_x2"
            | "s_atc_probe"
            | "s_atc_probe_buffer" => {
                fence(Ordering::AcqRel);
                Flow::Next
            }
            // Scalar atomics and anything else.
            _ => fault(FaultKind::Unimplemented),
        });
    }
    if op.class() != Class::Smem {
        return Ok(fault(FaultKind::Unimplemented));
    }
    let dwords = u32::from(op.mem_dwords());
    let sbase = first_sgpr(x.inst.src[0]);
    let soff = if x.inst.src[1].is_none() {
        0
    } else {
        w.read32(x.src[1])
    };
    // s_scratch_*: the SGPR (or M0) offset counts 64-byte units; the immediate stays in bytes.
    let soff = if name.starts_with("s_scratch") {
        soff.wrapping_mul(64)
    } else {
        soff
    };
    let off = (x.inst.imm as u32).wrapping_add(soff);
    let buffer = name.starts_with("s_buffer");
    let (addr, limit) = if buffer {
        let r = BufferRsrc::read(w, sbase);
        (
            r.base.wrapping_add(u64::from(off)),
            Some((off, r.num_records)),
        )
    } else {
        (
            w.s64(usize::from(sbase))
                .wrapping_add(off as i32 as i64 as u64),
            None,
        )
    };
    let addr = addr & !3;
    // Buffer dwords past num_records read 0 and are not written (no fault), as on hardware.
    let in_range = |k: u32| match limit {
        Some((o, n)) => u64::from(o & !3) + 4 * u64::from(k) + 4 <= u64::from(n),
        None => true,
    };
    let n = (0..dwords).take_while(|&k| in_range(k)).count() as u64;
    let addr = if n > 0 {
        // An end past the top of the address space wraps below `addr`: the check faults.
        addr.wrapping_add(cx.mem.span(addr, addr.wrapping_add(4 * n), is_store)?)
    } else {
        addr
    };
    // Aligned 8-byte pieces are single 64-bit host accesses (`s_load_dwordx2` of a 64-bit
    // atomic, as for vector memory).
    let mut buf = [0u32; 16];
    let (buf, live) = (&mut buf[..dwords as usize], n as usize);
    if is_load {
        // SAFETY: [addr, addr + 4n) was checked against the memory map above.
        unsafe { read_dwords(addr, &mut buf[..live]) };
        for (k, &v) in buf.iter().enumerate() {
            w.s[(usize::from(d) + k) & 127] = v;
        }
    } else {
        let data = first_sgpr(x.inst.src[2]);
        for (k, b) in buf[..live].iter_mut().enumerate() {
            *b = w.s[(usize::from(data) + k) & 127];
        }
        // SAFETY: checked above.
        unsafe { write_dwords(addr, &buf[..live]) };
        w.unfenced_stores |= crate::wave::UNFENCED_SCALAR;
    }
    Ok(Flow::Next)
}

/// Scalar atomics: the address as for loads, data (and compare value) in SDATA, the old value
/// back into SDATA with GLC.
fn atomic(
    w: &mut Wave,
    x: &XInst,
    cx: &mut ExecCtx,
    op: AtomicOp,
    wide: bool,
) -> Result<Flow, ExecFault> {
    let sbase = first_sgpr(x.inst.src[0]);
    let soff = if x.inst.src[1].is_none() {
        0
    } else {
        w.read32(x.src[1])
    };
    let off = (x.inst.imm as u32).wrapping_add(soff);
    let addr = if x.inst.op.name().starts_with("s_buffer") {
        BufferRsrc::read(w, sbase).base.wrapping_add(u64::from(off))
    } else {
        w.s64(usize::from(sbase))
            .wrapping_add(off as i32 as i64 as u64)
    };
    let size = if wide { 8 } else { 4 };
    // (An end that wraps past the top of the address space fails the check.)
    let addr = addr.wrapping_add(cx.mem.span(addr, addr.wrapping_add(size), true)?);
    let d = usize::from(first_sgpr(x.inst.dst));
    let n = if wide { 2 } else { 1 };
    let get = |w: &Wave, r: usize| {
        if wide {
            w.s64(r)
        } else {
            u64::from(w.s[r & 127])
        }
    };
    let (data, cmp) = (get(w, d), get(w, d + n));
    // SAFETY: [addr, addr + size) was checked against the memory map above.
    let old = unsafe { host_atomic(op, addr, data, cmp, wide) }.ok_or(ExecFault {
        kind: FaultKind::MemoryViolation {
            address: addr,
            write: true,
        },
        lane: None,
        address: Some(addr),
    })?;
    if x.inst.mem_flags().has(softhsa_isa::MemFlags::GLC) {
        if wide {
            w.set_s64(d, old);
        } else {
            w.s[d & 127] = old as u32;
        }
    }
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_vsharp_round_trips() {
        let v = crate::wave::private_vsharp(0x7f12_3456_7890);
        let r = BufferRsrc::from_words(v);
        assert_eq!(r.base, 0x7f12_3456_7890);
        assert!(r.swizzle && r.add_tid);
        assert_eq!((r.stride, r.index_stride), (0, 64));
    }
}
