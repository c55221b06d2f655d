//! The `Op` enum and per-op facts, all generated from the one table in `table.rs`.

/// Instruction class: the native encoding family an op belongs to. VOP1/VOP2/VOPC ops may also
/// appear in VOP3, SDWA and DPP encodings (see [`crate::Encoding`]); the class does not change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    /// VOP3-only ops (no 32-bit form).
    Vop3,
    Vop3p,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Global,
    Scratch,
    Mimg,
    /// Parameter interpolation (graphics).
    Vintrp,
    /// Export (graphics).
    Exp,
}

/// Shape of one operand slot in the table: absent, or `dwords` wide; `scalar` means the slot
/// is a scalar register class (SGPR/constant only, never a VGPR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Width in dwords (0 = slot absent).
    pub dwords: u8,
    /// Scalar-only register class.
    pub scalar: bool,
}

#[allow(non_upper_case_globals, dead_code)]
mod shapes {
    use super::Shape;
    macro_rules! shapes {
        ($($v:ident $s:ident $n:literal)*) => {$(
            pub const $v: Shape = Shape { dwords: $n, scalar: false };
            pub const $s: Shape = Shape { dwords: $n, scalar: true };
        )*};
    }
    shapes!(V1 S1 1 V2 S2 2 V3 S3 3 V4 S4 4 V5 S5 5 V6 S6 6 V8 S8 8 V16 S16 16);
    pub const N: Shape = Shape {
        dwords: 0,
        scalar: false,
    };
}

/// Per-op flags from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OpFlags(pub u32);

impl OpFlags {
    /// Exists on gfx906 only (dot products, fma_mix, v_fmac_f32, v_xnor_b32).
    pub const GFX906: u32 = 1 << 0;
    /// VOP1/VOP2/VOPC op that also has a VOP3 (`_e64`) encoding.
    pub const E64: u32 = 1 << 1;
    /// VOP3b: writes a scalar carry/condition (`Inst::sdst`).
    pub const VOP3B: u32 = 1 << 2;
    /// VOPC that writes EXEC as well as the condition (`v_cmpx_*`).
    pub const CMPX: u32 = 1 << 3;
    /// `v_madmk`/`v_madak`: a mandatory 32-bit literal K follows.
    pub const MADK: u32 = 1 << 4;
    /// Memory load (data in `dst`).
    pub const LOAD: u32 = 1 << 5;
    /// Memory store (data in `src[1]`, or `src[2]` for SMEM).
    pub const STORE: u32 = 1 << 6;
    /// Memory atomic (data in `src[1]`; returns into `dst` when GLC is set).
    pub const ATOMIC: u32 = 1 << 7;
    /// Has an SDWA form.
    pub const SDWA: u32 = 1 << 8;
    /// Has a DPP form.
    pub const DPP: u32 = 1 << 9;
    /// VOP3 op with op_sel (16-bit operand halves; printed as `op_sel:[...]`).
    pub const OPSEL: u32 = 1 << 10;
    /// VOP3 form takes float input modifiers (abs/neg) on its sources.
    pub const FPMODS: u32 = 1 << 11;
    /// Exists on gfx900 only (v_mad_mix*: gfx906 reuses the opcodes for v_fma_mix*).
    pub const GFX900: u32 = 1 << 12;

    /// Whether `bit` (one of the constants above) is set.
    pub const fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
}

macro_rules! define_ops {
    ($($v:ident = ($name:literal, $cls:ident, $opc:literal, $e64:literal, $dst:tt, [$s0:tt, $s1:tt, $s2:tt], $($f:tt)|+, [$($fm:literal),*]),)*) => {
        /// One variant per GFX9 instruction, named after its mnemonic in upper case; the same
        /// variant whatever the encoding it was decoded from.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Op { $($v,)* }

        /// Table rows, indexed by `Op as usize`.
        pub(crate) static INFO: &[OpInfo] = &[$(OpInfo {
            name: $name,
            class: Class::$cls,
            opcode: $opc,
            vop3_opcode: $e64,
            dst: shape!($dst),
            src: [shape!($s0), shape!($s1), shape!($s2)],
            flags: OpFlags($(flag!($f))|+),
            forms: [$($fm),*],
        },)*];

        /// Every op, in table order.
        pub(crate) static ALL: &[Op] = &[$(Op::$v,)*];
    };
}

macro_rules! shape {
    (0) => {
        shapes::N
    };
    ($s:ident) => {
        shapes::$s
    };
}

macro_rules! flag {
    (0) => {
        0
    };
    ($f:ident) => {
        OpFlags::$f
    };
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct OpInfo {
    pub name: &'static str,
    pub class: Class,
    pub opcode: u16,
    pub vop3_opcode: u16,
    pub dst: Shape,
    pub src: [Shape; 3],
    pub flags: OpFlags,
    /// `[base, free]` per form (native, e64, sdwa, dpp).
    pub forms: [u64; 8],
}

crate::for_each_op!(define_ops);

impl Op {
    #[inline]
    pub(crate) fn info(self) -> &'static OpInfo {
        &INFO[self as usize]
    }
    /// Every op of the table.
    pub fn all() -> &'static [Op] {
        ALL
    }
    /// The mnemonic as LLVM spells it, without encoding suffix (`v_add_f32`).
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// The native class of the op.
    pub fn class(self) -> Class {
        self.info().class
    }
    /// Opcode in the native encoding of [`Op::class`].
    pub fn opcode(self) -> u16 {
        self.info().opcode
    }
    /// Opcode in the VOP3 encoding, for VOP1/VOP2/VOPC ops that have one (VOP3-only ops: same as
    /// [`Op::opcode`]).
    pub fn vop3_opcode(self) -> Option<u16> {
        match self.class() {
            Class::Vop3 => Some(self.opcode()),
            _ if self.flags().has(OpFlags::E64) => Some(self.info().vop3_opcode),
            _ => None,
        }
    }
    /// Destination shape: VALU/SALU result, VOPC condition (an SGPR pair in VOP3, VCC in VOP32),
    /// loaded memory data (`dwords` = data size without TFE/D16 packing).
    pub fn dst(self) -> Shape {
        self.info().dst
    }
    /// Source slot `i` (0..3) shape; see `table.rs` for the memory-class slot meanings.
    pub fn src(self, i: usize) -> Shape {
        self.info().src.get(i).copied().unwrap_or(shapes::N)
    }
    /// Width in dwords of the destination (0 when none).
    pub fn dst_dwords(self) -> u8 {
        self.dst().dwords
    }
    /// Width in dwords of source `i` (0 when absent).
    pub fn src_dwords(self, i: usize) -> u8 {
        self.src(i).dwords
    }
    /// Number of source operands present.
    pub fn num_srcs(self) -> usize {
        self.info().src.iter().filter(|s| s.dwords != 0).count()
    }
    /// Table flags.
    pub fn flags(self) -> OpFlags {
        self.info().flags
    }
    /// A `v_cmpx_*`: writes EXEC too.
    pub fn writes_exec(self) -> bool {
        self.flags().has(OpFlags::CMPX)
    }
    /// Memory data size in dwords per address (loads: destination, stores/atomics: data
    /// source; DS read2/write2 move two items of this size), 0 for non-memory ops.
    pub fn mem_dwords(self) -> u8 {
        let f = self.flags();
        if self.class() == Class::Ds {
            let pair = self.name().contains("read2") || self.name().contains("wrxchg2");
            return match self.src_dwords(1) {
                0 if pair => self.dst_dwords() / 2,
                0 => self.dst_dwords(),
                n => n,
            };
        }
        if f.has(OpFlags::LOAD) {
            self.dst_dwords()
        } else if f.has(OpFlags::STORE) && self.class() == Class::Smem {
            self.src_dwords(2)
        } else if f.has(OpFlags::STORE) || f.has(OpFlags::ATOMIC) {
            self.src_dwords(1).max(self.dst_dwords())
        } else {
            0
        }
    }
    /// `(base, free)` bits of one of the op's encodings (`base == 0`: no such form).
    pub(crate) fn form(self, f: crate::decode::Form) -> (u64, u64) {
        let i = f as usize * 2;
        (self.info().forms[i], self.info().forms[i + 1])
    }
    /// Has an SDWA form.
    pub fn has_sdwa(self) -> bool {
        self.flags().has(OpFlags::SDWA)
    }
    /// Has a DPP form.
    pub fn has_dpp(self) -> bool {
        self.flags().has(OpFlags::DPP)
    }
    /// Dwords an atomic returns when GLC is set (cmpswap returns half its data).
    pub fn atomic_return_dwords(self) -> u8 {
        if !self.flags().has(OpFlags::ATOMIC) {
            return 0;
        }
        let d = self.src_dwords(1);
        if self.name().contains("cmpswap") {
            d / 2
        } else {
            d
        }
    }
    /// Available on gfx900 (false for the gfx906-only additions).
    pub fn on_gfx900(self) -> bool {
        !self.flags().has(OpFlags::GFX906)
    }
    /// Available on gfx906 (false for gfx900's v_mad_mix*).
    pub fn on_gfx906(self) -> bool {
        !self.flags().has(OpFlags::GFX900)
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
