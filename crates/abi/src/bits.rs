//! Get and set one field of an AMD bit-field word (`amd_queue_t::queue_properties`, the
//! `amd_kernel_code_t` resource and property words), given the header's `X_SHIFT` and `X_WIDTH`
//! constants; the Rust counterparts of `AMD_HSA_BITS_GET` / `AMD_HSA_BITS_SET`.

const fn mask(shift: u32, width: u32) -> u64 {
    (if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }) << shift
}

/// The field at `shift`/`width` of `word`, e.g.
/// `bits_get(p as u64, AMD_KERNEL_CODE_PROPERTIES_IS_PTR64_SHIFT, .._WIDTH)`.
pub const fn bits_get(word: u64, shift: u32, width: u32) -> u64 {
    (word & mask(shift, width)) >> shift
}

/// `word` with the field at `shift`/`width` replaced by `value` (truncated to `width` bits).
pub const fn bits_set(word: u64, shift: u32, width: u32, value: u64) -> u64 {
    (word & !mask(shift, width)) | ((value << shift) & mask(shift, width))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    #[test]
    fn get_set_match_header_masks() {
        // The header's mask constant for a field equals bits_set of all ones into 0.
        let all = u64::MAX;
        assert_eq!(
            bits_set(
                0,
                AMD_QUEUE_PROPERTIES_RESERVED1_SHIFT,
                AMD_QUEUE_PROPERTIES_RESERVED1_WIDTH,
                all
            ),
            AMD_QUEUE_PROPERTIES_RESERVED1 as u64
        );
        let s = AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32_SHIFT;
        let w = AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32_WIDTH;
        assert_eq!(
            bits_set(0, s, w, all),
            AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32 as u64
        );
        let word = bits_set(0xffff_ffff, s, w, 1);
        assert_eq!(bits_get(word, s, w), 1);
        assert_eq!(word, 0xffff_ffff & !(3 << 16) | (1 << 16));
        assert_eq!(bits_get(u64::MAX, 0, 64), u64::MAX);
    }
}
