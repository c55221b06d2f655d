//! `v_mqsad_u32_u8`: the one VALU op with 128-bit operands (four 32-bit accumulators), which
//! the 64-bit lane model of `valu` cannot hold.
//!
//! `D.u32[k] = S2.u32[k] + Σ_{i<4, S1.byte[i] != 0} |S0.byte[k + i] − S1.byte[i]|` for k in
//! 0..4: masked sums of absolute differences of the four 4-byte windows of the 64-bit S0
//! against S1, each added to its 32-bit accumulator (modulo 2^32).

use super::operand::Src;
use super::Flow;
use crate::program::XInst;
use crate::wave::Wave;

/// Dword `k` of a multi-dword operand in lane `l` (constants are zero-extended).
fn dword(w: &Wave, s: Src, k: usize, l: usize) -> u32 {
    match s {
        Src::V(r) => w.v[(usize::from(r) + k) & 255][l],
        Src::S(i) => w.s[(usize::from(i) + k) & 127],
        other if k == 0 => w.read32(other),
        Src::Imm(v) if k == 1 => (v >> 32) as u32,
        _ => 0,
    }
}

/// The masked SAD of `window` (4 bytes) against `reference`: reference bytes of 0 are skipped.
pub fn masked_sad(window: u32, reference: u32) -> u32 {
    (0..4)
        .map(|i| {
            let (x, y) = ((window >> (8 * i)) & 0xff, (reference >> (8 * i)) & 0xff);
            if y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

/// Executes `v_mqsad_u32_u8` for the active lanes.
pub fn mqsad_u32_u8(w: &mut Wave, x: &XInst) -> Flow {
    let exec = w.exec();
    let d = usize::from(x.inst.dst.vgpr_index().unwrap_or(0));
    for l in (0..64).filter(|l| exec >> l & 1 != 0) {
        let s0 = u64::from(dword(w, x.src[0], 0, l)) | u64::from(dword(w, x.src[0], 1, l)) << 32;
        let s1 = dword(w, x.src[1], 0, l);
        let acc: [u32; 4] = std::array::from_fn(|k| dword(w, x.src[2], k, l));
        for (k, a) in acc.into_iter().enumerate() {
            let window = (s0 >> (8 * k)) as u32;
            w.v[(d + k) & 255][l] = a.wrapping_add(masked_sad(window, s1));
        }
    }
    Flow::Next
}
