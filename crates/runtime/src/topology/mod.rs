//! Agents (one CPU agent, GPU agents per configuration), their ISAs and caches.
//!
//! Agent order (that of `hsa_iterate_agents`): the CPU agent first, then the GPUs, as in ROCm.
//! HSA node ids follow the same order (CPU node 0, GPU i node i + 1).
//!
//! Other parts of the runtime reach agents through [`Topology::agent`] (handle → agent, or
//! INVALID_AGENT) and [`Topology::gpu_agents`]; a GPU agent's [`GpuAgent`] carries what the
//! software device needs (model, CU count, worker threads, instruction budget).

mod agent_info;
mod cpu;
mod events;
mod gpu;
pub mod handle;
pub mod hsa_names;
pub mod isa;
mod value;

pub use cpu::{CacheDesc, HostCpu};
pub use events::SystemEvents;
pub use gpu::Board;
pub use value::InfoValue;

use crate::config::{Config, GpuModel, Profile};
use crate::{Error, Result};
use handle::Kind;
use softhsa_abi::*;
use std::sync::atomic::AtomicU32;

/// The device side of a GPU agent.
#[derive(Debug)]
pub struct GpuAgent {
    /// 0 for the first GPU.
    pub ordinal: u32,
    pub model: GpuModel,
    pub cu_count: u32,
    /// Host worker threads that run its work-groups.
    pub workers: usize,
    /// Instructions one wave may execute before a budget fault; 0 = unlimited.
    pub instruction_budget: u64,
    /// The engine that runs this agent's waves.
    pub engine: softhsa_gpu::Engine,
    pub profile: Profile,
    pub board: Board,
    /// Index of its ISA in [`isa::ISAS`].
    pub isa: usize,
    /// Device memory budget in bytes.
    pub memory_bytes: u64,
    /// Targets of HSA_AMD_AGENT_INFO_HDP_FLUSH: writable words that nothing reads (host memory
    /// is coherent), because ROCclr requires two non-null pointers.
    hdp_flush: Box<[AtomicU32; 2]>,
}

/// One agent.
#[derive(Debug)]
pub struct Agent {
    /// Position in [`Topology::agents`].
    pub index: usize,
    pub handle: u64,
    /// HSA node id.
    pub node: u32,
    /// HSA_AGENT_INFO_NAME.
    pub name: String,
    pub caches: Vec<CacheDesc>,
    /// `None` for the CPU agent.
    pub gpu: Option<GpuAgent>,
    /// The host, for the CPU agent.
    cpu: Option<HostCpu>,
}

impl Agent {
    pub fn is_gpu(&self) -> bool {
        self.gpu.is_some()
    }
}

/// All agents of one runtime instance.
pub struct Topology {
    generation: u32,
    agents: Vec<Agent>,
    host: HostCpu,
    /// `hsa_amd_register_system_event_handler` handlers.
    pub events: SystemEvents,
}

impl Topology {
    pub fn new(config: &Config) -> Result<Topology> {
        let generation = handle::next_generation();
        let host = HostCpu::probe();
        let mut agents = vec![Agent {
            index: 0,
            handle: handle::encode(Kind::Agent, generation, 0),
            node: 0,
            name: host.name.clone(),
            caches: host.caches.clone(),
            gpu: None,
            cpu: Some(host.clone()),
        }];
        for ordinal in 0..config.gpu_count {
            let index = agents.len();
            let board = Board::of(config.gpu_model);
            let mut caches = vec![
                CacheDesc {
                    name: "L1".into(),
                    level: 1,
                    size: board.l1_bytes,
                },
                CacheDesc {
                    name: "L2".into(),
                    level: 2,
                    size: board.l2_bytes,
                },
            ];
            if board.l3_bytes != 0 {
                caches.push(CacheDesc {
                    name: "L3".into(),
                    level: 3,
                    size: board.l3_bytes,
                });
            }
            agents.push(Agent {
                index,
                handle: handle::encode(Kind::Agent, generation, index),
                node: index as u32,
                name: config.gpu_model.name().to_string(),
                caches,
                cpu: None,
                gpu: Some(GpuAgent {
                    ordinal,
                    model: config.gpu_model,
                    cu_count: config.cu_count,
                    workers: config.workers,
                    instruction_budget: config.instruction_budget,
                    engine: config.engine,
                    profile: config.profile,
                    board,
                    isa: isa::agent_isa(config.gpu_model, config.features),
                    memory_bytes: config.device_memory,
                    hdp_flush: Box::new([AtomicU32::new(0), AtomicU32::new(0)]),
                }),
            });
        }
        Ok(Topology {
            generation,
            agents,
            host,
            events: SystemEvents::default(),
        })
    }

    /// Generation of this runtime instance (handles of other instances are stale).
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// All agents, CPU first.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    pub fn cpu_agent(&self) -> &Agent {
        &self.agents[0]
    }

    pub fn gpu_agents(&self) -> impl Iterator<Item = &Agent> {
        self.agents.iter().filter(|a| a.is_gpu())
    }

    /// The host as probed at initialisation.
    pub fn host(&self) -> &HostCpu {
        &self.host
    }

    /// The agent of a handle, or HSA_STATUS_ERROR_INVALID_AGENT (stale, forged, other kind).
    pub fn agent(&self, agent: u64) -> Result<&Agent> {
        handle::decode(agent, Kind::Agent, self.generation)
            .and_then(|i| self.agents.get(i))
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_AGENT))
    }

    /// Handle of cache `cache` of agent `agent` (indices).
    pub fn cache_handle(&self, agent: usize, cache: usize) -> u64 {
        handle::encode(Kind::Cache, self.generation, (agent << 8) | cache)
    }

    /// The cache of a handle, or HSA_STATUS_ERROR_INVALID_CACHE.
    pub fn cache(&self, cache: u64) -> Result<&CacheDesc> {
        handle::decode(cache, Kind::Cache, self.generation)
            .and_then(|i| self.agents.get(i >> 8)?.caches.get(i & 0xff))
            .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_CACHE))
    }

    /// `hsa_cache_get_info`.
    pub fn cache_info(&self, cache: u64, attribute: u32) -> Result<InfoValue> {
        let c = self.cache(cache)?;
        Ok(match attribute {
            HSA_CACHE_INFO_NAME_LENGTH => InfoValue::U32(c.name.len() as u32),
            // As ROCm does (and programs written for it expect): a pointer to the name, which
            // therefore must outlive the runtime instance.
            HSA_CACHE_INFO_NAME => InfoValue::ptr(static_cache_name(&c.name).as_ptr()),
            HSA_CACHE_INFO_LEVEL => InfoValue::U8(c.level),
            HSA_CACHE_INFO_SIZE => InfoValue::U32(c.size),
            _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
        })
    }
}

/// The NUL-terminated, 'static form of a cache name.
fn static_cache_name(name: &str) -> &'static std::ffi::CStr {
    const NAMES: [&std::ffi::CStr; 8] = [
        c"L1",
        c"L1 Data",
        c"L1 Instruction",
        c"L2",
        c"L3",
        c"L4",
        c"L2 Data",
        c"L2 Instruction",
    ];
    NAMES
        .iter()
        .copied()
        .find(|n| n.to_bytes() == name.as_bytes())
        .unwrap_or(c"cache")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topo(gpus: u32, model: GpuModel) -> Topology {
        let cfg = Config {
            gpu_count: gpus,
            gpu_model: model,
            cu_count: model.default_cu_count(),
            ..Config::default()
        };
        Topology::new(&cfg).unwrap()
    }

    #[test]
    fn cpu_first_then_gpus_with_distinct_handles() {
        let t = topo(2, GpuModel::Gfx906);
        assert_eq!(t.agents().len(), 3);
        assert!(!t.cpu_agent().is_gpu());
        assert_eq!(t.gpu_agents().count(), 2);
        for a in t.agents() {
            assert_eq!(t.agent(a.handle).unwrap().index, a.index);
            assert_eq!(a.node as usize, a.index);
        }
        assert_eq!(t.agents()[1].name, "gfx906");
        assert_eq!(t.agents()[2].gpu.as_ref().unwrap().ordinal, 1);
    }

    #[test]
    fn stale_and_forged_agent_handles_are_rejected() {
        let old = topo(1, GpuModel::Gfx906);
        let new = topo(1, GpuModel::Gfx906);
        let stale = old.agents()[1].handle;
        assert_eq!(
            new.agent(stale).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_AGENT
        );
        for h in [
            0,
            1,
            0xdead_beef,
            u64::MAX,
            handle::encode(Kind::Agent, new.generation(), 9),
        ] {
            assert_eq!(
                new.agent(h).unwrap_err().status,
                HSA_STATUS_ERROR_INVALID_AGENT
            );
        }
    }

    #[test]
    fn caches_by_handle() {
        let t = topo(1, GpuModel::Gfx900);
        let h = t.cache_handle(1, 1);
        assert_eq!(
            t.cache_info(h, HSA_CACHE_INFO_SIZE).unwrap(),
            InfoValue::U32(4 << 20)
        );
        assert_eq!(
            t.cache_info(h, HSA_CACHE_INFO_LEVEL).unwrap(),
            InfoValue::U8(2)
        );
        let InfoValue::U64(p) = t.cache_info(h, HSA_CACHE_INFO_NAME).unwrap() else {
            panic!()
        };
        // SAFETY: the value is the address of a 'static C string.
        let name = unsafe { std::ffi::CStr::from_ptr(p as *const std::ffi::c_char) };
        assert_eq!(name, c"L2");
        assert_eq!(
            t.cache_info(h, HSA_CACHE_INFO_NAME_LENGTH).unwrap(),
            InfoValue::U32(2)
        );
        assert_eq!(
            t.cache(t.cache_handle(1, 5)).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_CACHE
        );
    }
}
