//! Shared subroutines of generated code: one per memory-access shape, and the call-out to the
//! interpreter.
//!
//! They depend on the host ISA only, not on the kernel, so each is compiled once per process
//! (into its own executable mapping, kept for the process's life) when a kernel first needs
//! it, and every kernel calls that copy through its absolute address. A kernel's compile
//! used to emit and encode its own copies: a vector-memory stub is about 1,000 x86
//! instructions, four fifths of a small kernel's code.

use super::code::Code;
use super::emit::{Emitter, R};
use super::mem_lds::DsShape;
use super::mem_vector::VmemShape;
use super::vx::Isa;
use iced_x86::code_asm::{rax, CodeLabel};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// A stub's identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Stub {
    Vmem(VmemShape),
    Ds(DsShape),
    /// The body of every call-out to the interpreter.
    Callout,
    /// Classifies an LDS address register (`lds_class.rs`).
    LdsClassify,
    /// LDS reads through a classified address register.
    DsClassified(DsShape),
}

impl Emitter<'_> {
    /// Calls `stub`, its arguments in place (rax is scratch at every stub call): a kernel
    /// calls the process's shared copy, a stub of the library its neighbour.
    pub(super) fn call_stub(&mut self, stub: Stub) -> R<()> {
        if self.in_stub_lib {
            let l = self.local_stub(stub);
            return Ok(self.a.call(l)?);
        }
        let addr = shared(self.isa, stub).map_err(super::emit::EmitError)?;
        self.a.mov(rax, addr)?;
        Ok(self.a.call(rax)?)
    }

    /// The label of `stub`'s copy in the code being emitted (emitted after everything else,
    /// on first use).
    pub(super) fn local_stub(&mut self, stub: Stub) -> CodeLabel {
        if let Some(&l) = self.stubs.get(&stub) {
            return l;
        }
        let l = self.a.create_label();
        self.stubs.insert(stub, l);
        let mut at = l;
        self.cold(move |e| {
            e.bind_kept(&mut at)?;
            // The bound copy (for its address).
            e.stubs.insert(stub, at);
            e.free_all();
            match stub {
                Stub::Vmem(s) => e.vmem_stub(s),
                Stub::Ds(s) => e.ds_stub(s),
                Stub::Callout => e.callout_stub(),
                Stub::LdsClassify => e.lds_classify_stub(),
                Stub::DsClassified(s) => e.lds_classified_stub(s),
            }
        });
        l
    }
}

/// The stubs compiled so far for one ISA.
#[derive(Default)]
struct Library {
    addr: HashMap<Stub, u64>,
    /// The mappings, never unmapped: any kernel's code may call into them.
    chunks: Vec<Code>,
}

static LIBRARIES: [Mutex<Option<Library>>; 2] = [Mutex::new(None), Mutex::new(None)];

/// The address of `isa`'s shared copy of `stub`, compiled now if it is the first request.
fn shared(isa: Isa, stub: Stub) -> Result<u64, String> {
    let k = match isa {
        Isa::Avx2 => 0,
        Isa::Avx512 => 1,
    };
    // The map only grows after a whole chunk compiled: a panic elsewhere leaves it whole.
    let mut guard = LIBRARIES[k].lock().unwrap_or_else(PoisonError::into_inner);
    let lib = guard.get_or_insert_with(Library::default);
    if let Some(&a) = lib.addr.get(&stub) {
        return Ok(a);
    }
    let (code, stubs) = super::emit::compile_stub(isa, stub)?;
    let base = code.addr();
    if std::env::var_os("SOFTHSA_JIT_PERFMAP").is_some() {
        let names = stubs.iter().map(|(s, o)| {
            (
                u64::from(*o),
                format!("softhsa_jit_stub_{}_{s:?}", isa.name()),
            )
        });
        super::perf_map_append(base, code.bytes().len() as u64, names.collect());
    }
    if std::env::var("SOFTHSA_JIT_DEBUG").is_ok_and(|v| v == "code") {
        super::dump_code(&code, &format!("stub {stub:?}"));
    }
    for (s, o) in stubs {
        lib.addr.entry(s).or_insert(base + u64::from(o));
    }
    lib.chunks.push(code);
    lib.addr
        .get(&stub)
        .copied()
        .ok_or_else(|| format!("JIT stub {stub:?}: not in its own chunk"))
}

#[cfg(test)]
mod tests {
    use super::super::tests::isas;
    use super::super::tests_mem::{flat, then_endpgm};
    use super::super::JitCode;
    use super::{shared, Stub, VmemShape};

    /// Two kernels with the same access shape call one copy of its stub, compiled once.
    #[test]
    fn kernels_call_one_shared_copy_of_a_stub() {
        let shape = VmemShape {
            load: true,
            dwords: 1,
            pair: true,
            sub: None,
            swizzled: false,
        };
        for isa in isas() {
            let at = shared(isa, Stub::Vmem(shape)).expect("compiles");
            assert_eq!(shared(isa, Stub::Vmem(shape)).expect("compiled"), at);
            // global_load_dword v[dst], v[addr:addr+1], off
            for (addr, dst) in [(2, 4), (6, 9)] {
                let prog = then_endpgm(flat(0x14, 2, addr, 0, 0x7f, dst, 0));
                let jit = JitCode::compile(&prog, 0, false, false, isa).expect("compiles");
                assert_eq!(jit.native, 2, "{isa:?}: the load and s_endpgm translated");
                let code = jit.code.bytes();
                assert!(
                    code.windows(8).any(|w| w == at.to_le_bytes()),
                    "{isa:?}: the kernel calls the shared stub at {at:#x}"
                );
            }
        }
    }
}
