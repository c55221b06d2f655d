//! MUBUF: buffer loads, stores and atomics through a V# (including the swizzled private
//! segment buffer of the ABI). Typed accesses (`buffer_*_format_*`, MTBUF) are in
//! [`super::buffer_typed`], loads into LDS in [`super::buffer_lds`]; both address memory
//! through `BufAccess`.

use super::smem::BufferRsrc;
use super::vmem::{access, DwordAddrs, VmemKind};
use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::wave::Wave;
use softhsa_isa::MemFlags;
use std::sync::atomic::{fence, Ordering};

/// The addressing of one buffer instruction: V#, SGPR offset, VGPR index and offset.
pub(super) struct BufAccess {
    pub r: BufferRsrc,
    soffset: u64,
    vaddr: usize,
    idxen: bool,
    offen: bool,
    imm: u64,
}

impl BufAccess {
    pub fn new(w: &Wave, x: &XInst) -> Self {
        let inst = &x.inst;
        let flags = inst.mem_flags();
        BufAccess {
            r: BufferRsrc::read(w, (inst.src[2].raw() & 127) as u8),
            soffset: u64::from(w.read32(x.src[3])),
            vaddr: usize::from(inst.src[0].vgpr_index().unwrap_or(0)),
            idxen: flags.has(MemFlags::IDXEN),
            offen: flags.has(MemFlags::OFFEN),
            imm: u64::from(inst.imm as u32),
        }
    }

    /// Lane `l`'s record index (with ADD_TID) and byte offset in the record.
    pub fn lane(&self, w: &Wave, l: usize) -> (u64, u64) {
        let mut index = if self.idxen {
            u64::from(w.v[self.vaddr][l])
        } else {
            0
        };
        let voff = if self.offen {
            u64::from(w.v[(self.vaddr + usize::from(self.idxen)) & 255][l])
        } else {
            0
        };
        if self.r.add_tid {
            index += l as u64;
        }
        (index, voff + self.imm)
    }

    /// Whether an access of `bytes` at (`index`, `offset`) is in range. Out-of-range elements
    /// read 0 and drop writes (no fault), as on hardware; scratch (ADD_TID without index) and
    /// swizzled raw buffers are not checked.
    pub fn in_range(&self, index: u64, offset: u64, bytes: u64) -> bool {
        let r = &self.r;
        if r.stride == 0 || !self.idxen && !r.add_tid {
            r.swizzle || offset + bytes <= u64::from(r.num_records)
        } else {
            index < u64::from(r.num_records)
        }
    }

    /// The address of byte `off` of record `index` (swizzled with element size 4 when the V#
    /// says so).
    pub fn address(&self, index: u64, off: u64) -> u64 {
        let r = &self.r;
        if r.swizzle {
            let esize = 4u64;
            let is = u64::from(r.index_stride);
            let (imsb, ilsb) = (index / is, index % is);
            let (omsb, olsb) = (off / esize, off % esize);
            r.base
                + self.soffset
                + (imsb * u64::from(r.stride) + omsb * esize) * is
                + ilsb * esize
                + olsb
        } else {
            r.base + self.soffset + index * u64::from(r.stride) + off
        }
    }
}

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    if let Some(f) = super::buffer_typed::exec(w, x, cx) {
        return f;
    }
    if x.inst.op == softhsa_isa::Op::BUFFER_STORE_LDS_DWORD {
        return super::buffer_lds::store_lds_dword(w, x, cx);
    }
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
        return super::buffer_lds::exec(w, x, cx, kind);
    }
    let b = BufAccess::new(w, x);
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
        let (index, offset) = b.lane(w, l);
        if !b.in_range(index, offset, bytes) {
            mask &= !(1 << l);
            continue;
        }
        for (k, a) in addr.iter_mut().enumerate().take(dwords.max(1)) {
            a[l] = b.address(index, offset + 4 * k as u64);
        }
    }
    // Lanes out of range still return 0 on loads.
    if let VmemKind::Load { .. } = kind {
        let dst = usize::from(inst.dst.vgpr_index().unwrap_or(0));
        let dropped = w.exec() & !mask;
        for k in 0..dwords {
            for l in (0..64).filter(|l| dropped >> l & 1 != 0) {
                w.v[(dst + k) & 255][l] = 0;
            }
        }
        texel_fail_status(w, x, dst + dwords);
    }
    let vdata = usize::from(inst.src[1].vgpr_index().unwrap_or(0));
    let vdst = usize::from(inst.dst.vgpr_index().unwrap_or(vdata as u8));
    match access(
        w,
        &mut cx.mem,
        kind,
        &mut addr,
        !b.r.swizzle,
        mask,
        vdata,
        vdst,
        flags.has(MemFlags::GLC),
    ) {
        Ok(()) => Flow::Next,
        Err(e) => Flow::Fault(Box::new(e)),
    }
}

/// TFE: a load also writes the VGPR after its data with the texel-fail status, 0 (buffers are
/// never partially resident).
pub(super) fn texel_fail_status(w: &mut Wave, x: &XInst, reg: usize) {
    if x.inst.mem_flags().has(MemFlags::TFE) {
        let exec = w.exec();
        for l in (0..64).filter(|l| exec >> l & 1 != 0) {
            w.v[reg & 255][l] = 0;
        }
    }
}
