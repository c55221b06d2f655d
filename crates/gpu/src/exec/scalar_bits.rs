//! Bit helpers of the scalar ALU (field extract, find-first-bit, WQM, quad masks).

#[inline]
pub fn bfe_u64(v: u64, off: u32, width: u32) -> u64 {
    if width == 0 {
        return 0;
    }
    let x = v >> (off & 63);
    if width >= 64 {
        x
    } else {
        x & ((1u64 << width) - 1)
    }
}

#[inline]
pub fn sext(v: u64, width: u32) -> u64 {
    if width == 0 || width >= 64 {
        return v;
    }
    let s = 64 - width;
    (((v << s) as i64) >> s) as u64
}

/// First set bit from the LSB, or -1.
pub fn ff1(v: u64) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

/// First set bit from the MSB of a `bits`-wide value, or -1.
pub fn flbit(v: u64, bits: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros() - (64 - bits)
    }
}

/// Leading bits equal to the sign bit (-1 for 0 and all-ones), `bits`-wide value.
pub fn flbit_signed(v: u64, bits: u32) -> u32 {
    let neg = v >> (bits - 1) & 1 != 0;
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    flbit(if neg { !v & m } else { v }, bits)
}

/// Per 4-bit group: all ones if any bit is set.
pub fn wqm(v: u64) -> u64 {
    let mut r = 0;
    for i in (0..64).step_by(4) {
        if v >> i & 0xf != 0 {
            r |= 0xf << i;
        }
    }
    r
}

/// Per 4-bit group: one result bit.
pub fn quadmask(v: u64) -> u64 {
    (0..16)
        .filter(|&i| v >> (4 * i) & 0xf != 0)
        .fold(0, |r, i| r | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_helpers_match_definitions() {
        assert_eq!(bfe_u64(0xabcd, 4, 8), 0xbc);
        assert_eq!(sext(0x80, 8), u64::MAX - 0x7f);
        assert_eq!(ff1(0), u32::MAX);
        assert_eq!(ff1(0x50), 4);
        assert_eq!(flbit(1, 32), 31);
        assert_eq!(flbit_signed(0xffff_fff0, 32), 28);
        assert_eq!(flbit_signed(0xffff_ffff, 32), u32::MAX);
        assert_eq!(wqm(0x0102), 0x0f0f);
        assert_eq!(quadmask(0xf00f_0010), 0b1001_0010);
    }
}
