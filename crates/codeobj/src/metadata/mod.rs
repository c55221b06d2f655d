//! Kernel metadata of code objects v2 (YAML note) and v3+ (MessagePack note), in one model.

pub mod model;
pub mod msgpack;
pub mod yaml;

pub use model::{KernelArg, KernelMetadata, Metadata, PrintfFormat, ValueKind};

/// v3+ metadata gives no argument alignment: the natural alignment of the size (power of two,
/// at most 128), lowered to what the offset actually has.
pub fn derive_align(offset: u32, size: u32) -> u32 {
    let natural = size
        .max(1)
        .checked_next_power_of_two()
        .unwrap_or(128)
        .min(128);
    if offset == 0 {
        natural
    } else {
        natural.min(1 << offset.trailing_zeros())
    }
}

/// Parses `id:n:size_1:...:size_n:format` (the format may itself contain ':').
pub fn parse_printf(s: &str) -> Option<PrintfFormat> {
    let mut parts = s.splitn(3, ':');
    let id = parts.next()?.trim().parse().ok()?;
    let n: usize = parts.next()?.trim().parse().ok()?;
    let mut rest = parts.next()?;
    let mut arg_sizes = Vec::with_capacity(n.min(64));
    for _ in 0..n {
        let (size, tail) = rest.split_once(':')?;
        arg_sizes.push(size.trim().parse().ok()?);
        rest = tail;
    }
    Some(PrintfFormat {
        id,
        arg_sizes,
        format: rest.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_strings() {
        let p = parse_printf("1:2:4:8:x=%d: y=%ld\n").unwrap();
        assert_eq!(
            (p.id, p.arg_sizes.as_slice(), p.format.as_str()),
            (1, &[4, 8][..], "x=%d: y=%ld\n")
        );
        let p = parse_printf("0:0:hello").unwrap();
        assert_eq!(
            (p.id, p.arg_sizes.len(), p.format.as_str()),
            (0, 0, "hello")
        );
        assert!(parse_printf("x:0:f").is_none());
        assert!(parse_printf("1:3:4:f").is_none());
    }

    #[test]
    fn alignment_is_derived_from_size_and_offset() {
        assert_eq!(derive_align(0, 8), 8);
        assert_eq!(derive_align(16, 4), 4);
        assert_eq!(derive_align(20, 8), 4);
        assert_eq!(derive_align(32, 16), 16);
        assert_eq!(derive_align(12, 12), 4);
    }

    #[test]
    fn value_kind_spellings_agree() {
        assert_eq!(
            ValueKind::from_v3("hidden_multigrid_sync_arg"),
            ValueKind::from_v2("HiddenMultiGridSyncArg")
        );
        assert_eq!(
            ValueKind::from_v3("hidden_heap_v1").name(),
            "hidden_heap_v1"
        );
        assert!(ValueKind::from_v3("hidden_grid_dims").is_hidden());
        assert_eq!(
            ValueKind::from_v3("weird"),
            ValueKind::Unknown("weird".into())
        );
        assert_eq!(
            ValueKind::from_v2("hidden_heap_v1"),
            ValueKind::Unknown("hidden_heap_v1".into())
        );
    }
}
