//! Shared by the integration tests: finding Debian's LLVM tools and compiling the test kernels.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// (clang major version, code object versions it can emit).
pub const MATRIX: &[(u32, &[u32])] = &[
    (14, &[2, 3, 4]),
    (15, &[2, 3, 4, 5]),
    (16, &[2, 3, 4, 5]),
    (19, &[4, 5]),
];
pub const CPUS: &[&str] = &["gfx900", "gfx906"];
pub const OPTS: &[&str] = &["-O0", "-O2"];
pub const DEVICE_LIBS: &str = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";

/// `name-N` on PATH (e.g. clang-16), or a panic naming the Debian package to install.
pub fn tool(name: &str, ver: u32) -> PathBuf {
    let exe = format!("{name}-{ver}");
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        let p = dir.join(&exe);
        if p.is_file() {
            return p;
        }
    }
    let pkg = if name == "clang" {
        format!("clang-{ver} lld-{ver}")
    } else {
        format!("llvm-{ver}")
    };
    panic!("{exe} not found on PATH: install the Debian packages {pkg} (the code object tests need them)");
}

/// The repository's tests/codeobj directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/codeobj")
}

/// Compiles `src` (an OpenCL file of tests/codeobj/kernels) unless an up-to-date output exists.
pub fn compile(
    src: &str,
    clang: u32,
    cpu: &str,
    opt: &str,
    cov: u32,
    device_libs: bool,
) -> PathBuf {
    let src_path = corpus_dir().join("kernels").join(src);
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codeobj-matrix");
    std::fs::create_dir_all(&out_dir).unwrap();
    let stem = src.trim_end_matches(".cl");
    let out = out_dir.join(format!("{stem}-clang{clang}-{cpu}{opt}-v{cov}.hsaco"));
    let fresh = |o: &Path| -> Option<bool> {
        Some(
            std::fs::metadata(o).ok()?.modified().ok()?
                >= std::fs::metadata(&src_path).ok()?.modified().ok()?,
        )
    };
    if fresh(&out) == Some(true) {
        return out;
    }
    let mut cmd = Command::new(tool("clang", clang));
    cmd.args([
        "-target",
        "amdgcn-amd-amdhsa",
        &format!("-mcpu={cpu}"),
        opt,
        "-cl-std=CL2.0",
    ]);
    cmd.arg(format!("-mcode-object-version={cov}"));
    if device_libs {
        cmd.args([
            "--rocm-path=/usr",
            &format!("--rocm-device-lib-path={DEVICE_LIBS}"),
        ]);
    } else {
        cmd.arg("-nogpulib");
    }
    cmd.arg("-o").arg(&out).arg(&src_path);
    let r = cmd.output().expect("run clang");
    assert!(
        r.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&r.stderr)
    );
    out
}

/// Runs `llvm-readelf-N args file` and returns stdout.
pub fn readelf(ver: u32, args: &[&str], file: &Path) -> String {
    let r = Command::new(tool("llvm-readelf", ver))
        .args(args)
        .arg(file)
        .output()
        .expect("run llvm-readelf");
    assert!(
        r.status.success(),
        "llvm-readelf failed: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    String::from_utf8(r.stdout).unwrap()
}
