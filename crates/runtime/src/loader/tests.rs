//! Loader tests over checked-in code objects (tests/codeobj/malformed/base-v{2,5}.hsaco: clang-16
//! builds of tests/codeobj/kernels/basic.cl for gfx906).

use super::*;
use std::sync::Mutex;

#[derive(Default)]
struct FakeRegistry {
    ranges: Mutex<Vec<(u64, u64, usize)>>,
}

impl SegmentRegistry for FakeRegistry {
    fn add(&self, start: u64, len: u64, agent: usize) -> Result<()> {
        self.ranges.lock().unwrap().push((start, len, agent));
        Ok(())
    }
    fn remove(&self, start: u64) {
        self.ranges.lock().unwrap().retain(|r| r.0 != start);
    }
}

fn corpus(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/codeobj/malformed")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const GPU: AgentRef<'static> = AgentRef {
    index: 1,
    handle: 0xabc,
    isa_name: "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-",
};

fn load(loader: &Loader, reg: &FakeRegistry, file: &str) -> (u64, u64) {
    let exec = loader
        .create_executable(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT)
        .unwrap();
    let reader = Reader::from_memory(&corpus(file), 0x1234).unwrap();
    let lco = loader
        .load_code_object(exec, Some(GPU), 0, &reader, reg)
        .unwrap();
    (exec, lco)
}

#[test]
fn loads_relocates_and_indexes_kernels() {
    for (file, args_symbol) in [("base-v5.hsaco", "args.kd"), ("base-v2.hsaco", "args")] {
        let (loader, reg) = (Loader::new(), FakeRegistry::default());
        let (exec, lco) = load(&loader, &reg, file);
        let (_, l) = loader.loaded_code_object(lco).unwrap();
        let parsed = softhsa_codeobj::parse(&corpus(file)).unwrap();
        // The registered range is the loaded block, owned by the agent.
        assert_eq!(
            reg.ranges.lock().unwrap().as_slice(),
            &[(l.load_base, l.load_size, 1)]
        );
        // The RELATIVE64 relocation now holds load base + addend.
        let r = &parsed.plan.relocations[0];
        let word = l.loaded_bytes(r.offset, 8).unwrap();
        assert_eq!(
            u64::from_le_bytes(word.try_into().unwrap()),
            l.load_base + r.addend as u64,
            "{file}"
        );
        // Kernel symbols: kernel object = load base + descriptor vaddr, found by the dispatcher.
        let e = loader.executable(exec).unwrap();
        let idx = e.find_symbol(args_symbol, Some(1)).unwrap();
        let sym = e.symbol(idx).unwrap();
        let SymbolKind::Kernel(k) = &sym.kind else {
            panic!("{file}: not a kernel")
        };
        let pk = parsed.plan.kernel("args").unwrap();
        assert_eq!(k.kernel_object, l.load_base + pk.descriptor_vaddr);
        assert_eq!(loader.kernel(k.kernel_object).unwrap().name, "args");
        assert_eq!(k.descriptor, pk.descriptor);
        // The code copy starts at the executable segment and holds the entry's bytes.
        let entry = (l.load_base + pk.entry_vaddr - k.code_base) as usize;
        let seg = parsed
            .plan
            .segments
            .iter()
            .find(|s| s.flags.execute)
            .unwrap();
        let file_entry = (pk.entry_vaddr - seg.vaddr) as usize;
        assert_eq!(
            k.code[entry..entry + 16],
            seg.data[file_entry..file_entry + 16]
        );
        assert_eq!(
            loader.kernel(k.kernel_object + 1).map(|k| k.name.clone()),
            None
        );
        // Symbol handles round-trip; attributes come from the descriptor and metadata.
        let h = loader.symbol_handle(exec, idx);
        assert_eq!(loader.symbol(h).unwrap().1.name, args_symbol);
        let md = pk.metadata.as_ref().unwrap();
        assert_eq!(
            symbol_info(&sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE).unwrap(),
            crate::topology::InfoValue::U32(md.kernarg_segment_size)
        );
        assert_eq!(
            symbol_info(&sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT).unwrap(),
            crate::topology::InfoValue::U64(k.kernel_object)
        );
        assert!(symbol_info(&sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS).is_err());
        // Destroy: kernels and registry ranges go, handles become stale.
        loader.destroy_executable(exec, &reg).unwrap();
        assert!(reg.ranges.lock().unwrap().is_empty());
        assert!(loader.kernel(k.kernel_object).is_none());
        assert_eq!(
            loader.symbol(h).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL
        );
        assert_eq!(
            loader.executable(exec).err().unwrap().status,
            HSA_STATUS_ERROR_INVALID_EXECUTABLE
        );
        assert_eq!(
            loader.destroy_executable(exec, &reg).unwrap_err().status,
            HSA_STATUS_ERROR_INVALID_EXECUTABLE
        );
    }
}

#[test]
fn refuses_frozen_incompatible_and_malformed() {
    let (loader, reg) = (Loader::new(), FakeRegistry::default());
    let exec = loader
        .create_executable(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
        .unwrap();
    let good = Reader::from_memory(&corpus("base-v5.hsaco"), 0).unwrap();
    let gfx900 = AgentRef {
        isa_name: "amdgcn-amd-amdhsa--gfx900:xnack-",
        ..GPU
    };
    let e = loader
        .load_code_object(exec, Some(gfx900), 0, &good, &reg)
        .unwrap_err();
    assert_eq!(e.status, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
    let bad = Reader::from_memory(&corpus("relocation-unsupported-type.hsaco"), 0).unwrap();
    let e = loader
        .load_code_object(exec, Some(GPU), 0, &bad, &reg)
        .unwrap_err();
    assert_eq!(e.status, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    assert!(e.message.unwrap().contains("relocation type 4"));
    assert!(
        reg.ranges.lock().unwrap().is_empty(),
        "failed loads register nothing"
    );
    let ex = loader.executable(exec).unwrap();
    ex.freeze().unwrap();
    assert_eq!(
        ex.freeze().unwrap_err().status,
        HSA_STATUS_ERROR_FROZEN_EXECUTABLE
    );
    let e = loader
        .load_code_object(exec, Some(GPU), 0, &good, &reg)
        .unwrap_err();
    assert_eq!(e.status, HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
    assert_eq!(
        ex.info(HSA_EXECUTABLE_INFO_STATE).unwrap(),
        HSA_EXECUTABLE_STATE_FROZEN
    );
    assert_eq!(
        ex.info(HSA_EXECUTABLE_INFO_PROFILE).unwrap(),
        HSA_PROFILE_BASE
    );
    assert!(loader.create_executable(7, 0).is_err());
    assert!(loader.create_executable(HSA_PROFILE_FULL, 9).is_err());
}

#[test]
fn variables_defined_by_the_program() {
    let (loader, _reg) = (Loader::new(), FakeRegistry::default());
    let exec = loader.create_executable(HSA_PROFILE_FULL, 0).unwrap();
    let e = loader.executable(exec).unwrap();
    e.define_variable("g", None, 0x5000, false).unwrap();
    let err = e.define_variable("g", None, 0x6000, false).unwrap_err();
    assert_eq!(err.status, HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
    e.define_variable("g", Some(GPU), 0x7000, true).unwrap();
    let prog = e.symbol(e.find_symbol("g", None).unwrap()).unwrap();
    let agent = e.symbol(e.find_symbol("g", Some(1)).unwrap()).unwrap();
    assert_eq!((prog.address(), agent.address()), (0x5000, 0x7000));
    use crate::topology::InfoValue;
    assert_eq!(
        symbol_info(&agent, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT).unwrap(),
        InfoValue::U32(HSA_VARIABLE_SEGMENT_READONLY)
    );
    assert_eq!(
        symbol_info(&prog, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION).unwrap(),
        InfoValue::U32(HSA_VARIABLE_ALLOCATION_PROGRAM)
    );
    assert!(symbol_info(&prog, HSA_EXECUTABLE_SYMBOL_INFO_AGENT).is_err());
    assert_eq!(
        e.find_symbol("nope", None).unwrap_err().status,
        HSA_STATUS_ERROR_INVALID_SYMBOL_NAME
    );
}

#[test]
fn device_kernels_are_built_once() {
    let (loader, reg) = (Loader::new(), FakeRegistry::default());
    let (_exec, _) = load(&loader, &reg, "base-v5.hsaco");
    let k = loader.kernels_for_test().into_iter().next().unwrap();
    let calls = std::sync::atomic::AtomicU32::new(0);
    let build = |lk: &LoadedKernel| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok::<_, String>(lk.code.len())
    };
    let a = k.device_kernel(build).unwrap();
    let b = k.device_kernel(build).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 1);
    assert!(
        k.device_kernel(|_| Ok::<_, String>(1u8)).is_err(),
        "another type"
    );
}

#[test]
fn deprecated_code_objects() {
    let entry = CodeObjectEntry::deserialize(&corpus("base-v5.hsaco")).unwrap();
    let loader = Loader::new();
    let h = loader.add_code_object(entry).unwrap();
    let co = loader.code_object(h).unwrap();
    let i = co.find("lds.kd").unwrap();
    let s = loader.code_symbol(loader.code_symbol_handle(h, i)).unwrap();
    use crate::topology::InfoValue;
    assert_eq!(
        code_symbol_info(&s, HSA_CODE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE).unwrap(),
        InfoValue::U32(1024)
    );
    assert_eq!(
        code_symbol_info(&s, HSA_CODE_SYMBOL_INFO_NAME).unwrap(),
        InfoValue::Bytes(b"lds.kd".to_vec())
    );
    let version = co.info(HSA_CODE_OBJECT_INFO_VERSION, |_| Ok(0)).unwrap();
    assert_eq!(&version[..4], b"5.0\0");
    assert!(CodeObjectEntry::deserialize(b"junk").is_err());
    loader.destroy_code_object(h).unwrap();
    assert_eq!(
        loader.code_object(h).err().unwrap().status,
        HSA_STATUS_ERROR_INVALID_CODE_OBJECT
    );
}

#[test]
fn extension_table_sizes_and_copy() {
    assert_eq!(extension_table_size(1, 0), Some(3 * 8));
    assert_eq!(extension_table_size(1, 3), Some(7 * 8));
    assert_eq!(extension_table_size(2, 0), None);
    let mut t = hsa_ven_amd_loader_1_01_pfn_t::default();
    let len = std::mem::size_of_val(&t);
    // SAFETY: `t` is a live local of `len` bytes.
    unsafe {
        copy_extension_table(
            1,
            len,
            (&mut t as *mut hsa_ven_amd_loader_1_01_pfn_t).cast(),
        )
        .unwrap()
    };
    assert!(t.hsa_ven_amd_loader_loaded_code_object_get_info.is_some());
    // The functions answer with a status, never a crash: NOT_INITIALIZED without a runtime (or,
    // if another test initialized one, INVALID_ARGUMENT: NULL is in no loaded code object).
    let mut out = std::ptr::null();
    let q = t.hsa_ven_amd_loader_query_host_address.unwrap();
    // SAFETY: valid pointers; the function only reads the global runtime.
    let status = unsafe { q(std::ptr::null(), &mut out) };
    assert!(
        [
            HSA_STATUS_ERROR_NOT_INITIALIZED,
            HSA_STATUS_ERROR_INVALID_ARGUMENT
        ]
        .contains(&status),
        "{status:#x}"
    );
}

#[test]
fn undefined_symbols_resolve_against_defined_variables() {
    let (loader, reg) = (Loader::new(), FakeRegistry::default());
    let bytes = corpus("base-extern-v4.hsaco");
    let parsed = softhsa_codeobj::parse(&bytes).unwrap();
    assert_eq!(parsed.plan.undefined, ["ext_var"]);
    let reader = Reader::from_memory(&bytes, 0).unwrap();

    let exec = loader.create_executable(HSA_PROFILE_FULL, 0).unwrap();
    let e = loader
        .load_code_object(exec, Some(GPU), 0, &reader, &reg)
        .unwrap_err();
    assert_eq!(
        (e.status, e.message.as_deref()),
        (HSA_STATUS_ERROR_VARIABLE_UNDEFINED, Some("ext_var"))
    );

    // A variable of another agent does not resolve it; one of this agent does.
    let other = AgentRef {
        index: 2,
        handle: 0xdef,
        ..GPU
    };
    let ex = loader.executable(exec).unwrap();
    ex.define_variable("ext_var", Some(other), 0x1111_0000, false)
        .unwrap();
    assert!(loader
        .load_code_object(exec, Some(GPU), 0, &reader, &reg)
        .is_err());
    ex.define_variable("ext_var", Some(GPU), 0x2222_0000, false)
        .unwrap();
    let lco = loader
        .load_code_object(exec, Some(GPU), 0, &reader, &reg)
        .unwrap();
    let (_, l) = loader.loaded_code_object(lco).unwrap();
    let r = &parsed.plan.relocations[0];
    let word = u64::from_le_bytes(l.loaded_bytes(r.offset, 8).unwrap().try_into().unwrap());
    assert_eq!(word, 0x2222_0000 + 16, "S + A with A = 16 (extern.s)");
    // The code object's own global variable becomes a symbol at its loaded address.
    let ptr = ex.symbol(ex.find_symbol("ptr", Some(1)).unwrap()).unwrap();
    assert_eq!(ptr.address(), l.load_base + r.offset);
    // Failed loads left nothing registered; the good one is.
    assert_eq!(
        reg.ranges.lock().unwrap().as_slice(),
        &[(l.load_base, l.load_size, 1)]
    );
}

#[test]
fn concurrent_loads_lookups_and_destroys() {
    let loader = Arc::new(Loader::new());
    let reg = Arc::new(FakeRegistry::default());
    let bytes: Arc<[u8]> = corpus("base-v5.hsaco").into();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = Arc::new(Mutex::new(Vec::<u64>::new()));
    let watcher = {
        let (loader, stop, seen) = (loader.clone(), stop.clone(), seen.clone());
        std::thread::spawn(move || {
            let mut found = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for &k in seen.lock().unwrap().iter() {
                    // Either the live kernel or nothing (destroyed): never a wrong one.
                    if let Some(lk) = loader.kernel(k) {
                        assert_eq!(lk.kernel_object, k);
                        found += 1;
                    }
                }
            }
            found
        })
    };
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (loader, reg, bytes, seen) =
                (loader.clone(), reg.clone(), bytes.clone(), seen.clone());
            std::thread::spawn(move || {
                for _ in 0..25 {
                    let exec = loader.create_executable(HSA_PROFILE_FULL, 0).unwrap();
                    let reader = Reader::from_memory(&bytes, 0).unwrap();
                    loader
                        .load_code_object(exec, Some(GPU), 0, &reader, &*reg)
                        .unwrap();
                    let e = loader.executable(exec).unwrap();
                    let s = e.symbol(e.find_symbol("lds.kd", Some(1)).unwrap()).unwrap();
                    seen.lock().unwrap().push(s.address());
                    assert_eq!(loader.kernel(s.address()).unwrap().name, "lds");
                    loader.destroy_executable(exec, &*reg).unwrap();
                    assert!(loader.kernel(s.address()).is_none());
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    watcher.join().unwrap();
    assert!(reg.ranges.lock().unwrap().is_empty());
    assert!(loader.kernels_for_test().is_empty());
    assert!(loader.executables().is_empty());
}

#[test]
fn every_loaded_kernel_builds_for_the_gpu() {
    // The code range handed to the GPU must let it find each entry, including v2 code objects
    // whose text interleaves 256-byte amd_kernel_code_t headers with code.
    for file in ["base-v2.hsaco", "base-v5.hsaco"] {
        let (loader, reg) = (Loader::new(), FakeRegistry::default());
        load(&loader, &reg, file);
        let kernels = loader.kernels_for_test();
        assert_eq!(kernels.len(), 4, "{file}");
        let kernels_of_file = kernels.clone();
        for k in kernels {
            let built = crate::dispatch::device_kernel(&k, softhsa_isa::Gfx::Gfx906);
            let built = built.unwrap_or_else(|e| panic!("{file}: {}: {e}", k.name));
            // One decode per code segment: every kernel of it shares the program.
            let first =
                crate::dispatch::device_kernel(&kernels_of_file[0], softhsa_isa::Gfx::Gfx906)
                    .unwrap();
            if first.program.base == built.program.base {
                assert!(Arc::ptr_eq(&first.program, &built.program), "{file}");
            }
            let entry = k
                .kernel_object
                .wrapping_add(k.descriptor.entry_offset as u64);
            assert_eq!(built.entry_address(), entry, "{file}: {}", k.name);
        }
    }
}
