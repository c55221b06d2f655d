//! Errors are HSA status codes, so `?` works inside the runtime and the C layer returns them as is.

use softhsa_abi::hsa_status_t;
use std::fmt;

/// A non-success HSA status, with an optional message for the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub status: hsa_status_t,
    pub message: Option<String>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub const fn new(status: hsa_status_t) -> Self {
        Error {
            status,
            message: None,
        }
    }
    pub fn with_message(status: hsa_status_t, message: impl Into<String>) -> Self {
        Error {
            status,
            message: Some(message.into()),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HSA status {:#x}", self.status)?;
        if let Some(m) = &self.message {
            write!(f, ": {m}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<hsa_status_t> for Error {
    fn from(status: hsa_status_t) -> Self {
        Error::new(status)
    }
}
