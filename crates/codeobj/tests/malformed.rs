//! Replays the checked-in malformed corpus (tests/codeobj/malformed, made by make.py there) and
//! asserts the specific error for each file. Every file of the corpus must be listed here.

mod common;
use softhsa_codeobj::{parse, Error};

type Check = fn(&Error) -> bool;

const EXPECTED: &[(&str, Check)] = &[
    ("empty.bin", |e| matches!(e, Error::NotElf)),
    ("bad-magic.hsaco", |e| matches!(e, Error::NotElf)),
    ("truncated-header.hsaco", |e| {
        matches!(
            e,
            Error::Truncated {
                what: "ELF header",
                end: 64,
                len: 40,
                ..
            }
        )
    }),
    (
        "truncated-half.hsaco",
        |e| matches!(e, Error::BadSegment { reason, .. } if reason.contains("past the end")),
    ),
    ("elf32.hsaco", |e| {
        matches!(e, Error::WrongClass { class: 1, data: 1 })
    }),
    ("big-endian.hsaco", |e| {
        matches!(e, Error::WrongClass { class: 2, data: 2 })
    }),
    ("wrong-machine.hsaco", |e| {
        matches!(e, Error::WrongMachine(62))
    }),
    ("wrong-osabi.hsaco", |e| matches!(e, Error::WrongOsAbi(0))),
    ("abi-version-9.hsaco", |e| {
        matches!(e, Error::UnsupportedAbiVersion(9))
    }),
    ("relocatable.hsaco", |e| matches!(e, Error::WrongType(1))),
    ("unknown-processor.hsaco", |e| {
        matches!(e, Error::UnknownProcessor(0xfe))
    }),
    (
        "phoff-past-end.hsaco",
        |e| matches!(e, Error::Malformed(m) if m.starts_with("program headers")),
    ),
    (
        "shoff-past-end.hsaco",
        |e| matches!(e, Error::Malformed(m) if m.starts_with("section headers")),
    ),
    (
        "segment-past-end.hsaco",
        |e| matches!(e, Error::BadSegment { reason, .. } if reason.contains("past the end")),
    ),
    (
        "segment-filesz-gt-memsz.hsaco",
        |e| matches!(e, Error::BadSegment { reason, .. } if reason.contains("> memsz")),
    ),
    (
        "segment-huge.hsaco",
        |e| matches!(e, Error::BadSegment { reason, .. } if reason.contains("too large")),
    ),
    ("overlapping-segments.hsaco", |e| {
        matches!(e, Error::OverlappingSegments(..))
    }),
    ("no-load-segment.hsaco", |e| {
        matches!(e, Error::NoLoadSegment)
    }),
    (
        "note-desc-overflow.hsaco",
        |e| matches!(e, Error::BadNote(m) if m.contains("runs past")),
    ),
    (
        "metadata-not-msgpack.hsaco",
        |e| matches!(e, Error::BadMetadata(m) if m == "root: expected a map"),
    ),
    (
        "metadata-missing-field.hsaco",
        |e| matches!(e, Error::BadMetadata(m) if m.contains(".kernarg_segment_size: missing")),
    ),
    (
        "metadata-wrong-type.hsaco",
        |e| matches!(e, Error::BadMetadata(m) if m.contains(".sgpr_count: expected")),
    ),
    ("relocation-unsupported-type.hsaco", |e| {
        matches!(e, Error::UnsupportedRelocation { rtype: 4, .. })
    }),
    ("relocation-outside-segments.hsaco", |e| {
        matches!(
            e,
            Error::BadRelocation {
                offset: 0x7fff0000,
                ..
            }
        )
    }),
    (
        "relocation-bad-symbol.hsaco",
        |e| matches!(e, Error::BadRelocation { reason, .. } if reason.contains("symbol index 99")),
    ),
    (
        "kernel-descriptor-outside.hsaco",
        |e| matches!(e, Error::BadKernel { name, reason } if name == "args.kd" && reason.contains("not in the file")),
    ),
    (
        "kernel-entry-outside.hsaco",
        |e| matches!(e, Error::BadKernel { reason, .. } if reason.contains("executable segment")),
    ),
    (
        "v2-yaml-syntax.hsaco",
        |e| matches!(e, Error::BadMetadata(m) if m.starts_with("YAML")),
    ),
    ("v2-missing-version-note.hsaco", |e| {
        matches!(e, Error::MissingNote("NT_AMD_HSA_CODE_OBJECT_VERSION"))
    }),
    (
        "v2-kernel-code-version.hsaco",
        |e| matches!(e, Error::BadKernel { name, reason } if name == "args" && reason.contains("version")),
    ),
    (
        "v2-wave32.hsaco",
        |e| matches!(e, Error::BadKernel { reason, .. } if reason.contains("wavefront size 32")),
    ),
];

#[test]
fn every_malformed_file_gives_its_error() {
    let dir = common::corpus_dir().join("malformed");
    let mut failures = Vec::new();
    for (name, check) in EXPECTED {
        let bytes =
            std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e} (run make.py)"));
        match parse(&bytes) {
            Ok(_) => failures.push(format!("{name}: parsed without error")),
            Err(e) if !check(&e) => failures.push(format!("{name}: unexpected error {e:?}")),
            Err(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_bases_parse_and_the_corpus_is_fully_listed() {
    let dir = common::corpus_dir().join("malformed");
    for base in ["base-v2.hsaco", "base-v5.hsaco"] {
        let co = parse(&std::fs::read(dir.join(base)).unwrap()).unwrap();
        assert_eq!(co.plan.kernels.len(), 4, "{base}");
        assert_eq!(co.plan.relocations.len(), 1, "{base}");
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with("base-") || name.ends_with(".py") {
            continue;
        }
        assert!(
            EXPECTED.iter().any(|(n, _)| *n == name),
            "{name} has no expected error"
        );
    }
}

#[test]
fn every_prefix_of_a_code_object_is_an_error_not_a_panic() {
    let dir = common::corpus_dir().join("malformed");
    let bytes = std::fs::read(dir.join("base-v5.hsaco")).unwrap();
    for len in (0..bytes.len()).step_by(7) {
        // The section headers sit at the end: every strict prefix loses them or a segment.
        assert!(
            parse(&bytes[..len]).is_err(),
            "prefix of {len} bytes parsed"
        );
    }
}

/// Deterministic byte mutations of both bases (what the fuzz target does, on stable Rust):
/// parsing never panics, and whatever parses can be copied and relocated.
#[test]
fn random_mutations_never_panic() {
    let dir = common::corpus_dir().join("malformed");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for base in ["base-v2.hsaco", "base-v5.hsaco"] {
        let bytes = std::fs::read(dir.join(base)).unwrap();
        for _ in 0..1500 {
            let mut m = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % m.len() as u64) as usize;
                m[at] = next() as u8;
            }
            if let Ok(co) = parse(&m) {
                let plan = &co.plan;
                if plan.virtual_size <= 1 << 24 {
                    let mut image = vec![0u8; plan.virtual_size as usize];
                    plan.copy_segments(&mut image).unwrap();
                    let _ = plan.apply_relocations(&mut image, 0x1000_0000, &mut |_| Some(0));
                }
            }
        }
    }
}
