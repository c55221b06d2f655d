use super::kernel_env::{compile, Image, Ranges};
#[test]
fn scratch() {
    let src = "__kernel void k(__global const float* a, __global float* y) { int i = get_global_id(0); y[i] = log1p(a[i]); }";
    let x: Vec<f32> = vec![2.6500279659558146e-7, 1.1229827214265242e-4, -4.705743119120598e-2];
    for (c, f) in [("clang-16", &["-cl-denorms-are-zero"][..])] {
        let img = Image::load(&compile(src, c, "-O2", 4, f));
        let y = vec![0f32; 3];
        let m = Ranges::default();
        img.run("k", &[m.add(&x), m.add(&y)], 3, &m).unwrap();
        eprintln!("{c} {f:?}: {:?} want {:?}", y, x.iter().map(|v| (*v as f64).ln_1p() as f32).collect::<Vec<_>>());
    }
}
