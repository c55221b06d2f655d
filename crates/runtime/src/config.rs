//! `SOFTHSA_*` configuration, read once at `hsa_init`. (Owned by the runtime-system work.)

use crate::Result;

#[derive(Clone, Debug, Default)]
pub struct Config {}

impl Config {
    pub fn from_env() -> Result<Config> {
        Ok(Config {})
    }
}
