//! Half-precision sin/cos from rocm-device-libs over every half input.
//!
//! Finding (the "sin(h) is NaN" report): Debian's ocml.bc (rocm-device-libs 5.2.3) has
//! `__ocml_sin_f16` return NaN when `llvm.amdgcn.class.f16(|x|, 504)` holds, i.e. for every
//! finite x (its source, sinH.cl, tests `class(x, SNAN|QNAN|NINF|PINF)`; the polarity was lost
//! when the library was built). cos_f16 has the right polarity. LLVM's own constant folder
//! turns `__ocml_sin_f16(0.5)` into NaN from that bitcode, and clang-19 lowers the same select to
//! `v_cmp_nlg_f16 |x|, inf` with the same result, so real hardware returns NaN as well. The
//! tests below check (1) that everything but that final select is right, on a build where
//! `-cl-finite-math-only` removes it, and (2) that the default build computes exactly what
//! LLVM folds from the same bitcode.

use super::host_ref::{f16_to_f64, f64_to_f16, ulps16};
use super::kernel_env::{compile, Image, Ranges};
use std::process::Command;

const SRC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void hsin(__global const half* x, __global half* y) {
  int i = get_global_id(0);
  y[i] = sin(x[i]);
}
__kernel void hcos(__global const half* x, __global half* y) {
  int i = get_global_id(0);
  y[i] = cos(x[i]);
}
"#;

/// Runs kernel `k` on the halves `x`.
fn run(img: &Image, k: &str, x: &[u16]) -> Vec<u16> {
    let mut y = vec![0u16; x.len()];
    let m = Ranges::default();
    img.run(k, &[m.add_readonly(x), m.add(&mut y)], x.len() as u32, &m)
        .unwrap_or_else(|f| panic!("{k}: {f}"));
    y
}

#[test]
fn half_sin_cos_every_finite_input_within_2_ulp() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    for clang in ["clang-15", "clang-19"] {
        let img = Image::load(&compile(SRC, clang, "-O2", 5, &["-cl-finite-math-only"]));
        for (k, f) in [("hsin", f64::sin as fn(f64) -> f64), ("hcos", f64::cos)] {
            let y = run(&img, k, &all);
            for &h in &all {
                let x = f16_to_f64(h);
                if !x.is_finite() {
                    continue;
                }
                let want = f64_to_f16(f(x));
                let got = y[h as usize];
                // cl_khr_fp16: sin and cos are within 2 ulp.
                assert!(
                    ulps16(got, want) <= 2,
                    "{clang} {k}({x}) = {got:#06x}, want {want:#06x}"
                );
            }
        }
    }
}

/// What `opt -O2` folds `__ocml_<f>_f16(h)` to, linking Debian's ocml.bc (finite_only off).
fn llvm_folds(f: &str, hs: &[u16]) -> Vec<u16> {
    let dir = std::env::temp_dir().join(format!("softhsa-valu-fold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ll =
        format!("target triple = \"amdgcn-amd-amdhsa\"\ndeclare half @__ocml_{f}_f16(half)\n");
    for (i, h) in hs.iter().enumerate() {
        ll += &format!(
            "define half @t{i}() {{\n  %r = call half @__ocml_{f}_f16(half 0xH{h:04X})\n  ret half %r\n}}\n"
        );
    }
    let (src, linked) = (dir.join(format!("{f}.ll")), dir.join(format!("{f}.bc")));
    std::fs::write(&src, ll).unwrap();
    let lib = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
    let st = Command::new("llvm-link-15")
        .arg(&src)
        .args(
            [
                "ocml.bc",
                "oclc_finite_only_off.bc",
                "oclc_isa_version_906.bc",
            ]
            .map(|b| format!("{lib}/{b}")),
        )
        .args(["oclc_daz_opt_off.bc", "oclc_unsafe_math_off.bc"].map(|b| format!("{lib}/{b}")))
        .args(["--only-needed", "-o"])
        .arg(&linked)
        .status()
        .expect("llvm-link-15");
    assert!(st.success());
    let out = Command::new("opt-15")
        .args(["-mcpu=gfx906", "-O2", "-S", "-o", "-"])
        .arg(&linked)
        .output()
        .expect("opt-15");
    let text = String::from_utf8(out.stdout).unwrap();
    // Each test function folds to `ret half 0xH....`, in definition order.
    let folded: Vec<u16> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("ret half 0xH"))
        .map(|v| u16::from_str_radix(v, 16).unwrap())
        .collect();
    assert_eq!(
        folded.len(),
        hs.len(),
        "opt did not fold every call:\n{text}"
    );
    folded
}

#[test]
fn half_sin_cos_compute_what_llvm_folds_from_the_same_bitcode() {
    let hs: Vec<u16> = vec![
        0x0000, 0x8000, 0x0001, 0x3800, 0xb800, 0x3c00, 0x4248, 0x4900, 0xd640, 0x7bff,
    ];
    let img = Image::load(&compile(SRC, "clang-15", "-O2", 5, &[]));
    for (k, f) in [("hsin", "sin"), ("hcos", "cos")] {
        let got = run(&img, k, &hs);
        let want = llvm_folds(f, &hs);
        assert_eq!(got, want, "{f}: device vs LLVM's folding of {hs:04x?}");
    }
    // Inf and NaN are not compared with the folder: the reduction's fptosi of inf is poison in
    // IR (the hardware's v_cvt_i32_f32 saturates), so LLVM may fold any value. They give NaN.
    for k in ["hsin", "hcos"] {
        for y in run(&img, k, &[0x7c00, 0xfc00, 0x7e00, 0xfd00]) {
            assert!(y & 0x7fff > 0x7c00, "{k}: {y:#06x} is not NaN");
        }
    }
    // The reason sin(h) is NaN with this library: finite inputs fold to NaN.
    assert_eq!(llvm_folds("sin", &[0x3800]), [0x7e00]);
}
