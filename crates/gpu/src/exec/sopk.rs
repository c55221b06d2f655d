//! SOPK: scalar ops with a 16-bit immediate (movk, cmpk, addk, mulk).

use super::salu::dst;
use super::Flow;
use crate::program::XInst;
use crate::wave::Wave;
use softhsa_isa::Op;

/// SOPK arithmetic and compares (simm16 in `imm`, sign-extended by the decoder).
pub fn exec(w: &mut Wave, x: &XInst) -> Option<Flow> {
    use Op::*;
    let simm = x.inst.imm;
    let zimm = simm as u32 & 0xffff;
    // s_cmpk_* name their SGPR as dst or src[0] depending on the decoder; take whichever is set.
    let reg = if x.inst.dst.is_none() {
        x.src[0]
    } else {
        crate::exec::operand::Src::S(dst(x))
    };
    let r = w.read32(reg);
    let d = dst(x);
    match x.inst.op {
        S_MOVK_I32 => w.write_s32(d, simm as u32),
        S_CMOVK_I32 => {
            if w.scc {
                w.write_s32(d, simm as u32);
            }
        }
        S_CMPK_EQ_I32 => w.scc = r as i32 == simm,
        S_CMPK_LG_I32 => w.scc = r as i32 != simm,
        S_CMPK_GT_I32 => w.scc = r as i32 > simm,
        S_CMPK_GE_I32 => w.scc = r as i32 >= simm,
        S_CMPK_LT_I32 => w.scc = (r as i32) < simm,
        S_CMPK_LE_I32 => w.scc = r as i32 <= simm,
        S_CMPK_EQ_U32 => w.scc = r == zimm,
        S_CMPK_LG_U32 => w.scc = r != zimm,
        S_CMPK_GT_U32 => w.scc = r > zimm,
        S_CMPK_GE_U32 => w.scc = r >= zimm,
        S_CMPK_LT_U32 => w.scc = r < zimm,
        S_CMPK_LE_U32 => w.scc = r <= zimm,
        S_ADDK_I32 => {
            let (v, o) = (r as i32).overflowing_add(simm);
            w.write_s32(d, v as u32);
            w.scc = o;
        }
        S_MULK_I32 => w.write_s32(d, (r as i32).wrapping_mul(simm) as u32),
        _ => return None,
    }
    Some(Flow::Next)
}
