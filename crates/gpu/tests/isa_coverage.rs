//! Every gfx900/gfx906 encoding of the ISA vectors (`tests/isa/*.txt`: llvm-objdump's text for
//! bytes LLVM decodes) runs on the software GPU without an "unimplemented instruction" fault.
//!
//! Each valid vector becomes a one-wave kernel (the instruction, then `s_endpgm`) dispatched on
//! a device of the vector's processor. Other faults are fine here (registers start at zero, so
//! most memory instructions touch unmapped addresses); what is tested is that the interpreter
//! knows every instruction. VINTRP and EXP (graphics-only encodings) must fault as illegal in a
//! compute wave, never as unimplemented.

mod common;
use common::*;
use softhsa_gpu::{Device, DeviceConfig, Engine, FaultKind, GfxVersion, Kernel};
use std::path::PathBuf;

fn vector_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/isa")
}

/// `(bytes, text)` of every valid vector of the gfx900/gfx906 files.
fn vectors() -> Vec<(GfxVersion, Vec<u8>, String)> {
    let mut files: Vec<_> = std::fs::read_dir(vector_dir())
        .expect("tests/isa")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().unwrap_or_default().to_string_lossy();
            (n.starts_with("gfx900-") || n.starts_with("gfx906-")) && n.ends_with(".txt")
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let gfx = if f.to_string_lossy().contains("gfx900-") {
            GfxVersion::Gfx900
        } else {
            GfxVersion::Gfx906
        };
        let text = std::fs::read_to_string(&f).expect("read vectors");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (hex, asm) = line.split_once('\t').expect("vector line");
            // MIMG vectors run too: with zeroed SGPRs their T# is the null image.
            if asm == "<invalid>" {
                continue;
            }
            let bytes: Vec<u8> = hex
                .split_whitespace()
                .flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes())
                .collect();
            out.push((gfx, bytes, asm.to_string()));
        }
    }
    out
}

/// A lone `ds_gws_sema_p` or `ds_gws_barrier` waits as on hardware (its work-group parks until
/// another wave changes the GWS, which in a one-wave test never happens): first make the
/// vector's resource let it pass (semaphore count 1, barrier count 0), by a `ds_gws_init` with
/// the vector's own offset (the same M0, so the same resource).
fn open_gws_resource(dev: &Device, map: &Map, asm: &str) {
    let value = if asm.starts_with("ds_gws_sema_p") {
        1
    } else if asm.starts_with("ds_gws_barrier") {
        0
    } else {
        return;
    };
    let offset = asm
        .split_whitespace()
        .find(|w| w.starts_with("offset:"))
        .unwrap_or("");
    let init = kernel(
        &format!(
            "v_mov_b32 v0, {value}\nds_gws_init v0 {offset} gds\ns_waitcnt lgkmcnt(0)\ns_endpgm\n"
        ),
        descriptor(),
    );
    run(dev, &init, map, &[], [64, 1, 1], [64, 1, 1]).unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn no_encoding_is_unimplemented() {
    let all = vectors();
    assert!(all.len() > 10_000, "only {} vectors", all.len());
    let devices = [GfxVersion::Gfx900, GfxVersion::Gfx906].map(|gfx| {
        Device::new(DeviceConfig {
            gfx,
            worker_threads: 1,
            wave_instruction_budget: 1 << 10,
            engine: Engine::Interpreter,
            ..Default::default()
        })
    });
    let map = Map::default();
    let mut unimplemented = Vec::new();
    let (mut graphics, mut graphics_ok) = (0, 0);
    for (gfx, bytes, asm) in &all {
        let mut code = bytes.clone();
        code.extend_from_slice(&0xbf81_0000u32.to_le_bytes()); // s_endpgm
        let Ok(k) = Kernel::new("vector", descriptor(), CODE_BASE, &code, CODE_BASE) else {
            continue;
        };
        let dev = &devices[usize::from(*gfx == GfxVersion::Gfx906)];
        open_gws_resource(dev, &map, asm);
        let r = run(dev, &k, &map, &[], [64, 1, 1], [64, 1, 1]);
        let is_graphics = asm.starts_with("exp ") || asm.starts_with("v_interp_");
        graphics += usize::from(is_graphics);
        match r {
            Err(f) if f.kind == FaultKind::Unimplemented => {
                unimplemented.push(format!("{gfx:?}: {asm}"));
            }
            Err(f) if is_graphics && f.kind == FaultKind::IllegalInstruction => graphics_ok += 1,
            _ => {}
        }
    }
    let n = unimplemented.len();
    unimplemented.sort();
    unimplemented.dedup_by_key(|s| s.split_whitespace().nth(1).unwrap_or("").to_string());
    unimplemented.truncate(60);
    assert!(
        n == 0,
        "{n} of {} vectors fault as unimplemented, e.g.:\n{}",
        all.len(),
        unimplemented.join("\n")
    );
    assert!(graphics > 0, "no VINTRP/EXP vectors");
    assert_eq!(
        graphics_ok, graphics,
        "VINTRP/EXP must be illegal in a compute wave"
    );
    println!("{} vectors run, {graphics} graphics-only", all.len());
}
