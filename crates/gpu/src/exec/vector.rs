//! VALU glue: reads sources (VGPR, broadcast scalar, constants), applies SDWA selects and DPP
//! lane moves, calls the gpu-valu lane semantics, and writes back under EXEC. Also the lane ops
//! that are not arithmetic (readlane, writelane, readfirstlane, movrel, swap).

use super::int32;
use super::lanes::{dpp_apply, sdwa_place, sdwa_select};
use super::operand::Src;
use super::{fault, ExecCtx, Flow};
use crate::fault::FaultKind;
use crate::program::XInst;
use crate::valu::{self, DstHalf, LaneArray, Mode, OpInfo, ValuOp};
use crate::wave::{Wave, M0, VCC_LO};
use softhsa_isa::{Encoding, Ext, Op, OpFlags, Operand};

/// Fills `dst` with operand `s` for all 64 lanes (64-bit when `wide`).
#[inline]
fn fill(dst: &mut LaneArray, w: &Wave, s: Src, wide: bool) {
    let regs = match s {
        Src::V(_) => Some(&w.v.0),
        Src::A(_) => Some(&w.a.0),
        _ => None,
    };
    match (s, regs) {
        (Src::V(r) | Src::A(r), Some(file)) => {
            let r = usize::from(r);
            if wide {
                widen_pair(dst, &file[r], &file[(r + 1) & 255]);
            } else {
                widen(dst, &file[r]);
            }
        }
        (other, _) => {
            let v = if wide {
                w.read64(other)
            } else {
                u64::from(w.read32(other))
            };
            dst.fill(v);
        }
    }
}

// Small separate loops, so the compiler vectorizes them (zero-extension by unpacking).
#[inline(never)]
fn widen(dst: &mut LaneArray, lo: &[u32; 64]) {
    for (d, &s) in dst.iter_mut().zip(lo) {
        *d = u64::from(s);
    }
}

#[inline(never)]
fn widen_pair(dst: &mut LaneArray, lo: &[u32; 64], hi: &[u32; 64]) {
    for ((d, &l), &h) in dst.iter_mut().zip(lo).zip(hi) {
        *d = u64::from(l) | u64::from(h) << 32;
    }
}

/// Writes `vals` (low 32 bits, or 64 when `wide`) into VGPR `d` for the lanes of `mask`.
#[inline]
fn write_v(w: &mut Wave, d: usize, vals: &LaneArray, mask: u64, wide: bool) {
    narrow(&mut w.v[d], vals, mask, 0);
    if wide {
        narrow(&mut w.v[(d + 1) & 255], vals, mask, 32);
    }
}

/// `dst[l] = vals[l] >> shift` for the lanes of `mask` (all lanes: a vectorized loop).
#[inline(never)]
fn narrow(dst: &mut [u32; 64], vals: &LaneArray, mask: u64, shift: u32) {
    if mask == u64::MAX {
        for (d, &v) in dst.iter_mut().zip(vals) {
            *d = (v >> shift) as u32;
        }
    } else {
        for (l, (d, &v)) in dst.iter_mut().zip(vals).enumerate() {
            if mask >> l & 1 != 0 {
                *d = (v >> shift) as u32;
            }
        }
    }
}

fn vgpr(o: Operand) -> usize {
    usize::from(o.vgpr_index().unwrap_or(0))
}

pub fn exec(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    if x.src[..3].contains(&Src::LdsDirect) {
        let r = lds_direct(w, x, cx);
        return exec_gpr_idx(w, &r, cx);
    }
    exec_gpr_idx(w, x, cx)
}

/// `x` with its LDS_DIRECT source replaced by the value it reads: the LDS at M0[15:0], of the
/// type M0[18:16] names (0 u8, 1 u16, 2 dword, 4 i8, 5 i16), the same for every lane.
fn lds_direct(w: &Wave, x: &XInst, cx: &ExecCtx) -> XInst {
    let m0 = w.s[M0];
    let a = m0 & 0xffff;
    let v = match (m0 >> 16) & 7 {
        0 => u32::from(cx.lds.read_u8(a)),
        1 => u32::from(cx.lds.read_u16(a)),
        4 => cx.lds.read_u8(a) as i8 as i32 as u32,
        5 => cx.lds.read_u16(a) as i16 as i32 as u32,
        _ => cx.lds.read_u32(a),
    };
    let mut r = x.clone();
    for s in r.src.iter_mut().filter(|s| **s == Src::LdsDirect) {
        *s = Src::Imm(u64::from(v));
    }
    r
}

fn exec_gpr_idx(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    if w.gpr_index {
        let r = relocated(w, x);
        return exec_inst(w, &r, cx);
    }
    exec_inst(w, x, cx)
}

/// `x` with its VGPR operands offset by M0[7:0] where M0[15:12] enables it (src0, src1,
/// src2, dst).
fn relocated(w: &Wave, x: &XInst) -> XInst {
    let m0 = w.s[M0];
    let (idx, mode) = ((m0 & 0xff) as u8, (m0 >> 12) & 15);
    let mut r = x.clone();
    for i in 0..3 {
        if let (true, Src::V(v)) = (mode >> i & 1 != 0, r.src[i]) {
            r.src[i] = Src::V(v.wrapping_add(idx));
        }
    }
    if mode & 8 != 0 && r.inst.dst.is_vgpr() {
        r.inst.dst =
            Operand(256 + u16::from((r.inst.dst.0 - 256) as u8).wrapping_add(u16::from(idx)) % 256);
    }
    r
}

#[inline]
fn exec_inst(w: &mut Wave, x: &XInst, cx: &mut ExecCtx) -> Flow {
    if x.matrix {
        return super::matrix::exec(w, x, cx);
    }
    if let Some(op) = x.int32 {
        let carry = int32::exec(w, op, &x.src, vgpr(x.inst.dst));
        if op.writes_carry() {
            w.set_s64(mask_target(x, true), carry);
        }
        return Flow::Next;
    }
    match (x.valu, &x.vinfo) {
        (Some(op), Some(info)) => arith(w, x, cx, op, info),
        _ => lane_op(w, x),
    }
}

/// The scalar mask register a compare or carry writes: VCC unless the encoding names another.
fn mask_target(x: &XInst, writes_vgpr: bool) -> usize {
    // SDWA VOPC names its sdst in `dst` (the decoder's choice); accept `sdst` there as well.
    let sdwa_sdst = x.inst.enc == Encoding::Sdwa && !x.inst.sdst.is_none();
    let named = if writes_vgpr || sdwa_sdst {
        x.inst.sdst
    } else {
        x.inst.dst
    };
    match named.sgpr_index() {
        Some(i) if !named.is_none() => usize::from(i),
        _ => VCC_LO,
    }
}

fn arith(w: &mut Wave, x: &XInst, cx: &mut ExecCtx, op: ValuOp, info: &OpInfo) -> Flow {
    let exec = w.exec();
    let inst = &x.inst;
    let inp = &mut *cx.vin;
    let n = usize::from(info.num_src);
    for i in 0..n.min(3) {
        fill(&mut inp.src[i], w, x.src[i], info.src[i].is_64());
    }
    let flags = inst.op.flags();
    if flags.has(OpFlags::MADK) {
        // K is the literal: madmk = src0 * K + src1, madak = src0 * src1 + K.
        let k = u64::from(inst.literal);
        if inst.op.name().contains("madmk") || inst.op.name().contains("fmamk") {
            // The decoder gives madmk in mad order (src0, K, src1); the addend is src[2].
            let addend = if x.src[2] != Src::None {
                x.src[2]
            } else {
                x.src[1]
            };
            fill(&mut inp.src[2], w, addend, false);
            inp.src[1] = [k; 64];
        } else {
            inp.src[2] = [k; 64];
        }
    } else if n == 3 && x.src[2] == Src::None {
        // VOP2 v_mac/v_fmac: the accumulator is the destination register.
        fill(
            &mut inp.src[2],
            w,
            Src::V(vgpr(inst.dst) as u8),
            info.src[2].is_64(),
        );
    }
    if info.reads_mask {
        inp.mask_in = if n < 3 && x.src[2] != Src::None {
            w.read64(x.src[2])
        } else {
            w.vcc()
        };
    }
    let m = inst.mods;
    inp.abs = m.abs;
    inp.neg = m.neg;
    inp.neg_hi = m.neg_hi;
    inp.op_sel = m.op_sel;
    inp.op_sel_hi = if inst.enc == Encoding::Vop3p {
        m.op_sel_hi
    } else {
        0b111
    };
    inp.clamp = m.clamp;
    inp.omod = m.omod;
    inp.mode = Mode::from_bits(w.mode);
    inp.exec = exec;
    let mut write_mask = exec;
    match &inst.ext {
        Ext::Sdwa(s) => {
            for (i, sel) in [s.src0_sel, s.src1_sel]
                .into_iter()
                .enumerate()
                .take(n.min(2))
            {
                let sext = s.sext >> i & 1 != 0;
                for v in inp.src[i].iter_mut() {
                    *v = u64::from(sdwa_select(*v as u32, sel, sext));
                }
            }
        }
        Ext::Dpp(d) => {
            write_mask &= dpp_apply(
                &mut inp.src[0],
                d.ctrl,
                d.row_mask,
                d.bank_mask,
                d.bound_ctrl,
                exec,
            );
        }
        _ => {}
    }
    let out = &mut *cx.vout;
    if valu::execute(op, inp, out).is_err() {
        return fault(FaultKind::Unimplemented);
    }
    if info.writes_vgpr {
        let d = vgpr(inst.dst);
        match (out.dst_half, &inst.ext) {
            (DstHalf::Full, Ext::Sdwa(s)) if s.dst_sel != 6 => {
                for l in 0..64 {
                    if write_mask >> l & 1 != 0 {
                        let old = w.v[d][l];
                        w.v[d][l] = sdwa_place(out.dst[l] as u32, old, s.dst_sel, s.dst_unused);
                    }
                }
            }
            (DstHalf::Full, _) => write_v(w, d, &out.dst, write_mask, info.dst.is_64()),
            (DstHalf::LoKeepHi, _) => {
                for l in 0..64 {
                    if write_mask >> l & 1 != 0 {
                        w.v[d][l] = (w.v[d][l] & 0xffff_0000) | (out.dst[l] as u32 & 0xffff);
                    }
                }
            }
            (DstHalf::HiKeepLo, _) => {
                for l in 0..64 {
                    if write_mask >> l & 1 != 0 {
                        w.v[d][l] = (w.v[d][l] & 0xffff) | (out.dst[l] as u32) << 16;
                    }
                }
            }
        }
    }
    if info.writes_mask {
        let t = mask_target(x, info.writes_vgpr);
        w.set_s64(t, out.mask);
    }
    if info.writes_exec {
        w.set_exec(out.mask);
    }
    Flow::Next
}

/// Lane ops outside the arithmetic module.
fn lane_op(w: &mut Wave, x: &XInst) -> Flow {
    let inst = &x.inst;
    let exec = w.exec();
    match inst.op {
        Op::V_MQSAD_U32_U8 => return super::wide_sad::mqsad_u32_u8(w, x),
        Op::V_READLANE_B32 => {
            let lane = (w.read32(x.src[1]) & 63) as usize;
            let v = match x.src[0] {
                Src::V(r) => w.v[usize::from(r)][lane],
                s => w.read32(s),
            };
            w.write_s32((inst.dst.raw() & 127) as u8, v);
        }
        Op::V_READFIRSTLANE_B32 => {
            let lane = if exec == 0 {
                0
            } else {
                exec.trailing_zeros() as usize
            };
            let v = match x.src[0] {
                Src::V(r) => w.v[usize::from(r)][lane],
                s => w.read32(s),
            };
            // VOP1 form: the destination field names an SGPR (or VCC/M0...) by its code; the
            // decoder may present it as a VGPR code, so reduce to the scalar range.
            w.write_s32((inst.dst.raw() & 127) as u8, v);
        }
        Op::V_WRITELANE_B32 => {
            let lane = (w.read32(x.src[1]) & 63) as usize;
            let v = w.read32(x.src[0]);
            w.v[vgpr(inst.dst)][lane] = v;
        }
        _ => return named_lane_op(w, x, exec),
    }
    Flow::Next
}

/// Lane ops the isa table may spell differently across versions: matched by name (rare ops).
fn named_lane_op(w: &mut Wave, x: &XInst, exec: u64) -> Flow {
    let inst = &x.inst;
    let m0 = w.s[M0] as usize;
    let src_v = || match x.src[0] {
        Src::V(r) => Some(usize::from(r)),
        _ => None,
    };
    match inst.op.name() {
        "v_nop" | "v_clrexcp" => {}
        "v_movrels_b32" | "v_movreld_b32" | "v_movrelsd_b32" => {
            let d = vgpr(inst.dst)
                + if inst.op.name() == "v_movrels_b32" {
                    0
                } else {
                    m0
                };
            let vals: [u32; 64] = match (src_v(), inst.op.name()) {
                (Some(s), "v_movreld_b32") => w.v[s],
                (Some(s), _) => w.v[(s + m0) & 255],
                (None, _) => [w.read32(x.src[0]); 64],
            };
            let d = d & 255;
            for (l, &v) in vals.iter().enumerate() {
                if exec >> l & 1 != 0 {
                    w.v[d][l] = v;
                }
            }
        }
        "v_swap_b32" => {
            let (a, Some(b)) = (vgpr(inst.dst), src_v()) else {
                return fault(FaultKind::IllegalInstruction);
            };
            for l in 0..64 {
                if exec >> l & 1 != 0 {
                    let t = w.v[a][l];
                    w.v[a][l] = w.v[b][l];
                    w.v[b][l] = t;
                }
            }
        }
        _ => return fault(FaultKind::Unimplemented),
    }
    Flow::Next
}
