//! `hsa_agent_get_info`: every HSA_AGENT_INFO_* and HSA_AMD_AGENT_INFO_* attribute.
//!
//! CPU values follow ROCm's CPU agent (no kernel dispatch, zero work-group and queue limits,
//! "CPU" vendor, "CPU-XX" UUID); GPU values are those of the modelled board (see `gpu.rs`).

use super::{isa, Agent, HostCpu, InfoValue};
use crate::config::Profile;
use crate::{Error, Result};
use softhsa_abi::*;

/// `char[64]` of HSA_AGENT_INFO_NAME, VENDOR_NAME and PRODUCT_NAME.
const NAME_SIZE: usize = 64;
/// HSA_AMD_AGENT_INFO_UUID: "GPU-" + 16 hex digits + NUL.
const UUID_SIZE: usize = 21;

/// Image extension attributes (hsa_ext_image.h, 0x3000..=0x300C) of a GPU agent: the image
/// module's limits (as ROCm's image runtime answers them); a CPU agent answers zeros.
fn gpu_image_attribute(attribute: u32) -> Option<Vec<u32>> {
    crate::image::formats::agent_attribute(attribute)
}

/// Whether `attribute` is an image extension attribute (a CPU agent answers them with zeros).
fn is_image_attribute(attribute: u32) -> bool {
    gpu_image_attribute(attribute).is_some()
}

/// HSA_AGENT_INFO_EXTENSIONS of a GPU agent: the images bit.
fn gpu_extensions() -> Vec<u8> {
    let mut bits = vec![0u8; 128];
    let id = HSA_EXTENSION_IMAGES as usize;
    bits[id / 8] |= 1 << (id % 8);
    bits
}

impl Agent {
    /// One attribute's value.
    pub fn info(&self, attribute: u32) -> Result<InfoValue> {
        if is_image_attribute(attribute) {
            let words = gpu_image_attribute(attribute).unwrap_or_default();
            return Ok(InfoValue::u32s(&if self.gpu.is_some() {
                words
            } else {
                vec![0; words.len()]
            }));
        }
        let g = match (&self.gpu, &self.cpu) {
            (Some(g), _) => g,
            (None, Some(host)) => return self.cpu_info(host, attribute),
            (None, None) => return Err(Error::new(HSA_STATUS_ERROR_INVALID_AGENT)),
        };
        let kernel_limits = [1024u16; 3];
        Ok(match attribute {
            HSA_AGENT_INFO_NAME => InfoValue::fixed_str(&self.name, NAME_SIZE),
            HSA_AGENT_INFO_VENDOR_NAME => InfoValue::fixed_str("AMD", NAME_SIZE),
            HSA_AGENT_INFO_FEATURE => InfoValue::U32(HSA_AGENT_FEATURE_KERNEL_DISPATCH),
            HSA_AGENT_INFO_MACHINE_MODEL => InfoValue::U32(HSA_MACHINE_MODEL_LARGE),
            HSA_AGENT_INFO_PROFILE => InfoValue::U32(match g.profile {
                Profile::Base => HSA_PROFILE_BASE,
                Profile::Full => HSA_PROFILE_FULL,
            }),
            HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE
            | HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES => {
                InfoValue::U32(HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
            }
            HSA_AGENT_INFO_FAST_F16_OPERATION => InfoValue::Bool(true),
            HSA_AGENT_INFO_WAVEFRONT_SIZE => InfoValue::U32(isa::WAVEFRONT_SIZE),
            HSA_AGENT_INFO_WORKGROUP_MAX_DIM => InfoValue::u16s(&kernel_limits),
            HSA_AGENT_INFO_WORKGROUP_MAX_SIZE => InfoValue::U32(isa::WORKGROUP_MAX_SIZE),
            HSA_AGENT_INFO_GRID_MAX_DIM => InfoValue::u32s(&[u32::MAX; 3]),
            HSA_AGENT_INFO_GRID_MAX_SIZE => InfoValue::U32(u32::MAX),
            HSA_AGENT_INFO_FBARRIER_MAX_SIZE => InfoValue::U32(isa::FBARRIER_MAX_SIZE),
            HSA_AGENT_INFO_QUEUES_MAX => InfoValue::U32(super::gpu::QUEUES_MAX),
            HSA_AGENT_INFO_QUEUE_MIN_SIZE => InfoValue::U32(super::gpu::QUEUE_MIN_SIZE),
            HSA_AGENT_INFO_QUEUE_MAX_SIZE => InfoValue::U32(super::gpu::QUEUE_MAX_SIZE),
            HSA_AGENT_INFO_QUEUE_TYPE => InfoValue::U32(HSA_QUEUE_TYPE_MULTI),
            HSA_AGENT_INFO_NODE | HSA_AMD_AGENT_INFO_DRIVER_NODE_ID => InfoValue::U32(self.node),
            HSA_AGENT_INFO_DEVICE => InfoValue::U32(HSA_DEVICE_TYPE_GPU),
            HSA_AGENT_INFO_CACHE_SIZE => {
                InfoValue::u32s(&[g.board.l1_bytes, g.board.l2_bytes, g.board.l3_bytes, 0])
            }
            HSA_AGENT_INFO_ISA => InfoValue::U64(isa::isa_handle(g.isa)),
            HSA_AGENT_INFO_EXTENSIONS => InfoValue::Bytes(gpu_extensions()),
            HSA_AGENT_INFO_VERSION_MAJOR => InfoValue::U16(crate::system::VERSION.0),
            HSA_AGENT_INFO_VERSION_MINOR => InfoValue::U16(crate::system::VERSION.1),
            HSA_AMD_AGENT_INFO_CHIP_ID => InfoValue::U32(g.board.chip_id),
            HSA_AMD_AGENT_INFO_CACHELINE_SIZE => InfoValue::U32(g.board.cacheline),
            HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT
            | HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT => InfoValue::U32(g.cu_count),
            HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY => InfoValue::U32(g.board.max_clock_mhz),
            HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS => {
                InfoValue::U32(g.board.max_address_watch_points)
            }
            HSA_AMD_AGENT_INFO_BDFID => InfoValue::U32(super::gpu::bdf_id(g.ordinal)),
            HSA_AMD_AGENT_INFO_MEMORY_WIDTH => InfoValue::U32(g.board.memory_width),
            HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY => InfoValue::U32(g.board.memory_max_mhz),
            HSA_AMD_AGENT_INFO_PRODUCT_NAME => {
                InfoValue::fixed_str(g.board.product_name, NAME_SIZE)
            }
            HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU => InfoValue::U32(g.board.waves_per_cu()),
            HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU => InfoValue::U32(g.board.simds_per_cu),
            HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES => InfoValue::U32(g.board.shader_engines),
            HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE => {
                InfoValue::U32(g.board.shader_arrays_per_se)
            }
            HSA_AMD_AGENT_INFO_HDP_FLUSH => {
                // hsa_amd_hdp_flush_t: { uint32_t *HDP_MEM_FLUSH_CNTL; uint32_t *HDP_REG_FLUSH_CNTL; }
                let words = g.hdp_flush.as_ptr() as usize as u64;
                let mut b = words.to_ne_bytes().to_vec();
                b.extend_from_slice(&(words + 4).to_ne_bytes());
                InfoValue::Bytes(b)
            }
            HSA_AMD_AGENT_INFO_DOMAIN => InfoValue::U32(0),
            // Every queue has global wave sync resources, and the scheduler parks waiting
            // work-groups, so cooperative (grid-synchronized) launches work on any queue.
            HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES => InfoValue::Bool(true),
            HSA_AMD_AGENT_INFO_UUID => {
                InfoValue::fixed_str(&super::gpu::uuid(g.model, g.ordinal), UUID_SIZE)
            }
            HSA_AMD_AGENT_INFO_ASIC_REVISION => InfoValue::U32(g.board.asic_revision),
            // A discrete board: the host does not reach device memory through SVM mappings.
            HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS => {
                InfoValue::Bool(g.profile == Profile::Full)
            }
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        })
    }

    fn cpu_info(&self, host: &HostCpu, attribute: u32) -> Result<InfoValue> {
        Ok(match attribute {
            HSA_AGENT_INFO_NAME | HSA_AMD_AGENT_INFO_PRODUCT_NAME => {
                InfoValue::fixed_str(&self.name, NAME_SIZE)
            }
            HSA_AGENT_INFO_VENDOR_NAME => InfoValue::fixed_str("CPU", NAME_SIZE),
            HSA_AGENT_INFO_FEATURE => InfoValue::U32(HSA_AGENT_FEATURE_AGENT_DISPATCH),
            HSA_AGENT_INFO_MACHINE_MODEL => InfoValue::U32(HSA_MACHINE_MODEL_LARGE),
            HSA_AGENT_INFO_PROFILE => InfoValue::U32(HSA_PROFILE_FULL),
            HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE
            | HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES => {
                InfoValue::U32(HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
            }
            HSA_AGENT_INFO_FAST_F16_OPERATION | HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES => {
                InfoValue::Bool(false)
            }
            HSA_AGENT_INFO_WORKGROUP_MAX_DIM => InfoValue::u16s(&[0; 3]),
            HSA_AGENT_INFO_GRID_MAX_DIM => InfoValue::u32s(&[0; 3]),
            HSA_AGENT_INFO_WAVEFRONT_SIZE
            | HSA_AGENT_INFO_WORKGROUP_MAX_SIZE
            | HSA_AGENT_INFO_GRID_MAX_SIZE
            | HSA_AGENT_INFO_FBARRIER_MAX_SIZE
            | HSA_AGENT_INFO_QUEUES_MAX
            | HSA_AGENT_INFO_QUEUE_MIN_SIZE
            | HSA_AGENT_INFO_QUEUE_MAX_SIZE
            | HSA_AMD_AGENT_INFO_CHIP_ID
            | HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS
            | HSA_AMD_AGENT_INFO_BDFID
            | HSA_AMD_AGENT_INFO_MEMORY_WIDTH
            | HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY
            | HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU
            | HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU
            | HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES
            | HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE
            | HSA_AMD_AGENT_INFO_DOMAIN
            | HSA_AMD_AGENT_INFO_ASIC_REVISION
            | HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT => InfoValue::U32(0),
            HSA_AGENT_INFO_QUEUE_TYPE => InfoValue::U32(HSA_QUEUE_TYPE_MULTI),
            HSA_AGENT_INFO_NODE | HSA_AMD_AGENT_INFO_DRIVER_NODE_ID => InfoValue::U32(self.node),
            HSA_AGENT_INFO_DEVICE => InfoValue::U32(HSA_DEVICE_TYPE_CPU),
            HSA_AGENT_INFO_CACHE_SIZE => {
                let mut sizes = [0u32; 4];
                for (level, size) in sizes.iter_mut().enumerate() {
                    *size = host.data_cache_size(level as u8 + 1);
                }
                InfoValue::u32s(&sizes)
            }
            HSA_AGENT_INFO_ISA => InfoValue::U64(0),
            HSA_AGENT_INFO_EXTENSIONS => InfoValue::Bytes(vec![0; 128]),
            HSA_AGENT_INFO_VERSION_MAJOR => InfoValue::U16(crate::system::VERSION.0),
            HSA_AGENT_INFO_VERSION_MINOR => InfoValue::U16(crate::system::VERSION.1),
            HSA_AMD_AGENT_INFO_CACHELINE_SIZE => InfoValue::U32(host.cacheline),
            HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT => InfoValue::U32(host.cores),
            HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY => InfoValue::U32(host.max_clock_mhz),
            HSA_AMD_AGENT_INFO_HDP_FLUSH => InfoValue::Bytes(vec![0; 16]),
            HSA_AMD_AGENT_INFO_UUID => InfoValue::fixed_str("CPU-XX", UUID_SIZE),
            HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS => InfoValue::Bool(true),
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        })
    }
}
