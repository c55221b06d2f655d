//! Opaque handles of the loader's objects: a tag, the loader instance's generation, a payload.
//!
//! Layout: bits 56..64 tag, bits 40..56 generation, bits 0..40 payload. Payloads are table
//! indices that are never reused, so a handle of a destroyed object, of an earlier runtime
//! instance, of another kind, or a forged value decodes to nothing (an INVALID_* status).

use std::sync::atomic::{AtomicU32, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Tag {
    Reader = 0xC1,
    Executable = 0xC2,
    Symbol = 0xC3,
    LoadedCodeObject = 0xC4,
    CodeObject = 0xC5,
    CodeSymbol = 0xC6,
}

const PAYLOAD_BITS: u32 = 40;
const PAYLOAD_MASK: u64 = (1 << PAYLOAD_BITS) - 1;
const GEN_MASK: u64 = 0xffff;
/// Bits of an object index inside a two-part payload (executable/code object + symbol).
pub const PART_BITS: u32 = 20;
pub const PART_MASK: u64 = (1 << PART_BITS) - 1;

pub fn encode(tag: Tag, generation: u32, payload: u64) -> u64 {
    ((tag as u64) << 56)
        | ((generation as u64 & GEN_MASK) << PAYLOAD_BITS)
        | (payload & PAYLOAD_MASK)
}

pub fn decode(handle: u64, tag: Tag, generation: u32) -> Option<u64> {
    let ok = handle >> 56 == tag as u64
        && (handle >> PAYLOAD_BITS) & GEN_MASK == generation as u64 & GEN_MASK;
    ok.then_some(handle & PAYLOAD_MASK)
}

/// Payload of an object inside a container (symbol of an executable, ...).
pub fn pair(outer: u64, inner: usize) -> u64 {
    (outer << PART_BITS) | (inner as u64 & PART_MASK)
}

pub fn unpair(payload: u64) -> (u64, usize) {
    (payload >> PART_BITS, (payload & PART_MASK) as usize)
}

/// A distinct generation per `Loader` (per runtime instance).
pub fn next_generation() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_reject_other_kinds_generations_and_forgeries() {
        let h = encode(Tag::Executable, 3, 42);
        assert_eq!(decode(h, Tag::Executable, 3), Some(42));
        assert_eq!(decode(h, Tag::Reader, 3), None);
        assert_eq!(decode(h, Tag::Executable, 4), None);
        assert_eq!(decode(0, Tag::Executable, 0), None);
        assert_eq!(decode(0x7fff_1234_5678, Tag::Symbol, 0), None);
        let s = encode(Tag::Symbol, 3, pair(42, 7));
        assert_eq!(decode(s, Tag::Symbol, 3).map(unpair), Some((42, 7)));
    }
}
