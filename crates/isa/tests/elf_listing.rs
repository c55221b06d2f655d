//! `softhsa disasm` listing vs llvm-objdump-15 on kernels compiled by clang: every instruction
//! line (address, dwords, text, branch target) and every symbol header must match.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kernel_source() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/isa/kernels/mix.cl")
}

fn compile(clang: &str, cpu: &str, opt: &str, cov: &str, out: &Path) {
    let st = Command::new(clang)
        .args([
            "-target",
            "amdgcn-amd-amdhsa",
            &format!("-mcpu={cpu}"),
            &format!("-{opt}"),
        ])
        .args([
            "--rocm-path=/usr",
            "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
        ])
        .args([
            "-cl-std=CL2.0",
            &format!("-mcode-object-version={cov}"),
            "-o",
        ])
        .arg(out)
        .arg(kernel_source())
        .status()
        .unwrap_or_else(|e| panic!("{clang} must be installed (Debian clang-15/16): {e}"));
    assert!(st.success(), "{clang} failed for {cpu} -{opt}");
}

/// Lines of interest: `<name>:` headers and instruction lines (`text // ADDR: HEX [<target>]`),
/// normalized to single spaces.
fn normalize(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(|l| {
            if l.ends_with(">:") {
                return Some(l.to_string());
            }
            let (text, comment) = l.strip_prefix('\t')?.split_once("//")?;
            Some(format!("{} // {}", text.trim_end(), comment.trim()))
        })
        .collect()
}

#[test]
fn listing_matches_llvm_objdump() {
    let dir = std::env::temp_dir().join(format!("softhsa-isa-elf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let configs = [
        ("clang-15", "gfx906", "O2", "4"),
        ("clang-15", "gfx906", "O0", "4"),
        ("clang-15", "gfx900", "O2", "4"),
        ("clang-15", "gfx900", "O0", "3"),
        ("clang-16", "gfx906", "O2", "5"),
        // gfx908 at -O0 spills VGPRs to AGPRs (v_accvgpr_*), not decoded yet: -O2 only.
        ("clang-15", "gfx908", "O2", "4"),
    ];
    let mut checked = 0;
    for (clang, cpu, opt, cov) in configs {
        let obj = dir.join(format!("mix-{clang}-{cpu}-{opt}.hsaco"));
        compile(clang, cpu, opt, cov, &obj);
        let want = Command::new("llvm-objdump-15")
            .args(["-d", &format!("--mcpu={cpu}")])
            .arg(&obj)
            .output()
            .expect("llvm-objdump-15 must be installed");
        assert!(want.status.success());
        let want = normalize(&String::from_utf8_lossy(&want.stdout));
        let bytes = std::fs::read(&obj).expect("read code object");
        let got = normalize(&softhsa_isa::elf::listing(&bytes, "x").expect("listing"));
        assert!(
            want.len() > 50,
            "llvm-objdump listed too little for {cpu} -{opt}"
        );
        for (k, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(g, w, "{clang} {cpu} -{opt}: line {k} differs");
        }
        assert_eq!(
            got.len(),
            want.len(),
            "{clang} {cpu} -{opt}: line counts differ"
        );
        checked += want.len();
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked > 1000, "only {checked} lines compared");
}
