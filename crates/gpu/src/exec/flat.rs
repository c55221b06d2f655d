//! FLAT, GLOBAL and SCRATCH instructions. FLAT addresses route per lane: the shared aperture
//! to LDS, the private aperture to the wave's scratch (swizzled per dword), anything else to
//! global memory.

use super::vmem::{access, rmw, DwordAddrs, VmemKind};
use super::{fault, ExecCtx, ExecFault, Flow};
use crate::fault::FaultKind;
use crate::lds::{swizzle_private, Lds};
use crate::program::XInst;
use crate::wave::{data_reg, dnext, Wave, FLAT_SCRATCH_LO};
use crate::{APERTURE_SIZE, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use softhsa_isa::{Encoding, MemFlags};

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    match run(w, x, cx) {
        Ok(()) => Flow::Next,
        Err(e) => Flow::Fault(Box::new(e)),
    }
}

fn run(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Result<(), ExecFault> {
    let Some(kind) = x.vmem else {
        return match fault(FaultKind::Unimplemented) {
            Flow::Fault(f) => Err(*f),
            _ => Ok(()),
        };
    };
    let inst = &x.inst;
    let exec = w.exec();
    let vaddr = usize::from(inst.src[0].vgpr_index().unwrap_or(0));
    let saddr = (!inst.src[2].is_none()).then(|| inst.src[2]);
    let off = i64::from(inst.imm);
    let vdata = data_reg(inst.src[1]);
    let vdst = data_reg(inst.dst);
    let glc = inst.mem_flags().has(MemFlags::GLC);
    let (dwords, len, write) = match kind {
        VmemKind::Load { dwords, bytes, .. } => (usize::from(dwords), u32::from(bytes), false),
        VmemKind::Store { dwords, bytes, .. } => (usize::from(dwords), u32::from(bytes), true),
        VmemKind::Atomic { wide, .. } => (1 + usize::from(wide), 4 << u32::from(wide), true),
        VmemKind::Fence => return Ok(()),
    };
    let private = (cx.private_size, len, write);
    let mut addr: DwordAddrs = [[0; 64]; 4];
    let lanes = (0..64usize).filter(|l| exec >> l & 1 != 0);
    match inst.enc {
        Encoding::Global => {
            for l in lanes {
                let a = match saddr {
                    Some(s) => w
                        .s64(usize::from(s.raw() & 127))
                        .wrapping_add(u64::from(w.v[vaddr][l])),
                    None => u64::from(w.v[vaddr][l]) | u64::from(w.v[(vaddr + 1) & 255][l]) << 32,
                };
                addr[0][l] = a.wrapping_add(off as u64);
            }
            access(
                w,
                &mut cx.mem,
                kind,
                &mut addr,
                true,
                exec,
                vdata,
                vdst,
                glc,
            )
        }
        Encoding::Scratch => {
            let fs = w.s64(FLAT_SCRATCH_LO);
            // The address is the VGPR part plus the SGPR part, either of which may be absent
            // (gfx940 may have both or neither; earlier processors one of the two).
            let vpart = !inst.src[0].is_none();
            let spart = saddr.map_or(0, |s| w.s[usize::from(s.raw() & 127)]);
            for l in lanes {
                let base = spart.wrapping_add(if vpart { w.v[vaddr][l] } else { 0 });
                let p = (i64::from(base) + off) as u32;
                check_private(p, private, l)?;
                for (k, a) in addr.iter_mut().enumerate().take(dwords) {
                    a[l] = fs.wrapping_add(swizzle_private(p.wrapping_add(4 * k as u32), l as u32));
                }
            }
            access(
                w,
                &mut cx.mem,
                kind,
                &mut addr,
                false,
                exec,
                vdata,
                vdst,
                glc,
            )
        }
        _ => {
            let fs = w.s64(FLAT_SCRATCH_LO);
            let mut lds_mask = 0u64;
            let mut priv_mask = 0u64;
            for l in lanes {
                let a = (u64::from(w.v[vaddr][l]) | u64::from(w.v[(vaddr + 1) & 255][l]) << 32)
                    .wrapping_add(off as u64);
                if a.wrapping_sub(SHARED_APERTURE_BASE) < APERTURE_SIZE {
                    lds_mask |= 1 << l;
                    addr[0][l] = a - SHARED_APERTURE_BASE;
                } else if a.wrapping_sub(PRIVATE_APERTURE_BASE) < APERTURE_SIZE {
                    priv_mask |= 1 << l;
                    let p = (a - PRIVATE_APERTURE_BASE) as u32;
                    check_private(p, private, l)?;
                    for (k, d) in addr.iter_mut().enumerate().take(dwords) {
                        d[l] = fs
                            .wrapping_add(swizzle_private(p.wrapping_add(4 * k as u32), l as u32));
                    }
                } else {
                    addr[0][l] = a;
                }
            }
            let global = exec & !lds_mask & !priv_mask;
            if global == exec {
                return access(
                    w,
                    &mut cx.mem,
                    kind,
                    &mut addr,
                    true,
                    exec,
                    vdata,
                    vdst,
                    glc,
                );
            }
            if lds_mask != 0 {
                lds_access(w, cx.lds, kind, &addr, lds_mask, vdata, vdst, glc)?;
            }
            if priv_mask != 0 {
                access(
                    w,
                    &mut cx.mem,
                    kind,
                    &mut addr,
                    false,
                    priv_mask,
                    vdata,
                    vdst,
                    glc,
                )?;
            }
            if global != 0 {
                // Global lanes of a mixed access: contiguous dwords from addr[0].
                let mut g: DwordAddrs = [[0; 64]; 4];
                g[0] = addr[0];
                access(w, &mut cx.mem, kind, &mut g, true, global, vdata, vdst, glc)?;
            }
            Ok(())
        }
    }
}

/// A private (scratch) access must stay inside the work-item's private segment: beyond it is
/// a memory violation at the flat address (a stack overflow, typically).
/// `private` = (segment size, access length, write).
fn check_private(p: u32, private: (u32, u32, bool), lane: usize) -> Result<(), ExecFault> {
    let (size, len, write) = private;
    if u64::from(p) + u64::from(len) <= u64::from(size) {
        return Ok(());
    }
    let address = PRIVATE_APERTURE_BASE + u64::from(p);
    Err(ExecFault {
        kind: FaultKind::MemoryViolation { address, write },
        lane: Some(lane as u32),
        address: Some(address),
    })
}

/// FLAT lanes that address the shared aperture: LDS loads, stores and atomics (32/64-bit).
#[allow(clippy::too_many_arguments)]
fn lds_access(
    w: &mut Wave,
    lds: &mut Lds,
    kind: VmemKind,
    addr: &DwordAddrs,
    mask: u64,
    vdata: usize,
    vdst: usize,
    glc: bool,
) -> Result<(), ExecFault> {
    for l in (0..64usize).filter(|l| mask >> l & 1 != 0) {
        let a = addr[0][l] as u32;
        match kind {
            VmemKind::Load {
                bytes: 4.., dwords, ..
            } => {
                for k in 0..usize::from(dwords) {
                    w.dreg_mut(dnext(vdst, k))[l] = lds.read_u32(a + 4 * k as u32);
                }
            }
            VmemKind::Load {
                bytes, sext, d16, ..
            } => {
                let raw = if bytes == 1 {
                    u32::from(lds.read_u8(a))
                } else {
                    u32::from(lds.read_u16(a))
                };
                let bits = 8 * u32::from(bytes);
                let v = if sext {
                    (((raw << (32 - bits)) as i32) >> (32 - bits)) as u32
                } else {
                    raw
                };
                let old = w.dreg(vdst)[l];
                w.dreg_mut(vdst)[l] = match d16 {
                    None => v,
                    Some(false) => (old & 0xffff_0000) | (v & 0xffff),
                    Some(true) => (old & 0xffff) | v << 16,
                };
            }
            VmemKind::Store {
                bytes: 4.., dwords, ..
            } => {
                for k in 0..usize::from(dwords) {
                    lds.write_u32(a + 4 * k as u32, w.dreg(dnext(vdata, k))[l]);
                }
            }
            VmemKind::Store { bytes, hi, .. } => {
                let v = w.dreg(vdata)[l] >> if hi { 16 } else { 0 };
                if bytes == 1 {
                    lds.write_u8(a, v as u8);
                } else {
                    lds.write_u16(a, v as u16);
                }
            }
            VmemKind::Atomic { op, wide } => {
                let n = 1 + usize::from(wide);
                let get = |r: usize| {
                    (0..n).fold(0u64, |v, k| {
                        v | u64::from(w.dreg(dnext(r, k))[l]) << (32 * k)
                    })
                };
                let (data, cmp) = (get(vdata), get(dnext(vdata, n)));
                let old = if wide {
                    lds.read_u64(a)
                } else {
                    u64::from(lds.read_u32(a))
                };
                let new = rmw(op, old, data, cmp, wide);
                if wide {
                    lds.write_u64(a, new);
                } else {
                    lds.write_u32(a, new as u32);
                }
                if glc {
                    for k in 0..n {
                        w.dreg_mut(dnext(vdst, k))[l] = (old >> (32 * k)) as u32;
                    }
                }
            }
            VmemKind::Fence => {}
        }
    }
    Ok(())
}
