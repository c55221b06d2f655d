//! Fast path for the most frequent 32-bit integer VALU ops (moves, add/sub, shifts, logic,
//! 24-bit and low multiplies, the 3-source combinations LLVM emits for addressing, cndmask):
//! operands stay `[u32; 64]` and the result is written straight back, instead of widening every
//! source to 64-bit lanes for the general VALU module. It applies only to plain encodings (no
//! modifiers, SDWA or DPP); the general module stays the reference (tests compare both).

use super::operand::Src;
use crate::wave::Wave;
use softhsa_isa::{Encoding, Ext, Inst, VopMods};

/// A fast-path op; `a`, `b`, `c` are src0..src2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Int32 {
    Mov,
    Not,
    Add,
    Sub,
    SubRev,
    MulLo,
    MulHiU,
    MulU24,
    MulI24,
    And,
    Or,
    Xor,
    LshlRev,
    LshrRev,
    AshrRev,
    MinU,
    MaxU,
    MinI,
    MaxI,
    LshlAdd,
    AddLshl,
    Add3,
    LshlOr,
    AndOr,
    Or3,
    Xad,
    MadU24,
    MadI24,
    /// The least, greatest and middle of three (`v_min3/max3/med3_u32/i32`).
    Min3U,
    Max3U,
    Med3U,
    Min3I,
    Max3I,
    Med3I,
    /// `b` where the lane's mask bit is set, else `a`.
    Cndmask,
    /// Carry/borrow ops: they also write a lane mask (carry-out), the last three read one.
    AddCo,
    SubCo,
    SubRevCo,
    Addc,
    Subb,
    SubbRev,
}

impl Int32 {
    /// Every op with its mnemonic (one list for the decoder-time match and the tests).
    pub const ALL: [(Int32, &'static str); 41] = [
        (Int32::Mov, "v_mov_b32"),
        (Int32::Not, "v_not_b32"),
        (Int32::Add, "v_add_u32"),
        (Int32::Sub, "v_sub_u32"),
        (Int32::SubRev, "v_subrev_u32"),
        (Int32::MulLo, "v_mul_lo_u32"),
        (Int32::MulHiU, "v_mul_hi_u32"),
        (Int32::MulU24, "v_mul_u32_u24"),
        (Int32::MulI24, "v_mul_i32_i24"),
        (Int32::And, "v_and_b32"),
        (Int32::Or, "v_or_b32"),
        (Int32::Xor, "v_xor_b32"),
        (Int32::LshlRev, "v_lshlrev_b32"),
        (Int32::LshrRev, "v_lshrrev_b32"),
        (Int32::AshrRev, "v_ashrrev_i32"),
        (Int32::MinU, "v_min_u32"),
        (Int32::MaxU, "v_max_u32"),
        (Int32::MinI, "v_min_i32"),
        (Int32::MaxI, "v_max_i32"),
        (Int32::LshlAdd, "v_lshl_add_u32"),
        (Int32::AddLshl, "v_add_lshl_u32"),
        (Int32::Add3, "v_add3_u32"),
        (Int32::LshlOr, "v_lshl_or_b32"),
        (Int32::AndOr, "v_and_or_b32"),
        (Int32::Or3, "v_or3_b32"),
        (Int32::Xad, "v_xad_u32"),
        (Int32::MadU24, "v_mad_u32_u24"),
        (Int32::MadI24, "v_mad_i32_i24"),
        (Int32::Min3U, "v_min3_u32"),
        (Int32::Max3U, "v_max3_u32"),
        (Int32::Med3U, "v_med3_u32"),
        (Int32::Min3I, "v_min3_i32"),
        (Int32::Max3I, "v_max3_i32"),
        (Int32::Med3I, "v_med3_i32"),
        (Int32::Cndmask, "v_cndmask_b32"),
        (Int32::AddCo, "v_add_co_u32"),
        (Int32::SubCo, "v_sub_co_u32"),
        (Int32::SubRevCo, "v_subrev_co_u32"),
        (Int32::Addc, "v_addc_co_u32"),
        (Int32::Subb, "v_subb_co_u32"),
        (Int32::SubbRev, "v_subbrev_co_u32"),
    ];

    /// The fast op for a decoded instruction whose sources are `src`, if it qualifies.
    pub fn of(inst: &Inst, src: &[Src; 4]) -> Option<Int32> {
        let plain = matches!(inst.enc, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3)
            && matches!(inst.ext, Ext::None)
            && inst.mods == VopMods::default()
            && inst.dst.is_vgpr();
        let simple = |s: &Src| matches!(s, Src::V(_) | Src::S(_) | Src::Imm(_) | Src::None);
        if !plain || !src[..3].iter().all(simple) {
            return None;
        }
        Int32::named(inst.op.name())
    }

    /// The op of mnemonic `name` (the ISA table's name, without an encoding suffix).
    pub fn named(name: &str) -> Option<Int32> {
        Int32::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|&(op, _)| op)
    }

    /// Reads a lane mask: VCC, or the SGPR pair in src2 (VOP3).
    pub fn reads_mask(self) -> bool {
        matches!(
            self,
            Int32::Cndmask | Int32::Addc | Int32::Subb | Int32::SubbRev
        )
    }

    /// Writes a carry-out lane mask.
    pub fn writes_carry(self) -> bool {
        use Int32::*;
        matches!(self, AddCo | SubCo | SubRevCo | Addc | Subb | SubbRev)
    }

    /// Number of sources the op reads.
    pub fn arity(self) -> usize {
        use Int32::*;
        match self {
            Mov | Not => 1,
            LshlAdd | AddLshl | Add3 | LshlOr | AndOr | Or3 | Xad | MadU24 | MadI24 | Min3U
            | Max3U | Med3U | Min3I | Max3I | Med3I => 3,
            _ => 2,
        }
    }
}

/// `out = op(a, b, c)` lane by lane (`mask`: the cndmask select mask or the carry-in); returns
/// the carry-out mask of the carry ops (0 for the others).
#[inline(never)]
pub fn apply(
    op: Int32,
    a: &[u32; 64],
    b: &[u32; 64],
    c: &[u32; 64],
    mask: u64,
    out: &mut [u32; 64],
) -> u64 {
    macro_rules! lanes {
        (|$x:ident, $y:ident, $z:ident| $e:expr) => {
            for (((o, &$x), &$y), &$z) in out.iter_mut().zip(a).zip(b).zip(c) {
                *o = $e;
            }
        };
    }
    let u24 = |v: u32| v & 0xff_ffff;
    let i24 = |v: u32| ((v << 8) as i32 >> 8) as u32;
    match op {
        Int32::Mov => out.copy_from_slice(a),
        Int32::Not => lanes!(|x, _y, _z| !x),
        Int32::Add => lanes!(|x, y, _z| x.wrapping_add(y)),
        Int32::Sub => lanes!(|x, y, _z| x.wrapping_sub(y)),
        Int32::SubRev => lanes!(|x, y, _z| y.wrapping_sub(x)),
        Int32::MulLo => lanes!(|x, y, _z| x.wrapping_mul(y)),
        Int32::MulHiU => lanes!(|x, y, _z| ((u64::from(x) * u64::from(y)) >> 32) as u32),
        Int32::MulU24 => lanes!(|x, y, _z| u24(x).wrapping_mul(u24(y))),
        Int32::MulI24 => lanes!(|x, y, _z| i24(x).wrapping_mul(i24(y))),
        Int32::And => lanes!(|x, y, _z| x & y),
        Int32::Or => lanes!(|x, y, _z| x | y),
        Int32::Xor => lanes!(|x, y, _z| x ^ y),
        Int32::LshlRev => lanes!(|x, y, _z| y << (x & 31)),
        Int32::LshrRev => lanes!(|x, y, _z| y >> (x & 31)),
        Int32::AshrRev => lanes!(|x, y, _z| ((y as i32) >> (x & 31)) as u32),
        Int32::MinU => lanes!(|x, y, _z| x.min(y)),
        Int32::MaxU => lanes!(|x, y, _z| x.max(y)),
        Int32::MinI => lanes!(|x, y, _z| (x as i32).min(y as i32) as u32),
        Int32::MaxI => lanes!(|x, y, _z| (x as i32).max(y as i32) as u32),
        Int32::LshlAdd => lanes!(|x, y, z| (x << (y & 31)).wrapping_add(z)),
        Int32::AddLshl => lanes!(|x, y, z| x.wrapping_add(y) << (z & 31)),
        Int32::Add3 => lanes!(|x, y, z| x.wrapping_add(y).wrapping_add(z)),
        Int32::LshlOr => lanes!(|x, y, z| (x << (y & 31)) | z),
        Int32::AndOr => lanes!(|x, y, z| (x & y) | z),
        Int32::Or3 => lanes!(|x, y, z| x | y | z),
        Int32::Xad => lanes!(|x, y, z| (x ^ y).wrapping_add(z)),
        Int32::MadU24 => lanes!(|x, y, z| u24(x).wrapping_mul(u24(y)).wrapping_add(z)),
        Int32::MadI24 => lanes!(|x, y, z| i24(x).wrapping_mul(i24(y)).wrapping_add(z)),
        Int32::Min3U => lanes!(|x, y, z| x.min(y).min(z)),
        Int32::Max3U => lanes!(|x, y, z| x.max(y).max(z)),
        Int32::Med3U => lanes!(|x, y, z| x.min(y).max(x.max(y).min(z))),
        Int32::Min3I => lanes!(|x, y, z| (x as i32).min(y as i32).min(z as i32) as u32),
        Int32::Max3I => lanes!(|x, y, z| (x as i32).max(y as i32).max(z as i32) as u32),
        Int32::Med3I => lanes!(|x, y, z| {
            let (x, y, z) = (x as i32, y as i32, z as i32);
            x.min(y).max(x.max(y).min(z)) as u32
        }),
        Int32::Cndmask => {
            for (l, ((o, &x), &y)) in out.iter_mut().zip(a).zip(b).enumerate() {
                *o = if mask >> l & 1 != 0 { y } else { x };
            }
        }
        _ => return carry_op(op, a, b, mask, out),
    }
    0
}

/// The add/sub ops with carry-out (and carry-in for addc/subb/subbrev), in 64-bit lanes.
fn carry_op(op: Int32, a: &[u32; 64], b: &[u32; 64], cin: u64, out: &mut [u32; 64]) -> u64 {
    let mut carry = 0u64;
    for (l, ((o, &x), &y)) in out.iter_mut().zip(a).zip(b).enumerate() {
        let (x, y, ci) = (u64::from(x), u64::from(y), cin >> l & 1);
        let (v, c) = match op {
            Int32::AddCo => (x + y, (x + y) >> 32),
            Int32::Addc => (x + y + ci, (x + y + ci) >> 32),
            Int32::SubCo => (x.wrapping_sub(y), u64::from(y > x)),
            Int32::SubRevCo => (y.wrapping_sub(x), u64::from(x > y)),
            Int32::Subb => (x.wrapping_sub(y + ci), u64::from(y + ci > x)),
            _ => (y.wrapping_sub(x + ci), u64::from(x + ci > y)),
        };
        *o = v as u32;
        carry |= (c & 1) << l;
    }
    carry
}

/// What an op's unused source slots read.
static UNUSED: [u32; 64] = [0; 64];

/// Runs `op` on wave `w`: sources `src`, destination VGPR `dst`, lanes of EXEC. Returns the
/// carry-out mask (active lanes only) for the caller to write where the encoding says.
#[inline]
pub fn exec(w: &mut Wave, op: Int32, src: &[Src; 4], dst: usize) -> u64 {
    let exec = w.exec();
    let dst = dst & 255;
    let mask = if op.reads_mask() {
        // VOP3 names the mask SGPR pair in src2; VOP2 reads VCC.
        match src[2] {
            Src::None => w.vcc(),
            s => w.read64(s),
        }
    } else {
        0
    };
    let n = if op.reads_mask() { 2 } else { op.arity() };
    // Register sources are read in place; a scalar or constant is splatted once.
    let reg = |i: usize| match src[i] {
        Src::V(r) if i < n => Some(usize::from(r)),
        _ => None,
    };
    let regs = [reg(0), reg(1), reg(2)];
    let aliased = regs.contains(&Some(dst));
    let vp = w.v.as_mut_ptr();
    // A scalar or constant source is splatted in place (no move of a 64-lane array).
    let (s0, s1, s2);
    macro_rules! source {
        ($i:expr, $splat:ident) => {
            match regs[$i] {
                // SAFETY: a register number below 256 indexes the wave's 256 VGPRs.
                Some(r) => unsafe { vp.add(r) as *const [u32; 64] },
                None if $i < n => {
                    $splat = [w.read32(src[$i]); 64];
                    &$splat as *const [u32; 64]
                }
                None => &UNUSED as *const [u32; 64],
            }
        };
    }
    let (pa, pb, pc) = (source!(0, s0), source!(1, s1), source!(2, s2));
    // SAFETY: the pointers are to live VGPRs, splats or UNUSED. The shared references below
    // and the mutable one to VGPR `dst` (< 256) never overlap: `aliased` sends the
    // dst-is-a-source case through a separate output array.
    unsafe {
        let (a, b, c) = (&*pa, &*pb, &*pc);
        if exec == u64::MAX && !aliased {
            return apply(op, a, b, c, mask, &mut *vp.add(dst));
        }
        let mut out = [0u32; 64];
        let carry = apply(op, a, b, c, mask, &mut out) & exec;
        let d = &mut *vp.add(dst);
        if exec == u64::MAX {
            *d = out;
            return carry;
        }
        for (l, (d, &v)) in d.iter_mut().zip(&out).enumerate() {
            if exec >> l & 1 != 0 {
                *d = v;
            }
        }
        carry
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::valu::{self, VopInputs, VopOutputs};

    fn lanes(seed: u64) -> [u32; 64] {
        let mut x = seed;
        std::array::from_fn(|l| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Mix in edge values: 0, all ones, sign bit, shift counts past 31.
            match l % 8 {
                0 => 0,
                1 => u32::MAX,
                2 => 0x8000_0000,
                3 => 33 + l as u32,
                _ => (x >> 29) as u32,
            }
        })
    }

    #[test]
    fn fast_ops_match_the_general_valu_module() {
        let mut inp = VopInputs::default();
        let mut out = VopOutputs::default();
        for (seed, (op, name)) in Int32::ALL.iter().enumerate() {
            let general = valu::resolve(name).unwrap_or_else(|| panic!("{name}: no VALU op"));
            let (a, b, c) = (
                lanes(seed as u64),
                lanes(seed as u64 + 100),
                lanes(seed as u64 + 200),
            );
            let mask = 0x0123_4567_89ab_cdef_u64.rotate_left(seed as u32);
            for (s, v) in inp.src.iter_mut().zip([&a, &b, &c]) {
                for (d, &x) in s.iter_mut().zip(v) {
                    *d = u64::from(x);
                }
            }
            inp.exec = u64::MAX;
            inp.mask_in = mask;
            valu::execute(general, &inp, &mut out).unwrap_or_else(|_| panic!("{name}"));
            let mut fast = [0u32; 64];
            let carry = apply(*op, &a, &b, &c, mask, &mut fast);
            if op.writes_carry() {
                assert_eq!(carry, out.mask, "{name}: carry-out");
            }
            for l in 0..64 {
                assert_eq!(
                    fast[l], out.dst[l] as u32,
                    "{name} lane {l}: {:#x} {:#x} {:#x}",
                    a[l], b[l], c[l]
                );
            }
        }
    }
}
