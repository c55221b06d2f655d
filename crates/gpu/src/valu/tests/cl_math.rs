//! OpenCL math builtins (rocm-device-libs' ocml, by clang 15/16/19, -O0/-O2) in half, float
//! and double over many inputs, against the host's f64 functions within the ulp bounds of the
//! OpenCL 2.0 specification (float/double: section 7.4 table 7.1; half: cl_khr_fp16), plus one
//! ulp for rounding the reference.

use super::cl_math_cases::{cases, Dom};
use super::host_ref::{f16_to_f64, f64_to_f16, ulps16, ulps32, ulps64};
use super::kernel_env::{compile, Image, Ranges};
use super::Rng;

/// Element precision of a test kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Prec {
    Half,
    Float,
    Double,
}

impl Prec {
    fn cl(self) -> &'static str {
        match self {
            Prec::Half => "half",
            Prec::Float => "float",
            Prec::Double => "double",
        }
    }
    fn to_bits(self, x: f64) -> u64 {
        match self {
            Prec::Half => u64::from(f64_to_f16(x)),
            Prec::Float => u64::from((x as f32).to_bits()),
            Prec::Double => x.to_bits(),
        }
    }
    fn value(self, b: u64) -> f64 {
        match self {
            Prec::Half => f16_to_f64(b as u16),
            Prec::Float => f64::from(f32::from_bits(b as u32)),
            Prec::Double => f64::from_bits(b),
        }
    }
    fn ulps(self, a: u64, b: u64) -> u64 {
        match self {
            Prec::Half => ulps16(a as u16, b as u16),
            Prec::Float => ulps32(f32::from_bits(a as u32), f32::from_bits(b as u32)),
            Prec::Double => ulps64(f64::from_bits(a), f64::from_bits(b)),
        }
    }
}

/// `n` inputs of `p` drawn from `dom`, deterministic.
fn inputs(p: Prec, dom: Dom, n: usize, rng: &mut Rng) -> Vec<u64> {
    let specials = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    (0..n)
        .map(|i| {
            let r = rng.next();
            let u = (r >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
            let x = match dom {
                Dom::Any if i < specials.len() => specials[i],
                Dom::Any => match r % 4 {
                    // Random bit patterns cover every binade, denormals and NaNs.
                    0 | 1 => return random_bits(p, rng.next()),
                    2 => (u - 0.5) * 20.0,
                    _ => (u - 0.5) * 1e6,
                },
                Dom::Within(b) => (u * 2.0 - 1.0) * b,
                Dom::Range(lo, hi) => lo + u * (hi - lo),
            };
            p.to_bits(x)
        })
        .collect()
}

fn random_bits(p: Prec, r: u64) -> u64 {
    match p {
        Prec::Half => r & 0xffff,
        Prec::Float => r & 0xffff_ffff,
        Prec::Double => r,
    }
}

/// The kernels of every case for precision `p`.
fn source(p: Prec) -> String {
    let t = p.cl();
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    for c in cases() {
        s += &format!(
            "__kernel void {n}(__global const {t}* a, __global const {t}* b, __global {t}* y) \
             {{ int i = get_global_id(0); {t} x = a[i]; {t} z = b[i]; y[i] = {e}; }}\n",
            n = c.name,
            e = c.expr
        );
    }
    s
}

/// Runs every case in precision `p` over `n` inputs; returns the failures as text.
pub fn check(p: Prec, n: usize, build: Build, select: &dyn Fn(&str) -> bool) -> Vec<String> {
    let (clang, opt, cov, flags) = build;
    let daz = p == Prec::Float && flags.contains(&"-cl-denorms-are-zero");
    let img = Image::load(&compile(&source(p), clang, opt, cov, flags));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut fails = Vec::new();
    for c in cases().into_iter().filter(|c| select(c.name)) {
        let a = inputs(p, c.dom[0], n, &mut rng);
        let b = inputs(p, c.dom[1], n, &mut rng);
        let m = Ranges::default();
        let (ah, bh, mut yh) = to_mem(p, &a, &b);
        if let Err(f) = c_run(&img, c.name, &m, &ah, &bh, &mut yh, n) {
            fails.push(format!("{build:?} {p:?} {}: {f}", c.name));
            continue;
        }
        let y = from_mem(p, &yh, n);
        let mut bad = 0;
        for i in 0..n {
            let (x, z) = (p.value(a[i]), p.value(b[i]));
            let want = p.to_bits((c.host)(x, z));
            let mut d = p.ulps(y[i], want);
            if daz {
                // Denormal inputs and results may be flushed to zero (bit operations keep them).
                let flushed = p.to_bits((c.host)(flush32(x), flush32(z)));
                d = d.min(p.ulps(y[i], flushed));
                if flush32(p.value(want)) != p.value(want) && p.value(y[i]) == 0.0 {
                    d = 0;
                }
            }
            if d > c.ulp[p as usize] {
                if bad < 3 {
                    fails.push(format!(
                        "{build:?} {p:?} {}({x:e}, {z:e}) = {:e} ({:#x}), want {:e} ({want:#x}), {d} ulp",
                        c.name,
                        p.value(y[i]),
                        y[i],
                        p.value(want)
                    ));
                }
                bad += 1;
            }
        }
        if bad > 0 {
            fails.push(format!(
                "{build:?} {p:?} {}: {bad} of {n} inputs off",
                c.name
            ));
        }
    }
    fails
}

/// `x` with an f32 denormal replaced by a zero of its sign (OpenCL's flush-to-zero).
fn flush32(x: f64) -> f64 {
    if x != 0.0 && x.abs() < f64::from(f32::MIN_POSITIVE) {
        0.0f64.copysign(x)
    } else {
        x
    }
}

/// Buffers as 64-bit words holding the packed elements (keeps alignment simple).
fn to_mem(p: Prec, a: &[u64], b: &[u64]) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let pack = |v: &[u64]| -> Vec<u64> {
        match p {
            Prec::Double => v.to_vec(),
            Prec::Float => v
                .chunks(2)
                .map(|c| c[0] | c.get(1).unwrap_or(&0) << 32)
                .collect(),
            Prec::Half => v
                .chunks(4)
                .map(|c| {
                    c.iter()
                        .enumerate()
                        .fold(0, |acc, (j, &e)| acc | e << (16 * j))
                })
                .collect(),
        }
    };
    let (pa, pb) = (pack(a), pack(b));
    let y = vec![0u64; pa.len()];
    (pa, pb, y)
}

fn from_mem(p: Prec, y: &[u64], n: usize) -> Vec<u64> {
    let (w, per) = match p {
        Prec::Half => (16, 4),
        Prec::Float => (32, 2),
        Prec::Double => (64, 1),
    };
    (0..n)
        .map(|i| {
            let word = y[i / per];
            if w == 64 {
                word
            } else {
                word >> (w * (i % per)) & ((1 << w) - 1)
            }
        })
        .collect()
}

fn c_run(
    img: &Image,
    k: &str,
    m: &Ranges,
    a: &[u64],
    b: &[u64],
    y: &mut [u64],
    n: usize,
) -> Result<(), crate::Fault> {
    let args = [m.add_readonly(a), m.add_readonly(b), m.add(y)];
    img.run(k, &args, n as u32, m)
}

/// Compiler, optimisation level, code object version, extra flags.
pub type Build = (&'static str, &'static str, u32, &'static [&'static str]);

fn report(p: Prec, builds: &[Build], select: &dyn Fn(&str) -> bool) {
    let mut fails = Vec::new();
    for &build in builds {
        fails.extend(check(p, 1024, build, select));
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// The compilers and optimisation levels each precision is checked under: instruction
/// selection differs (SDWA, VOP3 forms, op_sel, mix ops, v_mad vs v_fma).
const BUILDS: [Build; 3] = [
    ("clang-15", "-O2", 5, &[]),
    ("clang-15", "-O0", 4, &[]),
    ("clang-19", "-O2", 5, &[]),
];

/// pown's integer-to-float conversion is a VOP1 SDWA instruction at -O2 (the isa decoder
/// rejected those until 06:45), so it has a test of its own.
fn not_pown(name: &str) -> bool {
    name != "pown_"
}

#[test]
fn float_builtins_within_spec() {
    report(Prec::Float, &BUILDS, &not_pown);
}

#[test]
fn double_builtins_within_spec() {
    report(Prec::Double, &BUILDS, &not_pown);
}

#[test]
fn half_builtins_within_spec() {
    report(Prec::Half, &BUILDS, &not_pown);
}

#[test]
fn pown_at_o0() {
    let o0 = [("clang-15", "-O0", 4, &[][..])];
    for p in [Prec::Half, Prec::Float, Prec::Double] {
        report(p, &o0, &|n| n == "pown_");
    }
}

#[test]
fn float_pown_sdwa() {
    report(Prec::Float, &BUILDS, &|n| n == "pown_");
}

/// f32 denormals flushed (-cl-denorms-are-zero; the kernel's MODE says so): LLVM then uses
/// the unfused v_mad_f32/v_madmk_f32/v_mac_f32 for fmuladd (this caught v_madmk reading K as
/// its addend, VALU-REQUESTS.md 06:25).
#[test]
fn float_builtins_flushing_denormals() {
    let daz = [("clang-16", "-O2", 4, &["-cl-denorms-are-zero"][..])];
    report(Prec::Float, &daz, &not_pown);
}
