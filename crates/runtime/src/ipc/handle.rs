//! The 32 bytes of `hsa_amd_ipc_memory_t` / `hsa_amd_ipc_signal_t` as softhsa fills them.
//!
//! `[magic, kind, pid, fd, nonce lo, nonce hi, pages, check]`: the exporting process, its
//! descriptor of the shared-memory file, the random tag in that file's name, the exported size in
//! pages, and a check word over the others. The handle is a name, not a capability: attaching
//! opens `/proc/<pid>/fd/<fd>` and accepts the file only if its name carries the nonce, so a
//! handle of a dead process, a reused descriptor or a forged handle fails cleanly.

use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_INVALID_ARGUMENT;

/// "SHIP" (softhsa IPC), little-endian.
const MAGIC: u32 = 0x5049_4853;

/// What a handle names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Memory = 1,
    Signal = 2,
}

/// A decoded IPC handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle {
    pub kind: Kind,
    pub pid: u32,
    pub fd: i32,
    pub nonce: u64,
    /// Exported size in 4 KiB pages.
    pub pages: u32,
}

fn check(w: &[u32; 8]) -> u32 {
    w[..7].iter().fold(0x9e37_79b9u32, |a, &x| {
        (a ^ x).rotate_left(5).wrapping_mul(0x85eb_ca6b)
    })
}

impl Handle {
    pub fn to_words(self) -> [u32; 8] {
        let mut w = [
            MAGIC,
            self.kind as u32,
            self.pid,
            self.fd as u32,
            self.nonce as u32,
            (self.nonce >> 32) as u32,
            self.pages,
            0,
        ];
        w[7] = check(&w);
        w
    }

    /// Decodes a handle of `kind`; anything else (zeros, garbage, the other kind) is
    /// HSA_STATUS_ERROR_INVALID_ARGUMENT.
    pub fn from_words(w: [u32; 8], kind: Kind) -> Result<Handle> {
        let bad = |why: &str| {
            Error::with_message(
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
                format!("not a softhsa IPC handle: {why}"),
            )
        };
        if w[0] != MAGIC || w[7] != check(&w) {
            return Err(bad("bad magic or check word"));
        }
        if w[1] != kind as u32 {
            return Err(bad("a handle of the other kind (memory vs signal)"));
        }
        if w[2] == 0 || w[3] > i32::MAX as u32 || w[6] == 0 {
            return Err(bad("no process, descriptor or size"));
        }
        Ok(Handle {
            kind,
            pid: w[2],
            fd: w[3] as i32,
            nonce: u64::from(w[4]) | u64::from(w[5]) << 32,
            pages: w[6],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_round_trip_and_reject_tampering() {
        let h = Handle {
            kind: Kind::Memory,
            pid: 1234,
            fd: 17,
            nonce: 0x0123_4567_89ab_cdef,
            pages: 3,
        };
        let w = h.to_words();
        assert_eq!(Handle::from_words(w, Kind::Memory).unwrap(), h);
        assert!(Handle::from_words(w, Kind::Signal).is_err());
        for i in 0..8 {
            let mut t = w;
            t[i] ^= 1 << (i * 3);
            assert!(Handle::from_words(t, Kind::Memory).is_err(), "word {i}");
        }
        assert!(Handle::from_words([0; 8], Kind::Memory).is_err());
    }
}
