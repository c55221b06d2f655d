//! The DS instructions beyond plain LDS reads, writes and atomics (`exec::ds`): the `src2`
//! forms, `ds_read/write_addtid_b32`, `ds_append`/`ds_consume`, `ds_condxchg32_rtn_b64`, and
//! every GDS access (`gds` bit): GWS instructions go to [`super::gws`]; other GDS accesses fault
//! as GDS range errors (memory violations), because ROCm gives user-mode queues no GDS — its
//! size is 0, so every GDS address is out of range, as on a gfx9 board under ROCm.

use super::ds::{atomic, offset16, vreg};
use super::{fault, ExecCtx, ExecFault, Flow};
use crate::fault::FaultKind;
use crate::lds::Lds;
use crate::program::XInst;
use crate::wave::{Wave, M0};

/// DS opcodes (GFX9).
mod opc {
    pub const WRITE_ADDTID: u16 = 0x1d;
    pub const CONDXCHG32_RTN_B64: u16 = 0x7e;
    pub const READ_ADDTID: u16 = 0xb6;
    pub const CONSUME: u16 = 0xbd;
    pub const APPEND: u16 = 0xbe;
    pub const ORDERED_COUNT: u16 = 0xbf;
}

/// A DS instruction with the GDS bit.
pub fn gds(w: &mut Wave, x: &XInst) -> Flow {
    if let Some(f) = super::gws::exec(w, x) {
        return f;
    }
    let exec = w.exec();
    if exec == 0 {
        return Flow::Next;
    }
    let lane = exec.trailing_zeros();
    let offset = offset16(&x.inst);
    let base = w.s[M0] >> 16;
    let opc = x.inst.op.opcode();
    // append/consume/ordered_count address M0's base plus the offset; others add the VGPR.
    let addr = match (opc, x.inst.src[0].vgpr_index()) {
        (opc::CONSUME | opc::APPEND | opc::ORDERED_COUNT, _) | (_, None) => base + offset,
        (_, Some(r)) => base
            .wrapping_add(w.v[usize::from(r)][lane as usize])
            .wrapping_add(offset),
    };
    Flow::Fault(Box::new(ExecFault {
        kind: FaultKind::MemoryViolation {
            address: u64::from(addr),
            write: true,
        },
        lane: Some(lane),
        address: Some(u64::from(addr)),
    }))
}

/// The LDS DS ops `exec::ds` leaves to this module.
pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    let opc = x.inst.op.opcode();
    let exec = w.exec();
    let lds = &mut *cx.lds;
    let offset = offset16(&x.inst);
    let lanes = (0..64usize).filter(|l| exec >> l & 1 != 0);
    match opc {
        0x80..=0x95 | 0xc0..=0xd3 => return src2(w, x, lds),
        opc::READ_ADDTID | opc::WRITE_ADDTID => {
            let base = offset.wrapping_add(w.s[M0] & 0xffff);
            let (dst, data) = (vreg_dst(x), vreg(x.src[1]));
            for l in lanes {
                let a = base.wrapping_add(4 * l as u32);
                if opc == opc::READ_ADDTID {
                    w.v[dst][l] = lds.read_u32(a);
                } else {
                    lds.write_u32(a, w.v[data][l]);
                }
            }
        }
        opc::APPEND | opc::CONSUME => {
            // One update of the counter for the whole wave; every active lane gets the old value.
            let a = w.s[M0].wrapping_add(offset);
            let old = lds.read_u32(a);
            let n = exec.count_ones();
            let new = if opc == opc::APPEND {
                old.wrapping_add(n)
            } else {
                old.wrapping_sub(n)
            };
            lds.write_u32(a, new);
            let dst = vreg_dst(x);
            for l in lanes {
                w.v[dst][l] = old;
            }
        }
        opc::CONDXCHG32_RTN_B64 => {
            let (a_reg, data, dst) = (vreg(x.src[0]), vreg(x.src[1]), vreg_dst(x));
            for l in lanes {
                let a0 = w.v[a_reg][l].wrapping_add(offset) & 0xfff8;
                for k in 0..2 {
                    let a = a0 + 4 * k as u32;
                    let old = lds.read_u32(a);
                    let d = w.v[(data + k) & 255][l];
                    if d >> 31 != 0 {
                        lds.write_u32(a, d & 0x7fff_ffff);
                    }
                    w.v[(dst + k) & 255][l] = old;
                }
            }
        }
        // GDS-only: without the GDS bit there is no ordered-count unit to talk to.
        opc::ORDERED_COUNT => return gds(w, x),
        _ => return fault(FaultKind::IllegalInstruction),
    }
    Flow::Next
}

fn vreg_dst(x: &XInst) -> usize {
    usize::from(x.inst.dst.vgpr_index().unwrap_or(0))
}

/// `ds_<op>_src2_<type>`: `MEM[A] = op(MEM[A], MEM[B])` per lane. With offset1[7] clear,
/// `A = addr` and `B = A + 4 * sext15({offset1[6:0], offset0})`; with it set, the offset is per
/// lane: `A = addr[16:0]`, `B = A + 4 * sext15(addr[31:17])` (Vega ISA §10.3).
fn src2(w: &Wave, x: &XInst, lds: &mut Lds) -> Flow {
    let opc = x.inst.op.opcode();
    let wide = opc >= 0xc0;
    let a_op = opc & 0x1f;
    let imm = offset16(&x.inst);
    let per_lane = imm & 0x8000 != 0;
    let sext15 = |v: u32| ((v << 17) as i32 >> 17) as u32;
    let a_reg = vreg(x.src[0]);
    let exec = w.exec();
    for l in (0..64usize).filter(|l| exec >> l & 1 != 0) {
        let v = w.v[a_reg][l];
        let (a, delta) = if per_lane {
            (v & 0x1_ffff, sext15(v >> 17))
        } else {
            (v, sext15(imm & 0x7fff))
        };
        let b = a.wrapping_add(delta.wrapping_mul(4));
        let read = |lds: &Lds, at: u32| {
            if wide {
                lds.read_u64(at)
            } else {
                u64::from(lds.read_u32(at))
            }
        };
        let (old, data) = (read(lds, a), read(lds, b));
        let Some(new) = atomic(a_op, old, data, 0, wide) else {
            return fault(FaultKind::IllegalInstruction);
        };
        if wide {
            lds.write_u64(a, new);
        } else {
            lds.write_u32(a, new as u32);
        }
    }
    Flow::Next
}
