//! The launch description of a kernel, common to code object v2 (`amd_kernel_code_t`) and v3+
//! (the 64-byte kernel descriptor). The GPU reads only this, never the raw bytes.

/// Rounding mode of MODE.FP_ROUND (COMPUTE_PGM_RSRC1.FLOAT_ROUND_MODE_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FloatRoundMode {
    #[default]
    NearEven = 0,
    PlusInfinity = 1,
    MinusInfinity = 2,
    Zero = 3,
}

/// Denormal mode of MODE.FP_DENORM (COMPUTE_PGM_RSRC1.FLOAT_DENORM_MODE_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FloatDenormMode {
    /// Flush source and destination denormals.
    FlushSrcDst = 0,
    /// Flush output denormals only.
    FlushDst = 1,
    /// Flush input denormals only.
    FlushSrc = 2,
    /// Keep denormals.
    #[default]
    FlushNone = 3,
}

/// Everything the GPU needs to start the waves of a kernel.
///
/// Fields are named after the kernel descriptor of the LLVM AMDGPU user guide; values from a v2
/// `amd_kernel_code_t` are translated into the same meaning.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KernelDescriptor {
    /// Fixed LDS bytes (the packet's dynamic group segment size is added at dispatch).
    pub group_segment_fixed_size: u32,
    /// Fixed scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Kernarg segment size in bytes (0 if unknown in v2).
    pub kernarg_size: u32,
    /// Byte offset from the address of the descriptor (v3+) or of the `amd_kernel_code_t` (v2)
    /// to the kernel's first instruction.
    pub entry_offset: i64,
    /// Raw COMPUTE_PGM_RSRC1/2/3 (rsrc3 is 0 on GFX9).
    pub pgm_rsrc1: u32,
    pub pgm_rsrc2: u32,
    pub pgm_rsrc3: u32,
    // User SGPRs, in the order they are allocated (densely numbered from s0).
    pub enable_sgpr_private_segment_buffer: bool,
    pub enable_sgpr_dispatch_ptr: bool,
    pub enable_sgpr_queue_ptr: bool,
    pub enable_sgpr_kernarg_segment_ptr: bool,
    pub enable_sgpr_dispatch_id: bool,
    pub enable_sgpr_flat_scratch_init: bool,
    pub enable_sgpr_private_segment_size: bool,
    /// v2 only: grid work-group counts X/Y/Z as user SGPRs.
    pub enable_sgpr_grid_workgroup_count: [bool; 3],
    /// Wave32 (never on GFX9).
    pub wavefront_size32: bool,
    pub uses_dynamic_stack: bool,
}

impl KernelDescriptor {
    fn rsrc1_bits(&self, lo: u32, width: u32) -> u32 {
        (self.pgm_rsrc1 >> lo) & ((1 << width) - 1)
    }
    fn rsrc2_bits(&self, lo: u32, width: u32) -> u32 {
        (self.pgm_rsrc2 >> lo) & ((1 << width) - 1)
    }
    /// VGPRs allocated per work-item: (granulated + 1) * 4 on GFX9 wave64.
    pub fn vgpr_count(&self) -> u32 {
        (self.rsrc1_bits(0, 6) + 1) * 4
    }
    /// gfx90a and later: VGPRs plus AGPRs allocated per work-item, one register file with a
    /// granule of 8.
    pub fn unified_register_count(&self) -> u32 {
        (self.rsrc1_bits(0, 6) + 1) * 8
    }
    /// gfx90a and later: index of the first AGPR in the unified file (COMPUTE_PGM_RSRC3
    /// ACCUM_OFFSET, granule 4).
    pub fn accum_offset(&self) -> u32 {
        ((self.pgm_rsrc3 & 0x3f) + 1) * 4
    }
    /// SGPRs allocated per wave: (granulated + 1) * 8 on GFX9 (includes VCC, flat scratch, xnack).
    pub fn sgpr_count(&self) -> u32 {
        (self.rsrc1_bits(6, 4) + 1) * 8
    }
    /// An upper bound of the SGPRs (s0 up) the kernel uses: the GFX9 encoding
    /// (`2 * (ceil(used / 16) - 1)`) read back, which also bounds the older granule of 8.
    pub fn sgpr_bound(&self) -> u32 {
        (self.rsrc1_bits(6, 4) + 2) * 8
    }
    pub fn float_round_mode_32(&self) -> u32 {
        self.rsrc1_bits(12, 2)
    }
    pub fn float_round_mode_16_64(&self) -> u32 {
        self.rsrc1_bits(14, 2)
    }
    pub fn float_denorm_mode_32(&self) -> u32 {
        self.rsrc1_bits(16, 2)
    }
    pub fn float_denorm_mode_16_64(&self) -> u32 {
        self.rsrc1_bits(18, 2)
    }
    pub fn enable_dx10_clamp(&self) -> bool {
        self.rsrc1_bits(21, 1) != 0
    }
    pub fn enable_ieee_mode(&self) -> bool {
        self.rsrc1_bits(23, 1) != 0
    }
    /// COMPUTE_PGM_RSRC2.ENABLE_SGPR_PRIVATE_SEGMENT_WAVEFRONT_OFFSET (SCRATCH_EN on GFX9).
    pub fn enable_sgpr_private_segment_wave_offset(&self) -> bool {
        self.rsrc2_bits(0, 1) != 0
    }
    /// COMPUTE_PGM_RSRC2.USER_SGPR_COUNT: user SGPRs the hardware loads.
    pub fn user_sgpr_count(&self) -> u32 {
        self.rsrc2_bits(1, 5)
    }
    pub fn enable_trap_handler(&self) -> bool {
        self.rsrc2_bits(6, 1) != 0
    }
    /// ENABLE_SGPR_WORKGROUP_ID_X/Y/Z.
    pub fn enable_sgpr_workgroup_id(&self) -> [bool; 3] {
        [
            self.rsrc2_bits(7, 1) != 0,
            self.rsrc2_bits(8, 1) != 0,
            self.rsrc2_bits(9, 1) != 0,
        ]
    }
    pub fn enable_sgpr_workgroup_info(&self) -> bool {
        self.rsrc2_bits(10, 1) != 0
    }
    /// ENABLE_VGPR_WORKITEM_ID: 0 = X, 1 = X and Y, 2 = X, Y and Z.
    pub fn enable_vgpr_workitem_id(&self) -> u32 {
        self.rsrc2_bits(11, 2)
    }
    /// GRANULATED_LDS_SIZE is set by the hardware, not by the compiler; kept for completeness.
    pub fn granulated_lds_size(&self) -> u32 {
        self.rsrc2_bits(15, 9)
    }
}

#[cfg(test)]
mod tests {
    use super::KernelDescriptor;

    /// `sgpr_bound` covers every SGPR count a compiler may have encoded, in the GFX9
    /// granule (AMDGPUUsage: `2 * max(0, ceil(used / 16) - 1)`) and in the older one of 8
    /// (`max(0, ceil(used / 8) - 1)`).
    #[test]
    fn sgpr_bound_covers_the_encoded_count() {
        for used in 1u32..=112 {
            let gfx9 = 2 * (used.div_ceil(16).max(1) - 1);
            let gfx8 = used.div_ceil(8).max(1) - 1;
            for field in [gfx9, gfx8] {
                let d = KernelDescriptor {
                    pgm_rsrc1: field << 6,
                    ..KernelDescriptor::default()
                };
                assert!(d.sgpr_bound() >= used, "{used} SGPRs as {field}");
            }
            // Exact where the granule is 16: no SGPR copied for nothing.
            let d = KernelDescriptor {
                pgm_rsrc1: gfx9 << 6,
                ..KernelDescriptor::default()
            };
            assert_eq!(d.sgpr_bound(), used.div_ceil(16) * 16, "{used} SGPRs");
        }
    }
}
