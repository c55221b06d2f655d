//! The `softhsa` command: the software AMD GPU's front door.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::PathBuf;

mod demo;
mod disasm;
mod info;
mod objinfo;
mod run;

#[derive(Parser)]
#[command(
    name = "softhsa",
    version,
    about = "An HSA runtime whose GPU agent is a software AMD GPU (gfx900/gfx906)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a built-in gfx906 kernel (no compiler needed), check it, report its speed.
    Demo {
        /// Options: --size WxH, --iterations N, --workers N[,N...], --no-picture.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Print what rocminfo prints, through the public C API of the drop-in library.
    Info {
        /// The library to inspect (default: libhsa-runtime64.so.1 beside this executable).
        #[arg(long)]
        library: Option<PathBuf>,
    },
    /// Disassemble the kernels and functions of code objects, as llvm-objdump does.
    Disasm {
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Describe a code object: target, kernels, arguments, registers, segments.
    Objinfo { file: PathBuf },
    /// Run a program (HSA or HIP) with softhsa's libhsa-runtime64.so.1 in front.
    Run {
        /// The program, then its arguments (put `--` before them).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<OsString>,
    },
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Demo { args } => demo::run(&args),
        Command::Info { library } => info::run(library.as_deref()),
        Command::Disasm { files } => disasm::run(&files),
        Command::Objinfo { file } => match objinfo::run(&file, &mut std::io::stdout()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("softhsa objinfo: {}: {e}", file.display());
                1
            }
        },
        Command::Run { command } => run::run(&command[0], &command[1..]),
    };
    std::process::exit(code);
}
