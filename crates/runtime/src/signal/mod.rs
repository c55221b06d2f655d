//! Signals. (Owned by the runtime-queues work.)

use crate::{config::Config, Result};

pub struct Signals {}

impl Signals {
    pub fn new(_config: &Config) -> Result<Signals> {
        Ok(Signals {})
    }
    pub fn shut_down(&self) {}
}
