//! The division helpers, checked by running LLVM's f32 and f64 fdiv expansions (div_scale,
//! rcp, Newton steps in fma, div_fmas, div_fixup) and comparing with the host's division.

use super::{d, f, run, Rng};

use crate::valu::VopOutputs;

fn op(name: &str, src: &[&[u64]], neg: u8, mask_in: u64) -> VopOutputs {
    run(name, src, |i| {
        i.neg = neg;
        i.mask_in = mask_in;
    })
}

/// LLVM's f32 fdiv lowering for gfx9 (denormals enabled), over 64 lanes.
fn fdiv32(n: &[u64], den: &[u64]) -> [u64; 64] {
    let one = [f(1.0)];
    let ds = op("v_div_scale_f32", &[den, den, n], 0, 0);
    let ns = op("v_div_scale_f32", &[n, den, n], 0, 0);
    let vcc = ns.mask;
    let r = op("v_rcp_f32", &[&ds.dst], 0, 0);
    let e = op("v_fma_f32", &[&ds.dst, &r.dst, &one], 1, 0);
    let r = op("v_fma_f32", &[&e.dst, &r.dst, &r.dst], 0, 0);
    let q = op("v_mul_f32", &[&ns.dst, &r.dst], 0, 0);
    let rem = op("v_fma_f32", &[&ds.dst, &q.dst, &ns.dst], 1, 0);
    let q = op("v_fma_f32", &[&rem.dst, &r.dst, &q.dst], 0, 0);
    let rem = op("v_fma_f32", &[&ds.dst, &q.dst, &ns.dst], 1, 0);
    let fm = op("v_div_fmas_f32", &[&rem.dst, &r.dst, &q.dst], 0, vcc);
    op("v_div_fixup_f32", &[&fm.dst, den, n], 0, 0).dst
}

/// LLVM's f64 fdiv lowering.
fn fdiv64(n: &[u64], den: &[u64]) -> [u64; 64] {
    let one = [d(1.0)];
    let ds = op("v_div_scale_f64", &[den, den, n], 0, 0);
    let r = op("v_rcp_f64", &[&ds.dst], 0, 0);
    let e = op("v_fma_f64", &[&ds.dst, &r.dst, &one], 1, 0);
    let r = op("v_fma_f64", &[&r.dst, &e.dst, &r.dst], 0, 0);
    let e = op("v_fma_f64", &[&ds.dst, &r.dst, &one], 1, 0);
    let r = op("v_fma_f64", &[&r.dst, &e.dst, &r.dst], 0, 0);
    let ns = op("v_div_scale_f64", &[n, den, n], 0, 0);
    let q = op("v_mul_f64", &[&ns.dst, &r.dst], 0, 0);
    let rem = op("v_fma_f64", &[&ds.dst, &q.dst, &ns.dst], 1, 0);
    let fm = op("v_div_fmas_f64", &[&rem.dst, &r.dst, &q.dst], 0, ns.mask);
    op("v_div_fixup_f64", &[&fm.dst, den, n], 0, 0).dst
}

#[test]
fn f32_division_sequence_is_correctly_rounded() {
    let mut rng = Rng(0xd1d1);
    let specials = [
        0.0f32,
        -0.0,
        1.0,
        3.0,
        f32::INFINITY,
        f32::NAN,
        1e-40,
        f32::MAX,
        1e-38,
        7e37,
    ];
    for round in 0..60 {
        let n: Vec<u64> = (0..64)
            .map(|l| {
                if round == 0 {
                    f(specials[l % 10])
                } else {
                    rng.f32_bits() as u64
                }
            })
            .collect();
        let den: Vec<u64> = (0..64)
            .map(|l| {
                if round == 0 {
                    f(specials[l / 7 % 10])
                } else {
                    rng.f32_bits() as u64
                }
            })
            .collect();
        let got = fdiv32(&n, &den);
        for l in 0..64 {
            let (a, b) = (f32::from_bits(n[l] as u32), f32::from_bits(den[l] as u32));
            let want = a / b;
            let g = f32::from_bits(got[l] as u32);
            assert!(
                g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                "{a:e} / {b:e}: {g:e} vs {want:e}"
            );
        }
    }
}

#[test]
fn f64_division_sequence_is_correctly_rounded() {
    let mut rng = Rng(0xd2d2);
    for _ in 0..60 {
        let mut g = || {
            let r = rng.next();
            match r % 6 {
                0 => [
                    0.0,
                    -0.0,
                    1.0,
                    f64::INFINITY,
                    f64::NAN,
                    5e-324,
                    f64::MAX,
                    3.0,
                ][(r >> 8) as usize % 8],
                1 => f64::from_bits(r >> 1),
                _ => f64::from_bits(r & 0x8fff_ffff_ffff_ffff | 0x3000_0000_0000_0000),
            }
        };
        let n: Vec<f64> = (0..64).map(|_| g()).collect();
        let den: Vec<f64> = (0..64).map(|_| g()).collect();
        let got = fdiv64(
            &n.iter().map(|&x| d(x)).collect::<Vec<_>>(),
            &den.iter().map(|&x| d(x)).collect::<Vec<_>>(),
        );
        for l in 0..64 {
            let want = n[l] / den[l];
            let g = f64::from_bits(got[l]);
            assert!(
                g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
                "{:e} / {:e}: {g:e} vs {want:e}",
                n[l],
                den[l]
            );
        }
    }
}

#[test]
fn div_scale_flags_and_fixup_specials() {
    // A denominator near the top of the range relative to a tiny numerator: no scaling.
    let o = run(
        "v_div_scale_f32",
        &[&[f(1.0)], &[f(1.0)], &[f(2.0)]],
        |_| {},
    );
    assert_eq!((o.dst[0], o.mask & 1), (f(1.0), 0));
    // Huge numerator over a tiny denominator: VCC set, the denominator scaled by 2^64.
    let o = run(
        "v_div_scale_f32",
        &[&[f(1e-30)], &[f(1e-30)], &[f(1e30)]],
        |_| {},
    );
    assert_eq!(o.mask & 1, 1);
    assert_eq!(o.dst[0], f(1e-30 * 2f32.powi(64)));
    // With VCC set, div_fmas undoes the 2^64 scaling: upward for an accumulator >= 2,
    // downward below.
    let o = run("v_div_fmas_f32", &[&[f(1.0)], &[f(2.0)], &[f(3.0)]], |i| {
        i.mask_in = 1
    });
    assert_eq!(o.dst[0], f(5.0 * 2f32.powi(64)));
    let o = run("v_div_fmas_f32", &[&[f(1.0)], &[f(0.5)], &[f(0.25)]], |i| {
        i.mask_in = 1
    });
    assert_eq!(o.dst[0], f(0.75 * 2f32.powi(-64)));
    let o = run("v_div_fmas_f64", &[&[d(1.0)], &[d(0.5)], &[d(0.25)]], |i| {
        i.mask_in = 1
    });
    assert_eq!(o.dst[0], d(0.75 * 2f64.powi(-128)));
    // div_fixup: x/0 = inf with the combined sign, 0/0 = NaN, inf/x = inf.
    assert_eq!(
        super::one("v_div_fixup_f32", &[f(1.0), f(-0.0), f(3.0)]),
        f(f32::NEG_INFINITY)
    );
    assert!(f32::from_bits(super::one("v_div_fixup_f32", &[f(1.0), 0, 0]) as u32).is_nan());
    assert_eq!(
        super::one("v_div_fixup_f32", &[f(1.0), f(2.0), f(f32::INFINITY)]),
        f(f32::INFINITY)
    );
    assert_eq!(
        super::one("v_div_fixup_f32", &[f(0.5), f(-2.0), f(1.0)]),
        f(-0.5)
    );
}
