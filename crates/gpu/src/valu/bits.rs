//! 32-bit logic and bit-field ops: and/or/xor/not, shifts (the `*rev` forms shift src1 by src0),
//! bfe/bfi/bfm, alignbit/alignbyte, perm, ffbh/ffbl, bfrev and the three-operand logic forms.

use super::lanes::{map1, map2, map3};
use super::{VopInputs, VopOutputs};

/// Bit ops on 32-bit values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BitsOp {
    Mov,
    And,
    Or,
    Xor,
    Xnor,
    Not,
    Lshlrev,
    Lshrrev,
    Ashrrev,
    Bfrev,
    FfbhU32,
    FfblB32,
    FfbhI32,
    BfeU32,
    BfeI32,
    Bfi,
    Bfm,
    Alignbit,
    Alignbyte,
    Perm,
    AndOr,
    Or3,
    LshlOr,
}

impl BitsOp {
    /// Number of sources.
    pub fn num_src(self) -> u8 {
        use BitsOp::*;
        match self {
            Mov | Not | Bfrev | FfbhU32 | FfblB32 | FfbhI32 => 1,
            BfeU32 | BfeI32 | Bfi | Alignbit | Alignbyte | Perm | AndOr | Or3 | LshlOr => 3,
            _ => 2,
        }
    }
}

/// One byte of `v_perm_b32`: `sel` picks from the 8 bytes of `{src0, src1}` (src1 is bytes
/// 0..3), 8..11 replicate the sign bit of bytes 1, 3, 5, 7, 12 gives 0x00, above gives 0xff.
#[inline(always)]
pub fn perm_byte(data: u64, sel: u64) -> u64 {
    match sel {
        0..=7 => (data >> (8 * sel)) & 0xff,
        8..=11 => {
            let bit = 16 * (sel - 8) + 15;
            if data >> bit & 1 != 0 {
                0xff
            } else {
                0
            }
        }
        12 => 0,
        _ => 0xff,
    }
}

/// Runs a bit op.
pub fn exec(op: BitsOp, inp: &VopInputs, out: &mut VopOutputs) -> bool {
    use BitsOp::*;
    let s = &inp.src;
    let d = &mut out.dst;
    let u = |v: u64| v as u32;
    let w = |v: u32| v as u64;
    match op {
        Mov => map1(d, &s[0], |a| w(u(a))),
        And => map2(d, &s[0], &s[1], |a, b| w(u(a) & u(b))),
        Or => map2(d, &s[0], &s[1], |a, b| w(u(a) | u(b))),
        Xor => map2(d, &s[0], &s[1], |a, b| w(u(a) ^ u(b))),
        Xnor => map2(d, &s[0], &s[1], |a, b| w(!(u(a) ^ u(b)))),
        Not => map1(d, &s[0], |a| w(!u(a))),
        Lshlrev => map2(d, &s[0], &s[1], |a, b| w(u(b) << (a & 31))),
        Lshrrev => map2(d, &s[0], &s[1], |a, b| w(u(b) >> (a & 31))),
        Ashrrev => map2(
            d,
            &s[0],
            &s[1],
            |a, b| w(((u(b) as i32) >> (a & 31)) as u32),
        ),
        Bfrev => map1(d, &s[0], |a| w(u(a).reverse_bits())),
        FfbhU32 => map1(d, &s[0], |a| {
            if u(a) == 0 {
                w(!0)
            } else {
                w(u(a).leading_zeros())
            }
        }),
        FfblB32 => map1(d, &s[0], |a| {
            if u(a) == 0 {
                w(!0)
            } else {
                w(u(a).trailing_zeros())
            }
        }),
        FfbhI32 => map1(d, &s[0], |a| {
            let x = u(a) ^ ((u(a) as i32 >> 31) as u32);
            if x == 0 {
                w(!0)
            } else {
                w(x.leading_zeros())
            }
        }),
        BfeU32 => map3(d, s, |a, b, c| {
            let (off, width) = (b & 31, c & 31);
            w(((u(a) as u64 >> off) & ((1u64 << width) - 1)) as u32)
        }),
        BfeI32 => map3(d, s, |a, b, c| {
            let (off, width) = (b & 31, (c & 31) as u32);
            if width == 0 {
                return 0;
            }
            let v = (u(a) >> off) << (32 - width);
            w(((v as i32) >> (32 - width)) as u32)
        }),
        Bfi => map3(d, s, |a, b, c| w((u(a) & u(b)) | (!u(a) & u(c)))),
        Bfm => map2(d, &s[0], &s[1], |a, b| {
            w((((1u64 << (a & 31)) - 1) << (b & 31)) as u32)
        }),
        Alignbit => map3(d, s, |a, b, c| {
            w(((w(u(a)) << 32 | w(u(b))) >> (c & 31)) as u32)
        }),
        Alignbyte => map3(d, s, |a, b, c| {
            w(((w(u(a)) << 32 | w(u(b))) >> (8 * (c & 3))) as u32)
        }),
        Perm => map3(d, s, |a, b, c| {
            let data = w(u(a)) << 32 | w(u(b));
            (0..4).fold(0, |acc, k| {
                acc | perm_byte(data, (c >> (8 * k)) & 0xff) << (8 * k)
            })
        }),
        AndOr => map3(d, s, |a, b, c| w((u(a) & u(b)) | u(c))),
        Or3 => map3(d, s, |a, b, c| w(u(a) | u(b) | u(c))),
        LshlOr => map3(d, s, |a, b, c| w((u(a) << (b & 31)) | u(c))),
    }
    true
}
