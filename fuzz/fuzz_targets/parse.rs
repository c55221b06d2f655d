//! `cargo +nightly fuzz run parse` (from the repository root): any bytes → an error or a code
//! object whose plan can be copied and relocated, never a panic. Seed the corpus with
//! tests/codeobj/malformed/*.hsaco.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(co) = softhsa_codeobj::parse(data) {
        let plan = &co.plan;
        // Bounded: parse refuses segments past 16 GiB of address space, fuzz inputs stay small.
        if plan.virtual_size <= 1 << 24 {
            let mut image = vec![0u8; plan.virtual_size as usize];
            plan.copy_segments(&mut image)
                .expect("a validated plan fits its own virtual size");
            let _ = plan.apply_relocations(&mut image, 0x1000_0000, &mut |_| Some(0));
        }
        let _ = co.target.to_string();
    }
});
