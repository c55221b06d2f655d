//! half2/half4 arithmetic (VOP3P v_pk_* with op_sel/neg modifiers at -O2, scalarized 16-bit
//! ops and SDWA at -O0) against exactly rounded host results.

use super::host_ref::{f16_to_f64, f64_to_f16, ulps16};
use super::kernel_env::{compile, Image, Ranges};
use super::Rng;

/// Kernel name, expression over half4 `x`/`z`, host reference per element, allowed ulps.
type Case = (&'static str, &'static str, fn(f64, f64) -> f64, u64);

const CASES: &[Case] = &[
    ("padd", "x + z", |x, z| x + z, 0),
    ("psub", "x - z.yxwz", |x, z| x - z, 0),
    ("pmul", "x * z", |x, z| x * z, 0),
    ("pfma", "fma(x, z, -x)", |x, z| x.mul_add(z, -x), 0),
    ("pneg", "-x * fabs(z)", |x, z| -x * z.abs(), 0),
    ("pmin", "fmin(x, z)", |x, z| x.min(z), 0),
    ("pmax", "fmax(x.wzyx, z)", |x, z| x.max(z), 0),
    ("psqrt", "sqrt(x)", |x, _| x.sqrt(), 1),
    ("pdiv", "x / z", |x, z| x / z, 1),
    (
        "pmix",
        "convert_half4(convert_float4(x) * convert_float4(z) + 1.0f)",
        |x, z| x * z + 1.0,
        1,
    ),
];

/// The lane of the second operand each element reads (swizzles in the expressions).
fn partner(name: &str, i: usize) -> (usize, usize) {
    let (q, r) = (i / 4 * 4, i % 4);
    match name {
        "psub" => (i, q + [1, 0, 3, 2][r]),
        "pmax" => (q + 3 - r, i),
        _ => (i, i),
    }
}

fn source() -> String {
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    for (n, e, _, _) in CASES {
        s += &format!(
            "__kernel void {n}(__global const half4* a, __global const half4* b, \
             __global half4* y) {{ int i = get_global_id(0); half4 x = a[i]; half4 z = b[i]; \
             y[i] = {e}; }}\n"
        );
    }
    s
}

fn check(clang: &str, opt: &str) -> Vec<String> {
    let img = Image::load(&compile(&source(), clang, opt, 5, &[]));
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let n = 4 * 256;
    let mut fails = Vec::new();
    for &(name, _, host, ulp) in CASES {
        let gen = |rng: &mut Rng| -> Vec<u16> {
            (0..n)
                .map(|_| {
                    let r = rng.next();
                    if r.is_multiple_of(4) {
                        (r >> 16) as u16 // any pattern: denormals, inf, NaN
                    } else {
                        f64_to_f16(((r >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 64.0)
                    }
                })
                .collect()
        };
        let (a, b) = (gen(&mut rng), gen(&mut rng));
        let mut y = vec![0u16; n];
        let m = Ranges::default();
        let args = [m.add_readonly(&a), m.add_readonly(&b), m.add(&mut y)];
        if let Err(f) = img.run(name, &args, (n / 4) as u32, &m) {
            fails.push(format!("{clang} {opt} {name}: {f}"));
            continue;
        }
        let mut bad = 0;
        for (i, &got) in y.iter().enumerate() {
            let (ia, ib) = partner(name, i);
            let (x, z) = (f16_to_f64(a[ia]), f16_to_f64(b[ib]));
            let want = f64_to_f16(host(x, z));
            if ulps16(got, want) > ulp {
                if bad < 3 {
                    fails.push(format!(
                        "{clang} {opt} {name}[{i}]({:#06x}, {:#06x}) = {:#06x}, want {want:#06x}",
                        a[ia], b[ib], got
                    ));
                }
                bad += 1;
            }
        }
        if bad > 0 {
            fails.push(format!("{clang} {opt} {name}: {bad} of {n} off"));
        }
    }
    fails
}

#[test]
fn half4_arithmetic_is_exactly_rounded() {
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
