//! Target IDs (`amdgcn-amd-amdhsa--gfx906:sramecc-:xnack+`), processors and their e_flags, and
//! the code-object-vs-agent compatibility rule.

use crate::error::{Error, Result};
use std::fmt;

/// The architecture prefix of every target ID we accept.
pub const TARGET_TRIPLE: &str = "amdgcn-amd-amdhsa";

/// A processor known to softhsa: LLVM name, EF_AMDGPU_MACH value, which target features it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Processor {
    pub name: &'static str,
    pub mach: u32,
    pub has_xnack: bool,
    pub has_sramecc: bool,
}

const fn p(name: &'static str, mach: u32, has_xnack: bool, has_sramecc: bool) -> Processor {
    Processor {
        name,
        mach,
        has_xnack,
        has_sramecc,
    }
}

/// EF_AMDGPU_MACH_AMDGCN_* values (amd_hsa_elf.h) and each processor's features (LLVM's
/// processor table). Only GCN3 onwards: older parts have no HSA code objects worth loading.
pub const PROCESSORS: &[Processor] = &[
    p("gfx801", 0x028, true, false),
    p("gfx802", 0x029, false, false),
    p("gfx803", 0x02a, false, false),
    p("gfx805", 0x03c, false, false),
    p("gfx810", 0x02b, true, false),
    p("gfx900", 0x02c, true, false),
    p("gfx902", 0x02d, true, false),
    p("gfx904", 0x02e, true, false),
    p("gfx906", 0x02f, true, true),
    p("gfx908", 0x030, true, true),
    p("gfx909", 0x031, true, false),
    p("gfx90a", 0x03f, true, true),
    p("gfx90c", 0x032, true, false),
    p("gfx940", 0x040, true, true),
    p("gfx941", 0x04b, true, true),
    p("gfx942", 0x04c, true, true),
    p("gfx1010", 0x033, true, false),
    p("gfx1011", 0x034, true, false),
    p("gfx1012", 0x035, true, false),
    p("gfx1013", 0x042, true, false),
    p("gfx1030", 0x036, false, false),
    p("gfx1031", 0x037, false, false),
    p("gfx1032", 0x038, false, false),
    p("gfx1033", 0x039, false, false),
    p("gfx1034", 0x03e, false, false),
    p("gfx1035", 0x03d, false, false),
];

impl Processor {
    pub fn by_name(name: &str) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| p.name == name)
    }
    pub fn by_mach(mach: u32) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| p.mach == mach)
    }
}

/// The setting of a target feature (xnack, sramecc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The processor does not have the feature.
    Unsupported,
    /// Code works with the feature on or off (code object v4+ default).
    Any,
    Off,
    On,
}

impl Feature {
    fn suffix(self) -> Option<char> {
        match self {
            Feature::On => Some('+'),
            Feature::Off => Some('-'),
            Feature::Any | Feature::Unsupported => None,
        }
    }
}

/// A processor with its feature settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetId {
    pub processor: &'static Processor,
    pub sramecc: Feature,
    pub xnack: Feature,
}

/// e_flags bits (amd_hsa_elf.h).
pub const EF_AMDGPU_MACH: u32 = 0x0ff;
pub const EF_AMDGPU_FEATURE_XNACK_V3: u32 = 0x100;
pub const EF_AMDGPU_FEATURE_SRAMECC_V3: u32 = 0x200;
pub const EF_AMDGPU_FEATURE_XNACK_V4: u32 = 0x300;
pub const EF_AMDGPU_FEATURE_SRAMECC_V4: u32 = 0xc00;

impl TargetId {
    /// A processor with every supported feature set to "any".
    pub fn new(processor: &'static Processor) -> TargetId {
        let any = |has| {
            if has {
                Feature::Any
            } else {
                Feature::Unsupported
            }
        };
        TargetId {
            processor,
            sramecc: any(processor.has_sramecc),
            xnack: any(processor.has_xnack),
        }
    }

    /// Decodes e_flags. `code_object_version` 2 and 3 use one bit per feature (set = on,
    /// clear = off); 4 and 5 use two bits (unsupported/any/off/on).
    pub fn from_e_flags(e_flags: u32, code_object_version: u32) -> Result<TargetId> {
        let mach = e_flags & EF_AMDGPU_MACH;
        let processor = Processor::by_mach(mach).ok_or(Error::UnknownProcessor(mach))?;
        let (xnack, sramecc) = if code_object_version <= 3 {
            let bit = |has: bool, b: u32| match (has, e_flags & b != 0) {
                (false, _) => Feature::Unsupported,
                (true, true) => Feature::On,
                (true, false) => Feature::Off,
            };
            (
                bit(processor.has_xnack, EF_AMDGPU_FEATURE_XNACK_V3),
                bit(processor.has_sramecc, EF_AMDGPU_FEATURE_SRAMECC_V3),
            )
        } else {
            let two = |v: u32| match v {
                0 => Feature::Unsupported,
                1 => Feature::Any,
                2 => Feature::Off,
                _ => Feature::On,
            };
            (
                two((e_flags & EF_AMDGPU_FEATURE_XNACK_V4) >> 8),
                two((e_flags & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10),
            )
        };
        Ok(TargetId {
            processor,
            sramecc,
            xnack,
        })
    }

    /// Parses `amdgcn-amd-amdhsa--gfx906:sramecc-:xnack+`, or the same without the triple.
    pub fn parse(s: &str) -> Result<TargetId> {
        let bad = |why| Error::BadTargetId(s.to_string(), why);
        let rest = match s.strip_prefix(TARGET_TRIPLE) {
            Some(r) => r
                .strip_prefix("--")
                .ok_or_else(|| bad("expected '--' after the triple"))?,
            None => s,
        };
        let mut parts = rest.split(':');
        let name = parts.next().unwrap_or("");
        let processor = Processor::by_name(name).ok_or_else(|| bad("unknown processor"))?;
        let mut t = TargetId::new(processor);
        for feat in parts {
            let (fname, setting) = match feat.as_bytes().last() {
                Some(b'+') => (&feat[..feat.len() - 1], Feature::On),
                Some(b'-') => (&feat[..feat.len() - 1], Feature::Off),
                _ => return Err(bad("a feature must end in '+' or '-'")),
            };
            let slot = match fname {
                "xnack" if processor.has_xnack => &mut t.xnack,
                "sramecc" if processor.has_sramecc => &mut t.sramecc,
                "xnack" | "sramecc" => return Err(bad("feature not supported by the processor")),
                _ => return Err(bad("unknown feature")),
            };
            *slot = setting;
        }
        Ok(t)
    }

    /// Whether code built for `self` runs on an agent of ISA `agent`: same processor, and each
    /// feature either "any" in the code object or equal to the agent's. Err holds the reason.
    pub fn check_runs_on(&self, agent: &TargetId) -> std::result::Result<(), String> {
        if self.processor.name != agent.processor.name {
            return Err(format!(
                "code object is for {}, agent is {}",
                self.processor.name, agent.processor.name
            ));
        }
        for (fname, code, dev) in [
            ("sramecc", self.sramecc, agent.sramecc),
            ("xnack", self.xnack, agent.xnack),
        ] {
            let explicit = matches!(code, Feature::On | Feature::Off);
            if explicit && code != dev {
                return Err(format!(
                    "code object needs {fname}{}, agent has {}",
                    sign(code),
                    describe(fname, dev)
                ));
            }
        }
        Ok(())
    }
}

fn sign(f: Feature) -> &'static str {
    match f {
        Feature::On => "+",
        Feature::Off => "-",
        Feature::Any => " any",
        Feature::Unsupported => " unsupported",
    }
}

fn describe(fname: &str, f: Feature) -> String {
    format!("{fname}{}", sign(f))
}

impl fmt::Display for TargetId {
    /// The canonical full form: triple, processor, features in alphabetical order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{TARGET_TRIPLE}--{}", self.processor.name)?;
        if let Some(c) = self.sramecc.suffix() {
            write!(f, ":sramecc{c}")?;
        }
        if let Some(c) = self.xnack.suffix() {
            write!(f, ":xnack{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        let t = TargetId::parse("amdgcn-amd-amdhsa--gfx906:sramecc-:xnack+").unwrap();
        assert_eq!(t.processor.mach, 0x2f);
        assert_eq!((t.sramecc, t.xnack), (Feature::Off, Feature::On));
        assert_eq!(t.to_string(), "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack+");
        let t = TargetId::parse("gfx900").unwrap();
        assert_eq!((t.sramecc, t.xnack), (Feature::Unsupported, Feature::Any));
        assert_eq!(t.to_string(), "amdgcn-amd-amdhsa--gfx900");
    }

    #[test]
    fn parse_rejects_bad_ids() {
        for s in [
            "gfx999",
            "amdgcn-amd-amdhsa-gfx906",
            "gfx900:sramecc+",
            "gfx906:xnack",
            "gfx906:foo+",
            "",
        ] {
            assert!(
                matches!(TargetId::parse(s), Err(Error::BadTargetId(..))),
                "{s}"
            );
        }
    }

    #[test]
    fn e_flags_v3_and_v4() {
        // Values from llvm-readelf of clang-16 output: v3 0x32f = xnack+sramecc on; v4 0x52f = any.
        let v3 = TargetId::from_e_flags(0x32f, 3).unwrap();
        assert_eq!(v3.to_string(), "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack+");
        let v4 = TargetId::from_e_flags(0x52f, 4).unwrap();
        assert_eq!((v4.sramecc, v4.xnack), (Feature::Any, Feature::Any));
        let v4 = TargetId::from_e_flags(0x22c, 4).unwrap();
        assert_eq!(v4.to_string(), "amdgcn-amd-amdhsa--gfx900:xnack-");
        assert_eq!(
            TargetId::from_e_flags(0x2b0 | 0xff, 4),
            Err(Error::UnknownProcessor(0xff))
        );
    }

    #[test]
    fn compatibility_rules() {
        let agent = TargetId::parse("gfx906:sramecc+:xnack-").unwrap();
        assert!(TargetId::parse("gfx906")
            .unwrap()
            .check_runs_on(&agent)
            .is_ok());
        assert!(TargetId::parse("gfx906:xnack-")
            .unwrap()
            .check_runs_on(&agent)
            .is_ok());
        let e = TargetId::parse("gfx906:xnack+")
            .unwrap()
            .check_runs_on(&agent)
            .unwrap_err();
        assert!(e.contains("xnack+"), "{e}");
        let e = TargetId::parse("gfx900")
            .unwrap()
            .check_runs_on(&agent)
            .unwrap_err();
        assert!(e.contains("gfx900"), "{e}");
    }
}
