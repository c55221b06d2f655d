//! `softhsa disasm FILE...`: list every kernel/function of AMDGPU code objects in
//! llvm-objdump's layout, using softhsa's own decoder (softhsa-isa).

/// Entry point: `args` are the arguments after `disasm`. Returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    if args.is_empty() || args.iter().any(|a| a == "-h" || a == "--help") {
        eprintln!("usage: softhsa disasm FILE.hsaco...");
        return if args.is_empty() { 2 } else { 0 };
    }
    let mut rc = 0;
    for path in args {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("softhsa disasm: {path}: {e}");
                rc = 1;
                continue;
            }
        };
        // llvm-objdump names the file as given on the command line.
        match softhsa_isa::elf::listing(&bytes, path) {
            Ok(text) => print!("{text}"),
            Err(e) => {
                eprintln!("softhsa disasm: {path}: {e}");
                rc = 1;
            }
        }
    }
    rc
}
