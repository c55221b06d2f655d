//! What queues need from the rest of the runtime, in one place: an agent's queue limits (from
//! the topology) and registration of queue memory (in the allocation registry).

use crate::config::GpuModel;
use crate::memory::registry::RangeKind;
use crate::topology::hsa_names::{
    HSA_AGENT_INFO_QUEUE_MAX_SIZE, HSA_AGENT_INFO_QUEUE_MIN_SIZE,
    HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU,
};
use crate::topology::GpuAgent;
use crate::topology::InfoValue;
use crate::{Error, Result, Runtime};
use softhsa_abi::HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
use softhsa_gpu::{DeviceConfig, GfxVersion, TraceConfig};

/// The queue-related attributes of an agent.
#[derive(Clone, Debug)]
pub struct AgentQueueCaps {
    /// HSA_AGENT_INFO_QUEUE_MIN_SIZE / MAX_SIZE.
    pub min_size: u32,
    pub max_size: u32,
    /// Features of the queues created on it (`hsa_queue_feature_t` bits).
    pub features: u32,
    /// For `amd_queue_t.max_cu_id` / `max_wave_id`.
    pub cu_count: u32,
    pub waves_per_cu: u32,
    /// The software GPU that runs the queue's kernel dispatches (`None` for soft queues).
    pub device: Option<DeviceConfig>,
}

/// The limits for queues on `agent`: INVALID_AGENT for unknown handles, INVALID_QUEUE_CREATION
/// for agents without queues (the CPU agent, as on ROCm: QUEUE_MAX_SIZE 0).
pub fn agent_queue_caps(rt: &Runtime, agent: u64) -> Result<AgentQueueCaps> {
    let a = rt.topology.agent(agent)?;
    let u32_info = |attr| match a.info(attr) {
        Ok(InfoValue::U32(v)) => v,
        _ => 0,
    };
    let max_size = u32_info(HSA_AGENT_INFO_QUEUE_MAX_SIZE);
    if max_size == 0 || !a.is_gpu() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION));
    }
    Ok(AgentQueueCaps {
        min_size: u32_info(HSA_AGENT_INFO_QUEUE_MIN_SIZE).max(1),
        max_size,
        features: super::FEATURE_KERNEL_DISPATCH | super::FEATURE_AGENT_DISPATCH,
        cu_count: a.gpu.as_ref().map_or(0, |g| g.cu_count),
        waves_per_cu: u32_info(HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU),
        device: a.gpu.as_ref().map(device_config),
    })
}

/// The device configuration of a GPU agent. Each queue owns a `Device` (with its own global wave
/// sync resources); all of them share the process's work-group scheduler.
fn device_config(g: &GpuAgent) -> DeviceConfig {
    DeviceConfig {
        gfx: match g.model {
            GpuModel::Gfx900 => GfxVersion::Gfx900,
            GpuModel::Gfx906 => GfxVersion::Gfx906,
            GpuModel::Gfx908 => GfxVersion::Gfx908,
            GpuModel::Gfx90a => GfxVersion::Gfx90a,
            GpuModel::Gfx940 => GfxVersion::Gfx940,
            GpuModel::Gfx941 => GfxVersion::Gfx941,
            GpuModel::Gfx942 => GfxVersion::Gfx942,
        },
        compute_units: g.cu_count,
        worker_threads: g.workers,
        wave_instruction_budget: g.instruction_budget,
        trace: TraceConfig::from_env(),
        engine: g.engine,
        waves_per_cu: g.board.waves_per_cu(),
    }
}

/// Soft queues belong to no agent's hardware; their `amd_queue_t` carries no CU limits.
pub fn soft_queue_caps(_rt: &Runtime) -> AgentQueueCaps {
    AgentQueueCaps {
        min_size: 1,
        max_size: u32::MAX,
        features: 0,
        cu_count: 0,
        waves_per_cu: 0,
        device: None,
    }
}

/// Word `w` of a CU mask with every CU of an agent with `max_cu` CUs enabled.
pub fn all_cus_word(w: u32, max_cu: u32) -> u32 {
    let lo = w * 32;
    match max_cu.saturating_sub(lo) {
        0 => 0,
        n if n >= 32 => u32::MAX,
        n => (1u32 << n) - 1,
    }
}

/// Makes `[base, base + len)` (a ring or an `amd_queue_t`) accessible to the GPU through the
/// allocation registry.
pub fn register_memory(rt: &Runtime, base: u64, len: u64) -> Result<()> {
    rt.memory.register_range(base, len, RangeKind::Queue, 0)
}

pub fn deregister_memory(rt: &Runtime, base: u64, _len: u64) {
    let _ = rt.memory.unregister_range(base);
}
