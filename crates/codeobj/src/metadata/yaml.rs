//! Code object v2 metadata: the YAML document of the NT_AMD_HSA_METADATA note.

use super::model::{KernelArg, KernelMetadata, Metadata, ValueKind};
use super::parse_printf;
use crate::error::{Error, Result};
use serde_yaml::{Mapping, Value};

fn bad(path: &str, what: &str) -> Error {
    Error::BadMetadata(format!("{path}: {what}"))
}

fn opt_u32(m: &Mapping, key: &str, path: &str) -> Result<Option<u32>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| {
                bad(
                    &format!("{path}{key}"),
                    "expected a 32-bit unsigned integer",
                )
            }),
    }
}

fn opt_str(m: &Mapping, key: &str, path: &str) -> Result<Option<String>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_string()))
            .ok_or_else(|| bad(&format!("{path}{key}"), "expected a string")),
    }
}

fn opt_bool(m: &Mapping, key: &str, path: &str) -> Result<bool> {
    match m.get(key) {
        None => Ok(false),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad(&format!("{path}{key}"), "expected a boolean")),
    }
}

fn u32_list(v: &Value, path: &str) -> Result<Vec<u32>> {
    let seq = v
        .as_sequence()
        .ok_or_else(|| bad(path, "expected a list"))?;
    seq.iter()
        .map(|e| {
            e.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad(path, "expected integers"))
        })
        .collect()
}

fn triple(m: &Mapping, key: &str, path: &str) -> Result<Option<[u32; 3]>> {
    match m.get(key) {
        None => Ok(None),
        Some(v) => {
            let p = format!("{path}{key}");
            <[u32; 3]>::try_from(u32_list(v, &p)?)
                .map(Some)
                .map_err(|_| bad(&p, "expected 3 integers"))
        }
    }
}

fn as_map<'a>(v: &'a Value, path: &str) -> Result<&'a Mapping> {
    v.as_mapping()
        .ok_or_else(|| bad(path, "expected a mapping"))
}

/// Decodes the note's descriptor (a YAML document, possibly NUL-terminated).
pub fn parse(desc: &[u8]) -> Result<Metadata> {
    let end = desc.iter().position(|&b| b == 0).unwrap_or(desc.len());
    let text = std::str::from_utf8(&desc[..end]).map_err(|_| bad("root", "not UTF-8"))?;
    let root: Value =
        serde_yaml::from_str(text).map_err(|e| Error::BadMetadata(format!("YAML: {e}")))?;
    let root = as_map(&root, "root")?;
    let mut md = Metadata::default();
    let version = u32_list(
        root.get("Version")
            .ok_or_else(|| bad("Version", "missing"))?,
        "Version",
    )?;
    if version.len() != 2 {
        return Err(bad("Version", "expected [major, minor]"));
    }
    md.version = (version[0], version[1]);
    if let Some(v) = root.get("Printf") {
        let seq = v
            .as_sequence()
            .ok_or_else(|| bad("Printf", "expected a list"))?;
        for (i, e) in seq.iter().enumerate() {
            let p = format!("Printf[{i}]");
            let s = e.as_str().ok_or_else(|| bad(&p, "expected a string"))?;
            md.printf
                .push(parse_printf(s).ok_or_else(|| bad(&p, "expected id:n:sizes...:format"))?);
        }
    }
    if let Some(v) = root.get("Kernels") {
        let seq = v
            .as_sequence()
            .ok_or_else(|| bad("Kernels", "expected a list"))?;
        for (i, k) in seq.iter().enumerate() {
            md.kernels.push(parse_kernel(k, &format!("Kernels[{i}]."))?);
        }
    }
    Ok(md)
}

fn parse_kernel(v: &Value, path: &str) -> Result<KernelMetadata> {
    let m = as_map(v, path)?;
    let name = opt_str(m, "Name", path)?.ok_or_else(|| bad(&format!("{path}Name"), "missing"))?;
    let mut k = KernelMetadata {
        // The v2 kernel symbol is the kernel's name (SymbolName's "name@kd" is not an ELF symbol).
        symbol: name.clone(),
        name,
        language: opt_str(m, "Language", path)?,
        ..Default::default()
    };
    if let Some(v) = m.get("LanguageVersion") {
        let l = u32_list(v, &format!("{path}LanguageVersion"))?;
        if l.len() == 2 {
            k.language_version = Some((l[0], l[1]));
        }
    }
    if let Some(a) = m.get("Attrs") {
        let p = format!("{path}Attrs.");
        let a = as_map(a, &p)?;
        k.reqd_workgroup_size = triple(a, "ReqdWorkGroupSize", &p)?;
        k.workgroup_size_hint = triple(a, "WorkGroupSizeHint", &p)?;
        k.runtime_handle = opt_str(a, "RuntimeHandle", &p)?;
    }
    if let Some(args) = m.get("Args") {
        let seq = args
            .as_sequence()
            .ok_or_else(|| bad(&format!("{path}Args"), "expected a list"))?;
        let mut offset = 0u32;
        for (i, a) in seq.iter().enumerate() {
            let arg = parse_arg(a, &format!("{path}Args[{i}]."), offset)?;
            offset = arg.offset.saturating_add(arg.size);
            k.args.push(arg);
        }
    }
    if let Some(c) = m.get("CodeProps") {
        let p = format!("{path}CodeProps.");
        let c = as_map(c, &p)?;
        let n = |key| opt_u32(c, key, &p).map(|v| v.unwrap_or(0));
        k.kernarg_segment_size = n("KernargSegmentSize")?;
        k.kernarg_segment_align = n("KernargSegmentAlign")?;
        k.group_segment_fixed_size = n("GroupSegmentFixedSize")?;
        k.private_segment_fixed_size = n("PrivateSegmentFixedSize")?;
        k.wavefront_size = n("WavefrontSize")?;
        k.sgpr_count = n("NumSGPRs")?;
        k.vgpr_count = n("NumVGPRs")?;
        k.sgpr_spill_count = n("NumSpilledSGPRs")?;
        k.vgpr_spill_count = n("NumSpilledVGPRs")?;
        k.max_flat_workgroup_size = n("MaxFlatWorkGroupSize")?;
        k.uses_dynamic_stack = opt_bool(c, "IsDynamicCallStack", &p)?;
    }
    Ok(k)
}

/// v2 spells qualifiers in CamelCase; the model uses the v3 spelling.
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// v2 has no offsets: arguments are laid out in order, each at its alignment.
fn parse_arg(v: &Value, path: &str, next_offset: u32) -> Result<KernelArg> {
    let m = as_map(v, path)?;
    let size = opt_u32(m, "Size", path)?.ok_or_else(|| bad(&format!("{path}Size"), "missing"))?;
    let align =
        opt_u32(m, "Align", path)?.ok_or_else(|| bad(&format!("{path}Align"), "missing"))?;
    if !align.is_power_of_two() {
        return Err(bad(&format!("{path}Align"), "not a power of two"));
    }
    let offset = next_offset
        .checked_next_multiple_of(align)
        .ok_or_else(|| bad(path, "offset overflows"))?;
    let kind = opt_str(m, "ValueKind", path)?
        .ok_or_else(|| bad(&format!("{path}ValueKind"), "missing"))?;
    Ok(KernelArg {
        name: opt_str(m, "Name", path)?,
        type_name: opt_str(m, "TypeName", path)?,
        offset,
        size,
        align,
        value_kind: ValueKind::from_v2(&kind),
        address_space: opt_str(m, "AddrSpaceQual", path)?.map(|s| snake(&s)),
        is_const: opt_bool(m, "IsConst", path)?,
        is_restrict: opt_bool(m, "IsRestrict", path)?,
        is_volatile: opt_bool(m, "IsVolatile", path)?,
        is_pipe: opt_bool(m, "IsPipe", path)?,
        access: opt_str(m, "AccQual", path)?.map(|s| snake(&s)),
        pointee_align: opt_u32(m, "PointeeAlign", path)?,
    })
}
