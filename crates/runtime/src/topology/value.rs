//! Attribute values of the `*_get_info` functions, as the bytes C receives.
//!
//! The runtime decides each attribute's value and C type; the C layer only copies the bytes to
//! the caller's `void *value` (whose size the attribute's documented type fixes).

/// One attribute value in its C representation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoValue {
    Bool(bool),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    /// Exact bytes (arrays, structs, fixed-size or NUL-terminated strings).
    Bytes(Vec<u8>),
}

impl InfoValue {
    /// A `char[len]` field: the string, NUL-padded (and always NUL-terminated).
    pub fn fixed_str(s: &str, len: usize) -> InfoValue {
        let mut b = vec![0u8; len];
        let n = s.len().min(len - 1);
        b[..n].copy_from_slice(&s.as_bytes()[..n]);
        InfoValue::Bytes(b)
    }

    /// A NUL-terminated string of its own length (e.g. ISA and cache names).
    pub fn c_str(s: &str) -> InfoValue {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        InfoValue::Bytes(b)
    }

    /// An array of `uint32_t`.
    pub fn u32s(v: &[u32]) -> InfoValue {
        InfoValue::Bytes(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }

    /// An array of `uint16_t`.
    pub fn u16s(v: &[u16]) -> InfoValue {
        InfoValue::Bytes(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }

    /// An array of `bool`.
    pub fn bools(v: &[bool]) -> InfoValue {
        InfoValue::Bytes(v.iter().map(|&x| x as u8).collect())
    }

    /// A 64-bit handle or pointer value.
    pub fn ptr<T>(p: *const T) -> InfoValue {
        InfoValue::U64(p as usize as u64)
    }

    /// The bytes to copy into the caller's buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            InfoValue::Bool(b) => vec![*b as u8],
            InfoValue::U8(v) => vec![*v],
            InfoValue::U16(v) => v.to_ne_bytes().to_vec(),
            InfoValue::U32(v) => v.to_ne_bytes().to_vec(),
            InfoValue::U64(v) => v.to_ne_bytes().to_vec(),
            InfoValue::Bytes(b) => b.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn representations() {
        assert_eq!(InfoValue::fixed_str("gfx906", 8).to_bytes(), b"gfx906\0\0");
        assert_eq!(InfoValue::fixed_str("abcdefghij", 4).to_bytes(), b"abc\0");
        assert_eq!(InfoValue::c_str("L2").to_bytes(), b"L2\0");
        assert_eq!(
            InfoValue::u32s(&[1, 2]).to_bytes(),
            [1, 0, 0, 0, 2, 0, 0, 0]
        );
        assert_eq!(InfoValue::u16s(&[1024]).to_bytes(), [0, 4]);
        assert_eq!(InfoValue::bools(&[false, true]).to_bytes(), [0, 1]);
        assert_eq!(InfoValue::U64(5).to_bytes().len(), 8);
    }
}
