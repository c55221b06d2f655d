//! Code object reader and loader: any bytes → an error status or a loaded executable, through the
//! C API's entry points (`hsa_code_object_reader_create_from_memory`, `hsa_executable_*`, the
//! deprecated `hsa_code_object_deserialize`), then every symbol attribute read back. The parser's
//! own plan (segment copy and relocation) is exercised directly too. Never a panic, a crash or a
//! leak (everything created is destroyed). Seeds: `fuzz/corpus/codeobj`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use softhsa_abi::*;
use softhsa_fuzz::ffi as hsa;
use softhsa_fuzz::{hsa, ok};
use std::ffi::c_void;

fuzz_target!(|data: &[u8]| {
    parse_plan(data);
    let rt = hsa();
    if let Ok((exe, kernels)) = softhsa_fuzz::load(rt.gpu, data) {
        symbols(exe, kernels.len());
        ok("hsa_executable_destroy", hsa::hsa_executable_destroy(exe));
    }
    deprecated(data);
});

/// The parser alone: a validated plan copies and relocates into its own virtual size.
fn parse_plan(data: &[u8]) {
    let Ok(co) = softhsa_codeobj::parse(data) else {
        return;
    };
    let plan = &co.plan;
    if plan.virtual_size <= 1 << 24 {
        let mut image = vec![0u8; plan.virtual_size as usize];
        plan.copy_segments(&mut image)
            .expect("a validated plan fits its own virtual size");
        let _ = plan.apply_relocations(&mut image, 0x1000_0000, &mut |_| Some(0));
    }
    let _ = co.target.to_string();
}

/// Every attribute of every symbol (an error status for those that do not apply), and each
/// symbol found again by name.
fn symbols(exe: hsa_executable_t, kernels: usize) {
    unsafe extern "C" fn cb(
        exe: hsa_executable_t,
        sym: hsa_executable_symbol_t,
        data: *mut c_void,
    ) -> hsa_status_t {
        // SAFETY: `data` is the counter passed below.
        let count = unsafe { &mut *data.cast::<usize>() };
        *count += 1;
        let mut buf = [0u64; 64];
        for attr in 0..=25 {
            buf.fill(0);
            hsa::hsa_executable_symbol_get_info(sym, attr, buf.as_mut_ptr().cast());
        }
        let mut len = 0u32;
        let st = hsa::hsa_executable_symbol_get_info(
            sym,
            HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH,
            (&raw mut len).cast(),
        );
        if st == HSA_STATUS_SUCCESS {
            let mut name = vec![0u8; len as usize + 1];
            ok(
                "hsa_executable_symbol_get_info(NAME)",
                hsa::hsa_executable_symbol_get_info(
                    sym,
                    HSA_EXECUTABLE_SYMBOL_INFO_NAME,
                    name.as_mut_ptr().cast(),
                ),
            );
            let mut agent = hsa_agent_t { handle: 0 };
            hsa::hsa_executable_symbol_get_info(
                sym,
                HSA_EXECUTABLE_SYMBOL_INFO_AGENT,
                (&raw mut agent).cast(),
            );
            let mut again = hsa_executable_symbol_t { handle: 0 };
            hsa::hsa_executable_get_symbol_by_name(exe, name.as_ptr().cast(), &agent, &mut again);
        }
        HSA_STATUS_SUCCESS
    }
    let mut count = 0usize;
    ok(
        "hsa_executable_iterate_symbols",
        hsa::hsa_executable_iterate_symbols(exe, Some(cb), (&raw mut count).cast()),
    );
    assert!(count >= kernels, "fewer symbols than kernels");
}

/// The deprecated path: deserialize, query, iterate symbols, destroy.
fn deprecated(data: &[u8]) {
    let mut co = hsa_code_object_t { handle: 0 };
    let st = hsa::hsa_code_object_deserialize(
        data.as_ptr() as *mut c_void,
        data.len(),
        std::ptr::null(),
        &mut co,
    );
    if st != HSA_STATUS_SUCCESS {
        return;
    }
    let mut buf = [0u64; 16];
    for attr in 0..=8 {
        hsa::hsa_code_object_get_info(co, attr, buf.as_mut_ptr().cast());
    }
    ok("hsa_code_object_destroy", hsa::hsa_code_object_destroy(co));
}
