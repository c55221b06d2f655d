//! System attributes, status strings, extensions and the system timestamp.
//!
//! The system timestamp runs at 1 GHz: it is the host's monotonic clock in nanoseconds since the
//! runtime's epoch (the first timestamp taken in the process). Everything that records time
//! (signal start/end timestamps, profiling, the timeline) uses [`timestamp`], so all agree.

#[path = "trace.rs"]
pub mod trace;

use crate::Error;
use softhsa_abi::*;
use std::ffi::CStr;

/// Ticks per second of [`timestamp`] (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY).
pub const TIMESTAMP_FREQUENCY: u64 = 1_000_000_000;
/// HSA specification version the runtime implements (HSA_SYSTEM_INFO_VERSION_*).
pub const VERSION: (u16, u16) = (1, 1);
/// Reported by HSA_AMD_SYSTEM_INFO_BUILD_VERSION.
pub const BUILD_VERSION: &CStr = c"softhsa 0.1.0";

/// The system timestamp in ticks of [`TIMESTAMP_FREQUENCY`] (nanoseconds), monotonic.
pub fn timestamp() -> u64 {
    // CLOCK_MONOTONIC in nanoseconds, as ROCr reports it: HIP compares its own host clock with
    // dispatch timestamps, so both must come from the same clock.
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Records a failed API call in the trace (`SOFTHSA_TRACE=api`).
pub fn trace_api_error(name: &str, error: &Error) {
    // INFO_BREAK is a callback ending an iteration early, not an error.
    if error.status == HSA_STATUS_INFO_BREAK {
        return;
    }
    crate::trace!(
        trace::Category::Api,
        "{name} -> {}{}{}",
        status_name(error.status),
        if error.message.is_some() { ": " } else { "" },
        error.message.as_deref().unwrap_or("")
    );
}

/// The text of `hsa_status_string` ("NAME: description"), or `None` for an unknown status.
pub fn status_string(status: hsa_status_t) -> Option<&'static CStr> {
    hsa_status_text(status)
}

/// The C name of a status ("HSA_STATUS_ERROR_INVALID_AGENT"), for traces and messages.
pub fn status_name(status: hsa_status_t) -> &'static str {
    status_string(status)
        .and_then(|t| t.to_str().ok())
        .and_then(|t| t.split(':').next())
        .unwrap_or("unknown HSA status")
}

/// One extension the runtime knows by id.
#[derive(Clone, Copy, Debug)]
pub struct Extension {
    pub id: u16,
    pub name: &'static CStr,
    /// Supported major version and the highest minor of it, or `None` if unsupported.
    pub version: Option<(u16, u16)>,
}

/// Every extension id of hsa.h, and what softhsa supports. The AMD loader extension becomes
/// supported when the code-object layer provides its function table (see `capi`'s system.rs).
pub fn extensions(amd_loader_available: bool) -> [Extension; 7] {
    let ext = |id, name, version| Extension { id, name, version };
    [
        ext(
            HSA_EXTENSION_FINALIZER as u16,
            c"HSA_EXTENSION_FINALIZER",
            None,
        ),
        ext(
            HSA_EXTENSION_IMAGES as u16,
            c"HSA_EXTENSION_IMAGES",
            Some((1, 0)),
        ),
        ext(
            HSA_EXTENSION_PERFORMANCE_COUNTERS as u16,
            c"HSA_EXTENSION_PERFORMANCE_COUNTERS",
            None,
        ),
        ext(
            HSA_EXTENSION_PROFILING_EVENTS as u16,
            c"HSA_EXTENSION_PROFILING_EVENTS",
            None,
        ),
        ext(
            HSA_EXTENSION_AMD_PROFILER as u16,
            c"HSA_EXTENSION_AMD_PROFILER",
            None,
        ),
        ext(
            HSA_EXTENSION_AMD_LOADER as u16,
            c"HSA_EXTENSION_AMD_LOADER",
            amd_loader_available.then_some((1, 3)),
        ),
        ext(
            HSA_EXTENSION_AMD_AQLPROFILE as u16,
            c"HSA_EXTENSION_AMD_AQLPROFILE",
            None,
        ),
    ]
}

/// The value of HSA_SYSTEM_INFO_EXTENSIONS: bit `id` set for every supported extension.
pub fn extension_mask(amd_loader_available: bool) -> [u8; 128] {
    let mut mask = [0u8; 128];
    for e in extensions(amd_loader_available)
        .iter()
        .filter(|e| e.version.is_some())
    {
        mask[e.id as usize / 8] |= 1 << (e.id % 8);
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_and_texts() {
        assert_eq!(
            status_name(HSA_STATUS_ERROR_INVALID_AGENT),
            "HSA_STATUS_ERROR_INVALID_AGENT"
        );
        assert_eq!(
            status_name(HSA_STATUS_ERROR_MEMORY_FAULT),
            "HSA_STATUS_ERROR_MEMORY_FAULT"
        );
        assert_eq!(
            status_name(0x3001),
            "HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED"
        );
        assert!(status_string(0x7777).is_none());
        assert_eq!(status_name(0x7777), "unknown HSA status");
    }

    #[test]
    fn timestamp_is_monotonic_nanoseconds() {
        let a = timestamp();
        let t = std::time::Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let b = timestamp();
        let real = t.elapsed().as_nanos() as u64;
        assert!(
            b > a && b - a >= 5_000_000 && b - a <= real + 1_000_000,
            "{a} {b} {real}"
        );
    }

    #[test]
    fn extension_mask_sets_the_loader_bit_only_when_available() {
        // Images (id 1) always; the AMD loader (0x201) when available.
        let mut images = [0u8; 128];
        images[0] = 1 << HSA_EXTENSION_IMAGES;
        assert_eq!(extension_mask(false), images);
        let m = extension_mask(true);
        assert_eq!(m[0x201 / 8], 1 << (0x201 % 8));
        assert_eq!(m[0], 1 << HSA_EXTENSION_IMAGES);
        assert_eq!(m.iter().map(|b| b.count_ones()).sum::<u32>(), 2);
    }
}
