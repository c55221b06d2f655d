//! Instruction set architectures: the ISA objects of `hsa_isa_*` and their attributes.
//!
//! As in ROCm, the registry holds every target-feature combination of each supported processor
//! ("any" when a feature is not named), so that code objects built for `gfx906` (any), for
//! `gfx906:xnack-` or for `gfx906:sramecc-:xnack-` all resolve; an agent reports exactly one
//! ISA, with its features explicit (hip-bringup.md: ROCclr matches that name verbatim).

use super::handle::{self, Kind};
use super::InfoValue;
use crate::config::{GpuModel, TargetFeatures};
use crate::{Error, Result};
use softhsa_abi::*;

/// State of a target feature (sramecc, xnack) in an ISA name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// The processor does not have the feature.
    Unsupported,
    /// Not named: code works either way.
    Any,
    Off,
    On,
}

/// One ISA of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsaDef {
    pub name: &'static str,
    pub processor: &'static str,
    pub sramecc: Feature,
    pub xnack: Feature,
}

use Feature::{Any, Off, On, Unsupported};

const fn def(
    name: &'static str,
    processor: &'static str,
    sramecc: Feature,
    xnack: Feature,
) -> IsaDef {
    IsaDef {
        name,
        processor,
        sramecc,
        xnack,
    }
}

/// The registry: the listed definitions, then the nine sramecc/xnack combinations of each CDNA
/// processor, the one its boards report (`sramecc+:xnack-`) first. Appending keeps the handles
/// of existing entries.
macro_rules! registry {
    ($($d:expr,)* ; $($p:literal),*) => {
        [
            $($d,)*
            $(
                def(concat!("amdgcn-amd-amdhsa--", $p, ":sramecc+:xnack-"), $p, On, Off),
                def(concat!("amdgcn-amd-amdhsa--", $p), $p, Any, Any),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":sramecc-"), $p, Off, Any),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":sramecc+"), $p, On, Any),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":xnack-"), $p, Any, Off),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":xnack+"), $p, Any, On),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":sramecc-:xnack-"), $p, Off, Off),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":sramecc-:xnack+"), $p, Off, On),
                def(concat!("amdgcn-amd-amdhsa--", $p, ":sramecc+:xnack+"), $p, On, On),
            )*
        ]
    };
}

/// The registry. Index = the ISA handle's index.
pub static ISAS: &[IsaDef] = &registry![
    def(
        "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-",
        "gfx906",
        Off,
        Off,
    ),
    def("amdgcn-amd-amdhsa--gfx906", "gfx906", Any, Any),
    def("amdgcn-amd-amdhsa--gfx906:sramecc-", "gfx906", Off, Any),
    def("amdgcn-amd-amdhsa--gfx906:sramecc+", "gfx906", On, Any),
    def("amdgcn-amd-amdhsa--gfx906:xnack-", "gfx906", Any, Off),
    def("amdgcn-amd-amdhsa--gfx906:xnack+", "gfx906", Any, On),
    def(
        "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack+",
        "gfx906",
        Off,
        On,
    ),
    def(
        "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-",
        "gfx906",
        On,
        Off,
    ),
    def(
        "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack+",
        "gfx906",
        On,
        On,
    ),
    def(
        "amdgcn-amd-amdhsa--gfx900:xnack-",
        "gfx900",
        Unsupported,
        Off,
    ),
    def("amdgcn-amd-amdhsa--gfx900", "gfx900", Unsupported, Any),
    def(
        "amdgcn-amd-amdhsa--gfx900:xnack+",
        "gfx900",
        Unsupported,
        On,
    ),
    ;
    "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942"
];

/// Legacy (code object v2) ISA names, meaning the processor with every feature "any".
const LEGACY: [(&str, &str); 3] = [
    ("AMD:AMDGPU:9:0:6", "gfx906"),
    ("AMD:AMDGPU:9:0:0", "gfx900"),
    ("AMD:AMDGPU:9:0:8", "gfx908"),
];

/// Wave size of every GFX9 ISA.
pub const WAVEFRONT_SIZE: u32 = 64;
pub const WORKGROUP_MAX_SIZE: u32 = 1024;
pub const FBARRIER_MAX_SIZE: u32 = 32;

/// The ISA index a GPU agent of `model` reports: its boards' features (gfx906
/// `sramecc-:xnack-`, gfx900 `xnack-`, CDNA `sramecc+:xnack-`, as rocminfo shows them), each
/// replaced by the setting `features` asks for.
pub fn agent_isa(model: GpuModel, features: TargetFeatures) -> usize {
    let (sramecc, xnack) = match model {
        GpuModel::Gfx906 => (Off, Off),
        GpuModel::Gfx900 => (Unsupported, Off),
        _ => (On, Off),
    };
    let pick = |board: Feature, asked: Option<bool>| match (board, asked) {
        (Unsupported, _) | (_, None) => board,
        (_, Some(true)) => On,
        (_, Some(false)) => Off,
    };
    let (sramecc, xnack) = (pick(sramecc, features.sramecc), pick(xnack, features.xnack));
    ISAS.iter()
        .position(|d| d.processor == model.name() && d.sramecc == sramecc && d.xnack == xnack)
        .expect("the registry holds every on/off combination of each processor")
}

/// Wave slots per CU of the processor's boards (4 SIMDs × 10, or × 8 from gfx90a on).
fn waves_per_cu(processor: &str) -> u32 {
    GpuModel::from_name(processor).map_or(40, |m| super::gpu::Board::of(m).waves_per_cu())
}

pub fn isa_handle(index: usize) -> u64 {
    handle::encode(Kind::Isa, 0, index)
}

/// The registry index of an ISA handle, or INVALID_ISA.
pub fn isa_index(h: u64) -> Result<usize> {
    handle::decode(h, Kind::Isa, 0)
        .filter(|&i| i < ISAS.len())
        .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ISA))
}

/// `hsa_isa_from_name`.
pub fn from_name(name: &str) -> Result<usize> {
    let any = |p: &str| {
        ISAS.iter()
            .position(|d| d.processor == p && d.xnack == Any && d.sramecc != Off && d.sramecc != On)
    };
    ISAS.iter()
        .position(|d| d.name == name)
        .or_else(|| {
            LEGACY
                .iter()
                .find(|(l, _)| *l == name)
                .and_then(|(_, p)| any(p))
        })
        .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_ISA_NAME))
}

/// `hsa_isa_compatible`: code for `code` runs on an agent of ISA `agent`.
pub fn compatible(code: usize, agent: usize) -> bool {
    let (c, a) = (&ISAS[code], &ISAS[agent]);
    let feature_ok = |c: Feature, a: Feature| c == Any || c == Unsupported || c == a;
    c.processor == a.processor && feature_ok(c.sramecc, a.sramecc) && feature_ok(c.xnack, a.xnack)
}

/// One HSA_ISA_INFO_* attribute. `index` selects the call convention (only 0 exists).
pub fn info(isa: usize, attribute: u32, index: u32) -> Result<InfoValue> {
    let name = ISAS[isa].name;
    let waves = waves_per_cu(ISAS[isa].processor);
    let call_convention = |v: u32| {
        if index != 0 {
            Err(Error::new(HSA_STATUS_ERROR_INVALID_INDEX))
        } else {
            Ok(InfoValue::U32(v))
        }
    };
    Ok(match attribute {
        HSA_ISA_INFO_NAME_LENGTH => InfoValue::U32(name.len() as u32 + 1),
        HSA_ISA_INFO_NAME => InfoValue::c_str(name),
        HSA_ISA_INFO_CALL_CONVENTION_COUNT => InfoValue::U32(1),
        HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE => call_convention(WAVEFRONT_SIZE)?,
        HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT => call_convention(waves)?,
        // Indexed by hsa_machine_model_t / hsa_profile_t / hsa_default_float_rounding_mode_t.
        HSA_ISA_INFO_MACHINE_MODELS => InfoValue::bools(&[false, true]),
        HSA_ISA_INFO_PROFILES => InfoValue::bools(&[true, true]),
        HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES => InfoValue::bools(&[false, false, true]),
        HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES => {
            InfoValue::bools(&[false, false, true])
        }
        HSA_ISA_INFO_FAST_F16_OPERATION => InfoValue::Bool(true),
        HSA_ISA_INFO_WORKGROUP_MAX_DIM => InfoValue::u16s(&[1024; 3]),
        HSA_ISA_INFO_WORKGROUP_MAX_SIZE => InfoValue::U32(WORKGROUP_MAX_SIZE),
        HSA_ISA_INFO_GRID_MAX_DIM => InfoValue::u32s(&[u32::MAX; 3]),
        HSA_ISA_INFO_GRID_MAX_SIZE => InfoValue::U64(u64::MAX),
        HSA_ISA_INFO_FBARRIER_MAX_SIZE => InfoValue::U32(FBARRIER_MAX_SIZE),
        _ => return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
    })
}

/// Wavefront objects: one per ISA (wave64), handle index = ISA index.
pub fn wavefront_handle(isa: usize) -> u64 {
    handle::encode(Kind::Wavefront, 0, isa)
}

/// `hsa_wavefront_get_info`.
pub fn wavefront_info(wavefront: u64, attribute: u32) -> Result<InfoValue> {
    handle::decode(wavefront, Kind::Wavefront, 0)
        .filter(|&i| i < ISAS.len())
        .ok_or(Error::new(HSA_STATUS_ERROR_INVALID_WAVEFRONT))?;
    match attribute {
        HSA_WAVEFRONT_INFO_SIZE => Ok(InfoValue::U32(WAVEFRONT_SIZE)),
        _ => Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_agents_use_explicit_features() {
        for (i, d) in ISAS.iter().enumerate() {
            assert_eq!(from_name(d.name).unwrap(), i);
            assert!(d
                .name
                .starts_with(&format!("amdgcn-amd-amdhsa--{}", d.processor)));
        }
        assert_eq!(
            ISAS[agent_isa(GpuModel::Gfx906, TargetFeatures::default())].name,
            "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-"
        );
        assert_eq!(
            ISAS[agent_isa(GpuModel::Gfx900, TargetFeatures::default())].name,
            "amdgcn-amd-amdhsa--gfx900:xnack-"
        );
        assert_eq!(
            from_name("amdgcn-amd-amdhsa--gfx1030").unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_ISA_NAME
        );
        assert_eq!(
            ISAS[from_name("AMD:AMDGPU:9:0:6").unwrap()].name,
            "amdgcn-amd-amdhsa--gfx906"
        );
    }

    #[test]
    fn compatibility_follows_feature_settings() {
        let agent = agent_isa(GpuModel::Gfx906, TargetFeatures::default());
        let id = |n: &str| from_name(&format!("amdgcn-amd-amdhsa--{n}")).unwrap();
        assert!(compatible(id("gfx906"), agent));
        assert!(compatible(id("gfx906:xnack-"), agent));
        assert!(compatible(id("gfx906:sramecc-"), agent));
        assert!(!compatible(id("gfx906:xnack+"), agent));
        assert!(!compatible(id("gfx906:sramecc+:xnack-"), agent));
        assert!(!compatible(id("gfx900"), agent));
        assert!(compatible(
            id("gfx900"),
            agent_isa(GpuModel::Gfx900, TargetFeatures::default())
        ));
    }

    #[test]
    fn cdna_agents_report_their_boards_isa_and_match_like_rocm() {
        for (model, name) in [
            (GpuModel::Gfx908, "gfx908"),
            (GpuModel::Gfx90a, "gfx90a"),
            (GpuModel::Gfx940, "gfx940"),
            (GpuModel::Gfx941, "gfx941"),
            (GpuModel::Gfx942, "gfx942"),
        ] {
            let agent = agent_isa(model, TargetFeatures::default());
            assert_eq!(
                ISAS[agent].name,
                format!("amdgcn-amd-amdhsa--{name}:sramecc+:xnack-")
            );
            let id = |f: &str| from_name(&format!("amdgcn-amd-amdhsa--{name}{f}")).unwrap();
            // Features not named match either setting; named ones must equal the agent's.
            for ok in ["", ":sramecc+", ":xnack-", ":sramecc+:xnack-"] {
                assert!(compatible(id(ok), agent), "{name}{ok}");
            }
            for bad in [
                ":sramecc-",
                ":xnack+",
                ":sramecc-:xnack-",
                ":sramecc+:xnack+",
            ] {
                assert!(!compatible(id(bad), agent), "{name}{bad}");
            }
            assert!(!compatible(
                id(""),
                agent_isa(GpuModel::Gfx906, TargetFeatures::default())
            ));
        }
        let waves = |m| {
            info(
                agent_isa(m, TargetFeatures::default()),
                HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT,
                0,
            )
        };
        assert_eq!(waves(GpuModel::Gfx908).unwrap(), InfoValue::U32(40));
        assert_eq!(waves(GpuModel::Gfx90a).unwrap(), InfoValue::U32(32));
        assert_eq!(
            ISAS[from_name("AMD:AMDGPU:9:0:8").unwrap()].name,
            "amdgcn-amd-amdhsa--gfx908"
        );
    }

    #[test]
    fn asked_features_replace_the_boards() {
        let name = |m, sramecc, xnack| ISAS[agent_isa(m, TargetFeatures { sramecc, xnack })].name;
        assert_eq!(
            name(GpuModel::Gfx90a, None, Some(true)),
            "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack+"
        );
        assert_eq!(
            name(GpuModel::Gfx908, Some(false), None),
            "amdgcn-amd-amdhsa--gfx908:sramecc-:xnack-"
        );
        assert_eq!(
            name(GpuModel::Gfx906, Some(true), Some(true)),
            "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack+"
        );
        assert_eq!(
            name(GpuModel::Gfx900, None, Some(true)),
            "amdgcn-amd-amdhsa--gfx900:xnack+"
        );
        // Every model and setting has its entry; code for xnack+ runs only where it is on.
        for m in crate::config::GPU_MODELS {
            for x in [None, Some(false), Some(true)] {
                let s = if m == GpuModel::Gfx900 { None } else { x };
                let agent = agent_isa(
                    m,
                    TargetFeatures {
                        sramecc: s,
                        xnack: x,
                    },
                );
                let plus = from_name(&format!("amdgcn-amd-amdhsa--{}:xnack+", m.name())).unwrap();
                assert_eq!(compatible(plus, agent), x == Some(true), "{m:?} {x:?}");
            }
        }
    }

    #[test]
    fn info_values() {
        let i = agent_isa(GpuModel::Gfx906, TargetFeatures::default());
        assert_eq!(
            info(i, HSA_ISA_INFO_NAME_LENGTH, 0).unwrap(),
            InfoValue::U32(42)
        );
        assert_eq!(
            info(i, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 0).unwrap(),
            InfoValue::U32(64)
        );
        assert_eq!(
            info(i, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 1)
                .unwrap_err()
                .status,
            HSA_STATUS_ERROR_INVALID_INDEX
        );
        assert_eq!(isa_index(isa_handle(3)).unwrap(), 3);
        assert!(isa_index(isa_handle(ISAS.len())).is_err() && isa_index(12).is_err());
        assert_eq!(
            wavefront_info(wavefront_handle(0), HSA_WAVEFRONT_INFO_SIZE).unwrap(),
            InfoValue::U32(64)
        );
    }
}
