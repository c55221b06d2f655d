//! A kernel's code, decoded once: pre-decoded instructions with resolved operands and branch
//! targets, and an O(1) map from byte address to instruction index.

use crate::exec::int32::Int32;
use crate::exec::operand::{resolve_src, Src, Width};
use crate::exec::vmem::{classify, VmemKind};
use crate::valu::{self, ValuOp};
use softhsa_codeobj::KernelDescriptor;
use softhsa_isa::{Class, Encoding, Gfx, Inst, Op, OpFlags, Operand};

/// "No instruction starts here" in the address map, and "no target" in branches.
pub const NO_INDEX: u32 = u32::MAX;

/// One instruction in execution form.
#[derive(Clone, Debug)]
pub struct XInst {
    pub inst: Inst,
    /// Sources resolved for the op's operand widths.
    pub src: [Src; 4],
    /// Branch/call target (instruction index), or [`NO_INDEX`].
    pub target: u32,
    /// The VALU op, for VOP1/VOP2/VOPC/VOP3/VOP3P ops the gpu-valu module implements.
    pub valu: Option<ValuOp>,
    /// `valu`'s operand facts, cached.
    pub vinfo: Option<valu::OpInfo>,
    /// What a buffer/flat/global/scratch op moves.
    pub vmem: Option<VmemKind>,
    /// Exists on gfx906 only (dot products, fmac...): illegal on a gfx900 device.
    pub gfx906_only: bool,
    /// The 32-bit integer fast path's op, when this instruction qualifies for it.
    pub int32: Option<Int32>,
    /// A matrix-core instruction or AGPR move (`exec::matrix`).
    pub matrix: bool,
}

/// What occupies an instruction slot.
#[derive(Clone, Debug)]
pub enum Slot {
    Ok(Box<XInst>),
    /// Bytes that do not decode (or use a reserved operand): a fault if executed. Holds the
    /// first dword, for the fault report.
    Illegal(u32),
}

/// The decoded text range of a code object.
pub struct Program {
    /// The instruction set it was decoded for.
    pub gfx: Gfx,
    /// Load address of the first byte.
    pub base: u64,
    pub slots: Vec<Slot>,
    /// Byte offset of each slot from `base`.
    pub offsets: Vec<u32>,
    /// Per dword of text: the slot starting there, or [`NO_INDEX`].
    index: Vec<u32>,
    /// The program can set MODE.VSKIP (`s_setvskip`, or `s_setreg*` over MODE bit 28): its
    /// waves run in the interpreter, which skips every vector instruction while VSKIP is set.
    pub uses_vskip: bool,
    /// The program has global wave sync operations (`ds_gws_*`): its waves do not switch in
    /// generated code (`jit/wave_switch.rs`).
    pub uses_gws: bool,
}

impl Program {
    /// Decodes gfx906 `code` (loaded at `base`) in one pass from its start.
    pub fn new(code: &[u8], base: u64) -> Program {
        Program::new_for(code, base, Gfx::Gfx906)
    }

    /// Decodes `code` of instruction set `gfx` (loaded at `base`) in one pass from its start.
    pub fn new_for(code: &[u8], base: u64, gfx: Gfx) -> Program {
        let mut slots = Vec::new();
        let mut offsets = Vec::new();
        let mut index = vec![NO_INDEX; code.len().div_ceil(4)];
        let mut off = 0usize;
        while off + 4 <= code.len() {
            index[off / 4] = slots.len() as u32;
            offsets.push(off as u32);
            match softhsa_isa::decode_for(&code[off..], gfx) {
                Ok(inst) if inst.len >= 4 && off + usize::from(inst.len) <= code.len() => {
                    off += usize::from(inst.len);
                    let raw = code[off - usize::from(inst.len)..]
                        .iter()
                        .take(8)
                        .rev()
                        .fold(0u64, |a, &b| a << 8 | u64::from(b));
                    slots.push(match translate(inst, raw) {
                        Some(x) => Slot::Ok(Box::new(x)),
                        None => Slot::Illegal(first_dword(&code[off - usize::from(inst.len)..])),
                    });
                }
                _ => {
                    off += 4;
                    slots.push(Slot::Illegal(first_dword(&code[off - 4..])));
                }
            }
        }
        let uses_vskip = slots
            .iter()
            .any(|s| matches!(s, Slot::Ok(x) if sets_vskip(&x.inst)));
        let uses_gws = slots
            .iter()
            .any(|s| matches!(s, Slot::Ok(x) if crate::exec::gws::is_gws(x.inst.op)));
        let mut p = Program {
            gfx,
            base,
            slots,
            offsets,
            index,
            uses_vskip,
            uses_gws,
        };
        p.link();
        p
    }

    /// Resolves branch targets to instruction indices.
    fn link(&mut self) {
        for i in 0..self.slots.len() {
            let pc = self.addr(i as u32);
            let t = match &self.slots[i] {
                Slot::Ok(x) => x.inst.branch_target(pc),
                Slot::Illegal(_) => None,
            };
            if let Some(t) = t {
                let idx = self.index_of(t).unwrap_or(NO_INDEX);
                if let Slot::Ok(x) = &mut self.slots[i] {
                    x.target = idx;
                }
            }
        }
    }

    /// Byte address of slot `i`.
    #[inline]
    pub fn addr(&self, i: u32) -> u64 {
        self.base + u64::from(self.offsets.get(i as usize).copied().unwrap_or(u32::MAX))
    }

    /// The slot that starts at byte address `pc`.
    #[inline]
    pub fn index_of(&self, pc: u64) -> Option<u32> {
        let off = pc.checked_sub(self.base)?;
        if off & 3 != 0 {
            return None;
        }
        let i = *self.index.get(usize::try_from(off / 4).ok()?)?;
        (i != NO_INDEX).then_some(i)
    }

    /// Disassembly of slot `i` (for faults and traces).
    pub fn text(&self, i: u32) -> String {
        match self.slots.get(i as usize) {
            Some(Slot::Ok(x)) => x.inst.display(self.addr(i)).to_string(),
            Some(Slot::Illegal(w)) => format!("<illegal: {w:#010x}>"),
            None => String::new(),
        }
    }
}

/// Whether `inst` may set MODE.VSKIP (bit 28 of hardware register 1).
fn sets_vskip(inst: &Inst) -> bool {
    match inst.op {
        Op::S_SETVSKIP => true,
        Op::S_SETREG_B32 | Op::S_SETREG_IMM32_B32 => {
            let simm = inst.imm as u32;
            let (id, off, size) = (simm & 63, (simm >> 6) & 31, ((simm >> 11) & 31) + 1);
            id == 1 && off <= 28 && off + size > 28
        }
        _ => false,
    }
}

fn first_dword(b: &[u8]) -> u32 {
    b.iter()
        .take(4)
        .rev()
        .fold(0, |a, &x| a << 8 | u32::from(x))
}

fn width_of(ty: valu::Ty) -> Width {
    match ty {
        valu::Ty::F64 => Width::B64Float,
        valu::Ty::U64 => Width::B64Int,
        valu::Ty::F16 | valu::Ty::U16 => Width::B16,
        valu::Ty::PkF16 | valu::Ty::PkU16 => Width::Packed16,
        valu::Ty::PkF32 => Width::Packed32,
        valu::Ty::U32 | valu::Ty::F32 => Width::B32,
    }
}

fn is_valu(c: Class) -> bool {
    matches!(
        c,
        Class::Vop1 | Class::Vop2 | Class::Vopc | Class::Vop3 | Class::Vop3p
    )
}

/// Resolves one instruction's operands; `None` if an operand code is reserved. `raw` is the
/// instruction's first 8 bytes (little-endian).
fn translate(mut inst: Inst, raw: u64) -> Option<XInst> {
    let op = inst.op;
    // FLAT atomics with GLC return into VDST (bits 63:56); take it from the encoding when the
    // decoder leaves the slot empty.
    if matches!(op.class(), Class::Flat | Class::Global | Class::Scratch)
        && op.flags().has(softhsa_isa::OpFlags::ATOMIC)
        && inst.dst.is_none()
        && inst.mem_flags().has(softhsa_isa::MemFlags::GLC)
    {
        inst.dst = softhsa_isa::Operand::vgpr((raw >> 56) as u8);
    }
    let valu = if is_valu(op.class()) {
        valu::resolve(op.name())
    } else {
        None
    };
    let info = valu.map(|v| v.info());
    let mai = op.flags().has(OpFlags::MAI);
    if inst.gfx.unified_vgprs() && !aligned(&inst) {
        return None;
    }
    let mut src = [Src::None; 4];
    for (i, s) in src.iter_mut().enumerate() {
        let o = inst.src[i];
        if o.is_none() {
            continue;
        }
        let w = match (&info, i < 3) {
            (Some(info), true) => width_of(info.src[i]),
            // MFMA C as an inline constant: one element of the accumulator's type.
            _ if mai => {
                if op.name().starts_with("v_mfma_f64") {
                    Width::B64Float
                } else {
                    Width::B32
                }
            }
            _ if i < 3 && op.src_dwords(i) == 2 && op.class() != Class::Smem => {
                if op.name().ends_with("_f64") {
                    Width::B64Float
                } else {
                    Width::B64Int
                }
            }
            _ => Width::B32,
        };
        *s = resolve_src(o.raw(), inst.literal, w)?;
    }
    // SDWA/DPP read registers directly; VOP2 carry-in in e32 form names VCC (already a code).
    if matches!(inst.enc, Encoding::Sdwa | Encoding::Dpp) && src[0] == Src::None {
        return None;
    }
    let vmem = match op.class() {
        Class::Mubuf | Class::Flat | Class::Global | Class::Scratch => classify(op.name()),
        Class::Smem if op.flags().has(softhsa_isa::OpFlags::ATOMIC) => classify(op.name()),
        _ => None,
    };
    let int32 = Int32::of(&inst, &src);
    Some(XInst {
        int32,
        inst,
        src,
        target: NO_INDEX,
        valu,
        vinfo: info,
        vmem,
        gfx906_only: !op.on_gfx900(),
        matrix: mai
            || matches!(
                op,
                Op::V_ACCVGPR_READ_B32 | Op::V_ACCVGPR_WRITE_B32 | Op::V_ACCVGPR_MOV_B32
            ),
    })
}

/// gfx90a+: VGPR and AGPR tuples of two or more registers must start at an even register
/// (LLVM decodes others, the hardware does not run them).
fn aligned(inst: &Inst) -> bool {
    let op = inst.op;
    let even =
        |o: Operand, n: u8| n < 2 || o.vgpr_index().or(o.agpr_index()).is_none_or(|r| r % 2 == 0);
    let mem = matches!(
        op.class(),
        Class::Ds | Class::Mubuf | Class::Mtbuf | Class::Flat | Class::Global | Class::Scratch
    );
    let n_dst = if mem && op.flags().has(OpFlags::ATOMIC) {
        op.atomic_return_dwords()
    } else {
        op.dst_dwords()
    };
    let addr = match op.class() {
        Class::Flat => 2,
        Class::Global if inst.src[2].is_none() => 2,
        Class::Mubuf | Class::Mtbuf => {
            let f = inst.mem_flags();
            use softhsa_isa::MemFlags as M;
            if f.has(M::OFFEN) && f.has(M::IDXEN) {
                2
            } else {
                1
            }
        }
        _ if mem => 1,
        _ => op.src_dwords(0),
    };
    even(inst.dst, n_dst)
        && even(inst.src[0], addr)
        && even(inst.src[1], op.src_dwords(1))
        && even(inst.src[2], op.src_dwords(2))
}

/// A loaded kernel, ready to dispatch: decoded once, shared by all its dispatches.
///
/// Aligned to a cache line so that, in an `Arc`, the reference counts (changed by every launch
/// and end of a dispatch, from every queue's thread) sit on a line of their own, not on the one
/// holding the first fields, which every runner reads for every work-group.
#[repr(align(64))]
pub struct Kernel {
    pub name: String,
    pub descriptor: KernelDescriptor,
    /// Address of the kernel descriptor (or amd_kernel_code_t).
    pub descriptor_address: u64,
    /// The decoded code; shared by every kernel of a code object (see [`Kernel::from_program`]).
    pub program: std::sync::Arc<Program>,
    /// Index of the entry instruction.
    pub entry: u32,
    /// The kernel's generated code (compiled at its first dispatch under the JIT).
    pub jit: crate::jit::JitCache,
}

impl Kernel {
    /// Builds a kernel from its descriptor and the loaded code (`code` is loaded at `code_base`
    /// and should cover the whole text range, so calls to other functions resolve).
    pub fn new(
        name: &str,
        descriptor: KernelDescriptor,
        descriptor_address: u64,
        code: &[u8],
        code_base: u64,
    ) -> Result<Kernel, String> {
        Kernel::new_for(
            name,
            descriptor,
            descriptor_address,
            code,
            code_base,
            Gfx::Gfx906,
        )
    }

    /// [`Kernel::new`] for code of instruction set `gfx`.
    pub fn new_for(
        name: &str,
        descriptor: KernelDescriptor,
        descriptor_address: u64,
        code: &[u8],
        code_base: u64,
        gfx: Gfx,
    ) -> Result<Kernel, String> {
        let program = std::sync::Arc::new(Program::new_for(code, code_base, gfx));
        Kernel::from_program(name, descriptor, descriptor_address, program)
    }

    /// Builds a kernel over an already decoded program (decode a code object's text once with
    /// [`Program::new`] and share it among its kernels).
    pub fn from_program(
        name: &str,
        descriptor: KernelDescriptor,
        descriptor_address: u64,
        program: std::sync::Arc<Program>,
    ) -> Result<Kernel, String> {
        let entry_pc = descriptor_address.wrapping_add(descriptor.entry_offset as u64);
        let entry = program
            .index_of(entry_pc)
            .ok_or_else(|| format!("kernel {name}: entry {entry_pc:#x} is not in its code"))?;
        let ids = descriptor.enable_vgpr_workitem_id().min(2) as u8;
        let mode = crate::wave::initial_mode(&descriptor);
        Ok(Kernel {
            name: name.to_string(),
            descriptor,
            descriptor_address,
            program,
            entry,
            jit: crate::jit::JitCache::new(entry, ids, mode),
        })
    }

    /// Entry address.
    pub fn entry_address(&self) -> u64 {
        self.program.addr(self.entry)
    }
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.name)
            .field("entry", &self.entry)
            .finish()
    }
}

/// Whether an op is a VALU op (kept next to `translate` for the interpreter's dispatch).
pub fn op_is_valu(op: Op) -> bool {
    is_valu(op.class())
}
