//! What the JIT translates: each decoded instruction classified once into the form its
//! lowering emits, with the registers it reads and writes (the plan's hazard analysis uses
//! those), or `None` when the interpreter runs it.

use super::salu::{self, SaluInst};
use crate::exec::int32::Int32;
use crate::exec::operand::Src;
use crate::exec::vmem::VmemKind;
use crate::program::{XInst, NO_INDEX};
use crate::valu::{BitsOp, CmpTy, Cond, CvtOp, FOp, FTy, I16Op, Pk32Op, PkOp, TrOp, ValuOp};
use crate::wave::{EXEC_LO, M0, VCC_LO};
use softhsa_isa::{Encoding, Ext, MemFlags, Op, OpFlags, VopMods};

/// A 32-bit lane operand: a VGPR, an SGPR read as a uniform value, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Opd {
    V(u8),
    S(u8),
    K(u32),
}

impl Opd {
    /// The same value in every lane (an SGPR or a constant).
    pub fn uniform(self) -> bool {
        matches!(self, Opd::S(_) | Opd::K(_))
    }

    /// The operand of a 32-bit source.
    fn of(s: Src) -> Option<Opd> {
        match s {
            Src::V(r) => Some(Opd::V(r)),
            Src::S(i) if usize::from(i) < 128 => Some(Opd::S(i)),
            Src::Imm(v) => Some(Opd::K(v as u32)),
            _ => None,
        }
    }

    /// The (low, high) operands of a 64-bit source.
    fn pair(s: Src) -> Option<[Opd; 2]> {
        match s {
            Src::V(r) if r < 255 => Some([Opd::V(r), Opd::V(r + 1)]),
            Src::S(i) if i < 127 => Some([Opd::S(i), Opd::S(i + 1)]),
            Src::Imm(v) => Some([Opd::K(v as u32), Opd::K((v >> 32) as u32)]),
            _ => None,
        }
    }
}

/// A lane-wise VALU operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LaneOp {
    /// The 32-bit integer set of the interpreter's fast path (carry ops write a mask, cndmask
    /// and carry-in ops read one).
    Int(Int32),
    MulHiI32,
    /// f32 arithmetic: add, sub, subrev, mul, min, max (IEEE mode), fma (src0*src1+src2).
    F32(FOp),
    /// f16 add, sub, subrev, mul on the low halves, the result zero-extended; and
    /// `v_fma_f16` (`FmaKeep16`), which keeps the destination's high half: the destination
    /// is read as source 2's second word (`wide[2]`) (`lane_half.rs`).
    F16(FOp),
    /// `v_sqrt_f16` on the low half, the result zero-extended (`lane_half.rs`).
    SqrtF16,
    /// `v_pk_mov_b32` (gfx90a): source 0 to the destination pair's low dword, source 1 to its
    /// high one (`select` resolved `op_sel` to the dwords they are; `lane_int.rs`).
    PkMov32,
    /// gfx90a's `v_pk_add_f32`, `v_pk_mul_f32`, `v_pk_fma_f32` (`op` Add, Mul or Fma) on
    /// register pairs: half h (0 low, 1 high) of the destination is the f32 op of the dwords
    /// that bit i of `sel[h]` picks of source i (1: its high dword), negated where bit i of
    /// `neg[h]` is set (`valu::packed32`); `hi_first`: the high half is computed first (the
    /// low write would replace a dword it reads). `lane_float.rs`.
    PkF32 {
        op: FOp,
        sel: [u8; 2],
        neg: [u8; 2],
        hi_first: bool,
    },
    /// `v_pack_b32_f16`: the halves that bit i of `op_sel` picks (1: high) of sources 0
    /// (low) and 1 (high), with f16 abs/neg: bits moved, nothing rounded (`lane_half.rs`).
    PackF16 {
        op_sel: u8,
    },
    /// `v_pk_add_f16`, `v_pk_mul_f16`, `v_pk_fma_f16` (`op` Add, Mul or Fma): each half of
    /// the result from the sources' halves that `op_sel` (low) and `op_sel_hi` (high) pick,
    /// negated by `LaneInst::neg` (low) and `neg_hi` (high) (`lane_half.rs`).
    PkF16 {
        op: FOp,
        op_sel: u8,
        op_sel_hi: u8,
        neg_hi: u8,
    },
    /// f64 arithmetic on VGPR pairs: add, mul, fma; and trunc, floor, ceil, rndne.
    F64(FOp),
    /// f32 trunc, floor, ceil, rndne (x86 rounding-immediate modes 3, 1, 2, 0) and fract.
    F32Round(FOp),
    /// Conversions to and from f64: f32 <-> f64, i32 -> f64, u32 -> f64 (AVX-512 only).
    F64Cvt(CvtOp),
    /// A compare writing a lane mask: 16/32-bit integers, f32; 64-bit integers read pairs.
    Cmp(CmpTy, Cond),
    /// 64-bit shifts of the pair in src1 by src0: 0 left, 1 logical right, 2 arithmetic right.
    Shift64(u8),
    /// dst pair = src0 * src1 (32 x 32 bits) + src2 pair; carry-out to `mask_out`.
    Mad64 {
        signed: bool,
    },
    /// f32 conversions from/to 32-bit integers and bytes.
    Cvt(CvtOp),
    /// f32 rcp, sqrt, rsq.
    Trans(TrOp),
    /// f64 rcp, sqrt, rsq on VGPR pairs (`valu::transcendental`: the correctly rounded
    /// f64 operations).
    F64Trans(TrOp),
    /// 16-bit integer ops on the low halves (the result zero-extended).
    Int16(I16Op),
    /// `v_add_u32`, `v_sub_u32`, `v_subrev_u32` (`Int32::Add`, `Sub`, `SubRev`) with clamp:
    /// unsigned saturation (`valu::int::sat_u32`).
    SatU32(Int32),
    /// Bit fields (`valu::bits`): `v_bfe_u32`, `v_bfe_i32`, `v_bfi_b32`, `v_alignbit_b32`,
    /// `v_alignbyte_b32`.
    Bits(BitsOp),
    /// `v_bcnt_u32_b32`: the set bits of src0 plus src1.
    Bcnt,
    /// `v_mbcnt_lo/hi_u32_b32` with src0 = -1, the lane-index idiom: the number of lanes below
    /// this one in the low (`hi`: high) half of the wave, plus src1.
    MbcntAll {
        hi: bool,
    },
    /// `v_mbcnt_lo/hi_u32_b32` with a uniform mask (an SGPR or a constant: a ballot's result):
    /// the mask's bits below this lane in the low (`hi`: high) half, plus src1.
    Mbcnt {
        hi: bool,
    },
    /// An SDWA form of a 32-bit integer op (`v_or_b32_sdwa`, ...): the sources' fields
    /// selected (`LaneInst::sdwa`), the op, then the result placed into field `dst_sel` of the
    /// destination (`exec::lanes::sdwa_place`; `unused` 2 keeps the destination's other bits,
    /// read as source 2).
    IntSdwa {
        op: Int32,
        dst_sel: u8,
        unused: u8,
    },
}

/// One translated lane-wise instruction.
#[derive(Clone, Copy, Debug)]
pub(super) struct LaneInst {
    pub op: LaneOp,
    /// Sources: 32-bit ones in `src[i][0]`, 64-bit ones as (low, high).
    pub src: [[Opd; 2]; 3],
    /// Which sources are 64-bit.
    pub wide: [bool; 3],
    /// Number of sources.
    pub n: usize,
    /// Destination VGPR (a pair for 64-bit results).
    pub dst: Option<u8>,
    pub dst_wide: bool,
    /// Lane mask read (carry-in, select): an SGPR pair.
    pub mask_in: Option<u8>,
    /// Lane mask written (carry-out, compare): an SGPR pair.
    pub mask_out: Option<u8>,
    /// `v_cmpx`: the mask is written to EXEC as well.
    pub writes_exec: bool,
    /// Float source modifiers (bit i: source i).
    pub abs: u8,
    pub neg: u8,
    /// SDWA source selects of an integer compare: (select, sign-extend) of sources 0 and 1
    /// (`exec::lanes::sdwa_select`), applied before the compare.
    pub sdwa: Option<[(u8, bool); 2]>,
}

impl LaneInst {
    /// Whether the op depends on MODE's f32 rounding and denormal fields (and IEEE bit).
    pub fn float(&self) -> bool {
        matches!(
            self.op,
            LaneOp::F32(_)
                | LaneOp::F16(_)
                | LaneOp::SqrtF16
                | LaneOp::PkF16 { .. }
                | LaneOp::PkF32 { .. }
                | LaneOp::F32Round(_)
                | LaneOp::F64(_)
                | LaneOp::F64Cvt(_)
                | LaneOp::Cvt(_)
                | LaneOp::Trans(_)
                | LaneOp::F64Trans(_)
        ) || matches!(self.op, LaneOp::Cmp(t, _) if t.is_float())
    }

    /// Whether the op also depends on MODE's f64 (and f16) rounding and denormal fields.
    pub fn float64(&self) -> bool {
        matches!(
            self.op,
            LaneOp::F64(_)
                | LaneOp::F64Cvt(_)
                | LaneOp::F64Trans(_)
                | LaneOp::Cmp(CmpTy::F64, _)
                // (f16 denormals are in the f64 field.)
                | LaneOp::Cmp(CmpTy::F16, _)
                | LaneOp::Cvt(CvtOp::F32F16 | CvtOp::F16F32)
                | LaneOp::F16(_)
                | LaneOp::SqrtF16
                | LaneOp::PkF16 { .. }
        )
    }

    /// SGPRs read as uniform values.
    pub fn sgpr_values(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.n).flat_map(move |i| {
            let k = if self.wide[i] { 2 } else { 1 };
            self.src[i][..k].iter().filter_map(|o| match o {
                Opd::S(s) => Some(*s),
                _ => None,
            })
        })
    }

    /// VGPRs written.
    pub fn vgpr_writes(&self) -> impl Iterator<Item = u8> {
        let d = self.dst;
        let w = self.dst_wide;
        d.into_iter()
            .chain(d.filter(|_| w).map(|r| r.wrapping_add(1)))
    }
}

/// A scalar memory load (`s_load_dword*`).
#[derive(Clone, Copy, Debug)]
pub(super) struct SmemLoad {
    pub dst: u8,
    pub dwords: u8,
    pub base: u8,
    /// SGPR offset added to the immediate one.
    pub soffset: Option<Src>,
    pub imm: i32,
}

/// A sub-dword access: a byte or a short per lane (`mem_narrow.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct SubDword {
    /// 1 or 2.
    pub bytes: u8,
    /// Loads: sign-extend (`sbyte`, `sshort`, `ds_read_i8`, `ds_read_i16`).
    pub sext: bool,
    /// The 16-bit half of the data VGPR: a load with `Some(hi)` writes only that half and keeps
    /// the other (`_d16`, `_d16_hi`); a store with `Some(true)` stores from the high half
    /// (`_d16_hi`). `None`: a load writes the whole dword, a store takes the low bits.
    pub d16: Option<bool>,
}

/// A vector memory access the JIT runs natively: global/flat loads and stores of dwords or
/// of a byte or short per lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct VmemInst {
    pub load: bool,
    /// Dwords per lane (1 for a sub-dword access).
    pub dwords: u8,
    /// A byte or short per lane.
    pub sub: Option<SubDword>,
    /// Address VGPR (a pair, or the 32-bit offset with `saddr`).
    pub vaddr: u8,
    /// SGPR pair base (global `saddr` form).
    pub saddr: Option<u8>,
    pub offset: i32,
    /// Data (stores) or destination (loads) VGPR. (FLAT addresses in the LDS aperture, and
    /// scratch addresses other than one dword-aligned address for all lanes, fail the range
    /// check, so the interpreter routes those.)
    pub data: u8,
    /// A MUBUF access (`mem_buffer.rs`): `vaddr` is its per-lane offset (with OFFEN) and
    /// `offset` its immediate one.
    pub buf: Option<BufAddr>,
    /// A FLAT access: its lanes may address the private or shared aperture.
    pub flat: bool,
}

/// How a MUBUF access the JIT runs natively finds its V# and offsets.
#[derive(Clone, Copy, Debug)]
pub(super) struct BufAddr {
    /// First SGPR of the V#.
    pub rsrc: u8,
    /// `soffset`: an SGPR or a constant.
    pub soffset: Src,
    /// OFFEN: each lane adds its `vaddr` VGPR to the immediate offset.
    pub offen: bool,
}

/// An LDS access the JIT runs natively.
#[derive(Clone, Copy, Debug)]
pub(super) struct DsInst {
    pub load: bool,
    /// 1 or 2 dwords per address (3 or 4: `b96`, `b128`; 1 for a sub-dword access).
    pub dwords: u8,
    /// A byte or short per lane (`ds_read_u8`, `ds_write_b16`, ...).
    pub sub: Option<SubDword>,
    /// read2/write2: a second address at `offset1`.
    pub two: bool,
    pub addr: u8,
    pub data0: u8,
    pub data1: u8,
    pub dst: u8,
    /// Byte offsets of the one or two accesses.
    pub offset0: u32,
    pub offset1: u32,
}

/// A global atomic the JIT runs natively (`mem_atomic.rs`): the integer operations of 32 or
/// 64 bits, with or without the old value returned (GLC).
#[derive(Clone, Copy, Debug)]
pub(super) struct VAtomic {
    /// The operation (`mem_atomic::rmw_code`).
    pub op: u8,
    pub wide: bool,
    pub rtn: bool,
    /// Address VGPR (a pair, or the 32-bit offset with `saddr`).
    pub vaddr: u8,
    /// SGPR pair base (the `saddr` form).
    pub saddr: Option<u8>,
    pub offset: i32,
    /// The data VGPR(s): {new value, compare value} for compare-and-swap.
    pub data: u8,
    pub dst: u8,
}

impl VAtomic {
    /// VGPRs per value.
    pub fn regs(&self) -> u8 {
        if self.wide {
            2
        } else {
            1
        }
    }

    /// The data VGPRs read: one value, two for compare-and-swap.
    pub fn data_regs(&self) -> u8 {
        self.regs()
            * if self.op == super::mem_lds_atomic::CMPSWAP {
                2
            } else {
                1
            }
    }
}

/// An LDS atomic the JIT runs natively (`mem_lds_atomic.rs`): the integer read-modify-writes
/// of 32 or 64 bits, with or without the old value returned.
#[derive(Clone, Copy, Debug)]
pub(super) struct DsAtomic {
    /// The operation: the low five bits of the GFX9 DS opcode (`exec::ds::atomic`'s `a`).
    pub op: u8,
    /// 64-bit (`_b64`, `_u64`, `_i64`): each operand a VGPR pair.
    pub wide: bool,
    /// `_rtn`: the old value goes to `dst`.
    pub rtn: bool,
    pub addr: u8,
    pub data0: u8,
    /// `ds_mskor`'s or `ds_cmpst`'s second operand (else unused).
    pub data1: u8,
    pub dst: u8,
    /// The byte offset (16 bits).
    pub offset: u32,
}

impl DsAtomic {
    /// Whether the operation reads `data1`.
    pub fn reads_data1(&self) -> bool {
        super::mem_lds_atomic::reads_data1(self.op)
    }

    /// VGPRs per operand.
    pub fn regs(&self) -> u8 {
        if self.wide {
            2
        } else {
            1
        }
    }
}

/// Wave-wide lane ops.
#[derive(Clone, Copy, Debug)]
pub(super) enum WaveOp {
    /// `v_readfirstlane_b32`: SGPR `dst` = `src` of the first active lane.
    ReadFirst { dst: u8, src: u8 },
    /// `v_readlane_b32`: SGPR `dst` = `src` of lane `lane & 63`.
    Read { dst: u8, src: u8, lane: Src },
    /// `v_writelane_b32`: lane `lane & 63` of VGPR `dst` = the scalar `src`, whatever EXEC
    /// (SGPR spills at -O0 and in large kernels).
    Write { dst: u8, src: Src, lane: Src },
    /// `ds_bpermute_b32`: lane l of VGPR `dst` (active lanes) = lane ((`addr`[l] + `off`) / 4)
    /// % 64 of `data`, 0 when that lane is inactive.
    Bpermute {
        dst: u8,
        addr: u8,
        data: u8,
        off: u32,
    },
    /// `v_mov_b32_dpp`: VGPR `dst` = VGPR `src` moved across lanes by DPP control `ctrl`
    /// under its row and bank masks and `bound_ctrl`; with `op`, an integer op's DPP form
    /// (`v_add_u32_dpp`, `v_or_b32_dpp`, ...): `dst` = op(the moved value, VGPR `op.1`) in
    /// the lanes the move writes.
    DppMov {
        dst: u8,
        src: u8,
        op: Option<(Int32, u8)>,
        ctrl: u16,
        row_mask: u8,
        bank_mask: u8,
        bound_ctrl: bool,
    },
    /// `v_perm_b32`: VGPR `dst` (active lanes) = bytes of VGPRs `src0`, `src1` picked by the
    /// uniform selector `sel` (`lane_perm.rs`).
    Perm {
        dst: u8,
        src0: u8,
        src1: u8,
        sel: Src,
    },
    /// A step of LLVM's f32 or (`wide`) f64 division (`v_div_scale`, `v_div_fmas`,
    /// `v_div_fixup`) into VGPR (pair) `dst`, `v_div_scale`'s flags into the pair `mask`;
    /// sources VGPRs, SGPRs or constants, without modifiers (`lane_div.rs`). `fma`: the
    /// fma an f64 `v_div_fmas` is in lanes whose VCC bit is clear.
    Div {
        step: DivStep,
        wide: bool,
        dst: u8,
        mask: u8,
        src: [Src; 3],
        fma: Option<LaneInst>,
    },
    /// `v_ldexp_f32` or (`wide`) `v_ldexp_f64` without modifiers (`lane_div.rs`): VGPR
    /// (pair) `dst` = src0 * 2^src1.
    Ldexp { dst: u8, src: [Src; 2], wide: bool },
    /// `v_frexp_mant` (`mant`) or `v_frexp_exp_i32` of an f32 or (`wide`) f64 source without
    /// modifiers (`lane_div.rs`) into VGPR (pair) `dst`.
    Frexp {
        dst: u8,
        src: Src,
        wide: bool,
        mant: bool,
        /// The source's abs and neg modifiers (VOP3).
        abs: bool,
        neg: bool,
    },
    /// `v_exp_f32` or (`log`) `v_log_f32` without modifiers (`lane_explog.rs`) into VGPR
    /// `dst`.
    ExpLog { dst: u8, src: Src, log: bool },
}

/// The f32 division helpers [`WaveOp::Div`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DivStep {
    Scale,
    Fmas,
    Fixup,
}

impl WaveOp {
    /// Whether its lowering assumes the float mode a block's guard checks (`Block::float`).
    pub fn float(&self) -> bool {
        matches!(
            self,
            WaveOp::Div { .. }
                | WaveOp::Ldexp { .. }
                | WaveOp::Frexp { .. }
                | WaveOp::ExpLog { .. }
        )
    }

    /// ... and the f64 fields of MODE (`Block::float64`).
    pub fn float64(&self) -> bool {
        matches!(
            self,
            WaveOp::Div { wide: true, .. }
                | WaveOp::Ldexp { wide: true, .. }
                | WaveOp::Frexp { wide: true, .. }
        )
    }
}

/// Branch conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cond2 {
    Always,
    Scc(bool),
    /// Taken when (VCC == 0) == the flag.
    VccZ(bool),
    /// Taken when (EXEC == 0) == the flag.
    ExecZ(bool),
}

/// The native form of an instruction.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Lane(LaneInst),
    Salu(SaluInst),
    Smem(SmemLoad),
    Vmem(VmemInst),
    Ds(DsInst),
    DsAtomic(DsAtomic),
    VAtomic(VAtomic),
    Wave(WaveOp),
    Branch(Cond2),
    /// `s_waitcnt` with this SIMM16.
    Waitcnt(u16),
    Nop,
    /// `s_endpgm`.
    End,
    /// `s_barrier`.
    Barrier,
    /// `s_setpc_b64` (`save`: None) or `s_swappc_b64` (`save`: its pair and the return
    /// address): a jump to the address in SGPR pair `src`, which leaves the generated code.
    JumpAddr {
        src: u8,
        save: Option<u8>,
    },
}

impl Kind {
    /// Whether a wave-wide item may run before a segment's earlier lane ops (if it neither
    /// reads nor writes what lane ops touch, checked by the plan). Only what cannot fault: a
    /// fault must find every earlier instruction done and no later one.
    pub fn scalar(&self) -> bool {
        matches!(self, Kind::Salu(_) | Kind::Waitcnt(_) | Kind::Nop)
    }
}

/// Classifies `x` (`gfx900`: the device lacks gfx906-only ops, which the interpreter faults
/// on). `None`: the interpreter runs it. The same on both ISAs: every lowering has an AVX2
/// and an AVX-512 form.
pub(super) fn select(x: &XInst, gfx900: bool) -> Option<Kind> {
    if x.gfx906_only && gfx900 {
        return None;
    }
    match x.inst.enc {
        Encoding::Sop1 if matches!(x.inst.op, Op::S_SETPC_B64 | Op::S_SWAPPC_B64) => {
            let src = match x.src[0] {
                Src::S(s) if s < 101 => s,
                _ => return None,
            };
            let save = (x.inst.op == Op::S_SWAPPC_B64).then(|| (x.inst.dst.raw() & 127) as u8);
            if save.is_some_and(|d| d >= 101) {
                return None;
            }
            Some(Kind::JumpAddr { src, save })
        }
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc | Encoding::Sopk => {
            salu::select(x).map(Kind::Salu)
        }
        Encoding::Sopp => sopp(x),
        Encoding::Smem => smem(x).map(Kind::Smem),
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Sdwa => {
            lane(x).map(Kind::Lane).or_else(|| wave(x).map(Kind::Wave))
        }
        // (Of VOP3P, only the packed f16 adds, multiplies and fmas and gfx90a's packed f32
        // ops have a lowering.)
        Encoding::Vop3p
            if matches!(
                x.valu,
                Some(ValuOp::Pk(PkOp::AddF16 | PkOp::MulF16 | PkOp::FmaF16))
                    | Some(ValuOp::Pk32(_))
            ) =>
        {
            lane(x).map(Kind::Lane)
        }
        Encoding::Global => vmem(x)
            .map(Kind::Vmem)
            .or_else(|| vatomic(x).map(Kind::VAtomic)),
        Encoding::Flat => vmem(x)
            .map(Kind::Vmem)
            .or_else(|| vatomic(x).map(Kind::VAtomic)),
        // buffer_wbinvl1(_vol) and the other cache maintenance: an ordering point that needs
        // no host instruction (docs/MEMORY_MODEL.md; the interpreter's `fence(AcqRel)` only
        // keeps the Rust compiler from moving accesses across it, and generated code is
        // emitted in program order).
        Encoding::Mubuf if x.vmem == Some(VmemKind::Fence) => Some(Kind::Nop),
        Encoding::Mubuf => buffer(x).map(Kind::Vmem),
        Encoding::Ds if x.inst.op == Op::DS_BPERMUTE_B32 => bpermute(x).map(Kind::Wave),
        Encoding::Dpp => dpp_mov(x).map(Kind::Wave),
        Encoding::Ds => ds(x)
            .map(Kind::Ds)
            .or_else(|| ds_atomic(x).map(Kind::DsAtomic)),
        _ => None,
    }
}

fn sopp(x: &XInst) -> Option<Kind> {
    let k = match x.inst.op {
        Op::S_BRANCH => Kind::Branch(Cond2::Always),
        Op::S_CBRANCH_SCC0 => Kind::Branch(Cond2::Scc(false)),
        Op::S_CBRANCH_SCC1 => Kind::Branch(Cond2::Scc(true)),
        Op::S_CBRANCH_VCCZ => Kind::Branch(Cond2::VccZ(true)),
        Op::S_CBRANCH_VCCNZ => Kind::Branch(Cond2::VccZ(false)),
        Op::S_CBRANCH_EXECZ => Kind::Branch(Cond2::ExecZ(true)),
        Op::S_CBRANCH_EXECNZ => Kind::Branch(Cond2::ExecZ(false)),
        Op::S_NOP => Kind::Nop,
        Op::S_WAITCNT => Kind::Waitcnt(x.inst.imm as u16),
        Op::S_ENDPGM => Kind::End,
        Op::S_BARRIER => Kind::Barrier,
        _ => return None,
    };
    // A branch to nowhere faults in the interpreter.
    if matches!(k, Kind::Branch(_)) && x.target == NO_INDEX {
        return None;
    }
    Some(k)
}

fn plain(x: &XInst) -> bool {
    matches!(x.inst.ext, Ext::None)
}

/// The lane mask a VOP3 op names in `sdst`/`dst`, or VCC for the 32-bit encodings; `None`
/// for a name the JIT does not handle (EXEC, a pair past s127, constants).
fn mask_reg(x: &XInst, named: softhsa_isa::Operand) -> Option<u8> {
    // VOP3 names its pair; an SDWA compare names one or means VCC; other forms mean VCC.
    let named_pair = match x.inst.enc {
        Encoding::Vop3 => true,
        Encoding::Sdwa => !named.is_none(),
        _ => false,
    };
    if !named_pair {
        return Some(VCC_LO as u8);
    }
    let i = named.sgpr_index()?;
    (!named.is_none() && usize::from(i) < EXEC_LO && usize::from(i) + 1 != M0).then_some(i)
}

/// An SDWA integer compare (`v_cmp*_{i,u}{16,32}_sdwa`) into VCC or an SGPR pair.
fn sdwa_compare(x: &XInst, mut li: LaneInst, sel: [(u8, bool); 2]) -> Option<LaneInst> {
    let ValuOp::Cmp(c) = x.valu? else {
        return None;
    };
    let int = matches!(c.ty, CmpTy::I16 | CmpTy::U16 | CmpTy::I32 | CmpTy::U32);
    if !int || c.cond == Cond::Class || x.inst.mods != VopMods::default() {
        return None;
    }
    for i in 0..2 {
        li.src[i][0] = Opd::of(x.src[i])?;
    }
    li.n = 2;
    li.dst = None;
    li.op = LaneOp::Cmp(c.ty, c.cond);
    li.writes_exec = c.x;
    li.mask_out = Some(mask_reg(x, x.inst.dst)?);
    li.sdwa = Some(sel);
    Some(li)
}

/// `v_cvt_f32_f16_sdwa` of a half (`WORD_0`/`WORD_1`) or the low half of the whole source
/// into the whole destination, without modifiers (`__half22float2`'s high half): the
/// selected half converted (`lane_conv.rs`).
fn sdwa_cvt_f32_f16(x: &XInst, mut li: LaneInst, sel: [(u8, bool); 2]) -> Option<LaneInst> {
    let Ext::Sdwa(s) = x.inst.ext else {
        return None;
    };
    if x.inst.mods != VopMods::default() || s.dst_sel != 6 || !(4..=6).contains(&sel[0].0) {
        return None;
    }
    li.dst?;
    li.src[0][0] = Opd::of(x.src[0])?;
    li.n = 1;
    li.op = LaneOp::Cvt(CvtOp::F32F16);
    li.sdwa = Some(sel);
    Some(li)
}

/// The SDWA form of a 32-bit integer op without lane masks (`v_or_b32_sdwa`, ...).
fn sdwa_int(x: &XInst, mut li: LaneInst, sel: [(u8, bool); 2]) -> Option<LaneInst> {
    use Int32::*;
    let Ext::Sdwa(s) = x.inst.ext else {
        return None;
    };
    let op = Int32::named(x.inst.op.name())?;
    let n = match op {
        Mov | Not => 1,
        Add | Sub | SubRev | And | Or | Xor | LshlRev | LshrRev | AshrRev | MinU | MaxU | MinI
        | MaxI => 2,
        _ => return None,
    };
    if x.inst.mods != VopMods::default() || s.dst_sel > 6 || s.dst_unused > 2 {
        return None;
    }
    let d = li.dst?;
    for i in 0..n {
        li.src[i][0] = Opd::of(x.src[i])?;
    }
    li.n = n;
    if n == 1 {
        li.src[1][0] = Opd::K(0);
    }
    if s.dst_unused == 2 && s.dst_sel != 6 {
        // The destination's other bits are kept: it is read.
        li.src[2][0] = Opd::V(d);
        li.n = 3;
    }
    li.sdwa = Some(sel);
    li.op = LaneOp::IntSdwa {
        op,
        dst_sel: s.dst_sel,
        unused: s.dst_unused,
    };
    Some(li)
}

fn lane(x: &XInst) -> Option<LaneInst> {
    // SDWA: integer compares only, their sources' fields selected first.
    let sdwa = match x.inst.ext {
        Ext::None => None,
        Ext::Sdwa(s) if x.inst.enc == Encoding::Sdwa => {
            Some([(s.src0_sel, s.sext & 1 != 0), (s.src1_sel, s.sext & 2 != 0)])
        }
        _ => return None,
    };
    let mods = x.inst.mods;
    let no_mods = mods == VopMods::default();
    let mut li = LaneInst {
        op: LaneOp::Int(Int32::Mov),
        src: [[Opd::K(0); 2]; 3],
        wide: [false; 3],
        n: 0,
        dst: x.inst.dst.vgpr_index(),
        dst_wide: false,
        mask_in: None,
        mask_out: None,
        writes_exec: false,
        abs: 0,
        neg: 0,
        sdwa: None,
    };
    if let Some(sel) = sdwa {
        return match x.valu? {
            ValuOp::Cmp(_) => sdwa_compare(x, li, sel),
            ValuOp::Cvt(CvtOp::F32F16) => sdwa_cvt_f32_f16(x, li, sel),
            _ => sdwa_int(x, li, sel),
        };
    }
    let src32 = |li: &mut LaneInst, n: usize| -> Option<()> {
        for i in 0..n {
            li.src[i][0] = Opd::of(x.src[i])?;
        }
        li.n = n;
        Some(())
    };
    // A one-source f32 op with abs/neg on its source (no clamp or output modifier).
    let float_unary = |mut li: LaneInst, op: LaneOp| -> Option<LaneInst> {
        if mods.clamp || mods.omod != 0 || li.dst.is_none() {
            return None;
        }
        src32(&mut li, 1)?;
        li.op = op;
        li.abs = mods.abs & 1;
        li.neg = mods.neg & 1;
        Some(li)
    };
    // VOP3 cndmask takes f32 abs/neg modifiers on its two sources (`valu::int`); the
    // interpreter's fast path (`x.int32`) leaves it out.
    let sign_mods = VopMods {
        abs: mods.abs & 3,
        neg: mods.neg & 3,
        ..VopMods::default()
    };
    let cnd_mods = x.inst.op == Op::V_CNDMASK_B32 && plain(x) && mods == sign_mods;
    let int32 = x.int32.or(cnd_mods.then_some(Int32::Cndmask));
    if let Some(op) = int32 {
        if !(no_mods || cnd_mods) || li.dst.is_none() {
            return None;
        }
        li.abs = mods.abs & 3;
        li.neg = mods.neg & 3;
        let n = if op.reads_mask() { 2 } else { op.arity() };
        src32(&mut li, n)?;
        li.op = LaneOp::Int(op);
        if op.reads_mask() {
            li.mask_in = match x.src[2] {
                Src::None => Some(VCC_LO as u8),
                Src::S(i) if usize::from(i) < EXEC_LO && usize::from(i) + 1 != M0 => Some(i),
                _ => return None,
            };
        }
        if op.writes_carry() {
            li.mask_out = Some(mask_reg(x, x.inst.sdst)?);
        }
        return Some(li);
    }
    match x.valu? {
        ValuOp::Int(crate::valu::IntOp::MulHiI32) if no_mods && li.dst.is_some() => {
            src32(&mut li, 2)?;
            li.op = LaneOp::MulHiI32;
            Some(li)
        }
        ValuOp::Float(
            op @ (FOp::Trunc | FOp::Floor | FOp::Ceil | FOp::Rndne | FOp::Fract),
            FTy::F32,
        ) => float_unary(li, LaneOp::F32Round(op)),
        ValuOp::Float(op, FTy::F32) => {
            let n = match op {
                FOp::Add | FOp::Sub | FOp::SubRev | FOp::Mul | FOp::Min | FOp::Max => 2,
                FOp::Fma => 3,
                _ => return None,
            };
            if mods.clamp || mods.omod != 0 || li.dst.is_none() {
                return None;
            }
            // v_fmac (VOP2 or VOP3): the accumulator is the destination.
            let fmac = n == 3 && x.src[2] == Src::None;
            src32(&mut li, if fmac { 2 } else { n })?;
            if fmac {
                li.src[2][0] = Opd::V(li.dst?);
                li.n = 3;
            }
            li.op = LaneOp::F32(op);
            li.abs = mods.abs & 7;
            li.neg = mods.neg & 7;
            Some(li)
        }
        // (No op_sel.)
        ValuOp::Float(op @ (FOp::Add | FOp::Sub | FOp::SubRev | FOp::Mul), FTy::F16) => {
            if mods.clamp || mods.omod != 0 || mods.op_sel != 0 || li.dst.is_none() {
                return None;
            }
            src32(&mut li, 2)?;
            li.op = LaneOp::F16(op);
            li.abs = mods.abs & 3;
            li.neg = mods.neg & 3;
            Some(li)
        }
        ValuOp::Float(FOp::FmaKeep16, FTy::F16) => {
            if mods.clamp || mods.omod != 0 || mods.op_sel != 0 {
                return None;
            }
            let d = li.dst?;
            src32(&mut li, 3)?;
            li.src[2][1] = Opd::V(d);
            li.wide[2] = true;
            li.op = LaneOp::F16(FOp::FmaKeep16);
            li.abs = mods.abs & 7;
            li.neg = mods.neg & 7;
            Some(li)
        }
        ValuOp::Pk32(p @ (Pk32Op::Add | Pk32Op::Mul | Pk32Op::Fma)) => {
            let d = li.dst?;
            if mods.clamp || d == 255 {
                return None;
            }
            let (op, n) = match p {
                Pk32Op::Add => (FOp::Add, 2),
                Pk32Op::Mul => (FOp::Mul, 2),
                _ => (FOp::Fma, 3),
            };
            for i in 0..n {
                li.src[i] = Opd::pair(x.src[i])?;
                li.wide[i] = true;
            }
            li.n = n;
            li.dst_wide = true;
            let sel = [mods.op_sel, mods.op_sel_hi];
            // Whether half h reads dword `r` of the destination pair.
            let reads = |h: usize, r: u8| {
                (0..n).any(|i| li.src[i][usize::from(sel[h] >> i & 1)] == Opd::V(d.wrapping_add(r)))
            };
            let hi_first = reads(1, 0);
            if hi_first && reads(0, 1) {
                return None; // each half reads what the other writes
            }
            li.op = LaneOp::PkF32 {
                op,
                sel,
                neg: [mods.neg, mods.neg_hi],
                hi_first,
            };
            Some(li)
        }
        // gfx90a's 64-bit move: the dword `op_sel` bit i picks of source i to half i of the
        // destination pair (`valu::packed32`, which reads no other modifier).
        ValuOp::Pk32(Pk32Op::Mov) => {
            if li.dst? == 255 {
                return None;
            }
            for i in 0..2 {
                li.src[i][0] = Opd::pair(x.src[i])?[usize::from(mods.op_sel >> i & 1)];
            }
            li.n = 2;
            li.dst_wide = true;
            li.op = LaneOp::PkMov32;
            Some(li)
        }
        ValuOp::Pk(p @ (PkOp::AddF16 | PkOp::MulF16 | PkOp::FmaF16)) => {
            if mods.clamp || li.dst.is_none() {
                return None;
            }
            let (op, n) = match p {
                PkOp::AddF16 => (FOp::Add, 2),
                PkOp::MulF16 => (FOp::Mul, 2),
                _ => (FOp::Fma, 3),
            };
            src32(&mut li, n)?;
            let m = (1u8 << n) - 1;
            li.op = LaneOp::PkF16 {
                op,
                op_sel: mods.op_sel & m,
                op_sel_hi: mods.op_sel_hi & m,
                neg_hi: mods.neg_hi & m,
            };
            li.neg = mods.neg & m;
            Some(li)
        }
        ValuOp::Bits(
            op @ (BitsOp::BfeU32
            | BitsOp::BfeI32
            | BitsOp::Bfi
            | BitsOp::Alignbit
            | BitsOp::Alignbyte
            | BitsOp::Bfrev
            | BitsOp::FfbhU32
            | BitsOp::FfblB32
            | BitsOp::FfbhI32),
        ) => {
            if !no_mods || li.dst.is_none() {
                return None;
            }
            src32(&mut li, usize::from(op.num_src()))?;
            li.op = LaneOp::Bits(op);
            Some(li)
        }
        ValuOp::Float(
            op @ (FOp::Add
            | FOp::Mul
            | FOp::Fma
            | FOp::Min
            | FOp::Max
            | FOp::Trunc
            | FOp::Floor
            | FOp::Ceil
            | FOp::Rndne
            | FOp::Fract),
            FTy::F64,
        ) => {
            let binary = matches!(op, FOp::Add | FOp::Mul | FOp::Fma | FOp::Min | FOp::Max);
            // gfx90a's `v_fmac_f64` (VOP2, or VOP3 without a third source): the accumulator
            // is the destination pair.
            let fmac = op == FOp::Fma && x.src[2] == Src::None;
            if mods.clamp
                || mods.omod != 0
                || li.dst.is_none()
                || (binary
                    && x.inst.enc != Encoding::Vop3
                    && !(fmac && x.inst.enc == Encoding::Vop2))
            {
                return None;
            }
            li.n = match op {
                FOp::Fma => 3,
                FOp::Add | FOp::Mul | FOp::Min | FOp::Max => 2,
                _ => 1,
            };
            for i in 0..li.n {
                li.src[i] = match (i, fmac) {
                    (2, true) => Opd::pair(Src::V(li.dst?))?,
                    _ => Opd::pair(x.src[i])?,
                };
                li.wide[i] = true;
            }
            if li.dst? == 255 {
                return None;
            }
            li.dst_wide = true;
            li.op = LaneOp::F64(op);
            li.abs = mods.abs & 7;
            li.neg = mods.neg & 7;
            Some(li)
        }
        ValuOp::Int16(op) => {
            use I16Op::*;
            let ok = matches!(
                op,
                AddU16
                    | SubU16
                    | SubrevU16
                    | MulLoU16
                    | LshlrevB16
                    | LshrrevB16
                    | AshrrevI16
                    | MaxU16
                    | MinU16
                    | MaxI16
                    | MinI16
                    | MadU16
                    | MadI16
            );
            if !ok || !no_mods || li.dst.is_none() {
                return None;
            }
            src32(&mut li, if matches!(op, MadU16 | MadI16) { 3 } else { 2 })?;
            li.op = LaneOp::Int16(op);
            Some(li)
        }
        ValuOp::Cvt(
            op @ (CvtOp::F32F64
            | CvtOp::F64F32
            | CvtOp::F64I32
            | CvtOp::F64U32
            | CvtOp::I32F64
            | CvtOp::U32F64),
        ) => {
            let from_f64 = matches!(op, CvtOp::F32F64 | CvtOp::I32F64 | CvtOp::U32F64);
            let float_src = from_f64 || op == CvtOp::F64F32;
            if mods.clamp || mods.omod != 0 || (!float_src && !no_mods) || li.dst? == 255 {
                return None;
            }
            if from_f64 {
                li.src[0] = Opd::pair(x.src[0])?;
                li.wide[0] = true;
            } else {
                li.src[0][0] = Opd::of(x.src[0])?;
                li.dst_wide = true;
            }
            li.n = 1;
            li.op = LaneOp::F64Cvt(op);
            li.abs = mods.abs & 1;
            li.neg = mods.neg & 1;
            Some(li)
        }
        ValuOp::Cvt(CvtOp::PackB32F16) => {
            if mods.clamp || mods.omod != 0 || li.dst.is_none() {
                return None;
            }
            src32(&mut li, 2)?;
            li.op = LaneOp::PackF16 {
                op_sel: mods.op_sel & 3,
            };
            li.abs = mods.abs & 3;
            li.neg = mods.neg & 3;
            Some(li)
        }
        ValuOp::Cvt(op) => {
            let float_src = match op {
                CvtOp::F32I32 | CvtOp::F32U32 | CvtOp::F32Ubyte(_) => false,
                // (No modifiers or op_sel.)
                CvtOp::F32F16 => false,
                // (abs/neg, no op_sel.)
                CvtOp::F16F32 if mods.op_sel == 0 => true,
                CvtOp::I32F32 => true,
                CvtOp::U32F32 => true,
                _ => return None,
            };
            if mods.clamp || mods.omod != 0 || (!float_src && !no_mods) || li.dst.is_none() {
                return None;
            }
            src32(&mut li, 1)?;
            li.op = LaneOp::Cvt(op);
            li.abs = mods.abs & 1;
            li.neg = mods.neg & 1;
            Some(li)
        }
        ValuOp::Trans(TrOp::Sqrt, FTy::F16) if mods.op_sel == 0 => float_unary(li, LaneOp::SqrtF16),
        ValuOp::Trans(op @ (TrOp::Rcp | TrOp::Sqrt | TrOp::Rsq), FTy::F32) => {
            float_unary(li, LaneOp::Trans(op))
        }
        ValuOp::Trans(op @ (TrOp::Rcp | TrOp::Sqrt | TrOp::Rsq), FTy::F64) => {
            if mods.clamp || mods.omod != 0 || li.dst? == 255 {
                return None;
            }
            li.n = 1;
            li.src[0] = Opd::pair(x.src[0])?;
            li.wide[0] = true;
            li.dst_wide = true;
            li.op = LaneOp::F64Trans(op);
            li.abs = mods.abs & 1;
            li.neg = mods.neg & 1;
            Some(li)
        }
        ValuOp::Cmp(c) => {
            let ok_ty = matches!(
                c.ty,
                CmpTy::I16
                    | CmpTy::U16
                    | CmpTy::I32
                    | CmpTy::U32
                    | CmpTy::F16
                    | CmpTy::F32
                    | CmpTy::F64
                    | CmpTy::I64
                    | CmpTy::U64
            );
            let class = c.cond == Cond::Class;
            if !ok_ty || (class && !matches!(c.ty, CmpTy::F32 | CmpTy::F64)) {
                return None;
            }
            let float = matches!(c.ty, CmpTy::F16 | CmpTy::F32 | CmpTy::F64);
            // (An f16 compare reads its sources' low halves: no op_sel.)
            if mods.clamp || mods.omod != 0 || (!float && !no_mods) || mods.op_sel != 0 {
                return None;
            }
            let wide = matches!(c.ty, CmpTy::I64 | CmpTy::U64 | CmpTy::F64);
            for i in 0..2 {
                // (`v_cmp_class`'s src1 is a 32-bit class mask.)
                if wide && !(class && i == 1) {
                    li.src[i] = Opd::pair(x.src[i])?;
                    li.wide[i] = true;
                } else {
                    li.src[i][0] = Opd::of(x.src[i])?;
                }
            }
            li.n = 2;
            li.dst = None;
            li.op = LaneOp::Cmp(c.ty, c.cond);
            li.abs = mods.abs & 3;
            li.neg = mods.neg & 3;
            li.writes_exec = c.x;
            li.mask_out = Some(mask_reg(x, x.inst.dst)?);
            Some(li)
        }
        ValuOp::Int(io) => {
            use crate::valu::IntOp;
            let clamp_only = VopMods {
                clamp: true,
                ..VopMods::default()
            };
            if mods == clamp_only && li.dst.is_some() {
                let op = match io {
                    IntOp::AddU32 => Int32::Add,
                    IntOp::SubU32 => Int32::Sub,
                    IntOp::SubrevU32 => Int32::SubRev,
                    _ => return None,
                };
                src32(&mut li, 2)?;
                li.op = LaneOp::SatU32(op);
                return Some(li);
            }
            if !no_mods || li.dst? == 255 {
                return None;
            }
            let shift = match io {
                IntOp::LshlrevB64 => Some(0),
                IntOp::LshrrevB64 => Some(1),
                IntOp::AshrrevI64 => Some(2),
                _ => None,
            };
            if let Some(kind) = shift {
                li.src[0][0] = Opd::of(x.src[0])?;
                li.src[1] = Opd::pair(x.src[1])?;
                li.wide[1] = true;
                li.n = 2;
                li.dst_wide = true;
                li.op = LaneOp::Shift64(kind);
                return Some(li);
            }
            if io == IntOp::Bcnt {
                src32(&mut li, 2)?;
                li.op = LaneOp::Bcnt;
                return Some(li);
            }
            if let IntOp::MbcntLo | IntOp::MbcntHi = io {
                let hi = io == IntOp::MbcntHi;
                src32(&mut li, 2)?;
                li.op = match li.src[0][0] {
                    // The lane-index idiom: a table.
                    Opd::K(u32::MAX) => LaneOp::MbcntAll { hi },
                    // A lane's own mask (a VGPR) stays a call-out.
                    Opd::V(_) => return None,
                    _ => LaneOp::Mbcnt { hi },
                };
                return Some(li);
            }
            let op = match io {
                IntOp::MadU64U32 => LaneOp::Mad64 { signed: false },
                IntOp::MadI64I32 => LaneOp::Mad64 { signed: true },
                _ => return None,
            };
            if x.inst.enc != Encoding::Vop3 {
                return None;
            }
            li.src[0][0] = Opd::of(x.src[0])?;
            li.src[1][0] = Opd::of(x.src[1])?;
            li.src[2] = Opd::pair(x.src[2])?;
            li.wide[2] = true;
            li.n = 3;
            li.dst_wide = true;
            li.mask_out = Some(mask_reg(x, x.inst.sdst)?);
            li.op = op;
            Some(li)
        }
        _ => None,
    }
}

fn wave(x: &XInst) -> Option<WaveOp> {
    if x.inst.op == Op::V_WRITELANE_B32 {
        return write_lane(x);
    }
    if x.inst.op == Op::V_PERM_B32 {
        return perm(x);
    }
    if let Some(log) = match x.inst.op {
        Op::V_EXP_F32 => Some(false),
        Op::V_LOG_F32 => Some(true),
        _ => None,
    } {
        let dst = x.inst.dst.vgpr_index()?;
        if !pair_src(x.src[0], false) || !plain(x) || x.inst.mods != VopMods::default() {
            return None;
        }
        return Some(WaveOp::ExpLog {
            dst,
            src: x.src[0],
            log,
        });
    }
    if let Some((wide, mant)) = match x.inst.op {
        Op::V_FREXP_MANT_F32 => Some((false, true)),
        Op::V_FREXP_EXP_I32_F32 => Some((false, false)),
        Op::V_FREXP_MANT_F64 => Some((true, true)),
        Op::V_FREXP_EXP_I32_F64 => Some((true, false)),
        _ => None,
    } {
        let dst = x.inst.dst.vgpr_index()?;
        let m = x.inst.mods;
        let sign_only = VopMods {
            abs: m.abs & 1,
            neg: m.neg & 1,
            ..VopMods::default()
        };
        if !pair_src(x.src[0], wide) || !plain(x) || m != sign_only {
            return None;
        }
        if wide && mant && dst == 255 {
            return None;
        }
        let src = x.src[0];
        return Some(WaveOp::Frexp {
            dst,
            src,
            wide,
            mant,
            abs: m.abs & 1 != 0,
            neg: m.neg & 1 != 0,
        });
    }
    if let Some(wide) = match x.inst.op {
        Op::V_LDEXP_F32 => Some(false),
        Op::V_LDEXP_F64 => Some(true),
        _ => None,
    } {
        let src = [x.src[0], x.src[1]];
        let ok = pair_src(src[0], wide) && (matches!(src[1], Src::V(_)) || wave_scalar(src[1]));
        if !ok || !plain(x) || x.inst.mods != VopMods::default() {
            return None;
        }
        let dst = x.inst.dst.vgpr_index()?;
        if wide && dst == 255 {
            return None;
        }
        return Some(WaveOp::Ldexp { dst, src, wide });
    }
    if let Some((step, wide)) = match x.inst.op {
        Op::V_DIV_SCALE_F32 => Some((DivStep::Scale, false)),
        Op::V_DIV_FMAS_F32 => Some((DivStep::Fmas, false)),
        Op::V_DIV_FIXUP_F32 => Some((DivStep::Fixup, false)),
        Op::V_DIV_SCALE_F64 => Some((DivStep::Scale, true)),
        Op::V_DIV_FMAS_F64 => Some((DivStep::Fmas, true)),
        Op::V_DIV_FIXUP_F64 => Some((DivStep::Fixup, true)),
        _ => None,
    } {
        return div(x, step, wide);
    }
    let src = match x.src[0] {
        Src::V(r) => r,
        _ => return None,
    };
    let dst = (x.inst.dst.raw() & 127) as u8;
    // Only ordinary SGPRs and VCC: EXEC and M0 writes change more than a register.
    let ok = usize::from(dst) < 102 || usize::from(dst) == VCC_LO || usize::from(dst) == VCC_LO + 1;
    if !ok || !plain(x) {
        return None;
    }
    match x.inst.op {
        Op::V_READFIRSTLANE_B32 => Some(WaveOp::ReadFirst { dst, src }),
        Op::V_READLANE_B32 if matches!(x.src[1], Src::S(_) | Src::Imm(_)) => Some(WaveOp::Read {
            dst,
            src,
            lane: x.src[1],
        }),
        _ => None,
    }
}

/// A scalar operand a wave-wide op reads from the wave's registers: an ordinary SGPR, VCC,
/// or a constant.
fn wave_scalar(s: Src) -> bool {
    match s {
        Src::S(r) => {
            usize::from(r) < 102 || usize::from(r) == VCC_LO || usize::from(r) == VCC_LO + 1
        }
        Src::Imm(_) => true,
        _ => false,
    }
}

fn perm(x: &XInst) -> Option<WaveOp> {
    let (Src::V(src0), Src::V(src1)) = (x.src[0], x.src[1]) else {
        return None;
    };
    if !wave_scalar(x.src[2]) || !plain(x) || x.inst.mods != VopMods::default() {
        return None;
    }
    Some(WaveOp::Perm {
        dst: x.inst.dst.vgpr_index()?,
        src0,
        src1,
        sel: x.src[2],
    })
}

/// A wave-wide op's source: a VGPR, or [`wave_scalar`]; where `wide`, a pair whose second
/// register is an ordinary one too.
fn pair_src(s: Src, wide: bool) -> bool {
    match s {
        Src::V(r) => !wide || r < 255,
        Src::S(r) if wide => usize::from(r) + 1 < 102 || usize::from(r) == VCC_LO,
        _ => wave_scalar(s),
    }
}

fn div(x: &XInst, step: DivStep, wide: bool) -> Option<WaveOp> {
    let src = [x.src[0], x.src[1], x.src[2]];
    let ok = |s: Src| pair_src(s, wide);
    if !src.into_iter().all(ok) || !plain(x) || x.inst.mods != VopMods::default() {
        return None;
    }
    let mask = match step {
        DivStep::Scale => mask_reg(x, x.inst.sdst)?,
        _ => VCC_LO as u8,
    };
    let dst = x.inst.dst.vgpr_index()?;
    if wide && dst == 255 {
        return None;
    }
    // v_div_fmas_f64 in lanes with a clear VCC bit is v_fma_f64 (`valu::divide`): that
    // lowering, NaN rules included.
    let fma = match (step, wide) {
        (DivStep::Fmas, true) => {
            let mut f = x.clone();
            f.valu = Some(ValuOp::Float(FOp::Fma, FTy::F64));
            let li = lane(&f)?;
            (li.op == LaneOp::F64(FOp::Fma)).then_some(li)?;
            Some(li)
        }
        _ => None,
    };
    Some(WaveOp::Div {
        step,
        wide,
        dst,
        mask,
        src,
        fma,
    })
}

fn bpermute(x: &XInst) -> Option<WaveOp> {
    if x.inst.mem_flags().has(MemFlags::GDS) {
        return None;
    }
    let (Src::V(addr), Src::V(data)) = (x.src[0], x.src[1]) else {
        return None;
    };
    Some(WaveOp::Bpermute {
        dst: x.inst.dst.vgpr_index()?,
        addr,
        data,
        off: crate::exec::ds::offset16(&x.inst),
    })
}

fn dpp_mov(x: &XInst) -> Option<WaveOp> {
    let (Ext::Dpp(d), Src::V(src)) = (x.inst.ext, x.src[0]) else {
        return None;
    };
    if x.inst.mods != VopMods::default() {
        return None;
    }
    // The two-source integer ops `Emitter::int_binop` lowers, with a VGPR second source.
    let op = match x.inst.op {
        Op::V_MOV_B32 => None,
        o => {
            use Int32::*;
            let op = Int32::named(o.name())?;
            let two = matches!(
                op,
                Add | Sub | SubRev | And | Or | Xor | MinU | MaxU | MinI | MaxI
            );
            let Src::V(src1) = x.src[1] else {
                return None;
            };
            if !two {
                return None;
            }
            Some((op, src1))
        }
    };
    Some(WaveOp::DppMov {
        dst: x.inst.dst.vgpr_index()?,
        src,
        op,
        ctrl: d.ctrl,
        row_mask: d.row_mask,
        bank_mask: d.bank_mask,
        bound_ctrl: d.bound_ctrl,
    })
}

fn write_lane(x: &XInst) -> Option<WaveOp> {
    if !plain(x) || !wave_scalar(x.src[0]) || !wave_scalar(x.src[1]) {
        return None;
    }
    Some(WaveOp::Write {
        dst: x.inst.dst.vgpr_index()?,
        src: x.src[0],
        lane: x.src[1],
    })
}

fn smem(x: &XInst) -> Option<SmemLoad> {
    let dwords = match x.inst.op {
        Op::S_LOAD_DWORD => 1,
        Op::S_LOAD_DWORDX2 => 2,
        Op::S_LOAD_DWORDX4 => 4,
        Op::S_LOAD_DWORDX8 => 8,
        Op::S_LOAD_DWORDX16 => 16,
        _ => return None,
    };
    let dst = (x.inst.dst.raw() & 127) as u8;
    let base = (x.inst.src[0].raw() & 127) as u8;
    if usize::from(dst) + dwords > 102 || base >= 101 {
        return None;
    }
    let soffset = (!x.inst.src[1].is_none()).then_some(x.src[1]);
    if let Some(s) = soffset {
        if !matches!(s, Src::S(_) | Src::Imm(_)) {
            return None;
        }
    }
    Some(SmemLoad {
        dst,
        dwords: dwords as u8,
        base,
        soffset,
        imm: x.inst.imm,
    })
}

/// A load's or store's direction, dwords per lane and sub-dword form; `None` for other kinds
/// (atomics, fences).
fn moves(kind: VmemKind) -> Option<(bool, u8, Option<SubDword>)> {
    Some(match kind {
        VmemKind::Load {
            bytes,
            dwords,
            sext: false,
            d16: None,
        } if bytes == 4 * dwords => (true, dwords, None),
        VmemKind::Load {
            bytes: bytes @ (1 | 2),
            sext,
            d16,
            ..
        } => (true, 1, Some(SubDword { bytes, sext, d16 })),
        VmemKind::Store {
            bytes,
            dwords,
            hi: false,
        } if bytes == 4 * dwords => (false, dwords, None),
        VmemKind::Store {
            bytes: bytes @ (1 | 2),
            hi,
            ..
        } => (
            false,
            1,
            Some(SubDword {
                bytes,
                sext: false,
                d16: hi.then_some(true),
            }),
        ),
        _ => return None,
    })
}

fn vmem(x: &XInst) -> Option<VmemInst> {
    let (load, dwords, sub) = moves(x.vmem?)?;
    let f = x.inst.mem_flags();
    if f.has(MemFlags::LDS) || f.has(MemFlags::TFE) {
        return None;
    }
    let flags = x.inst.op.flags();
    if !flags.has(OpFlags::LOAD) && !flags.has(OpFlags::STORE) {
        return None;
    }
    let vaddr = x.inst.src[0].vgpr_index()?;
    let saddr = if x.inst.enc == Encoding::Global && !x.inst.src[2].is_none() {
        let s = (x.inst.src[2].raw() & 127) as u8;
        if s >= 101 {
            return None;
        }
        Some(s)
    } else {
        None
    };
    if saddr.is_none() && vaddr == 255 {
        return None;
    }
    let data = if load {
        x.inst.dst.vgpr_index()?
    } else {
        x.inst.src[1].vgpr_index()?
    };
    if usize::from(data) + usize::from(dwords) > 256 {
        return None;
    }
    Some(VmemInst {
        load,
        dwords,
        sub,
        vaddr,
        saddr,
        offset: x.inst.imm,
        data,
        buf: None,
        flat: x.inst.enc == Encoding::Flat,
    })
}

/// `buffer_load_dword` / `buffer_store_dword` and their byte and short forms without an index
/// VGPR: scratch accesses (private arrays, spills, the variables of -O0 code) through the
/// swizzled private-segment V#, whose shape the generated code checks each time (any other V#
/// goes to the interpreter).
fn buffer(x: &XInst) -> Option<VmemInst> {
    let (load, sub) = match x.inst.op {
        Op::BUFFER_LOAD_DWORD => (true, None),
        Op::BUFFER_STORE_DWORD => (false, None),
        _ => match moves(x.vmem?)? {
            (load, _, sub @ Some(_)) => (load, sub),
            _ => return None,
        },
    };
    let f = x.inst.mem_flags();
    if f.has(MemFlags::LDS) || f.has(MemFlags::TFE) || f.has(MemFlags::IDXEN) {
        return None;
    }
    let rsrc = (x.inst.src[2].raw() & 127) as u8;
    if rsrc > 98 {
        return None; // the V# must be s0..s101
    }
    let soffset = match x.src[3] {
        Src::S(s) if s < 102 => Src::S(s),
        Src::Imm(v) => Src::Imm(v & 0xffff_ffff),
        _ => return None,
    };
    let offen = f.has(MemFlags::OFFEN);
    let vaddr = if offen {
        x.inst.src[0].vgpr_index()?
    } else {
        0
    };
    let data = if load {
        x.inst.dst.vgpr_index()?
    } else {
        x.inst.src[1].vgpr_index()?
    };
    Some(VmemInst {
        load,
        dwords: 1,
        sub,
        vaddr,
        saddr: None,
        offset: x.inst.imm,
        data,
        buf: Some(BufAddr {
            rsrc,
            soffset,
            offen,
        }),
        flat: false,
    })
}

/// `global_atomic_*` and `flat_atomic_*` of the integer operations, 32 and 64 bits, with or
/// without GLC (not the float ones). A FLAT lane in the LDS or private aperture fails the
/// range check (no allocation lies there), which leaves the instruction to the interpreter.
fn vatomic(x: &XInst) -> Option<VAtomic> {
    let Some(VmemKind::Atomic { op, wide }) = x.vmem else {
        return None;
    };
    let op = super::mem_atomic::rmw_code(op)?;
    let f = x.inst.mem_flags();
    if f.has(MemFlags::LDS) || f.has(MemFlags::TFE) {
        return None;
    }
    let vaddr = x.inst.src[0].vgpr_index()?;
    let saddr = match x.inst.src[2].is_none() {
        true => None,
        false => Some((x.inst.src[2].raw() & 127) as u8).filter(|&s| s < 101),
    };
    if x.inst.src[2].is_none() == saddr.is_some()
        || (saddr.is_some() && x.inst.enc != Encoding::Global)
        || (saddr.is_none() && vaddr == 255)
    {
        return None;
    }
    let mut m = VAtomic {
        op,
        wide,
        rtn: f.has(MemFlags::GLC),
        vaddr,
        saddr,
        offset: x.inst.imm,
        data: x.inst.src[1].vgpr_index()?,
        dst: 0,
    };
    if u32::from(m.data) + u32::from(m.data_regs()) > 256 {
        return None;
    }
    if m.rtn {
        m.dst = x.inst.dst.vgpr_index()?;
        if u32::from(m.dst) + u32::from(m.regs()) > 256 {
            return None;
        }
    }
    Some(m)
}

/// `ds_add/sub/rsub/inc/dec/min/max/and/or/xor/mskor/cmpst` (`_u32`, `_i32`, `_b32` and the
/// 64-bit forms), with or without return, and `ds_wrxchg_rtn`: the opcodes 0x00-0x0d and 0x10
/// of each block of 32 (+0x20 with return, +0x40 64-bit), and `ds_add_f32` (0x15). The other
/// float ones, `wrxchg2` and GDS stay with the interpreter.
fn ds_atomic(x: &XInst) -> Option<DsAtomic> {
    if x.inst.mem_flags().has(MemFlags::GDS) {
        return None;
    }
    let opc = x.inst.op.opcode();
    if opc >= 0x80 {
        return None;
    }
    let (op, rtn, wide) = ((opc & 0x1f) as u8, opc & 0x20 != 0, opc & 0x40 != 0);
    // (0x0d without return is `ds_write`, 0x0e-0x0f `write2`, 0x14 `nop`; of the float ops
    // 0x11-0x15 only the f32 add, whose NaN rule is pinned: `exec::fatomic::add_f32`.)
    let fadd = op == super::mem_lds_atomic::ADD_F32 && !wide;
    if !(op <= 0x0c || op == 0x10 || (op == 0x0d && rtn) || fadd) {
        return None;
    }
    let reg = |s: Src| match s {
        Src::V(r) => Some(r),
        _ => None,
    };
    let n = if wide { 2 } else { 1 };
    let fits = |r: u8| u32::from(r) + n <= 256;
    let addr = reg(x.src[0])?;
    let data0 = reg(x.src[1]).filter(|&r| fits(r))?;
    let data1 = match super::mem_lds_atomic::reads_data1(op) {
        true => reg(x.src[2]).filter(|&r| fits(r))?,
        false => 0,
    };
    let dst = match rtn {
        true => x.inst.dst.vgpr_index().filter(|&r| fits(r))?,
        false => 0,
    };
    Some(DsAtomic {
        op,
        wide,
        rtn,
        addr,
        data0,
        data1,
        dst,
        offset: crate::exec::ds::offset16(&x.inst),
    })
}

fn ds(x: &XInst) -> Option<DsInst> {
    let sub = |bytes, sext, d16| Some(SubDword { bytes, sext, d16 });
    let narrow = match x.inst.op {
        Op::DS_READ_U8 => sub(1, false, None),
        Op::DS_READ_I8 => sub(1, true, None),
        Op::DS_READ_U16 => sub(2, false, None),
        Op::DS_READ_I16 => sub(2, true, None),
        Op::DS_READ_U8_D16 => sub(1, false, Some(false)),
        Op::DS_READ_U8_D16_HI => sub(1, false, Some(true)),
        Op::DS_READ_I8_D16 => sub(1, true, Some(false)),
        Op::DS_READ_I8_D16_HI => sub(1, true, Some(true)),
        Op::DS_READ_U16_D16 => sub(2, false, Some(false)),
        Op::DS_READ_U16_D16_HI => sub(2, false, Some(true)),
        Op::DS_WRITE_B8 => sub(1, false, None),
        Op::DS_WRITE_B16 => sub(2, false, None),
        Op::DS_WRITE_B8_D16_HI => sub(1, false, Some(true)),
        Op::DS_WRITE_B16_D16_HI => sub(2, false, Some(true)),
        _ => None,
    };
    let (load, dwords, two, st64) = match x.inst.op {
        _ if narrow.is_some() => (x.inst.op.name().starts_with("ds_read"), 1, false, false),
        Op::DS_READ_B96 => (true, 3, false, false),
        Op::DS_READ_B128 => (true, 4, false, false),
        Op::DS_WRITE_B96 => (false, 3, false, false),
        Op::DS_WRITE_B128 => (false, 4, false, false),
        Op::DS_READ_B32 => (true, 1, false, false),
        Op::DS_READ_B64 => (true, 2, false, false),
        Op::DS_READ2_B32 => (true, 1, true, false),
        Op::DS_READ2ST64_B32 => (true, 1, true, true),
        Op::DS_READ2_B64 => (true, 2, true, false),
        Op::DS_READ2ST64_B64 => (true, 2, true, true),
        Op::DS_WRITE_B32 => (false, 1, false, false),
        Op::DS_WRITE_B64 => (false, 2, false, false),
        Op::DS_WRITE2_B32 => (false, 1, true, false),
        Op::DS_WRITE2ST64_B32 => (false, 1, true, true),
        Op::DS_WRITE2_B64 => (false, 2, true, false),
        Op::DS_WRITE2ST64_B64 => (false, 2, true, true),
        _ => return None,
    };
    if x.inst.mem_flags().has(MemFlags::GDS) {
        return None;
    }
    let reg = |s: Src| match s {
        Src::V(r) => Some(r),
        _ => None,
    };
    let addr = reg(x.src[0])?;
    let offset1 = x.inst.mem().map_or(0, |m| u32::from(m.offset1));
    let imm = x.inst.imm as u32;
    let (offset0, offset1) = if two {
        let unit = 4 * u32::from(dwords) * if st64 { 64 } else { 1 };
        ((imm & 0xff) * unit, offset1 * unit)
    } else {
        (crate::exec::ds::offset16(&x.inst), 0)
    };
    let n = u32::from(dwords) * if two { 2 } else { 1 };
    let (data0, data1, dst) = if load {
        let d = x.inst.dst.vgpr_index()?;
        if u32::from(d) + n > 256 {
            return None;
        }
        (0, 0, d)
    } else {
        let d0 = reg(x.src[1])?;
        let d1 = if two { reg(x.src[2])? } else { 0 };
        if u32::from(d0) + u32::from(dwords) > 256 || u32::from(d1) + u32::from(dwords) > 256 {
            return None;
        }
        (d0, d1, 0)
    };
    Some(DsInst {
        load,
        dwords,
        sub: narrow,
        two,
        addr,
        data0,
        data1,
        dst,
        offset0,
        offset1,
    })
}
