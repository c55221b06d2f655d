//! OpenCL integer builtins on char/short/int/long and their unsigned forms (16-bit VALU ops,
//! SDWA, 24-bit multiplies, bit counts, 64-bit sequences) against exact i128 references.

use super::kernel_env::{compile, Image, Ranges};
use super::Rng;

/// (signed, bits) of an OpenCL integer type.
type It = (bool, u32);

fn cl(t: It) -> &'static str {
    match t {
        (true, 8) => "char",
        (false, 8) => "uchar",
        (true, 16) => "short",
        (false, 16) => "ushort",
        (true, 32) => "int",
        (false, 32) => "uint",
        (true, _) => "long",
        (false, _) => "ulong",
    }
}

fn value(t: It, v: u64) -> i128 {
    let s = 64 - t.1;
    if t.0 {
        i128::from((v << s) as i64 >> s)
    } else {
        i128::from(v << s >> s)
    }
}

fn wrap(t: It, v: i128) -> u64 {
    (v as u64) & (u64::MAX >> (64 - t.1))
}

fn sat(t: It, v: i128) -> u64 {
    let (lo, hi) = if t.0 {
        (-(1i128 << (t.1 - 1)), (1i128 << (t.1 - 1)) - 1)
    } else {
        (0, (1i128 << t.1) - 1)
    };
    wrap(t, v.clamp(lo, hi))
}

/// The high half of the full product (u128 for unsigned: 64 x 64 bits overflow i128).
fn mul_hi(t: It, x: i128, z: i128) -> i128 {
    if t.0 {
        (x * z) >> t.1
    } else {
        ((x as u128 * z as u128) >> t.1) as i128
    }
}

/// Name, expression over `x`/`z`, reference from (type, x, z) to result bits.
type Case = (&'static str, &'static str, fn(It, i128, i128) -> u64);

const CASES: &[Case] = &[
    ("add_sat_", "add_sat(x, z)", |t, x, z| sat(t, x + z)),
    ("sub_sat_", "sub_sat(x, z)", |t, x, z| sat(t, x - z)),
    ("hadd_", "hadd(x, z)", |t, x, z| wrap(t, (x + z) >> 1)),
    ("rhadd_", "rhadd(x, z)", |t, x, z| wrap(t, (x + z + 1) >> 1)),
    ("mul_hi_", "mul_hi(x, z)", |t, x, z| {
        wrap(t, mul_hi(t, x, z))
    }),
    ("mad_hi_", "mad_hi(x, z, x)", |t, x, z| {
        wrap(t, mul_hi(t, x, z) + x)
    }),
    ("abs_diff_", "abs_diff(x, z)", |t, x, z| {
        wrap(t, (x - z).abs())
    }),
    ("clz_", "clz(x)", |t, x, _| {
        u64::from(wrap(t, x).leading_zeros() - (64 - t.1))
    }),
    ("popcount_", "popcount(x)", |t, x, _| {
        u64::from(wrap(t, x).count_ones())
    }),
    ("rotate_", "rotate(x, z)", |t, x, z| {
        let (b, n) = (wrap(t, x), (z.rem_euclid(i128::from(t.1))) as u32);
        let m = u64::MAX >> (64 - t.1);
        if n == 0 {
            b
        } else {
            ((b << n) | (b >> (t.1 - n))) & m
        }
    }),
    ("div_", "z == 0 ? (__typeof__(x))0 : x / z", |t, x, z| {
        // INT_MIN / -1 overflows; OpenCL leaves it undefined (masked to the wrapped result).
        if z == 0 {
            0
        } else {
            wrap(t, x / z)
        }
    }),
    ("rem_", "z == 0 ? (__typeof__(x))0 : x % z", |t, x, z| {
        if z == 0 {
            0
        } else {
            wrap(t, x % z)
        }
    }),
    (
        "shifts_",
        "(x << (z & (sizeof(x) * 8 - 1))) ^ (x >> ((z >> 3) & (sizeof(x) * 8 - 1)))",
        |t, x, z| {
            let w = i128::from(t.1);
            let (a, b) = (z & (w - 1), (z >> 3) & (w - 1));
            wrap(t, value(t, wrap(t, x << a)) ^ (x >> b))
        },
    ),
    ("mul24_", "mad24(x & 0x7fff, z & 0x7fff, x)", |t, x, z| {
        wrap(
            t,
            value(t, wrap(t, x & 0x7fff)) * value(t, wrap(t, z & 0x7fff)) + x,
        )
    }),
];

fn source(t: It) -> String {
    let ty = cl(t);
    let mut s = String::new();
    for (n, e, _) in CASES {
        if *n == "mul24_" && t.1 != 32 {
            continue; // mad24 exists for int and uint only
        }
        s += &format!(
            "__kernel void {n}(__global const {ty}* a, __global const {ty}* b, __global {ty}* y) \
             {{ int i = get_global_id(0); {ty} x = a[i]; {ty} z = b[i]; y[i] = {e}; }}\n"
        );
    }
    s
}

fn check(t: It, clang: &str, opt: &str) -> Vec<String> {
    let img = Image::load(&compile(&source(t), clang, opt, 5, &[]));
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let n = 512usize;
    let bytes = (t.1 / 8) as usize;
    let mut fails = Vec::new();
    for &(name, _, host) in CASES {
        if name == "mul24_" && t.1 != 32 {
            continue;
        }
        let gen = |rng: &mut Rng| -> Vec<u64> {
            (0..n)
                .map(|_| {
                    let r = rng.next();
                    let v = rng.next() >> (r % 64); // every magnitude
                    let v = if r & 64 != 0 { v.wrapping_neg() } else { v };
                    v & (u64::MAX >> (64 - t.1))
                })
                .collect()
        };
        let (a, b) = (gen(&mut rng), gen(&mut rng));
        let bytes_of = |v: &[u64]| -> Vec<u64> {
            let raw: Vec<u8> = v
                .iter()
                .flat_map(|e| e.to_le_bytes()[..bytes].to_vec())
                .collect();
            raw.chunks(8)
                .map(|c| c.iter().rev().fold(0u64, |acc, &x| acc << 8 | u64::from(x)))
                .collect()
        };
        let (am, bm) = (bytes_of(&a), bytes_of(&b));
        let mut y = vec![0u64; am.len()];
        let m = Ranges::default();
        if let Err(f) = img.run(
            name,
            &[m.add_readonly(&am), m.add_readonly(&bm), m.add(&mut y)],
            n as u32,
            &m,
        ) {
            fails.push(format!("{clang} {opt} {} {name}: {f}", cl(t)));
            continue;
        }
        let raw: Vec<u8> = y.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut bad = 0;
        for i in 0..n {
            let got = raw[i * bytes..(i + 1) * bytes]
                .iter()
                .rev()
                .fold(0u64, |acc, &x| acc << 8 | u64::from(x));
            let want = host(t, value(t, a[i]), value(t, b[i]));
            if got != want {
                if bad < 3 {
                    fails.push(format!(
                        "{clang} {opt} {} {name}({:#x}, {:#x}) = {got:#x}, want {want:#x}",
                        cl(t),
                        a[i],
                        b[i]
                    ));
                }
                bad += 1;
            }
        }
        if bad > 0 {
            fails.push(format!(
                "{clang} {opt} {} {name}: {bad} of {n} wrong",
                cl(t)
            ));
        }
    }
    fails
}

#[test]
fn integer_builtins_are_exact() {
    let mut fails = Vec::new();
    for t in [
        (true, 8),
        (false, 8),
        (true, 16),
        (false, 16),
        (true, 32),
        (false, 32),
        (true, 64),
        (false, 64),
    ] {
        for (clang, opt) in [("clang-15", "-O2"), ("clang-15", "-O0")] {
            fails.extend(check(t, clang, opt));
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}
