//! The C side of the layout test: turn the Rust-side checks into one C program compiled against
//! Debian's HSA headers with `cc`, run it, and read back what it measured.

use super::header_scan::{HEADERS, HSA_DIR};
use super::Check;
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// The numbers one check compares: sizes, alignments, offsets, values.
pub type CValue = Vec<i128>;

/// `sizeof` and `_Alignof` of a struct or non-integer typedef.
pub fn size_align(key: &str, c_type: &str, size: usize, align: usize) -> Check {
    Check {
        key: format!("type {key}"),
        rust: vec![size as i128, align as i128],
        c: format!("printf(\"type {key}\\t%zu %zu\\n\", sizeof({c_type}), _Alignof({c_type}));"),
    }
}

/// `offsetof` and `sizeof` of one field (`c_field` is the C member, maybe a union alias).
pub fn field(s: &str, c_field: &str, offset: usize, size: usize) -> Check {
    Check {
        key: format!("field {s}.{c_field}"),
        rust: vec![offset as i128, size as i128],
        c: format!(
            "printf(\"field {s}.{c_field}\\t%zu %zu\\n\", offsetof({s}, {c_field}), \
             sizeof((({s} *)0)->{c_field}));"
        ),
    }
}

/// `sizeof` and signedness of an integer (or enum) typedef.
pub fn int_type(key: &str, c_type: &str, size: usize, signed: bool) -> Check {
    Check {
        key: format!("int {key}"),
        rust: vec![size as i128, signed as i128],
        c: format!("printf(\"int {key}\\t%zu %d\\n\", sizeof({c_type}), (int)SIGNED({c_type}));"),
    }
}

/// Value of a constant cast to `c_type` (the C type of the Rust constant) and that type's size.
pub fn constant(name: &str, c_type: &str, value: i128, size: usize) -> Check {
    Check {
        key: format!("const {name}"),
        rust: vec![value, size as i128],
        c: format!("PRINT_INT(\"const {name}\", {c_type}, {name});"),
    }
}

/// That the C type `c_type` is exactly the type spelled `rust_c` (see `c_types`): the probe
/// then fails to compile, naming both types, if they differ in any way C checks for pointers
/// (signedness, constness, parameter and return types).
pub fn same_type(key: &str, c_type: &str, rust_c: &str) -> Check {
    Check {
        key: format!("ctype {key}"),
        rust: vec![1],
        c: format!(
            "{{ {c_type} *p = (__typeof__({rust_c}) *)0; (void)p; printf(\"ctype {key}\\t1\\n\"); }}"
        ),
    }
}

/// What the compiled C program printed, by check key.
pub struct Probe(HashMap<String, CValue>);

impl Probe {
    /// Compile and run the C program for `checks`; panics with the reason if it cannot.
    pub fn run(checks: &[Check]) -> Probe {
        for h in HEADERS {
            let p = Path::new(HSA_DIR).join(h);
            assert!(
                p.is_file(),
                "{} is missing: install Debian's libhsa-runtime-dev (the layout test needs the \
                 real headers)",
                p.display()
            );
        }
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi-layout");
        std::fs::create_dir_all(&dir).expect("create the probe directory");
        let src = dir.join("probe.c");
        let exe = dir.join("probe");
        std::fs::write(&src, c_source(checks)).expect("write probe.c");
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let out = Command::new(&cc)
            .args(["-std=gnu11", "-Wall", "-Werror=incompatible-pointer-types"])
            .args(["-Werror=pointer-sign", "-Werror=discarded-qualifiers", "-o"])
            .arg(&exe)
            .arg(&src)
            .output()
            .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` ({e}): install gcc"));
        assert!(
            out.status.success(),
            "`{cc}` failed on {}:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe).output().expect("run the C probe");
        assert!(run.status.success(), "the C probe failed: {:?}", run.status);
        let text = String::from_utf8(run.stdout).expect("probe output is UTF-8");
        let mut map = HashMap::new();
        for line in text.lines() {
            let (key, nums) = line
                .split_once('\t')
                .expect("probe line is `key<TAB>numbers`");
            let nums = nums
                .split(' ')
                .map(|n| n.parse::<i128>().expect("probe prints integers"))
                .collect();
            assert!(
                map.insert(key.to_string(), nums).is_none(),
                "duplicate key {key}"
            );
        }
        Probe(map)
    }

    pub fn get(&self, key: &str) -> Option<&CValue> {
        self.0.get(key)
    }

    pub fn count(&self) -> usize {
        self.0.len()
    }
}

fn c_source(checks: &[Check]) -> String {
    let mut s = String::from("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n");
    for h in HEADERS {
        s += &format!("#include <{HSA_DIR}/{h}>\n");
    }
    s += "#define SIGNED(T) ((T)-1 < (T)0)\n";
    s += "#define PRINT_INT(key, T, v) do { if (SIGNED(T)) \\\n";
    s += "  printf(\"%s\\t%lld %zu\\n\", key, (long long)(T)(v), sizeof(T)); else \\\n";
    s +=
        "  printf(\"%s\\t%llu %zu\\n\", key, (unsigned long long)(T)(v), sizeof(T)); } while (0)\n";
    s += "int main(void) {\n";
    for c in checks {
        s += "  ";
        s += &c.c;
        s += "\n";
    }
    s += "  return 0;\n}\n";
    s
}
