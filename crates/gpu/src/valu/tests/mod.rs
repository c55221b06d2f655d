//! Tests of the VALU semantics against independent references: the host's IEEE f32/f64
//! operations, exact integer arithmetic (u128/i128), known bit patterns and math identities.
//!
//! The `cl_*` and `half_trig` modules check the VALU through real compiler output: OpenCL C
//! kernels built by Debian's clang 15/16/19 with rocm-device-libs, run on the [`crate::Device`]
//! (`kernel_env`), compared with host references (`host_ref`) within OpenCL's ulp bounds.

mod bits_int;
mod cl_convert;
mod cl_convert_ref;
mod cl_int;
mod cl_math;
mod cl_math_cases;
mod cl_packed;
mod compare_convert;
mod divide;
mod float;
mod float_modes;
mod half_trig;
mod host_ref;
mod kernel_env;
mod names;
mod packed;
mod transcendental;

use super::{execute, resolve, Denorm, Mode, VopInputs, VopOutputs, LANES};

/// Deterministic xorshift generator for test inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// A random f32 bit pattern, biased toward interesting classes.
    pub fn f32_bits(&mut self) -> u32 {
        let r = self.next();
        match r % 8 {
            0 => SPECIAL_F32[(r >> 8) as usize % SPECIAL_F32.len()],
            1 => (r >> 16) as u32 & 0x807f_ffff, // denormals
            2 => ((r >> 16) as u32 & 0x83ff_ffff) | 0x3c00_0000, // near 1
            _ => (r >> 16) as u32,
        }
    }
}

/// f32 values every float test should see.
pub const SPECIAL_F32: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fa0_0000,
    0xffc0_1234,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x3f00_0000,
    0x4b00_0000,
    0x4b80_0000,
];

/// Mode with every denormal kept (the host's behaviour).
pub fn keep_all() -> Mode {
    Mode {
        denorm_f32: Denorm::KEEP,
        ..Mode::default()
    }
}

/// Runs mnemonic `name` with `src` (lane l reads `src[i][l % len]`) and a configured input.
pub fn run(name: &str, src: &[&[u64]], cfg: impl FnOnce(&mut VopInputs)) -> VopOutputs {
    let op = resolve(name).unwrap_or_else(|| panic!("{name} does not resolve"));
    let mut inp = VopInputs {
        mode: keep_all(),
        ..VopInputs::default()
    };
    for (i, s) in src.iter().enumerate() {
        for l in 0..LANES {
            inp.src[i][l] = s[l % s.len()];
        }
    }
    cfg(&mut inp);
    let mut out = VopOutputs::default();
    execute(op, &inp, &mut out).unwrap_or_else(|e| panic!("{e}"));
    out
}

/// Lane 0 of `name` applied to one set of scalar sources.
pub fn one(name: &str, src: &[u64]) -> u64 {
    let cols: Vec<[u64; 1]> = src.iter().map(|&v| [v]).collect();
    let refs: Vec<&[u64]> = cols.iter().map(|c| &c[..]).collect();
    run(name, &refs, |_| {}).dst[0]
}

/// Lane 0 of `name` with a custom mode.
pub fn one_mode(name: &str, src: &[u64], mode: Mode) -> u64 {
    let cols: Vec<[u64; 1]> = src.iter().map(|&v| [v]).collect();
    let refs: Vec<&[u64]> = cols.iter().map(|c| &c[..]).collect();
    run(name, &refs, |i| i.mode = mode).dst[0]
}

/// Bits of an f32.
pub fn f(x: f32) -> u64 {
    x.to_bits() as u64
}

/// Bits of an f64.
pub fn d(x: f64) -> u64 {
    x.to_bits()
}

/// Canonical comparison of two f32 results: equal bits, or both NaN.
pub fn same_f32(a: u64, b: u32) -> bool {
    a as u32 == b || (f32::from_bits(a as u32).is_nan() && f32::from_bits(b).is_nan())
}
