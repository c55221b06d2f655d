//! OpenCL conversions (convert_<type>[_sat][_<rounding>], vstore_half_<rounding>) compiled by
//! clang, run on the device, against exact host references (integer arithmetic and f64).

use super::host_ref::{f16_to_f64, f64_to_f16};
use super::kernel_env::{compile, Image, Ranges};
use super::Rng;

/// Rounding of a conversion.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rm {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// A number format: integers (signed?, bytes) or floats (bytes).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    Int(bool, u32),
    Float(u32),
}

impl Ty {
    fn cl(self) -> &'static str {
        match self {
            Ty::Int(true, 1) => "char",
            Ty::Int(false, 1) => "uchar",
            Ty::Int(true, 2) => "short",
            Ty::Int(false, 2) => "ushort",
            Ty::Int(true, 4) => "int",
            Ty::Int(false, 4) => "uint",
            Ty::Int(true, _) => "long",
            Ty::Int(false, _) => "ulong",
            Ty::Float(2) => "half",
            Ty::Float(4) => "float",
            Ty::Float(_) => "double",
        }
    }
    fn bytes(self) -> u32 {
        match self {
            Ty::Int(_, b) | Ty::Float(b) => b,
        }
    }
    fn int_range(self) -> (i128, i128) {
        match self {
            Ty::Int(true, b) => (-(1i128 << (8 * b - 1)), (1i128 << (8 * b - 1)) - 1),
            Ty::Int(false, b) => (0, (1i128 << (8 * b)) - 1),
            Ty::Float(_) => unreachable!(),
        }
    }
    /// The value of bits `v` (floats as f64; integers sign- or zero-extended, as f64 only when
    /// exact — integer sources use [`Ty::int_value`]).
    fn float_value(self, v: u64) -> f64 {
        match self {
            Ty::Float(2) => f16_to_f64(v as u16),
            Ty::Float(4) => f64::from(f32::from_bits(v as u32)),
            Ty::Float(_) => f64::from_bits(v),
            Ty::Int(..) => unreachable!(),
        }
    }
    fn int_value(self, v: u64) -> i128 {
        match self {
            Ty::Int(true, b) => {
                let s = 64 - 8 * b;
                i128::from((v << s) as i64 >> s)
            }
            Ty::Int(false, _) => i128::from(v),
            Ty::Float(_) => unreachable!(),
        }
    }
}

/// The result of rounding by `rm`, given how the exact value compares with the nearest float
/// `rne` and the candidates `lo`/`hi` below and above it.
fn pick(x_cmp: std::cmp::Ordering, neg: bool, lo: u64, hi: u64, rne: u64, rm: Rm) -> u64 {
    use std::cmp::Ordering::*;
    if x_cmp == Equal {
        return rne;
    }
    match rm {
        Rm::Rte => rne,
        Rm::Rtp => hi,
        Rm::Rtn => lo,
        Rm::Rtz if neg => hi,
        Rm::Rtz => lo,
    }
}

/// Bits of the next float above (`up`) or below `b` in a format of `bytes` (sign-magnitude
/// encoding: the magnitude steps by one).
fn step(b: u64, up: bool, bytes: u32) -> u64 {
    let sign = 1u64 << (8 * bytes - 1);
    let (neg, mag) = (b & sign != 0, b & (sign - 1));
    match (mag == 0, up, neg) {
        (true, true, _) => 1,
        (true, false, _) => sign | 1,
        (false, true, false) | (false, false, true) => b + 1,
        (false, true, true) | (false, false, false) => b - 1,
    }
}

/// Rounds the exact value `x` (an integer or a double) to float format `bytes` with `rm`.
fn round_to_float(exact: Exact, bytes: u32, rm: Rm) -> u64 {
    let rne = match (exact, bytes) {
        (Exact::I(v), 2) => u64::from(f64_to_f16(v as f64)),
        (Exact::I(v), 4) => u64::from((v as f32).to_bits()),
        (Exact::I(v), _) => (v as f64).to_bits(),
        (Exact::F(x), 2) => u64::from(f64_to_f16(x)),
        (Exact::F(x), 4) => u64::from((x as f32).to_bits()),
        (Exact::F(x), _) => x.to_bits(),
    };
    let back = Ty::Float(bytes).float_value(rne);
    if back.is_infinite() && rm != Rm::Rte {
        // Directed modes round overflow to the largest finite number when rounding inward.
        let toward_zero = match rm {
            Rm::Rtz => true,
            Rm::Rtp => back < 0.0,
            Rm::Rtn => back > 0.0,
            Rm::Rte => false,
        };
        return if toward_zero { rne - 1 } else { rne };
    }
    let ord = match exact {
        Exact::I(v) => v.cmp(&(back as i128)),
        Exact::F(x) => x.partial_cmp(&back).unwrap(),
    };
    let neg = back < 0.0 || (back == 0.0 && exact.negative());
    let (lo, hi) = match ord {
        std::cmp::Ordering::Less => (step(rne, false, bytes), rne),
        _ => (rne, step(rne, true, bytes)),
    };
    pick(ord, neg, lo, hi, rne, rm)
}

#[derive(Clone, Copy)]
enum Exact {
    I(i128),
    F(f64),
}

impl Exact {
    fn negative(self) -> bool {
        match self {
            Exact::I(v) => v < 0,
            Exact::F(x) => x.is_sign_negative(),
        }
    }
}

/// The expected result bits of `convert_<to>[_sat]_<rm>(x)`, or `None` where OpenCL leaves it
/// undefined (out-of-range non-saturating float-to-integer conversions).
fn expect(from: Ty, to: Ty, sat: bool, rm: Rm, x: u64) -> Option<u64> {
    let mask = if to.bytes() == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * to.bytes())) - 1
    };
    match (from, to) {
        (Ty::Float(_), Ty::Int(..)) => {
            let v = from.float_value(x);
            let (lo, hi) = to.int_range();
            if v.is_nan() {
                return sat.then_some(0);
            }
            let r = match rm {
                Rm::Rte => v.round_ties_even(),
                Rm::Rtz => v.trunc(),
                Rm::Rtp => v.ceil(),
                Rm::Rtn => v.floor(),
            };
            let in_range = r >= lo as f64 && r <= hi as f64;
            if !in_range && !sat {
                return None;
            }
            let i = if r < lo as f64 {
                lo
            } else if r > hi as f64 {
                hi
            } else {
                r as i128
            };
            Some(i as u64 & mask)
        }
        (Ty::Int(..), Ty::Int(..)) => {
            let v = from.int_value(x);
            let (lo, hi) = to.int_range();
            let v = if sat { v.clamp(lo, hi) } else { v };
            Some(v as u64 & mask)
        }
        (Ty::Int(..), Ty::Float(b)) => Some(round_to_float(Exact::I(from.int_value(x)), b, rm)),
        (Ty::Float(_), Ty::Float(b)) => {
            let v = from.float_value(x);
            if v.is_nan() {
                return Some(u64::MAX); // stands for any NaN
            }
            Some(round_to_float(Exact::F(v), b, rm))
        }
    }
}

fn is_nan(t: Ty, v: u64) -> bool {
    matches!(t, Ty::Float(_)) && t.float_value(v).is_nan()
}

/// One conversion kernel: name, source and destination type, saturation, rounding.
struct Conv {
    from: Ty,
    to: Ty,
    sat: bool,
    rm: Rm,
}

impl Conv {
    fn name(&self) -> String {
        format!(
            "c_{}_{}{}_{:?}",
            self.from.cl(),
            self.to.cl(),
            if self.sat { "_sat" } else { "" },
            self.rm
        )
    }
    fn kernel(&self) -> String {
        let (f, t) = (self.from.cl(), self.to.cl());
        let rm = format!("{:?}", self.rm).to_lowercase();
        let sat = if self.sat { "_sat" } else { "" };
        format!(
            "__kernel void {n}(__global const {f}* a, __global {t}* y) \
             {{ int i = get_global_id(0); y[i] = convert_{t}{sat}_{rm}(a[i]); }}\n",
            n = self.name()
        )
    }
}

fn convs() -> Vec<Conv> {
    use Ty::*;
    let mut v = Vec::new();
    let rms = [Rm::Rte, Rm::Rtz, Rm::Rtp, Rm::Rtn];
    let ints = [
        Int(true, 1),
        Int(false, 1),
        Int(true, 2),
        Int(false, 2),
        Int(true, 4),
        Int(false, 4),
        Int(true, 8),
        Int(false, 8),
    ];
    for from in [Float(2), Float(4), Float(8)] {
        for to in ints {
            for sat in [false, true] {
                for rm in rms {
                    v.push(Conv { from, to, sat, rm });
                }
            }
        }
    }
    for from in ints {
        for to in [Float(2), Float(4), Float(8)] {
            for rm in rms {
                v.push(Conv {
                    from,
                    to,
                    sat: false,
                    rm,
                });
            }
        }
        for to in [Int(true, 1), Int(false, 2), Int(true, 4), Int(false, 4)] {
            v.push(Conv {
                from,
                to,
                sat: true,
                rm: Rm::Rte,
            });
        }
    }
    for (from, to) in [
        (Float(8), Float(4)),
        (Float(8), Float(2)),
        (Float(4), Float(2)),
        (Float(2), Float(4)),
        (Float(4), Float(8)),
    ] {
        for rm in rms {
            v.push(Conv {
                from,
                to,
                sat: false,
                rm,
            });
        }
    }
    v
}

/// Random inputs of `t`: integers of every magnitude, floats near integers, halves, at the
/// edges of the integer ranges, and specials.
fn inputs(t: Ty, n: usize, rng: &mut Rng) -> Vec<u64> {
    (0..n)
        .map(|_| {
            let r = rng.next();
            match t {
                Ty::Int(_, b) => {
                    let shift = (r >> 58) as u32 % (8 * b) + 1;
                    let v = rng.next() >> (64 - shift);
                    if r & 1 != 0 {
                        v.wrapping_neg()
                    } else {
                        v
                    }
                }
                Ty::Float(b) => {
                    let mag = 2f64.powi((r >> 56) as i32 % 66 - 2);
                    let frac = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
                    let x = match r % 8 {
                        0 => return rng.next() & ((1u128 << (8 * b)) - 1) as u64,
                        1 => ((frac * 8.0).floor() - 4.0) * 0.5, // ties and integers
                        _ => (frac - 0.5) * mag,
                    };
                    match b {
                        2 => u64::from(f64_to_f16(x)),
                        4 => u64::from((x as f32).to_bits()),
                        _ => x.to_bits(),
                    }
                }
            }
        })
        .collect()
}

fn pack(bytes: u32, v: &[u64]) -> Vec<u64> {
    let per = 8 / bytes as usize;
    v.chunks(per)
        .map(|c| {
            c.iter().enumerate().fold(0u64, |acc, (j, &e)| {
                let m = if bytes == 8 {
                    u64::MAX
                } else {
                    (1 << (8 * bytes)) - 1
                };
                acc | (e & m) << (8 * bytes as usize * j)
            })
        })
        .collect()
}

fn unpack(bytes: u32, w: &[u64], n: usize) -> Vec<u64> {
    let per = 8 / bytes as usize;
    (0..n)
        .map(|i| {
            let x = w[i / per] >> (8 * bytes as usize * (i % per));
            if bytes == 8 {
                x
            } else {
                x & ((1 << (8 * bytes)) - 1)
            }
        })
        .collect()
}

fn check(clang: &str, opt: &str) -> Vec<String> {
    let cs = convs();
    let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    for c in &cs {
        src += &c.kernel();
    }
    let img = Image::load(&compile(&src, clang, opt, 5, &[]));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let n = 512;
    let mut fails = Vec::new();
    for c in &cs {
        let x = inputs(c.from, n, &mut rng);
        let a = pack(c.from.bytes(), &x);
        let y = vec![0u64; n * 8 / 8];
        let m = Ranges::default();
        if let Err(f) = img.run(&c.name(), &[m.add(&a), m.add(&y)], n as u32, &m) {
            fails.push(format!("{clang} {opt} {}: {f}", c.name()));
            continue;
        }
        let got = unpack(c.to.bytes(), &y, n);
        let mut bad = 0;
        for i in 0..n {
            let Some(want) = expect(c.from, c.to, c.sat, c.rm, x[i]) else {
                continue;
            };
            let ok = if want == u64::MAX && matches!(c.to, Ty::Float(_)) {
                is_nan(c.to, got[i])
            } else {
                got[i] == want
            };
            if !ok {
                if bad < 3 {
                    fails.push(format!(
                        "{clang} {opt} {}({:#x}) = {:#x}, want {want:#x}",
                        c.name(),
                        x[i],
                        got[i]
                    ));
                }
                bad += 1;
            }
        }
        if bad > 0 {
            fails.push(format!("{clang} {opt} {}: {bad} of {n} wrong", c.name()));
        }
    }
    fails
}

#[test]
fn conversions_with_every_rounding_and_saturation() {
    let mut fails = Vec::new();
    for (clang, opt) in [
        ("clang-15", "-O2"),
        ("clang-19", "-O2"),
        ("clang-15", "-O0"),
    ] {
        fails.extend(check(clang, opt));
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
