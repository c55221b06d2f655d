//! GFX9 (gfx900/gfx906, GCN5 "Vega", wave64) instruction set: ONE table of encodings
//! ([`for_each_op!`], in `table.rs`) drives the [`Op`] enum, the decoder ([`decode`]) and the
//! disassembler ([`Inst::display`]). No execution happens here.
//!
//! Model for users (the interpreter):
//! - [`decode`] turns 4, 8 or 12 bytes into an [`Inst`]: a compact `Copy` value (≤ 48 bytes) with
//!   the [`Op`], the [`Encoding`] it came from, its length, destination and source [`Operand`]s,
//!   VOP modifiers ([`VopMods`]) and format-specific fields ([`Ext`]: SDWA, DPP or memory).
//! - An [`Op`] is the same whatever the encoding (`v_add_f32` from VOP2, VOP3, SDWA or DPP is
//!   `Op::V_ADD_F32`); per-op facts (operand widths, class, memory direction) are methods on `Op`.
//! - [`Operand`] is the raw 9-bit operand code (0..=255 scalar/constant/special, 256..=511 VGPR)
//!   so evaluation is a match on a small integer; the 32-bit literal lives in [`Inst::literal`].
//! - [`decode_for`] takes the processor ([`Gfx`]): gfx906 adds dot/fma_mix/fmac/xnor, and
//!   gfx900 names the fma_mix opcodes `v_mad_mix*`. [`decode`] means gfx906.
//! - [`elf`] lists a whole code object in llvm-objdump's layout (`softhsa disasm`).
//!
//! How validity is decided (what LLVM's decoder accepts is the reference): the table stores for
//! every op and encoding form a valid base encoding and the bits that may vary from it
//! (probed from llvm-objdump); register fields the op uses are then checked by value
//! (`operand_check`: reserved codes, register-file bounds, tuple alignment, specials per width).
//! Not modelled: the VOP3 encodings of `v_interp_*` (decode errors); VINTRP and EXP are.

mod decode;
mod decode_fields;
mod disasm;
mod disasm_memory;
mod disasm_scalar;
mod disasm_vector;
pub mod elf;
mod graphics;
mod inst;
mod op;
mod operand;
mod operand_check;
mod table;

pub use decode::{decode, decode_all, decode_for, DecodeError, Gfx};
pub use disasm::Display;
pub use inst::{Dpp, Encoding, Ext, Inst, Mem, MemFlags, Sdwa, VopMods};
pub use op::{Class, Op, OpFlags, Shape};
pub use operand::Operand;
