//! `SOFTHSA_*` configuration, read once at `hsa_init`.
//!
//! | variable | values | default |
//! | --- | --- | --- |
//! | `SOFTHSA_GPU` | `gfx906`, `gfx900`, `gfx908`, `gfx90a`, `gfx940`, `gfx941` or `gfx942`: the model of every GPU agent, optionally with target-ID features (`gfx90a:xnack+`, `gfx908:sramecc-`, `gfx906:sramecc+:xnack-`) where they differ from the board's | `gfx906` |
//! | `SOFTHSA_GPUS` | number of GPU agents, 0–16 | `1` |
//! | `SOFTHSA_CUS` | compute units per GPU, 1–512 | the reference board's: `60` (gfx906), `64` (gfx900), `120` (gfx908), `104` (gfx90a), `228` (gfx940), `304` (gfx941/gfx942) |
//! | `SOFTHSA_WORKERS` | host worker threads per GPU, 1–1024 | all host cores |
//! | `SOFTHSA_DEVICE_MEMORY` | device memory per GPU, bytes with optional `K`/`M`/`G` suffix | `8G` |
//! | `SOFTHSA_PROFILE` | `base` (a discrete GPU) or `full` (an integrated one) | `base` |
//! | `SOFTHSA_INSTRUCTION_BUDGET` | instructions one wave may execute before its dispatch faults (a runaway-kernel guard); `0` = no limit | `4294967296` (2^32) |
//! | `SOFTHSA_JIT` | `off`: the interpreter; `on`: the JIT (x86-64 with AVX2 and FMA; other hosts use the interpreter); `check`: the JIT, every translated instruction checked against the interpreter | `on` |
//! | `SOFTHSA_LOCK_ALIAS` | `1`: `hsa_amd_memory_lock*` returns an agent-side alias address distinct from the host address, as a discrete GPU does (HIP 5.2's `hipHostUnregister` needs it); `0`: the host address, as an APU does | `1` in the base profile, `0` in the full profile |
//! | `SOFTHSA_SPIN` | when waiting threads (packet processors, idle workers, signal waits) spin before they sleep: `auto`: while a host core is spare, counting other processes' runnable threads; `always`: counting only softhsa's threads; `never`: every wait sleeps at once | `auto` |
//! | `SOFTHSA_ROTATE` | `1`: while two or more packet processors stream kernels inline, they take turns on the host's CPUs while no other process competes for them (`queue/rotation.rs`); `0`: each runs where the kernel places it | `1` |
//! | `SOFTHSA_TRACE` | comma-separated categories: `api`, `packet`, `dispatch`, `fault`, `isa`, or `all` | none |
//! | `SOFTHSA_TRACE_FILE` | file the trace goes to | stderr |
//! | `SOFTHSA_TIMELINE` | file to write a Chrome trace-event JSON timeline to (open it in Perfetto) | none |
//!
//! A malformed value makes `hsa_init` fail with `HSA_STATUS_ERROR_INVALID_ARGUMENT` and a message
//! naming the variable (printed to stderr), rather than silently running a different machine.

use crate::{Error, Result};
use softhsa_abi::HSA_STATUS_ERROR_INVALID_ARGUMENT;
use std::path::PathBuf;

/// The GPU models softhsa emulates (GFX9: GCN5 "Vega" and CDNA, wave64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuModel {
    /// Vega 20 (Radeon VII, MI50/MI60).
    Gfx906,
    /// Vega 10 (RX Vega 56/64, MI25).
    Gfx900,
    /// CDNA 1, Arcturus (Instinct MI100).
    Gfx908,
    /// CDNA 2, Aldebaran (Instinct MI210/MI250/MI250X).
    Gfx90a,
    /// CDNA 3 pre-release MI300A.
    Gfx940,
    /// CDNA 3 pre-release MI300X.
    Gfx941,
    /// CDNA 3 (Instinct MI300X/MI300A).
    Gfx942,
}

/// Every model, in the order `SOFTHSA_GPU`'s error message lists them.
pub const GPU_MODELS: [GpuModel; 7] = [
    GpuModel::Gfx906,
    GpuModel::Gfx900,
    GpuModel::Gfx908,
    GpuModel::Gfx90a,
    GpuModel::Gfx940,
    GpuModel::Gfx941,
    GpuModel::Gfx942,
];

impl GpuModel {
    /// The processor name LLVM and the runtime use ("gfx906").
    pub fn name(self) -> &'static str {
        match self {
            GpuModel::Gfx906 => "gfx906",
            GpuModel::Gfx900 => "gfx900",
            GpuModel::Gfx908 => "gfx908",
            GpuModel::Gfx90a => "gfx90a",
            GpuModel::Gfx940 => "gfx940",
            GpuModel::Gfx941 => "gfx941",
            GpuModel::Gfx942 => "gfx942",
        }
    }

    /// The model named `name` ("gfx90a"), case-insensitively.
    pub fn from_name(name: &str) -> Option<GpuModel> {
        let name = name.to_ascii_lowercase();
        GPU_MODELS.into_iter().find(|m| m.name() == name)
    }

    /// Compute units of the reference board (see `topology::gpu::Board`).
    pub fn default_cu_count(self) -> u32 {
        match self {
            GpuModel::Gfx906 => 60,
            GpuModel::Gfx900 => 64,
            GpuModel::Gfx908 => 120,
            GpuModel::Gfx90a => 104,
            GpuModel::Gfx940 => 228,
            GpuModel::Gfx941 | GpuModel::Gfx942 => 304,
        }
    }
}

/// Target-ID features asked for in `SOFTHSA_GPU` (`gfx90a:xnack+`); `None`: the board's own
/// setting (`topology::isa::agent_isa`). They select the agent's ISA and so which code objects
/// load; the software GPU executes the same either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TargetFeatures {
    pub sramecc: Option<bool>,
    pub xnack: Option<bool>,
}

/// HSA profile reported by GPU agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    Base,
    Full,
}

/// Trace destinations and categories (see [`crate::trace`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceConfig {
    /// Bit set of [`crate::system::trace::Category`] values.
    pub categories: u32,
    /// `None`: stderr.
    pub file: Option<PathBuf>,
    /// Chrome trace-event JSON output.
    pub timeline: Option<PathBuf>,
}

impl TraceConfig {
    /// Reads `SOFTHSA_TRACE`, `SOFTHSA_TRACE_FILE` and `SOFTHSA_TIMELINE` alone (tracing is set up
    /// from these even when another variable is malformed).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<TraceConfig> {
        let var = |name: &str| {
            get(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let mut t = TraceConfig::default();
        if let Some(v) = var("SOFTHSA_TRACE") {
            t.categories = crate::system::trace::parse_categories(&v).ok_or_else(|| {
                bad(
                    "SOFTHSA_TRACE",
                    &v,
                    "a list of api, packet, dispatch, fault, isa, all",
                )
            })?;
        }
        t.file = var("SOFTHSA_TRACE_FILE").map(PathBuf::from);
        t.timeline = var("SOFTHSA_TIMELINE").map(PathBuf::from);
        Ok(t)
    }
}

/// The runtime configuration. Fields are resolved (no "auto" values left).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub gpu_model: GpuModel,
    pub features: TargetFeatures,
    pub gpu_count: u32,
    pub cu_count: u32,
    pub workers: usize,
    pub device_memory: u64,
    pub profile: Profile,
    /// Instructions one wave may execute before a budget fault; 0 = unlimited.
    pub instruction_budget: u64,
    /// Locked host memory gets an agent-side alias address (see `memory::alias`).
    pub lock_alias: bool,
    pub trace: TraceConfig,
    /// The engine that runs waves: the interpreter, the JIT, or the JIT checked against the
    /// interpreter (`SOFTHSA_JIT`).
    pub engine: softhsa_gpu::Engine,
    /// When waiting threads spin (`SOFTHSA_SPIN`).
    pub spin: softhsa_gpu::sched::load::SpinPolicy,
    /// Streaming packet processors take turns on the CPUs (`SOFTHSA_ROTATE`).
    pub rotate: bool,
}

/// Default per-wave instruction budget: long enough for any real kernel, short enough that an
/// endless loop ends as a fault instead of a hang.
pub const DEFAULT_INSTRUCTION_BUDGET: u64 = 1 << 32;

/// Default device memory per GPU agent: 8 GiB (allocations are host memory, reserved lazily).
pub const DEFAULT_DEVICE_MEMORY: u64 = 8 << 30;

impl Default for Config {
    fn default() -> Self {
        let host_cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            gpu_model: GpuModel::Gfx906,
            features: TargetFeatures::default(),
            gpu_count: 1,
            cu_count: GpuModel::Gfx906.default_cu_count(),
            workers: host_cores,
            device_memory: DEFAULT_DEVICE_MEMORY,
            profile: Profile::Base,
            instruction_budget: DEFAULT_INSTRUCTION_BUDGET,
            engine: softhsa_gpu::Engine::default(),
            spin: Default::default(),
            rotate: true,
            lock_alias: true,
            trace: TraceConfig::default(),
        }
    }
}

impl Config {
    /// Reads the `SOFTHSA_*` environment variables.
    pub fn from_env() -> Result<Config> {
        let cfg = Config::from_lookup(|name| std::env::var(name).ok());
        if let Err(e) = &cfg {
            eprintln!(
                "softhsa: {}",
                e.message.as_deref().unwrap_or("bad configuration")
            );
        }
        cfg
    }

    /// Builds a configuration from any variable source (the environment, or a test's table).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config> {
        let mut c = Config::default();
        let var = |name: &str| {
            get(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        if let Some(v) = var("SOFTHSA_GPU") {
            (c.gpu_model, c.features) = parse_gpu(&v).ok_or_else(|| {
                bad(
                    "SOFTHSA_GPU",
                    &v,
                    "gfx906, gfx900, gfx908, gfx90a, gfx940, gfx941 or gfx942, optionally with \
                     the processor's target-ID features (gfx90a:xnack+, gfx906:sramecc+:xnack-)",
                )
            })?;
        }
        c.cu_count = c.gpu_model.default_cu_count();
        if let Some(v) = var("SOFTHSA_GPUS") {
            c.gpu_count = parse_int(&v, 0, 16).ok_or_else(|| bad("SOFTHSA_GPUS", &v, "0 to 16"))?;
        }
        if let Some(v) = var("SOFTHSA_CUS") {
            c.cu_count = parse_int(&v, 1, 512).ok_or_else(|| bad("SOFTHSA_CUS", &v, "1 to 512"))?;
        }
        if let Some(v) = var("SOFTHSA_WORKERS") {
            c.workers =
                parse_int(&v, 1, 1024).ok_or_else(|| bad("SOFTHSA_WORKERS", &v, "1 to 1024"))?;
        }
        if let Some(v) = var("SOFTHSA_DEVICE_MEMORY") {
            c.device_memory = parse_size(&v).filter(|&n| n >= 1 << 20).ok_or_else(|| {
                bad(
                    "SOFTHSA_DEVICE_MEMORY",
                    &v,
                    "a size of at least 1M, e.g. 4G",
                )
            })?;
        }
        if let Some(v) = var("SOFTHSA_PROFILE") {
            c.profile = match v.to_ascii_lowercase().as_str() {
                "base" => Profile::Base,
                "full" => Profile::Full,
                _ => return Err(bad("SOFTHSA_PROFILE", &v, "base or full")),
            };
        }
        if let Some(v) = var("SOFTHSA_INSTRUCTION_BUDGET") {
            c.instruction_budget = parse_int(&v, 0, u64::MAX)
                .ok_or_else(|| bad("SOFTHSA_INSTRUCTION_BUDGET", &v, "a count, 0 = unlimited"))?;
        }
        if let Some(v) = var("SOFTHSA_JIT") {
            c.engine = softhsa_gpu::Engine::parse(&v)
                .ok_or_else(|| bad("SOFTHSA_JIT", &v, "on, off or check"))?;
        }
        if let Some(v) = var("SOFTHSA_SPIN") {
            c.spin = softhsa_gpu::sched::load::SpinPolicy::parse(&v)
                .ok_or_else(|| bad("SOFTHSA_SPIN", &v, "auto, always or never"))?;
        }
        if let Some(v) = var("SOFTHSA_ROTATE") {
            c.rotate = match v.as_str() {
                "0" => false,
                "1" => true,
                _ => return Err(bad("SOFTHSA_ROTATE", &v, "0 or 1")),
            };
        }
        // A discrete board (base profile) has distinct agent addresses for locked memory.
        c.lock_alias = c.profile == Profile::Base;
        if let Some(v) = var("SOFTHSA_LOCK_ALIAS") {
            c.lock_alias = match v.as_str() {
                "0" => false,
                "1" => true,
                _ => return Err(bad("SOFTHSA_LOCK_ALIAS", &v, "0 or 1")),
            };
        }
        c.trace = TraceConfig::from_lookup(&get)?;
        Ok(c)
    }
}

/// `gfx90a`, `gfx90a:xnack+`, `gfx906:sramecc-:xnack-`: a model and the features its target ID
/// names (parsed as code objects' target IDs are, so a feature the processor lacks is refused).
fn parse_gpu(v: &str) -> Option<(GpuModel, TargetFeatures)> {
    use softhsa_codeobj::{Feature, TargetId};
    let lower = v.to_ascii_lowercase();
    let t = TargetId::parse(&lower).ok()?;
    let named = |f: Feature| match f {
        Feature::On => Some(true),
        Feature::Off => Some(false),
        Feature::Any | Feature::Unsupported => None,
    };
    // Each feature at most once, as in a target ID.
    let mut seen: Vec<&str> = lower
        .split(':')
        .skip(1)
        .map(|f| &f[..f.len() - 1])
        .collect();
    let n = seen.len();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != n {
        return None;
    }
    let features = TargetFeatures {
        sramecc: named(t.sramecc),
        xnack: named(t.xnack),
    };
    Some((GpuModel::from_name(t.processor.name)?, features))
}

fn bad(name: &str, value: &str, expected: &str) -> Error {
    Error::with_message(
        HSA_STATUS_ERROR_INVALID_ARGUMENT,
        format!("{name}={value:?} is not valid: expected {expected}"),
    )
}

/// A decimal or `0x` hexadecimal integer in `min..=max`, converted to the field's type.
fn parse_int<T: TryFrom<u64>>(v: &str, min: u64, max: u64) -> Option<T> {
    let n: u64 = match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => v.parse().ok()?,
    };
    (min..=max)
        .contains(&n)
        .then(|| T::try_from(n).ok())
        .flatten()
}

/// `4096`, `512K`, `64M`, `8G` (binary multiples; an optional trailing `B`/`iB` is accepted).
fn parse_size(v: &str) -> Option<u64> {
    let upper = v.to_ascii_uppercase();
    let s = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 10),
        'M' => (&s[..s.len() - 1], 20),
        'G' => (&s[..s.len() - 1], 30),
        'T' => (&s[..s.len() - 1], 40),
        _ => (s, 0),
    };
    let n: u64 = digits.trim().parse().ok()?;
    n.checked_mul(1u64 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(vars: &[(&str, &str)]) -> Result<Config> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|n| map.get(n).cloned())
    }

    #[test]
    fn defaults_are_one_gfx906_base_profile() {
        let c = cfg(&[]).unwrap();
        assert_eq!(c.gpu_model, GpuModel::Gfx906);
        assert_eq!((c.gpu_count, c.cu_count, c.profile), (1, 60, Profile::Base));
        assert_eq!(c.device_memory, 8 * 1024 * 1024 * 1024);
        assert_eq!(c.instruction_budget, 1 << 32);
        assert_eq!(
            c.workers,
            std::thread::available_parallelism().unwrap().get()
        );
    }

    #[test]
    fn lock_alias_follows_the_profile_unless_given() {
        assert!(cfg(&[]).unwrap().lock_alias, "discrete board");
        assert!(
            !cfg(&[("SOFTHSA_PROFILE", "full")]).unwrap().lock_alias,
            "APU"
        );
        let full_on = [("SOFTHSA_PROFILE", "full"), ("SOFTHSA_LOCK_ALIAS", "1")];
        assert!(cfg(&full_on).unwrap().lock_alias);
        assert!(!cfg(&[("SOFTHSA_LOCK_ALIAS", "0")]).unwrap().lock_alias);
        assert!(cfg(&[("SOFTHSA_LOCK_ALIAS", "yes")]).is_err());
    }

    #[test]
    fn engine_choice() {
        use softhsa_gpu::Engine;
        assert_eq!(cfg(&[]).unwrap().engine, Engine::Jit);
        assert_eq!(
            cfg(&[("SOFTHSA_JIT", "off")]).unwrap().engine,
            Engine::Interpreter
        );
        assert_eq!(
            cfg(&[("SOFTHSA_JIT", "check")]).unwrap().engine,
            Engine::Check
        );
        assert!(cfg(&[("SOFTHSA_JIT", "fast")]).is_err());
        use softhsa_gpu::sched::load::SpinPolicy;
        assert_eq!(cfg(&[]).unwrap().spin, SpinPolicy::Auto);
        assert!(cfg(&[]).unwrap().rotate);
        assert!(!cfg(&[("SOFTHSA_ROTATE", "0")]).unwrap().rotate);
        assert!(cfg(&[("SOFTHSA_ROTATE", "yes")]).is_err());
        assert_eq!(
            cfg(&[("SOFTHSA_SPIN", "never")]).unwrap().spin,
            SpinPolicy::Never
        );
        assert!(cfg(&[("SOFTHSA_SPIN", "sometimes")]).is_err());
    }

    #[test]
    fn gfx900_changes_the_default_cu_count_unless_given() {
        assert_eq!(cfg(&[("SOFTHSA_GPU", "gfx900")]).unwrap().cu_count, 64);
        let c = cfg(&[("SOFTHSA_GPU", "GFX900"), ("SOFTHSA_CUS", "8")]).unwrap();
        assert_eq!((c.gpu_model, c.cu_count), (GpuModel::Gfx900, 8));
    }

    #[test]
    fn cdna_models_parse_with_their_boards_cu_counts() {
        for (name, model, cus) in [
            ("gfx908", GpuModel::Gfx908, 120),
            ("GFX90A", GpuModel::Gfx90a, 104),
            ("gfx940", GpuModel::Gfx940, 228),
            ("gfx941", GpuModel::Gfx941, 304),
            ("gfx942", GpuModel::Gfx942, 304),
        ] {
            let c = cfg(&[("SOFTHSA_GPU", name)]).unwrap();
            assert_eq!((c.gpu_model, c.cu_count), (model, cus), "{name}");
        }
        for m in GPU_MODELS {
            assert_eq!(GpuModel::from_name(m.name()), Some(m));
        }
        let e = cfg(&[("SOFTHSA_GPU", "gfx90c")]).unwrap_err();
        assert!(e.message.unwrap().contains("gfx942"));
        assert_eq!(cfg(&[("SOFTHSA_CUS", "304")]).unwrap().cu_count, 304);
        assert!(cfg(&[("SOFTHSA_CUS", "513")]).is_err());
    }

    #[test]
    fn target_id_features_in_softhsa_gpu() {
        let f = |v: &str| cfg(&[("SOFTHSA_GPU", v)]).map(|c| (c.gpu_model, c.features));
        let tf = |sramecc, xnack| TargetFeatures { sramecc, xnack };
        assert_eq!(f("gfx90a").unwrap(), (GpuModel::Gfx90a, tf(None, None)));
        assert_eq!(
            f("gfx90a:xnack+").unwrap(),
            (GpuModel::Gfx90a, tf(None, Some(true)))
        );
        assert_eq!(
            f("GFX908:SRAMECC-:XNACK-").unwrap(),
            (GpuModel::Gfx908, tf(Some(false), Some(false)))
        );
        assert_eq!(
            f("amdgcn-amd-amdhsa--gfx942:sramecc+").unwrap(),
            (GpuModel::Gfx942, tf(Some(true), None))
        );
        assert_eq!(
            f("gfx900:xnack+").unwrap(),
            (GpuModel::Gfx900, tf(None, Some(true)))
        );
        // gfx900 has no SRAM ECC; features end in + or -; each at most once; known ones only.
        for bad in [
            "gfx900:sramecc+",
            "gfx90a:xnack",
            "gfx90a:xnack+:xnack-",
            "gfx90a:xnack+:sramecc-:xnack+",
            "gfx90a:tgsplit+",
            "gfx90a:",
            "gfx1030:xnack-",
        ] {
            let e = f(bad).unwrap_err();
            assert!(e.message.unwrap().contains("target-ID"), "{bad}");
        }
    }

    #[test]
    fn sizes_counts_and_trace() {
        let c = cfg(&[
            ("SOFTHSA_DEVICE_MEMORY", "512M"),
            ("SOFTHSA_GPUS", "3"),
            ("SOFTHSA_WORKERS", "0x10"),
            ("SOFTHSA_PROFILE", "full"),
            ("SOFTHSA_INSTRUCTION_BUDGET", "1000000"),
            ("SOFTHSA_TRACE", "api, fault"),
            ("SOFTHSA_TIMELINE", "/tmp/t.json"),
        ])
        .unwrap();
        assert_eq!(c.device_memory, 512 << 20);
        assert_eq!((c.gpu_count, c.workers, c.profile), (3, 16, Profile::Full));
        assert_eq!(c.instruction_budget, 1_000_000);
        use crate::system::trace::Category;
        assert_eq!(
            c.trace.categories,
            Category::Api.bit() | Category::Fault.bit()
        );
        assert_eq!(c.trace.timeline, Some(PathBuf::from("/tmp/t.json")));
        assert_eq!(parse_size("2GiB"), Some(2 << 30));
        assert_eq!(parse_size("4096"), Some(4096));
    }

    #[test]
    fn malformed_values_are_errors_that_name_the_variable() {
        for (k, v) in [
            ("SOFTHSA_GPU", "gfx1030"),
            ("SOFTHSA_GPUS", "17"),
            ("SOFTHSA_CUS", "0"),
            ("SOFTHSA_DEVICE_MEMORY", "lots"),
            ("SOFTHSA_PROFILE", "medium"),
            ("SOFTHSA_TRACE", "api,bogus"),
        ] {
            let e = cfg(&[(k, v)]).unwrap_err();
            assert_eq!(e.status, HSA_STATUS_ERROR_INVALID_ARGUMENT);
            assert!(e.message.unwrap().contains(k), "{k}");
        }
    }
}
