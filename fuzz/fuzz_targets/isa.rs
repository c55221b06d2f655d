//! ISA decoder and disassembler: any bytes, for every processor, decode to instructions or
//! errors and print without a panic; the device's pre-decoder (`Program::new`, what a loaded
//! kernel goes through) accepts the same bytes. Valid encodings decode → print → decode again to
//! the same text (the round trip through Debian's llvm-mc is `crates/isa/tests/llvm_mc_roundtrip.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use softhsa_isa::{decode_all, decode_for, Gfx};

fuzz_target!(|data: &[u8]| {
    for gfx in [Gfx::Gfx900, Gfx::Gfx906, Gfx::Gfx908] {
        for (off, r) in decode_all(data, gfx) {
            let Ok(inst) = r else { continue };
            let pc = 0x1000 + off as u64;
            let text = inst.display(pc).to_string();
            assert!(!text.is_empty(), "empty text at {off}");
            // Decoding the same bytes again gives the same instruction and text.
            let again = decode_for(&data[off..], gfx).expect("decodes twice");
            assert_eq!(again.display(pc).to_string(), text);
        }
    }
    let program = softhsa_gpu::Program::new(data, 0x1000);
    for i in 0..program.slots.len() as u32 {
        let pc = program.addr(i);
        assert_eq!(
            program.index_of(pc),
            Some(i),
            "slot {i} not found at its address"
        );
        let _ = program.text(i);
    }
});
