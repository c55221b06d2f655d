//! `softhsa run -- PROGRAM ARGS...`: runs an unmodified program with softhsa's
//! `libhsa-runtime64.so.1` first on the library search path.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const LIBRARY: &str = "libhsa-runtime64.so.1";

/// The directory holding softhsa's library: `SOFTHSA_LIB_DIR`, else beside this executable
/// (`target/release/` after `scripts/build-lib.sh`).
fn library_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("SOFTHSA_LIB_DIR") {
        let dir = PathBuf::from(dir);
        return if dir.join(LIBRARY).exists() {
            Ok(dir)
        } else {
            Err(format!(
                "SOFTHSA_LIB_DIR={} holds no {LIBRARY}",
                dir.display()
            ))
        };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate softhsa: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    if dir.join(LIBRARY).exists() {
        return Ok(dir.to_path_buf());
    }
    Err(format!(
        "{LIBRARY} not found beside {}; build it with scripts/build-lib.sh or set SOFTHSA_LIB_DIR",
        exe.display()
    ))
}

/// Replaces this process with `program`; returns only on failure.
pub fn run(program: &OsString, args: &[OsString]) -> i32 {
    let dir = match library_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("softhsa run: {e}");
            return 2;
        }
    };
    let mut path = OsString::from(dir.as_os_str());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|o| !o.is_empty()) {
        path.push(":");
        path.push(old);
    }
    let err = Command::new(program)
        .args(args)
        .env("LD_LIBRARY_PATH", path)
        .exec();
    eprintln!(
        "softhsa run: cannot run {}: {err}",
        program.to_string_lossy()
    );
    127
}
