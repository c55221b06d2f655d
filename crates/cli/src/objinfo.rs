//! `softhsa objinfo FILE`: a readable dump of an AMDGPU code object.

use softhsa_codeobj::{CodeObject, KernelSymbol};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// Reads `path`, parses it and writes the dump to `out`. Err is a one-line message for stderr.
pub fn run(path: &Path, out: &mut dyn Write) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let co = softhsa_codeobj::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    out.write_all(render(&co).as_bytes())
        .map_err(|e| e.to_string())
}

/// The dump as text.
pub fn render(co: &CodeObject) -> String {
    let mut s = String::new();
    let p = &co.plan;
    let _ = writeln!(s, "target:              {}", co.target);
    let _ = writeln!(
        s,
        "code object version: v{} (e_flags {:#x})",
        co.version, co.e_flags
    );
    if let Some(t) = &co.metadata.target {
        let _ = writeln!(s, "metadata target:     {t}");
    }
    let _ = writeln!(
        s,
        "metadata version:    {}.{}",
        co.metadata.version.0, co.metadata.version.1
    );
    let _ = writeln!(
        s,
        "virtual size:        {:#x} (align {:#x})",
        p.virtual_size, p.align
    );
    for seg in &p.segments {
        let f = seg.flags;
        let perm = format!(
            "{}{}{}",
            if f.read { 'r' } else { '-' },
            if f.write { 'w' } else { '-' },
            if f.execute { 'x' } else { '-' }
        );
        let _ = writeln!(
            s,
            "  segment {perm} vaddr {:#x} memsz {:#x} filesz {:#x}",
            seg.vaddr, seg.memsz, seg.filesz
        );
    }
    let _ = writeln!(s, "relocations:         {}", p.relocations.len());
    for v in &p.variables {
        let ro = if v.readonly { " readonly" } else { "" };
        let _ = writeln!(
            s,
            "variable {} at {:#x} size {} {:?}{ro}",
            v.name, v.vaddr, v.size, v.binding
        );
    }
    for u in &p.undefined {
        let _ = writeln!(s, "undefined {u}");
    }
    for f in &co.metadata.printf {
        let _ = writeln!(s, "printf #{} args {:?}: {:?}", f.id, f.arg_sizes, f.format);
    }
    for k in &p.kernels {
        kernel(&mut s, k);
    }
    s
}

fn kernel(s: &mut String, k: &KernelSymbol) {
    let d = &k.descriptor;
    let _ = writeln!(
        s,
        "kernel {} (symbol {}, descriptor at {:#x})",
        k.name, k.symbol, k.descriptor_vaddr
    );
    let _ = writeln!(s, "  entry {:#x}, code {} B", k.entry_vaddr, k.code_size);
    let _ = writeln!(
        s,
        "  LDS {} B, scratch {} B/work-item, kernarg {} B, dynamic stack {}",
        d.group_segment_fixed_size,
        d.private_segment_fixed_size,
        d.kernarg_size,
        d.uses_dynamic_stack
    );
    let _ = writeln!(
        s,
        "  allocated VGPRs {}, SGPRs {}, user SGPRs {}, rsrc1 {:#010x} rsrc2 {:#010x}",
        d.vgpr_count(),
        d.sgpr_count(),
        d.user_sgpr_count(),
        d.pgm_rsrc1,
        d.pgm_rsrc2
    );
    let Some(m) = &k.metadata else {
        let _ = writeln!(s, "  (no metadata)");
        return;
    };
    let _ = writeln!(
        s,
        "  metadata: wavefront {}, SGPRs {}, VGPRs {}, spills {}/{}, max flat work-group {}, kernarg {} B align {}",
        m.wavefront_size,
        m.sgpr_count,
        m.vgpr_count,
        m.sgpr_spill_count,
        m.vgpr_spill_count,
        m.max_flat_workgroup_size,
        m.kernarg_segment_size,
        m.kernarg_segment_align
    );
    if let Some(l) = &m.language {
        let v = m
            .language_version
            .map(|(a, b)| format!(" {a}.{b}"))
            .unwrap_or_default();
        let _ = writeln!(s, "  language {l}{v}");
    }
    for (i, a) in m.args.iter().enumerate() {
        let name = a.name.as_deref().unwrap_or("");
        let ty = a
            .type_name
            .as_deref()
            .map(|t| format!(" ({t})"))
            .unwrap_or_default();
        let space = a
            .address_space
            .as_deref()
            .map(|t| format!(" {t}"))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "  arg {i:2} offset {:3} size {:2} align {:2} {}{space} {name}{ty}",
            a.offset,
            a.size,
            a.align,
            a.value_kind.name()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dumps_kernels_args_and_sizes() {
        // tests/codeobj/kernels/basic.cl: `lds` declares `__local int sh[256]` (1024 B of LDS);
        // `args` has 10 explicit arguments, the 7th a float4 at offset 48.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/codeobj/malformed");
        let mut out = Vec::new();
        run(&root.join("base-v5.hsaco"), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("target:              amdgcn-amd-amdhsa--gfx906\n"),
            "{text}"
        );
        assert!(text.contains("code object version: v5"), "{text}");
        let lds = text.split("kernel lds ").nth(1).unwrap();
        assert!(lds.contains("LDS 1024 B"), "{lds}");
        assert!(text.contains("offset  48 size 16"), "{text}");
        let err = run(&root.join("wrong-machine.hsaco"), &mut Vec::new()).unwrap_err();
        assert!(err.contains("wrong machine 62"), "{err}");
    }
}
