//! Agents (CPU and GPU), ISAs, caches. (Owned by the runtime-system work.)

use crate::{config::Config, Result};

pub struct Topology {}

impl Topology {
    pub fn new(_config: &Config) -> Result<Topology> {
        Ok(Topology {})
    }
}
