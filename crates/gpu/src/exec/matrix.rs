//! Matrix-core instructions (`v_mfma_*`) and the AGPR moves (`v_accvgpr_read/write/mov_b32`):
//! operand registers in, [`crate::valu::mfma`] for the arithmetic, destination registers out.

use super::operand::Src;
use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::valu::mfma::{self, Arch, Mods, Shape};
use crate::wave::Wave;
use softhsa_isa::{Gfx, Op, Operand};

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    match x.inst.op {
        Op::V_ACCVGPR_READ_B32 | Op::V_ACCVGPR_WRITE_B32 | Op::V_ACCVGPR_MOV_B32 => {
            move_lanes(w, x)
        }
        _ => mfma_op(w, x, cx.prog.gfx),
    }
}

/// A register operand's file and index (`None` for scalars and constants).
fn file_of(o: Operand) -> Option<(bool, usize)> {
    match (o.vgpr_index(), o.agpr_index()) {
        (Some(v), _) => Some((false, usize::from(v))),
        (_, Some(a)) => Some((true, usize::from(a))),
        _ => None,
    }
}

/// The AGPR moves: one 32-bit value per active lane, between the files.
fn move_lanes(w: &mut Wave, x: &XInst) -> Flow {
    let exec = w.exec();
    let vals: [u32; 64] = match x.src[0] {
        Src::V(r) => w.v[usize::from(r)],
        Src::A(r) => w.a[usize::from(r)],
        s => [w.read32(s); 64],
    };
    let Some((agpr, d)) = file_of(x.inst.dst) else {
        return fault(FaultKind::IllegalInstruction);
    };
    let dst = if agpr { &mut w.a[d] } else { &mut w.v[d] };
    for (l, v) in vals.into_iter().enumerate() {
        if exec >> l & 1 != 0 {
            dst[l] = v;
        }
    }
    Flow::Next
}

/// `n` registers of source `s`: register tuples as they are, a scalar or constant (an MFMA's C
/// may be an inline constant) in every lane of every element.
fn regs(w: &Wave, s: Src, n: u32, wide: bool) -> Vec<[u32; 64]> {
    match s {
        Src::V(r) => (0..n)
            .map(|k| w.v[(usize::from(r) + k as usize) & 255])
            .collect(),
        Src::A(r) => (0..n)
            .map(|k| w.a[(usize::from(r) + k as usize) & 255])
            .collect(),
        other => {
            let v = if wide {
                w.read64(other)
            } else {
                u64::from(w.read32(other))
            };
            (0..n)
                .map(|k| {
                    [if wide && k % 2 == 1 {
                        (v >> 32) as u32
                    } else {
                        v as u32
                    }; 64]
                })
                .collect()
        }
    }
}

fn mfma_op(w: &mut Wave, x: &XInst, gfx: Gfx) -> Flow {
    let inst = &x.inst;
    let arch = match gfx {
        Gfx::Gfx908 => Arch::Cdna1,
        Gfx::Gfx90a => Arch::Cdna2,
        Gfx::Gfx940 => Arch::Cdna3,
        _ => return fault(FaultKind::IllegalInstruction),
    };
    let Some(sh) = Shape::parse(inst.op.name(), inst.op.dst_dwords()) else {
        return fault(FaultKind::Unimplemented);
    };
    let m = inst.mai().copied().unwrap_or_default();
    let wide = sh.out_bits == 64;
    let a = regs(w, x.src[0], sh.a_regs(), sh.a.bits() == 64);
    let b = regs(w, x.src[1], sh.b_regs(), sh.b.bits() == 64);
    let mods = Mods {
        cbsz: m.cbsz,
        abid: m.abid,
        blgp: m.blgp,
    };
    let Some((agpr, base)) = file_of(inst.dst) else {
        return fault(FaultKind::IllegalInstruction);
    };
    let mut d = vec![[0u32; 64]; sh.d_regs() as usize];
    if sh.sparse {
        // The accumulator is the destination itself; src2 is the index VGPR.
        let file = if agpr { &w.a } else { &w.v };
        for (k, r) in d.iter_mut().enumerate() {
            *r = file[(base + k) & 255];
        }
        let idx = regs(w, x.src[2], 1, false);
        mfma::execute_sparse(&sh, arch, mods, &a, &b, &idx, &mut d);
    } else {
        let c = regs(w, x.src[2], sh.d_regs(), wide);
        mfma::execute(&sh, arch, mods, &a, &b, &c, &mut d);
    }
    let file = if agpr { &mut w.a } else { &mut w.v };
    for (k, r) in d.into_iter().enumerate() {
        file[(base + k) & 255] = r;
    }
    Flow::Next
}
