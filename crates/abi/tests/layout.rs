//! The ABI acceptance test: every struct (size, alignment, each field's offset, size and exact
//! C type), typedef (size, signedness, exact type, callback signatures included) and constant of
//! the HSA headers, measured in Rust and in a C program compiled against Debian's
//! `/usr/include/hsa`, must agree; and the list checked here must cover every struct, field,
//! typedef and constant the headers declare. A missing C compiler or header fails the test.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

#[path = "../../../tests/abi/c_probe.rs"]
mod c_probe;
#[path = "../../../tests/abi/c_types.rs"]
mod c_types;
#[path = "../../../tests/abi/header_scan.rs"]
mod header_scan;

use c_probe::{CValue, Probe};
use c_types::CType;
use std::collections::{BTreeMap, BTreeSet};

/// One Rust-side measurement and the C expression that must print the same.
pub struct Check {
    /// Key shared by both sides, e.g. `field amd_signal_t.value`.
    pub key: String,
    pub rust: CValue,
    /// printf statement that prints `key` and the C measurement.
    pub c: String,
}

/// Size of the field a closure projects to (the closure is never called).
fn field_size<S, F>(_: fn(&S) -> &F) -> usize {
    core::mem::size_of::<F>()
}

macro_rules! c_field {
    ($f:ident) => {
        stringify!($f)
    };
    ($f:ident, $c:literal) => {
        $c
    };
}

macro_rules! structs {
    ($($s:ident { $($f:ident $(= $c:literal)?),* $(,)? })*) => {
        /// Struct name -> the C field names the list maps.
        pub fn struct_fields() -> Vec<(&'static str, Vec<&'static str>)> {
            vec![$((stringify!($s), vec![$(c_field!($f $(, $c)?)),*])),*]
        }

        $(
            impl CType for softhsa_abi::$s {
                fn c() -> String {
                    stringify!($s).into()
                }
            }
        )*

        pub fn struct_checks() -> Vec<Check> {
            let mut v = Vec::new();
            $(
                v.push(c_probe::size_align(
                    stringify!($s),
                    stringify!($s),
                    core::mem::size_of::<softhsa_abi::$s>(),
                    core::mem::align_of::<softhsa_abi::$s>(),
                ));
                $(
                    v.push(c_probe::field(
                        stringify!($s),
                        c_field!($f $(, $c)?),
                        core::mem::offset_of!(softhsa_abi::$s, $f),
                        field_size(|s: &softhsa_abi::$s| &s.$f),
                    ));
                    // A C union member that the Rust field only aliases has its own type.
                    let (rust, c) = (stringify!($f), c_field!($f $(, $c)?));
                    if rust.trim_end_matches('_') == c {
                        v.push(c_probe::same_type(
                            &format!("{}.{c}", stringify!($s)),
                            &format!("__typeof__((({} *)0)->{c})", stringify!($s)),
                            &c_types::of_field(|s: &softhsa_abi::$s| &s.$f),
                        ));
                    }
                )*
            )*
            v
        }
    };
}

macro_rules! int_aliases {
    ($($t:ident $(= $c:literal)?),* $(,)?) => {
        pub fn int_alias_names() -> Vec<&'static str> {
            vec![$(stringify!($t)),*]
        }

        pub fn int_alias_checks() -> Vec<Check> {
            vec![$(
                c_probe::int_type(
                    stringify!($t),
                    c_field!($t $(, $c)?),
                    core::mem::size_of::<softhsa_abi::$t>(),
                    (0 as softhsa_abi::$t).checked_sub(1).is_some(),
                ),
                c_probe::same_type(
                    stringify!($t),
                    c_field!($t $(, $c)?),
                    &<softhsa_abi::$t as CType>::c(),
                )
            ),*]
        }
    };
}

macro_rules! other_aliases {
    ($($t:ident $(= $c:literal)?),* $(,)?) => {
        pub fn other_alias_names() -> Vec<&'static str> {
            vec![$(stringify!($t)),*]
        }

        pub fn other_alias_checks() -> Vec<Check> {
            vec![$(
                c_probe::size_align(
                    stringify!($t),
                    c_field!($t $(, $c)?),
                    core::mem::size_of::<softhsa_abi::$t>(),
                    core::mem::align_of::<softhsa_abi::$t>(),
                ),
                c_probe::same_type(
                    stringify!($t),
                    c_field!($t $(, $c)?),
                    &<softhsa_abi::$t as CType>::c(),
                )
            ),*]
        }
    };
}

macro_rules! constants {
    ($($cty:literal: [$($n:ident),* $(,)?]),* $(,)?) => {
        pub fn constant_names() -> Vec<&'static str> {
            vec![$($(stringify!($n)),*),*]
        }

        pub fn constant_checks() -> Vec<Check> {
            vec![$($(
                c_probe::constant(
                    stringify!($n),
                    $cty,
                    softhsa_abi::$n as i128,
                    core::mem::size_of_val(&softhsa_abi::$n),
                )
            ),*),*]
        }
    };
}

/// The one struct no header defines, only pointed to (`BrigModule_t`).
impl CType for softhsa_abi::BrigModuleHeader {
    fn c() -> String {
        "struct BrigModuleHeader".into()
    }
}

mod list {
    use super::*;
    include!("../../../tests/abi/layout_list.rs");
}

fn all_checks() -> Vec<Check> {
    let mut v = list::struct_checks();
    v.extend(list::int_alias_checks());
    v.extend(list::other_alias_checks());
    v.extend(list::constant_checks());
    v
}

#[test]
fn rust_layout_matches_c_headers() {
    let checks = all_checks();
    let probe = Probe::run(&checks);
    let mut bad = Vec::new();
    for c in &checks {
        match probe.get(&c.key) {
            Some(cv) if *cv == c.rust => {}
            Some(cv) => bad.push(format!("{}: Rust {:?}, C {:?}", c.key, c.rust, cv)),
            None => bad.push(format!("{}: C printed nothing", c.key)),
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // The probe measured what we asked, not less: one C line per check.
    assert_eq!(probe.count(), checks.len());
}

/// Header names this crate deliberately does not mirror, and why.
const NOT_MIRRORED: &[&str] = &[
    // Untypedef'd AMD enums whose constants are typed as their storage word
    // (`amd_signal_kind64_t` ...); the enum tag itself is never a field type.
    "amd_queue_properties_t",
    "amd_signal_kind_t",
    "amd_kernel_code_version_t",
    "amd_machine_kind_t",
    "amd_compute_pgm_rsrc_one_t",
    "amd_compute_pgm_rsrc_two_t",
    "amd_kernel_code_properties_t",
    "amd_powertwo_t",
    "amd_enabled_control_directive_t",
    "amd_exception_kind_t",
];

#[test]
fn list_covers_every_header_declaration() {
    let scan = header_scan::scan_all();
    let mut missing = Vec::new();

    let listed: BTreeMap<&str, BTreeSet<&str>> = list::struct_fields()
        .into_iter()
        .map(|(s, f)| (s, f.into_iter().collect()))
        .collect();
    for (name, fields) in &scan.structs {
        match listed.get(name.as_str()) {
            None => missing.push(format!("struct {name}")),
            Some(have) => {
                let want: BTreeSet<&str> = fields.iter().map(String::as_str).collect();
                if &want != have {
                    missing.push(format!("struct {name}: header {want:?}, list {have:?}"));
                }
            }
        }
    }
    let types: BTreeSet<&str> = list::int_alias_names()
        .into_iter()
        .chain(list::other_alias_names())
        .chain(listed.keys().copied())
        .chain(NOT_MIRRORED.iter().copied())
        .collect();
    for t in &scan.types {
        if !types.contains(t.as_str()) {
            missing.push(format!("type {t}"));
        }
    }
    let consts: BTreeSet<&str> = list::constant_names().into_iter().collect();
    for c in &scan.constants {
        if !consts.contains(c.as_str()) {
            missing.push(format!("constant {c}"));
        }
    }
    // The scan itself must have found the headers' contents (guards against a broken scanner).
    assert!(
        scan.structs.len() >= 40 && scan.constants.len() >= 500,
        "scan found too little: {} structs, {} constants",
        scan.structs.len(),
        scan.constants.len()
    );
    assert!(
        missing.is_empty(),
        "not covered by the list:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_status_has_its_header_text() {
    let mut seen = 0;
    for c in list::constant_checks() {
        let Some(name) = c.key.strip_prefix("const ") else {
            continue;
        };
        if !name.starts_with("HSA_STATUS_") && !name.starts_with("HSA_EXT_STATUS_") {
            continue;
        }
        let status = c.rust[0] as softhsa_abi::hsa_status_t;
        let text = softhsa_abi::hsa_status_text(status)
            .unwrap_or_else(|| panic!("no text for {name}"))
            .to_str()
            .expect("status text is UTF-8");
        let want = format!("{name}: ");
        assert!(
            text.starts_with(&want) && text.len() > want.len() + 5,
            "{text}"
        );
        seen += 1;
    }
    assert_eq!(seen, softhsa_abi::HSA_STATUS_TEXT.len());
    assert_eq!(softhsa_abi::hsa_status_text(0x7777), None);
}
