//! The `softhsa` command.

fn main() {
    eprintln!("softhsa: no subcommands yet");
    std::process::exit(2);
}
