//! Lane movement: DPP source lanes, SDWA selects, and the DS lane-swizzle patterns.

/// For DPP control `ctrl`, the source lane of lane `l`, or `None` when the pattern reads past
/// its row/wave (the lane then reads 0 with bound_ctrl, else is not written).
#[inline]
pub fn dpp_source(ctrl: u16, l: usize) -> Option<usize> {
    let row = l & !15;
    let r = l & 15;
    let n = usize::from(ctrl & 15);
    match ctrl {
        0x000..=0x0ff => Some((l & !3) | (usize::from(ctrl) >> (2 * (l & 3)) & 3)),
        0x101..=0x10f => (r + n < 16).then_some(l + n),
        0x111..=0x11f => (r >= n).then(|| l - n),
        0x121..=0x12f => Some(row | ((r + 16 - n) & 15)),
        0x130 => (l < 63).then_some(l + 1),
        0x134 => Some((l + 1) & 63),
        0x138 => (l > 0).then(|| l - 1),
        0x13c => Some((l + 63) & 63),
        0x140 => Some(row | (15 - r)),
        0x141 => Some((l & !7) | (7 - (l & 7))),
        0x142 => (l >= 16).then(|| row - 1),
        0x143 => (l >= 32).then_some(31),
        // gfx90a row_newbcast: lane n of each row to the whole row (32- and 64-bit operands).
        0x150..=0x15f => Some(row | n),
        _ => None,
    }
}

/// Whether DPP's row and bank masks enable lane `l`.
#[inline]
pub fn dpp_lane_enabled(row_mask: u8, bank_mask: u8, l: usize) -> bool {
    row_mask >> (l / 16) & 1 != 0 && bank_mask >> ((l / 4) & 3) & 1 != 0
}

/// Applies DPP to `src` (32-bit lanes in the low bits). Returns the write mask: lanes whose
/// row and bank are enabled and whose source is valid (or reads 0 with bound_ctrl).
pub fn dpp_apply(
    src: &mut [u64; 64],
    ctrl: u16,
    row_mask: u8,
    bank_mask: u8,
    bound_ctrl: bool,
    exec: u64,
) -> u64 {
    let orig = *src;
    let mut write = 0u64;
    for (l, s) in src.iter_mut().enumerate() {
        if !dpp_lane_enabled(row_mask, bank_mask, l) {
            continue;
        }
        match dpp_source(ctrl, l) {
            Some(sl) if exec >> sl & 1 != 0 => {
                *s = orig[sl];
                write |= 1 << l;
            }
            _ if bound_ctrl => {
                *s = 0;
                write |= 1 << l;
            }
            _ => {}
        }
    }
    write
}

/// The field an SDWA select names: (shift, bits) of byte 0..=3 or word 4..=5; `None` for
/// the whole dword (6).
#[inline]
pub fn sdwa_field(sel: u8) -> Option<(u32, u32)> {
    match sel {
        0..=3 => Some((8 * u32::from(sel), 8)),
        4 | 5 => Some((16 * u32::from(sel - 4), 16)),
        _ => None,
    }
}

/// SDWA source select: 0..=3 byte, 4..=5 word, 6 dword; `sext` sign-extends the field.
#[inline]
pub fn sdwa_select(v: u32, sel: u8, sext: bool) -> u32 {
    let Some((shift, bits)) = sdwa_field(sel) else {
        return v;
    };
    let f = (v >> shift) & ((1 << bits) - 1);
    if sext {
        (((f << (32 - bits)) as i32) >> (32 - bits)) as u32
    } else {
        f
    }
}

/// SDWA destination: places `res` into field `sel` of `old`; `unused` 0 pads with zeros,
/// 1 sign-extends the field upward, 2 keeps `old`'s other bits.
#[inline]
pub fn sdwa_place(res: u32, old: u32, sel: u8, unused: u8) -> u32 {
    let Some((shift, bits)) = sdwa_field(sel) else {
        return res;
    };
    let m = ((1u64 << bits) - 1) as u32;
    let field = (res & m) << shift;
    match unused {
        2 => (old & !(m << shift)) | field,
        1 => {
            let top = shift + bits;
            let sign = res >> (bits - 1) & 1 != 0;
            let upper = if sign && top < 32 { u32::MAX << top } else { 0 };
            field | upper
        }
        _ => field,
    }
}

/// `ds_swizzle_b32` offset → source lane of lane `l` (None: the lane reads 0).
pub fn swizzle_source(offset: u16, l: usize) -> Option<usize> {
    if offset & 0x8000 != 0 {
        // Quad-permute mode: within each group of 4 lanes.
        let sel = usize::from(offset) >> (2 * (l & 3)) & 3;
        Some((l & !3) | sel)
    } else {
        // Bit-masks mode on lanes within groups of 32.
        let and_mask = usize::from(offset & 0x1f);
        let or_mask = usize::from((offset >> 5) & 0x1f);
        let xor_mask = usize::from((offset >> 10) & 0x1f);
        let i = l & 31;
        Some((l & 32) | (((i & and_mask) | or_mask) ^ xor_mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpp_patterns() {
        // quad_perm:[1,0,3,2] = 0b10_11_00_01
        assert_eq!(dpp_source(0b1011_0001, 4), Some(5));
        assert_eq!(dpp_source(0b1011_0001, 7), Some(6));
        assert_eq!(dpp_source(0x101, 15), None); // row_shl:1 at the row end
        assert_eq!(dpp_source(0x101, 14), Some(15));
        assert_eq!(dpp_source(0x111, 16), None); // row_shr:1 at the row start
        assert_eq!(dpp_source(0x121, 16), Some(31)); // row_ror:1
        assert_eq!(dpp_source(0x138, 0), None);
        assert_eq!(dpp_source(0x13c, 0), Some(63));
        assert_eq!(dpp_source(0x140, 17), Some(30));
        assert_eq!(dpp_source(0x142, 37), Some(31));
        assert_eq!(dpp_source(0x143, 40), Some(31));
        assert_eq!(dpp_source(0x143, 20), None);
    }

    #[test]
    fn dpp_apply_masks_and_bounds() {
        let mut v = [0u64; 64];
        for (l, x) in v.iter_mut().enumerate() {
            *x = l as u64 + 100;
        }
        // row_shr:1, bound_ctrl: lane 0 of each row reads 0.
        let mut a = v;
        let m = dpp_apply(&mut a, 0x111, 0xf, 0xf, true, u64::MAX);
        assert_eq!((a[0], a[1], a[17]), (0, 100, 116));
        assert_eq!(m, u64::MAX);
        // Without bound_ctrl the out-of-row lanes keep their value and are not written.
        let mut b = v;
        let m = dpp_apply(&mut b, 0x111, 0xf, 0xf, false, u64::MAX);
        assert_eq!(m & 1, 0);
        assert_eq!(m >> 1 & 1, 1);
    }

    #[test]
    fn sdwa_fields() {
        assert_eq!(sdwa_select(0x8180_7f01, 2, false), 0x80);
        assert_eq!(sdwa_select(0x8180_7f01, 2, true), 0xffff_ff80);
        assert_eq!(sdwa_select(0x8180_7f01, 5, false), 0x8180);
        assert_eq!(sdwa_place(0x1234, 0xaaaa_bbbb, 5, 2), 0x1234_bbbb);
        assert_eq!(sdwa_place(0x1234, 0xaaaa_bbbb, 4, 0), 0x0000_1234);
        assert_eq!(sdwa_place(0x80, 0, 0, 1), 0xffff_ff80);
    }

    #[test]
    fn swizzle_modes() {
        // swizzle(SWAP, 1) = and 0x1f, or 0, xor 1 → offset 0x041f
        assert_eq!(swizzle_source(0x041f, 6), Some(7));
        // swizzle(BROADCAST, 32, 0): and 0, or 0 → lane 0 of each half
        assert_eq!(swizzle_source(0x0000, 40), Some(32));
        // quad perm [3,2,1,0]
        assert_eq!(swizzle_source(0x8000 | 0b00_01_10_11, 1), Some(2));
    }
}
