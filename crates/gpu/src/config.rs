//! The device's configuration: GPU model, compute units, workers, budget, engine.

use crate::trace::TraceConfig;

/// Largest private segment per work-item a dispatch may ask for.
pub const MAX_PRIVATE_SIZE: u32 = 256 * 1024;

/// The GPU model this device reports and executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GfxVersion {
    Gfx900,
    #[default]
    Gfx906,
    /// MI100: gfx906's instructions plus the matrix cores (MFMA) and the AGPRs.
    Gfx908,
    /// MI200: AGPRs as memory operands, f64 MFMA, packed FP32, 64-bit DPP, f64 atomics.
    Gfx90a,
    /// MI300 (gfx940/941/942): as gfx90a, plus architected flat scratch, fp8/xf32 MFMA.
    Gfx940,
    Gfx941,
    Gfx942,
}

impl GfxVersion {
    /// The LLVM processor name.
    pub fn name(self) -> &'static str {
        match self {
            GfxVersion::Gfx900 => "gfx900",
            GfxVersion::Gfx906 => "gfx906",
            GfxVersion::Gfx908 => "gfx908",
            GfxVersion::Gfx90a => "gfx90a",
            GfxVersion::Gfx940 => "gfx940",
            GfxVersion::Gfx941 => "gfx941",
            GfxVersion::Gfx942 => "gfx942",
        }
    }

    /// The instruction set its code is decoded as (gfx941/gfx942 share gfx940's).
    pub fn isa(self) -> softhsa_isa::Gfx {
        match self {
            GfxVersion::Gfx900 => softhsa_isa::Gfx::Gfx900,
            GfxVersion::Gfx906 => softhsa_isa::Gfx::Gfx906,
            GfxVersion::Gfx908 => softhsa_isa::Gfx::Gfx908,
            GfxVersion::Gfx90a => softhsa_isa::Gfx::Gfx90a,
            GfxVersion::Gfx940 | GfxVersion::Gfx941 | GfxVersion::Gfx942 => {
                softhsa_isa::Gfx::Gfx940
            }
        }
    }
}

/// Device configuration.
#[derive(Clone, Debug)]
pub struct DeviceConfig {
    pub gfx: GfxVersion,
    /// Compute units reported to software (does not limit host parallelism).
    pub compute_units: u32,
    /// Worker threads per dispatch; 0 means all host cores.
    pub worker_threads: usize,
    /// Max instructions one wave may execute before it faults (0: unlimited).
    pub wave_instruction_budget: u64,
    /// `SOFTHSA_TRACE=isa`: trace one wave's instructions.
    pub trace: Option<TraceConfig>,
    /// The engine that runs waves (`SOFTHSA_JIT`).
    pub engine: crate::jit::Engine,
    /// Wave slots per compute unit: with `compute_units`, how many waves of one dispatch may
    /// be parked at once (as resident on hardware).
    pub waves_per_cu: u32,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig {
            gfx: GfxVersion::Gfx906,
            compute_units: 60,
            worker_threads: 0,
            wave_instruction_budget: 1 << 32,
            trace: None,
            engine: crate::jit::Engine::from_env(),
            waves_per_cu: 40,
        }
    }
}
