//! The floating-point environment: MODE register fields, the bit layout of f16/f32/f64, NaN and
//! denormal rules, and the source/output modifiers that every float op shares.

/// Rounding mode (MODE.FP_ROUND field encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Round {
    /// Round to nearest, ties to even.
    #[default]
    NearestEven = 0,
    /// Toward +infinity.
    PlusInf = 1,
    /// Toward -infinity.
    MinusInf = 2,
    /// Toward zero.
    Zero = 3,
}

impl Round {
    /// Decodes a 2-bit FP_ROUND field.
    pub fn from_bits(b: u32) -> Self {
        match b & 3 {
            0 => Round::NearestEven,
            1 => Round::PlusInf,
            2 => Round::MinusInf,
            _ => Round::Zero,
        }
    }
}

/// Denormal handling (MODE.FP_DENORM field: bit 0 keeps input denormals, bit 1 output ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Denorm {
    /// Denormal inputs are used as they are (otherwise read as signed zero).
    pub keep_in: bool,
    /// Denormal results are produced (otherwise flushed to signed zero).
    pub keep_out: bool,
}

impl Denorm {
    /// Both kept (FP_DENORM value 3).
    pub const KEEP: Denorm = Denorm {
        keep_in: true,
        keep_out: true,
    };
    /// Both flushed (FP_DENORM value 0).
    pub const FLUSH: Denorm = Denorm {
        keep_in: false,
        keep_out: false,
    };

    /// Decodes a 2-bit FP_DENORM field.
    pub fn from_bits(b: u32) -> Self {
        Denorm {
            keep_in: b & 1 != 0,
            keep_out: b & 2 != 0,
        }
    }

    /// The 2-bit field value.
    pub fn to_bits(self) -> u32 {
        self.keep_in as u32 | (self.keep_out as u32) << 1
    }
}

/// The float-related fields of a wave's MODE register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// Rounding of f32 results.
    pub round_f32: Round,
    /// Rounding of f16 and f64 results.
    pub round_f16_f64: Round,
    /// Denormals of f32.
    pub denorm_f32: Denorm,
    /// Denormals of f16 and f64.
    pub denorm_f16_f64: Denorm,
    /// IEEE mode: min/max quiet signalling NaNs (and return a NaN for them).
    pub ieee: bool,
    /// DX10 clamp: the clamp modifier turns NaN into 0.
    pub dx10_clamp: bool,
}

impl Default for Mode {
    /// A neutral starting point (round to nearest, f32 denormals flushed, f16/f64 denormals
    /// kept, IEEE and DX10 clamp on); waves take their real MODE from the kernel's RSRC1.
    fn default() -> Self {
        Mode {
            round_f32: Round::NearestEven,
            round_f16_f64: Round::NearestEven,
            denorm_f32: Denorm::FLUSH,
            denorm_f16_f64: Denorm::KEEP,
            ieee: true,
            dx10_clamp: true,
        }
    }
}

impl Mode {
    /// Decodes MODE register bits (FP_ROUND 3:0, FP_DENORM 7:4, DX10_CLAMP 8, IEEE 9), the
    /// layout `s_setreg`/`s_getreg` of HW_REG_MODE use.
    pub fn from_bits(v: u32) -> Self {
        Mode {
            round_f32: Round::from_bits(v),
            round_f16_f64: Round::from_bits(v >> 2),
            denorm_f32: Denorm::from_bits(v >> 4),
            denorm_f16_f64: Denorm::from_bits(v >> 6),
            dx10_clamp: v & (1 << 8) != 0,
            ieee: v & (1 << 9) != 0,
        }
    }

    /// Encodes the fields in MODE register layout (other MODE bits are zero).
    pub fn to_bits(self) -> u32 {
        self.round_f32 as u32
            | (self.round_f16_f64 as u32) << 2
            | self.denorm_f32.to_bits() << 4
            | self.denorm_f16_f64.to_bits() << 6
            | (self.dx10_clamp as u32) << 8
            | (self.ieee as u32) << 9
    }

    /// The per-format environment of a float op.
    pub fn env(self, fmt: Fmt) -> Env {
        let (round, denorm) = if fmt.mant == F32.mant {
            (self.round_f32, self.denorm_f32)
        } else {
            (self.round_f16_f64, self.denorm_f16_f64)
        };
        Env {
            round,
            denorm,
            ieee: self.ieee,
        }
    }
}

/// The MODE fields one float format uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    /// Rounding mode.
    pub round: Round,
    /// Denormal handling.
    pub denorm: Denorm,
    /// IEEE mode.
    pub ieee: bool,
}

/// Bit layout of an IEEE binary format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    /// Total width in bits.
    pub width: u32,
    /// Stored mantissa bits.
    pub mant: u32,
}

/// The format of bit width `W` (16, 32 or 64): lets lane loops be monomorphized per format so
/// every format test folds away.
pub const fn fmt_of<const W: u32>() -> Fmt {
    match W {
        16 => F16,
        32 => F32,
        _ => F64,
    }
}

/// IEEE half.
pub const F16: Fmt = Fmt {
    width: 16,
    mant: 10,
};
/// IEEE single.
pub const F32: Fmt = Fmt {
    width: 32,
    mant: 23,
};
/// IEEE double.
pub const F64: Fmt = Fmt {
    width: 64,
    mant: 52,
};

impl Fmt {
    /// Mask of the format's bits.
    #[inline(always)]
    pub const fn all(self) -> u64 {
        if self.width == 64 {
            !0
        } else {
            (1 << self.width) - 1
        }
    }
    /// The sign bit.
    #[inline(always)]
    pub const fn sign(self) -> u64 {
        1 << (self.width - 1)
    }
    /// Exponent bits.
    #[inline(always)]
    pub const fn exp_mask(self) -> u64 {
        (self.all() >> 1) & !self.mant_mask()
    }
    /// Mantissa bits.
    #[inline(always)]
    pub const fn mant_mask(self) -> u64 {
        (1 << self.mant) - 1
    }
    /// Exponent bias.
    #[inline(always)]
    pub const fn bias(self) -> i32 {
        (1 << (self.width - self.mant - 2)) - 1
    }
    /// The quiet bit.
    #[inline(always)]
    pub const fn quiet_bit(self) -> u64 {
        1 << (self.mant - 1)
    }
    /// The default NaN the hardware produces (positive, quiet, zero payload).
    #[inline(always)]
    pub const fn default_nan(self) -> u64 {
        self.exp_mask() | self.quiet_bit()
    }
    /// +infinity.
    #[inline(always)]
    pub const fn inf(self) -> u64 {
        self.exp_mask()
    }
    /// 1.0.
    #[inline(always)]
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.mant
    }
    /// Any NaN.
    #[inline(always)]
    pub fn is_nan(self, x: u64) -> bool {
        x & (self.all() >> 1) > self.exp_mask()
    }
    /// A signalling NaN.
    #[inline(always)]
    pub fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet_bit() == 0
    }
    /// ±infinity.
    #[inline(always)]
    pub fn is_inf(self, x: u64) -> bool {
        x & (self.all() >> 1) == self.exp_mask()
    }
    /// ±0.
    #[inline(always)]
    pub fn is_zero(self, x: u64) -> bool {
        x & (self.all() >> 1) == 0
    }
    /// A nonzero denormal.
    #[inline(always)]
    pub fn is_denorm(self, x: u64) -> bool {
        x & self.exp_mask() == 0 && x & self.mant_mask() != 0
    }
    /// Negative sign bit set.
    #[inline(always)]
    pub fn is_neg(self, x: u64) -> bool {
        x & self.sign() != 0
    }
    /// The NaN with its quiet bit set.
    #[inline(always)]
    pub fn quiet(self, x: u64) -> u64 {
        x | self.quiet_bit()
    }
    /// Reads an input: denormals become signed zero unless the mode keeps them.
    #[inline(always)]
    pub fn flush_in(self, x: u64, env: &Env) -> u64 {
        if !env.denorm.keep_in && self.is_denorm(x) {
            x & self.sign()
        } else {
            x
        }
    }
    /// Writes a result: denormals become signed zero unless the mode keeps them.
    #[inline(always)]
    pub fn flush_out(self, x: u64, env: &Env) -> u64 {
        if !env.denorm.keep_out && self.is_denorm(x) {
            x & self.sign()
        } else {
            x
        }
    }
    /// The NaN result of an op whose inputs include a NaN: the first NaN, quieted; otherwise
    /// (an invalid operation on numbers) the default NaN.
    #[inline(always)]
    pub fn nan_of(self, ins: &[u64]) -> u64 {
        for &x in ins {
            if self.is_nan(x) {
                return self.quiet(x);
            }
        }
        self.default_nan()
    }
}

/// Per-source abs/neg masks for format `fmt`: the operand is `(x & and) ^ xor`.
#[derive(Clone, Copy, Debug)]
pub struct SrcMods {
    and: [u64; 3],
    xor: [u64; 3],
}

impl SrcMods {
    /// Modifiers of all three sources, each of format `fmt`.
    pub fn new(abs: u8, neg: u8, fmts: [Fmt; 3]) -> Self {
        let mut m = SrcMods {
            and: [!0; 3],
            xor: [0; 3],
        };
        for (i, f) in fmts.iter().enumerate() {
            if abs >> i & 1 != 0 {
                m.and[i] = !f.sign();
            }
            if neg >> i & 1 != 0 {
                m.xor[i] = f.sign();
            }
        }
        m
    }

    /// Source `i` with its modifiers applied.
    #[inline(always)]
    pub fn get(&self, i: usize, x: u64) -> u64 {
        (x & self.and[i]) ^ self.xor[i]
    }
}

/// Applies omod (×2, ×4, ×0.5) and clamp to float results of format `fmt`, in place.
/// `dx10` turns NaN into 0 under clamp. The hardware ignores omod in IEEE mode and when output
/// denormals are enabled (LLVM folds omod only outside both for that reason).
pub fn output_mods(dst: &mut [u64], fmt: Fmt, omod: u8, clamp: bool, dx10: bool, env: &Env) {
    if omod != 0 && !env.ieee && !env.denorm.keep_out {
        let k = match omod {
            1 => 1,
            2 => 2,
            _ => -1,
        };
        for d in dst.iter_mut() {
            *d = crate::valu::round::ldexp_bits(fmt, *d, k, env);
        }
    }
    if clamp {
        let one = fmt.one();
        for d in dst.iter_mut() {
            let x = *d;
            *d = if fmt.is_nan(x) {
                if dx10 {
                    0
                } else {
                    x
                }
            } else if fmt.is_neg(x) {
                0
            } else if x > one {
                one
            } else {
                x
            };
        }
    }
}
