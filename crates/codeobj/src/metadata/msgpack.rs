//! Code object v3+ metadata: the NT_AMDGPU_METADATA MessagePack map.

use super::model::{KernelArg, KernelMetadata, Metadata, ValueKind};
use super::{derive_align, parse_printf};
use crate::error::{Error, Result};
use rmpv::Value;

fn bad(path: &str, what: &str) -> Error {
    Error::BadMetadata(format!("{path}: {what}"))
}

/// A map's entry by key (MessagePack maps are lists of pairs).
fn get<'a>(map: &'a [(Value, Value)], key: &str) -> Option<&'a Value> {
    map.iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

fn as_map<'a>(v: &'a Value, path: &str) -> Result<&'a [(Value, Value)]> {
    v.as_map()
        .map(|m| m.as_slice())
        .ok_or_else(|| bad(path, "expected a map"))
}

fn opt_u32(map: &[(Value, Value)], key: &str, path: &str) -> Result<Option<u32>> {
    match get(map, key) {
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

fn req_u32(map: &[(Value, Value)], key: &str, path: &str) -> Result<u32> {
    opt_u32(map, key, path)?.ok_or_else(|| bad(&format!("{path}{key}"), "missing"))
}

fn opt_str(map: &[(Value, Value)], key: &str, path: &str) -> Result<Option<String>> {
    match get(map, key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_string()))
            .ok_or_else(|| bad(&format!("{path}{key}"), "expected a string")),
    }
}

fn req_str(map: &[(Value, Value)], key: &str, path: &str) -> Result<String> {
    opt_str(map, key, path)?.ok_or_else(|| bad(&format!("{path}{key}"), "missing"))
}

fn opt_bool(map: &[(Value, Value)], key: &str, path: &str) -> Result<bool> {
    match get(map, key) {
        None => Ok(false),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad(&format!("{path}{key}"), "expected a boolean")),
    }
}

fn u32_list(v: &Value, path: &str) -> Result<Vec<u32>> {
    let arr = v.as_array().ok_or_else(|| bad(path, "expected an array"))?;
    arr.iter()
        .map(|e| {
            e.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad(path, "expected integers"))
        })
        .collect()
}

fn triple(map: &[(Value, Value)], key: &str, path: &str) -> Result<Option<[u32; 3]>> {
    match get(map, key) {
        None => Ok(None),
        Some(v) => {
            let l = u32_list(v, &format!("{path}{key}"))?;
            <[u32; 3]>::try_from(l)
                .map(Some)
                .map_err(|_| bad(&format!("{path}{key}"), "expected 3 integers"))
        }
    }
}

/// Decodes the note's descriptor bytes.
pub fn parse(desc: &[u8]) -> Result<Metadata> {
    let mut rd = desc;
    let root = rmpv::decode::read_value(&mut rd)
        .map_err(|e| Error::BadMetadata(format!("MessagePack: {e}")))?;
    let root = as_map(&root, "root")?;
    let mut md = Metadata::default();
    if let Some(v) = get(root, "amdhsa.version") {
        let l = u32_list(v, "amdhsa.version")?;
        if l.len() != 2 {
            return Err(bad("amdhsa.version", "expected [major, minor]"));
        }
        md.version = (l[0], l[1]);
    } else {
        return Err(bad("amdhsa.version", "missing"));
    }
    md.target = opt_str(root, "amdhsa.target", "")?;
    if let Some(v) = get(root, "amdhsa.printf") {
        let arr = v
            .as_array()
            .ok_or_else(|| bad("amdhsa.printf", "expected an array"))?;
        for (i, e) in arr.iter().enumerate() {
            let s = e
                .as_str()
                .ok_or_else(|| bad(&format!("amdhsa.printf[{i}]"), "expected a string"))?;
            md.printf.push(parse_printf(s).ok_or_else(|| {
                bad(
                    &format!("amdhsa.printf[{i}]"),
                    "expected id:n:sizes...:format",
                )
            })?);
        }
    }
    let kernels = match get(root, "amdhsa.kernels") {
        Some(v) => v
            .as_array()
            .ok_or_else(|| bad("amdhsa.kernels", "expected an array"))?
            .as_slice(),
        None => &[],
    };
    for (i, k) in kernels.iter().enumerate() {
        md.kernels
            .push(parse_kernel(k, &format!("amdhsa.kernels[{i}]"))?);
    }
    Ok(md)
}

fn parse_kernel(v: &Value, path: &str) -> Result<KernelMetadata> {
    let m = as_map(v, path)?;
    let mut k = KernelMetadata {
        name: req_str(m, ".name", path)?,
        symbol: req_str(m, ".symbol", path)?,
        language: opt_str(m, ".language", path)?,
        kernarg_segment_size: req_u32(m, ".kernarg_segment_size", path)?,
        kernarg_segment_align: req_u32(m, ".kernarg_segment_align", path)?,
        group_segment_fixed_size: req_u32(m, ".group_segment_fixed_size", path)?,
        private_segment_fixed_size: req_u32(m, ".private_segment_fixed_size", path)?,
        wavefront_size: req_u32(m, ".wavefront_size", path)?,
        sgpr_count: req_u32(m, ".sgpr_count", path)?,
        vgpr_count: req_u32(m, ".vgpr_count", path)?,
        max_flat_workgroup_size: req_u32(m, ".max_flat_workgroup_size", path)?,
        sgpr_spill_count: opt_u32(m, ".sgpr_spill_count", path)?.unwrap_or(0),
        vgpr_spill_count: opt_u32(m, ".vgpr_spill_count", path)?.unwrap_or(0),
        uses_dynamic_stack: opt_bool(m, ".uses_dynamic_stack", path)?,
        reqd_workgroup_size: triple(m, ".reqd_workgroup_size", path)?,
        workgroup_size_hint: triple(m, ".workgroup_size_hint", path)?,
        runtime_handle: opt_str(m, ".device_enqueue_symbol", path)?,
        ..Default::default()
    };
    if let Some(v) = get(m, ".language_version") {
        let l = u32_list(v, &format!("{path}.language_version"))?;
        if l.len() == 2 {
            k.language_version = Some((l[0], l[1]));
        }
    }
    if let Some(v) = get(m, ".args") {
        let arr = v
            .as_array()
            .ok_or_else(|| bad(&format!("{path}.args"), "expected an array"))?;
        for (i, a) in arr.iter().enumerate() {
            k.args.push(parse_arg(a, &format!("{path}.args[{i}]"))?);
        }
    }
    Ok(k)
}

fn parse_arg(v: &Value, path: &str) -> Result<KernelArg> {
    let m = as_map(v, path)?;
    let offset = req_u32(m, ".offset", path)?;
    let size = req_u32(m, ".size", path)?;
    Ok(KernelArg {
        name: opt_str(m, ".name", path)?,
        type_name: opt_str(m, ".type_name", path)?,
        offset,
        size,
        align: derive_align(offset, size),
        value_kind: ValueKind::from_v3(&req_str(m, ".value_kind", path)?),
        address_space: opt_str(m, ".address_space", path)?,
        is_const: opt_bool(m, ".is_const", path)?,
        is_restrict: opt_bool(m, ".is_restrict", path)?,
        is_volatile: opt_bool(m, ".is_volatile", path)?,
        is_pipe: opt_bool(m, ".is_pipe", path)?,
        access: opt_str(m, ".access", path)?,
        pointee_align: opt_u32(m, ".pointee_align", path)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::from(v)
    }

    fn encode(v: &Value) -> Vec<u8> {
        let mut out = Vec::new();
        rmpv::encode::write_value(&mut out, v).unwrap();
        out
    }

    fn kernel(extra: Vec<(Value, Value)>) -> Value {
        let mut m = vec![
            (s(".name"), s("k")),
            (s(".symbol"), s("k.kd")),
            (s(".kernarg_segment_size"), Value::from(264)),
            (s(".kernarg_segment_align"), Value::from(8)),
            (s(".group_segment_fixed_size"), Value::from(0)),
            (s(".private_segment_fixed_size"), Value::from(16)),
            (s(".wavefront_size"), Value::from(64)),
            (s(".sgpr_count"), Value::from(12)),
            (s(".vgpr_count"), Value::from(3)),
            (s(".max_flat_workgroup_size"), Value::from(1024)),
        ];
        m.extend(extra);
        Value::Map(m)
    }

    #[test]
    fn printf_hidden_args_and_attributes() {
        let arg = |off: u32, size: u32, kind: &str| {
            Value::Map(vec![
                (s(".offset"), off.into()),
                (s(".size"), size.into()),
                (s(".value_kind"), s(kind)),
            ])
        };
        let k = kernel(vec![
            (
                s(".args"),
                Value::Array(vec![
                    arg(0, 8, "global_buffer"),
                    arg(8, 8, "hidden_printf_buffer"),
                    arg(16, 4, "hidden_dynamic_lds_size"),
                ]),
            ),
            (
                s(".reqd_workgroup_size"),
                Value::Array(vec![64.into(), 1.into(), 1.into()]),
            ),
            (s(".uses_dynamic_stack"), Value::Boolean(true)),
        ]);
        let root = Value::Map(vec![
            (s("amdhsa.version"), Value::Array(vec![1.into(), 2.into()])),
            (s("amdhsa.target"), s("amdgcn-amd-amdhsa--gfx906")),
            (s("amdhsa.printf"), Value::Array(vec![s("1:1:4:v=%d\n")])),
            (s("amdhsa.kernels"), Value::Array(vec![k])),
        ]);
        let md = parse(&encode(&root)).unwrap();
        assert_eq!(md.version, (1, 2));
        assert_eq!(md.printf[0].arg_sizes, vec![4]);
        assert_eq!(md.printf[0].format, "v=%d\n");
        let k = &md.kernels[0];
        assert_eq!(
            (
                k.kernarg_segment_size,
                k.private_segment_fixed_size,
                k.vgpr_count
            ),
            (264, 16, 3)
        );
        assert_eq!(k.reqd_workgroup_size, Some([64, 1, 1]));
        assert!(k.uses_dynamic_stack);
        let kinds: Vec<_> = k.args.iter().map(|a| a.value_kind.clone()).collect();
        assert_eq!(
            kinds,
            [
                ValueKind::GlobalBuffer,
                ValueKind::HiddenPrintfBuffer,
                ValueKind::HiddenDynamicLdsSize
            ]
        );
        assert_eq!((k.args[2].offset, k.args[2].align), (16, 4));
    }

    #[test]
    fn errors_name_the_field() {
        let root = Value::Map(vec![
            (s("amdhsa.version"), Value::Array(vec![1.into(), 1.into()])),
            (
                s("amdhsa.kernels"),
                Value::Array(vec![kernel(vec![(
                    s(".args"),
                    Value::Array(vec![Value::from(3)]),
                )])]),
            ),
        ]);
        let e = parse(&encode(&root)).unwrap_err();
        assert_eq!(
            e,
            Error::BadMetadata("amdhsa.kernels[0].args[0]: expected a map".into())
        );
        let e = parse(&encode(&Value::Map(vec![]))).unwrap_err();
        assert_eq!(e, Error::BadMetadata("amdhsa.version: missing".into()));
    }
}
