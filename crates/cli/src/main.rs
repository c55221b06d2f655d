//! The `softhsa` command: the software AMD GPU's front door.

use clap::{Parser, Subcommand};
use std::ffi::OsString;

mod run;

#[derive(Parser)]
#[command(name = "softhsa", version, about = "An HSA runtime whose GPU is a software AMD GPU (gfx900/gfx906)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        Command::Run { command } => run::run(&command[0], &command[1..]),
    };
    std::process::exit(code);
}
