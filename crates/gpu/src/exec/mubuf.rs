//! MUBUF: buffer loads, stores and atomics through a V# (including the swizzled private
//! segment buffer of the ABI).

use super::smem::BufferRsrc;
use super::vmem::{access, DwordAddrs, VmemKind};
use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::wave::{data_reg, dnext, Wave};
use softhsa_isa::MemFlags;
use std::sync::atomic::{fence, Ordering};

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    let Some(kind) = x.vmem else {
        return fault(FaultKind::Unimplemented);
    };
    if kind == VmemKind::Fence {
        fence(Ordering::AcqRel);
        return Flow::Next;
    }
    let inst = &x.inst;
    let flags = inst.mem_flags();
    if flags.has(MemFlags::LDS) {
        return fault(FaultKind::Unimplemented);
    }
    let r = BufferRsrc::read(w, (inst.src[2].raw() & 127) as u8);
    let soffset = u64::from(w.read32(x.src[3]));
    let vaddr = usize::from(inst.src[0].vgpr_index().unwrap_or(0));
    let (idxen, offen) = (flags.has(MemFlags::IDXEN), flags.has(MemFlags::OFFEN));
    let esize = 4u64;
    let dwords = match kind {
        VmemKind::Load { dwords, .. } | VmemKind::Store { dwords, .. } => usize::from(dwords),
        VmemKind::Atomic { wide, .. } => 1 + usize::from(wide),
        VmemKind::Fence => 0,
    };
    let bytes = match kind {
        VmemKind::Load { bytes, .. } | VmemKind::Store { bytes, .. } => u64::from(bytes),
        _ => 4 * dwords as u64,
    };
    let mut mask = w.exec();
    let mut addr: DwordAddrs = [[0; 64]; 4];
    for l in 0..64usize {
        if mask >> l & 1 == 0 {
            continue;
        }
        let mut index = if idxen { u64::from(w.v[vaddr][l]) } else { 0 };
        let voff = if offen {
            u64::from(w.v[(vaddr + usize::from(idxen)) & 255][l])
        } else {
            0
        };
        if r.add_tid {
            index += l as u64;
        }
        let offset = voff + (inst.imm as u32 as u64);
        // Out-of-range elements read 0 and drop writes (no fault), as on hardware.
        let in_range = if r.stride == 0 || !idxen && !r.add_tid {
            r.swizzle || offset + bytes <= u64::from(r.num_records)
        } else {
            index < u64::from(r.num_records)
        };
        if !in_range {
            mask &= !(1 << l);
            continue;
        }
        for (k, a) in addr.iter_mut().enumerate().take(dwords.max(1)) {
            let off = offset + 4 * k as u64;
            a[l] = if r.swizzle {
                let is = u64::from(r.index_stride);
                let (imsb, ilsb) = (index / is, index % is);
                let (omsb, olsb) = (off / esize, off % esize);
                r.base
                    + soffset
                    + (imsb * u64::from(r.stride) + omsb * esize) * is
                    + ilsb * esize
                    + olsb
            } else {
                r.base + soffset + index * u64::from(r.stride) + off
            };
        }
    }
    // Lanes out of range still return 0 on loads.
    if let VmemKind::Load { .. } = kind {
        let dst = data_reg(inst.dst);
        let dropped = w.exec() & !mask;
        for k in 0..dwords {
            for l in (0..64).filter(|l| dropped >> l & 1 != 0) {
                w.dreg_mut(dnext(dst, k))[l] = 0;
            }
        }
    }
    let vdata = data_reg(inst.src[1]);
    let vdst = if inst.dst.is_none() {
        vdata
    } else {
        data_reg(inst.dst)
    };
    match access(
        w,
        &mut cx.mem,
        kind,
        &mut addr,
        !r.swizzle,
        mask,
        vdata,
        vdst,
        flags.has(MemFlags::GLC),
    ) {
        Ok(()) => Flow::Next,
        Err(e) => Flow::Fault(Box::new(e)),
    }
}
