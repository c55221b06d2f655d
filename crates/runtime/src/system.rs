//! System attributes, extensions and the system timestamp. (Owned by the runtime-system work.)

/// Records a failed API call in the trace (SOFTHSA_TRACE=api). Placeholder until tracing lands.
pub fn trace_api_error(_name: &str, _error: &crate::Error) {}
