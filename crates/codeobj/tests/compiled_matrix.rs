//! Every code object the Debian compilers make from tests/codeobj/kernels, parsed by softhsa and
//! compared with what `llvm-readelf --notes --syms --file-header` says about the same file.

mod common;
use common::*;
use serde_yaml::Value;
use softhsa_codeobj::{parse, CodeObject, TargetId};
use std::path::Path;

/// The metadata YAML that llvm-readelf prints for the AMDGPU / AMD HSA metadata note.
fn readelf_metadata(text: &str) -> Value {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.trim_end().ends_with("Metadata:"));
    lines
        .next()
        .expect("no metadata note in llvm-readelf output");
    let mut yaml = String::new();
    for l in lines {
        if l.trim() == "..." {
            break;
        }
        yaml.push_str(if l.trim() == "---" { "---" } else { l });
        yaml.push('\n');
    }
    serde_yaml::from_str(&yaml).expect("readelf metadata is YAML")
}

/// (symbol name, value) of each kernel symbol in the symbol table listing.
fn readelf_kernel_symbols(text: &str, version: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let table = text
        .split("Symbol table '.symtab'")
        .nth(1)
        .expect("readelf .symtab listing");
    for l in table.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() < 8 || !f[0].ends_with(':') {
            continue;
        }
        let is_kernel = if version == 2 {
            f[3] == "AMDGPU_HSA_KERNEL"
        } else {
            f[3] == "OBJECT" && f[7].ends_with(".kd")
        };
        if is_kernel {
            out.push((f[7].to_string(), u64::from_str_radix(f[1], 16).unwrap()));
        }
    }
    out.sort();
    out
}

fn header_field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .map(str::trim)
        .unwrap_or_else(|| panic!("no {key}"))
}

fn num(v: &Value, key: &str) -> u32 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("readelf metadata lacks {key}: {v:?}")) as u32
}

fn round_up(n: u32, g: u32) -> u32 {
    n.max(1).div_ceil(g) * g
}

fn check(file: &Path, readelf_ver: u32) {
    let ctx = file.display();
    let co: CodeObject =
        parse(&std::fs::read(file).unwrap()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let text = readelf(readelf_ver, &["--file-header", "--notes", "--syms"], file);

    let abi: u32 = header_field(&text, "ABI Version:").parse().unwrap();
    assert_eq!(co.version, abi + 2, "{ctx}: version");
    let flags = u32::from_str_radix(
        header_field(&text, "Flags:")
            .split([',', ' '])
            .next()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    assert_eq!(co.e_flags, flags, "{ctx}: e_flags");

    let md = readelf_metadata(&text);
    let v3 = co.version >= 3;
    if co.version >= 4 {
        let t = md.get("amdhsa.target").and_then(Value::as_str).unwrap();
        assert_eq!(
            TargetId::parse(t).unwrap(),
            co.target,
            "{ctx}: target from e_flags vs amdhsa.target"
        );
    }
    let kernels = md
        .get(if v3 { "amdhsa.kernels" } else { "Kernels" })
        .and_then(Value::as_sequence)
        .unwrap();
    assert_eq!(kernels.len(), co.plan.kernels.len(), "{ctx}: kernel count");

    let mut ours: Vec<(String, u64)> = co
        .plan
        .kernels
        .iter()
        .map(|k| (k.symbol.clone(), k.descriptor_vaddr))
        .collect();
    ours.sort();
    assert_eq!(
        ours,
        readelf_kernel_symbols(&text, co.version),
        "{ctx}: kernel symbols"
    );

    for km in kernels {
        let name = km
            .get(if v3 { ".name" } else { "Name" })
            .and_then(Value::as_str)
            .unwrap();
        let k = co
            .plan
            .kernels
            .iter()
            .find(|k| k.name == name)
            .unwrap_or_else(|| panic!("{ctx}: no kernel {name}"));
        let m = k
            .metadata
            .as_ref()
            .unwrap_or_else(|| panic!("{ctx}: {name} has no metadata"));
        let props = if v3 { km } else { km.get("CodeProps").unwrap() };
        let key = |v3k: &'static str, v2k: &'static str| if v3 { v3k } else { v2k };
        let kernarg = num(props, key(".kernarg_segment_size", "KernargSegmentSize"));
        let group = num(
            props,
            key(".group_segment_fixed_size", "GroupSegmentFixedSize"),
        );
        let private = num(
            props,
            key(".private_segment_fixed_size", "PrivateSegmentFixedSize"),
        );
        let sgprs = num(props, key(".sgpr_count", "NumSGPRs"));
        let vgprs = num(props, key(".vgpr_count", "NumVGPRs"));
        let what = format!("{ctx}: kernel {name}");
        // The model read from the note equals readelf's view of the note.
        assert_eq!(m.kernarg_segment_size, kernarg, "{what}: kernarg size");
        assert_eq!(
            m.kernarg_segment_align,
            num(props, key(".kernarg_segment_align", "KernargSegmentAlign")),
            "{what}"
        );
        assert_eq!(
            (m.group_segment_fixed_size, m.private_segment_fixed_size),
            (group, private),
            "{what}"
        );
        assert_eq!(
            (m.sgpr_count, m.vgpr_count),
            (sgprs, vgprs),
            "{what}: register counts"
        );
        assert_eq!(
            m.wavefront_size,
            num(props, key(".wavefront_size", "WavefrontSize")),
            "{what}"
        );
        assert_eq!(
            m.max_flat_workgroup_size,
            num(
                props,
                key(".max_flat_workgroup_size", "MaxFlatWorkGroupSize")
            )
        );
        // The decoded descriptor (separate bytes) agrees with the note.
        let d = &k.descriptor;
        assert_eq!(
            (d.group_segment_fixed_size, d.private_segment_fixed_size),
            (group, private),
            "{what}: descriptor"
        );
        assert_eq!(d.kernarg_size, kernarg, "{what}: descriptor kernarg size");
        // gfx90a+ allocate VGPRs and AGPRs from one file in granules of 8; the AGPRs start at
        // accum_offset (the VGPR count rounded to 4 when there are none).
        if matches!(
            co.target.processor.name,
            "gfx90a" | "gfx940" | "gfx941" | "gfx942"
        ) {
            assert_eq!(
                d.unified_register_count(),
                round_up(vgprs, 8),
                "{what}: granulated VGPRs"
            );
            if num(props, ".agpr_count") == 0 {
                assert_eq!(
                    d.accum_offset(),
                    round_up(vgprs.max(1), 4),
                    "{what}: accum_offset"
                );
            }
        } else {
            assert_eq!(
                d.vgpr_count(),
                round_up(vgprs, 4),
                "{what}: granulated VGPRs"
            );
        }
        assert_eq!(
            d.sgpr_count(),
            round_up(sgprs, 8),
            "{what}: granulated SGPRs"
        );
        assert!(
            d.enable_sgpr_kernarg_segment_ptr || kernarg == 0,
            "{what}: kernarg pointer SGPR"
        );
        let args = km
            .get(key(".args", "Args"))
            .and_then(Value::as_sequence)
            .map_or(&[][..], |s| s.as_slice());
        assert_eq!(m.args.len(), args.len(), "{what}: argument count");
        for (a, ra) in m.args.iter().zip(args) {
            assert_eq!(a.size, num(ra, key(".size", "Size")), "{what}: arg size");
            let kind = ra
                .get(key(".value_kind", "ValueKind"))
                .and_then(Value::as_str)
                .unwrap();
            let expect = if v3 {
                softhsa_codeobj::ValueKind::from_v3(kind)
            } else {
                softhsa_codeobj::ValueKind::from_v2(kind)
            };
            assert!(
                !matches!(expect, softhsa_codeobj::ValueKind::Unknown(_)),
                "{what}: unknown kind {kind}"
            );
            assert_eq!(a.value_kind, expect, "{what}: arg kind");
            if v3 {
                assert_eq!(a.offset, num(ra, ".offset"), "{what}: arg offset");
            } else {
                assert_eq!(a.align, num(ra, "Align"), "{what}: arg align");
                assert_eq!(a.offset % a.align, 0, "{what}: arg offset alignment");
            }
            assert!(
                a.offset + a.size <= kernarg,
                "{what}: arg inside the kernarg segment"
            );
        }
    }
}

#[test]
fn nogpulib_kernels_across_compilers_targets_and_versions() {
    let mut n = 0;
    for &(clang, versions) in MATRIX {
        for &cpu in CPUS {
            for &opt in OPTS {
                for &cov in versions {
                    check(&compile("basic.cl", clang, cpu, opt, cov, false), clang);
                    n += 1;
                }
            }
        }
    }
    assert_eq!(n, 52);
}

#[test]
fn device_library_kernels_with_clang15() {
    for &cpu in CPUS {
        for cov in 2..=5 {
            let f = compile("builtins.cl", 15, cpu, "-O2", cov, true);
            check(&f, 15);
            let co = parse(&std::fs::read(&f).unwrap()).unwrap();
            let saxpy = co.plan.kernel("saxpy").unwrap().metadata.as_ref().unwrap();
            // get_global_id needs the global offsets (v2-v4) or block counts/sizes (v5).
            assert!(
                saxpy.args.iter().any(|a| a.value_kind.is_hidden()),
                "{}: no hidden args",
                f.display()
            );
        }
    }
}

#[test]
fn explicit_target_features_reach_e_flags_and_metadata() {
    for (clang, cov, cpu) in [
        (16, 4, "gfx906:sramecc+:xnack-"),
        (19, 5, "gfx906:xnack+"),
        (16, 5, "gfx900:xnack-"),
        (15, 4, "gfx908:sramecc+:xnack-"),
        (16, 5, "gfx90a"),
        (16, 4, "gfx940:xnack-"),
        (19, 5, "gfx941:sramecc+"),
        (19, 5, "gfx942:sramecc+:xnack-"),
    ] {
        let f = compile("basic.cl", clang, cpu, "-O2", cov, false);
        check(&f, clang);
        let co = parse(&std::fs::read(&f).unwrap()).unwrap();
        let want = TargetId::parse(cpu).unwrap();
        assert_eq!(co.target, want, "{}", f.display());
        assert_eq!(co.target.to_string(), format!("amdgcn-amd-amdhsa--{cpu}"));
    }
}

#[test]
fn v2_isa_notes_agree_with_e_flags() {
    // v2 names xnack variants by an odd stepping (gfx906 + xnack = 9.0.7, "gfx907").
    let f = compile("basic.cl", 16, "gfx906", "-O2", 2, false);
    let co = parse(&std::fs::read(&f).unwrap()).unwrap();
    let v = co.isa_version_note.as_ref().unwrap();
    let text = readelf(16, &["--notes"], &f);
    let expect = format!(
        "Major: {}, Minor: {}, Stepping: {}",
        v.major, v.minor, v.stepping
    );
    assert!(text.contains(&expect), "{expect} not in {text}");
    let xnack_on = co.target.xnack == softhsa_codeobj::Feature::On;
    assert_eq!(v.stepping % 2 == 1, xnack_on);
    assert_eq!(
        co.isa_name_note.as_deref(),
        Some(format!("amdgcn-amd-amdhsa--gfx90{}", v.stepping).as_str())
    );
}
