//! AQL queues and packet processors. (Owned by the runtime-queues work.)

use crate::{config::Config, Result};

pub struct Queues {}

impl Queues {
    pub fn new(_config: &Config) -> Result<Queues> {
        Ok(Queues {})
    }
    pub fn shut_down(&self) {}
}
