//! Decoding the 64-byte kernel descriptor (v3+) and the 256-byte `amd_kernel_code_t` (v2) into
//! [`KernelDescriptor`]. Offsets are those of the LLVM AMDGPU user guide and amd_hsa_kernel_code.h.

use crate::descriptor::KernelDescriptor;
use softhsa_abi as abi;

/// Size of a v3+ kernel descriptor.
pub const KD_SIZE: usize = 64;
/// Size of a v2 `amd_kernel_code_t`.
pub const AMD_KERNEL_CODE_SIZE: usize = core::mem::size_of::<softhsa_abi::amd_kernel_code_t>();

/// Kernel descriptor byte offsets.
pub mod kd {
    pub const GROUP_SEGMENT_FIXED_SIZE: usize = 0;
    pub const PRIVATE_SEGMENT_FIXED_SIZE: usize = 4;
    pub const KERNARG_SIZE: usize = 8;
    pub const KERNEL_CODE_ENTRY_BYTE_OFFSET: usize = 16;
    pub const COMPUTE_PGM_RSRC3: usize = 44;
    pub const COMPUTE_PGM_RSRC1: usize = 48;
    pub const COMPUTE_PGM_RSRC2: usize = 52;
    /// 16-bit field: user SGPR enables (bits 0-6), wavefront size 32 (bit 10), dynamic stack (11).
    pub const KERNEL_CODE_PROPERTIES: usize = 56;
}

/// `amd_kernel_code_t` byte offsets, from softhsa-abi's mirror of amd_hsa_kernel_code.h (whose
/// layout test compares it with the C header).
pub mod akc {
    use core::mem::offset_of;
    use softhsa_abi::amd_kernel_code_t as T;
    pub const VERSION_MAJOR: usize = offset_of!(T, amd_kernel_code_version_major);
    pub const KERNEL_CODE_ENTRY_BYTE_OFFSET: usize = offset_of!(T, kernel_code_entry_byte_offset);
    pub const COMPUTE_PGM_RSRC1: usize = offset_of!(T, compute_pgm_rsrc1);
    pub const COMPUTE_PGM_RSRC2: usize = offset_of!(T, compute_pgm_rsrc2);
    pub const KERNEL_CODE_PROPERTIES: usize = offset_of!(T, kernel_code_properties);
    pub const WORKITEM_PRIVATE_SEGMENT_BYTE_SIZE: usize =
        offset_of!(T, workitem_private_segment_byte_size);
    pub const WORKGROUP_GROUP_SEGMENT_BYTE_SIZE: usize =
        offset_of!(T, workgroup_group_segment_byte_size);
    pub const KERNARG_SEGMENT_BYTE_SIZE: usize = offset_of!(T, kernarg_segment_byte_size);
    pub const WAVEFRONT_SIZE_LOG2: usize = offset_of!(T, wavefront_size);
}

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}
fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}
fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().unwrap_or([0; 8]))
}

/// The seven user SGPR enable bits, at the same positions in the v3+ descriptor's 16-bit word
/// as in `amd_kernel_code_t.kernel_code_properties` (AMD_KERNEL_CODE_PROPERTIES_*_SHIFT 0..=6).
fn user_sgprs(kd: &mut KernelDescriptor, props: u32) {
    let bit = |n: u32| props & (1 << n) != 0;
    kd.enable_sgpr_private_segment_buffer = bit(0);
    kd.enable_sgpr_dispatch_ptr = bit(1);
    kd.enable_sgpr_queue_ptr = bit(2);
    kd.enable_sgpr_kernarg_segment_ptr = bit(3);
    kd.enable_sgpr_dispatch_id = bit(4);
    kd.enable_sgpr_flat_scratch_init = bit(5);
    kd.enable_sgpr_private_segment_size = bit(6);
}

impl KernelDescriptor {
    /// Decodes a v3+ kernel descriptor.
    pub fn from_kd_bytes(b: &[u8; KD_SIZE]) -> KernelDescriptor {
        let props = u16_at(b, kd::KERNEL_CODE_PROPERTIES) as u32;
        let mut d = KernelDescriptor {
            group_segment_fixed_size: u32_at(b, kd::GROUP_SEGMENT_FIXED_SIZE),
            private_segment_fixed_size: u32_at(b, kd::PRIVATE_SEGMENT_FIXED_SIZE),
            kernarg_size: u32_at(b, kd::KERNARG_SIZE),
            entry_offset: u64_at(b, kd::KERNEL_CODE_ENTRY_BYTE_OFFSET) as i64,
            pgm_rsrc1: u32_at(b, kd::COMPUTE_PGM_RSRC1),
            pgm_rsrc2: u32_at(b, kd::COMPUTE_PGM_RSRC2),
            pgm_rsrc3: u32_at(b, kd::COMPUTE_PGM_RSRC3),
            wavefront_size32: props & (1 << 10) != 0,
            uses_dynamic_stack: props & (1 << 11) != 0,
            ..Default::default()
        };
        user_sgprs(&mut d, props);
        d
    }

    /// Decodes a v2 `amd_kernel_code_t`. Returns the descriptor and the wavefront size (from its
    /// log2 field), which the caller checks.
    pub fn from_amd_kernel_code(b: &[u8; AMD_KERNEL_CODE_SIZE]) -> (KernelDescriptor, u32) {
        let props = u32_at(b, akc::KERNEL_CODE_PROPERTIES);
        let mut d = KernelDescriptor {
            group_segment_fixed_size: u32_at(b, akc::WORKGROUP_GROUP_SEGMENT_BYTE_SIZE),
            private_segment_fixed_size: u32_at(b, akc::WORKITEM_PRIVATE_SEGMENT_BYTE_SIZE),
            kernarg_size: u32::try_from(u64_at(b, akc::KERNARG_SEGMENT_BYTE_SIZE))
                .unwrap_or(u32::MAX),
            entry_offset: u64_at(b, akc::KERNEL_CODE_ENTRY_BYTE_OFFSET) as i64,
            pgm_rsrc1: u32_at(b, akc::COMPUTE_PGM_RSRC1),
            pgm_rsrc2: u32_at(b, akc::COMPUTE_PGM_RSRC2),
            pgm_rsrc3: 0,
            enable_sgpr_grid_workgroup_count: [
                props
                    & (1
                        << abi::AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_X_SHIFT)
                    != 0,
                props
                    & (1
                        << abi::AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y_SHIFT)
                    != 0,
                props
                    & (1
                        << abi::AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z_SHIFT)
                    != 0,
            ],
            wavefront_size32: false,
            uses_dynamic_stack: props
                & (1 << abi::AMD_KERNEL_CODE_PROPERTIES_IS_DYNAMIC_CALLSTACK_SHIFT)
                != 0,
            ..Default::default()
        };
        user_sgprs(&mut d, props);
        let wave_log2 = b[akc::WAVEFRONT_SIZE_LOG2] as u32;
        (d, 1u32.checked_shl(wave_log2).unwrap_or(0))
    }

    /// `amd_kernel_code_version_major` of a v2 `amd_kernel_code_t` (1 for every LLVM output).
    pub fn amd_kernel_code_version(b: &[u8; AMD_KERNEL_CODE_SIZE]) -> u32 {
        u32_at(b, akc::VERSION_MAJOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_descriptor_fields() {
        let mut b = [0u8; KD_SIZE];
        b[0..4].copy_from_slice(&256u32.to_le_bytes());
        b[4..8].copy_from_slice(&16u32.to_le_bytes());
        b[8..12].copy_from_slice(&24u32.to_le_bytes());
        b[16..24].copy_from_slice(&(-0x780i64).to_le_bytes());
        b[48..52].copy_from_slice(&0x00af_0041u32.to_le_bytes());
        b[52..56].copy_from_slice(&0x0000_0090u32.to_le_bytes());
        b[56..58].copy_from_slice(&(0b1000_0000_1001u16).to_le_bytes());
        let d = KernelDescriptor::from_kd_bytes(&b);
        assert_eq!(
            (
                d.group_segment_fixed_size,
                d.private_segment_fixed_size,
                d.kernarg_size
            ),
            (256, 16, 24)
        );
        assert_eq!(d.entry_offset, -0x780);
        assert_eq!(d.vgpr_count(), 8);
        assert_eq!(d.sgpr_count(), 16);
        assert!(d.enable_sgpr_private_segment_buffer && d.enable_sgpr_kernarg_segment_ptr);
        assert!(!d.enable_sgpr_dispatch_ptr && d.uses_dynamic_stack && !d.wavefront_size32);
    }

    #[test]
    fn amd_kernel_code_fields() {
        let mut b = [0u8; AMD_KERNEL_CODE_SIZE];
        b[0..4].copy_from_slice(&1u32.to_le_bytes());
        b[16..24].copy_from_slice(&256i64.to_le_bytes());
        b[56..60].copy_from_slice(&((1u32 << 3) | (1 << 8) | (1 << 20)).to_le_bytes());
        b[60..64].copy_from_slice(&32u32.to_le_bytes());
        b[64..68].copy_from_slice(&1024u32.to_le_bytes());
        b[72..80].copy_from_slice(&40u64.to_le_bytes());
        b[103] = 6;
        let (d, wave) = KernelDescriptor::from_amd_kernel_code(&b);
        assert_eq!(KernelDescriptor::amd_kernel_code_version(&b), 1);
        assert_eq!(
            (
                d.entry_offset,
                d.private_segment_fixed_size,
                d.group_segment_fixed_size
            ),
            (256, 32, 1024)
        );
        assert_eq!((d.kernarg_size, wave), (40, 64));
        assert_eq!(d.enable_sgpr_grid_workgroup_count, [false, true, false]);
        assert!(d.enable_sgpr_kernarg_segment_ptr && d.uses_dynamic_stack);
    }
}
