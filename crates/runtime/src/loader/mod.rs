//! Code object readers and executables. (Owned by the code-object work.)

#[derive(Default)]
pub struct Loader {}

impl Loader {
    pub fn new() -> Loader {
        Loader {}
    }
}
