//! Wave state and its initial values per the ABI (initial kernel execution state).

use crate::grid::{Grid, WorkGroupShape};
use softhsa_codeobj::KernelDescriptor;

// Scalar register file indexed by the GFX9 scalar operand encoding, so an operand number is the
// index: s0–s101, then the named registers below.
pub const FLAT_SCRATCH_LO: usize = 102;
pub const XNACK_MASK_LO: usize = 104;
pub const VCC_LO: usize = 106;
pub const TTMP0: usize = 108;
pub const M0: usize = 124;
pub const EXEC_LO: usize = 126;
/// SGPRs addressable by number on GFX9.
pub const SGPR_COUNT: usize = 102;

/// Where a wave is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveState {
    Running,
    /// Waiting at `s_barrier` for the other waves of the work-group.
    Barrier,
    /// Ended with `s_endpgm`.
    Done,
    /// Stopped at `s_sleep` (pc past it): the scheduler may run other waves and work-groups
    /// first, then resumes it.
    Sleeping,
    /// Stopped before the instruction at `pc` because its time slice ran out (see
    /// [`Wave::time_slice`]); resumes there.
    Sliced,
    /// Stopped at a global wave sync instruction (pc past it) that [`Wave::gws`] describes;
    /// the scheduler performs it and resumes the wave once it is released.
    Gws,
}

/// A global wave sync (`ds_gws_*`) operation a wave has asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GwsRequest {
    /// The DS opcode (`ds_gws_init` 0x99, `ds_gws_barrier` 0x9d, the semaphore ops 0x98-0x9c).
    pub op: u16,
    /// GWS resource id: `M0[21:16]` + the instruction's offset.
    pub resource: u32,
    /// DATA0 of the first active lane (init value, barrier count - 1).
    pub value: u32,
    /// Barrier generation the wave waits to pass (set by the scheduler).
    pub generation: u64,
}

/// One wave of 64 lanes.
#[derive(Clone)]
pub struct Wave {
    /// Scalar registers by operand encoding (0..=127): SGPRs, FLAT_SCRATCH, XNACK_MASK, VCC,
    /// TTMPs, M0, EXEC.
    pub s: [u32; 128],
    /// Vector registers, lane-contiguous.
    pub v: Box<[[u32; 64]; 256]>,
    pub scc: bool,
    /// Index of the next instruction in the kernel's program.
    pub pc: u32,
    /// Hardware MODE register (FP_ROUND, FP_DENORM, DX10_CLAMP, IEEE, ...).
    pub mode: u32,
    pub trapsts: u32,
    pub state: WaveState,
    /// Index of this wave in its work-group.
    pub index: u32,
    pub workgroup: [u32; 3],
    /// Instructions executed.
    pub executed: u64,
    /// Host address of this wave's scratch (private) backing.
    pub scratch_base: u64,
    /// `s_set_gpr_idx_on` mode: VGPR operands named by `M0[15:12]` are offset by `M0[7:0]`.
    pub gpr_idx_en: bool,
    /// Kinds of store ([`UNFENCED_VECTOR`], [`UNFENCED_SCALAR`]) made since the wave's last full
    /// host fence: the `s_waitcnt` that waits for them issues one (see `exec::control`).
    pub unfenced_stores: u8,
    /// The interpreter's `budget` ends a time slice, not the dispatch's instruction budget: at
    /// the limit the wave stops ([`WaveState::Sliced`]) instead of faulting. Set by the
    /// scheduler before each run.
    pub time_slice: bool,
    /// The pending global wave sync operation ([`WaveState::Gws`]).
    pub gws: GwsRequest,
}

/// A vector memory store or atomic (waited for by `vmcnt`) is not yet fenced.
pub const UNFENCED_VECTOR: u8 = 1;
/// A scalar memory store (waited for by `lgkmcnt`) is not yet fenced.
pub const UNFENCED_SCALAR: u8 = 2;

impl Wave {
    pub fn new() -> Self {
        Wave {
            s: [0; 128],
            v: Box::new([[0; 64]; 256]),
            scc: false,
            pc: 0,
            mode: 0,
            trapsts: 0,
            state: WaveState::Done,
            index: 0,
            workgroup: [0; 3],
            executed: 0,
            scratch_base: 0,
            gpr_idx_en: false,
            unfenced_stores: 0,
            time_slice: false,
            gws: GwsRequest::default(),
        }
    }

    #[inline]
    pub fn exec(&self) -> u64 {
        u64::from(self.s[EXEC_LO]) | u64::from(self.s[EXEC_LO + 1]) << 32
    }

    #[inline]
    pub fn set_exec(&mut self, v: u64) {
        self.s[EXEC_LO] = v as u32;
        self.s[EXEC_LO + 1] = (v >> 32) as u32;
    }

    #[inline]
    pub fn vcc(&self) -> u64 {
        u64::from(self.s[VCC_LO]) | u64::from(self.s[VCC_LO + 1]) << 32
    }

    #[inline]
    pub fn set_vcc(&mut self, v: u64) {
        self.s[VCC_LO] = v as u32;
        self.s[VCC_LO + 1] = (v >> 32) as u32;
    }

    #[inline]
    pub fn s64(&self, i: usize) -> u64 {
        u64::from(self.s[i & 127]) | u64::from(self.s[(i + 1) & 127]) << 32
    }

    #[inline]
    pub fn set_s64(&mut self, i: usize, v: u64) {
        self.s[i & 127] = v as u32;
        self.s[(i + 1) & 127] = (v >> 32) as u32;
    }
}

impl Default for Wave {
    fn default() -> Self {
        Self::new()
    }
}

/// MODE at wave start, from COMPUTE_PGM_RSRC1: FP_ROUND (bits 3:0), FP_DENORM (7:4),
/// DX10_CLAMP (8), IEEE (9).
pub fn initial_mode(kd: &KernelDescriptor) -> u32 {
    ((kd.pgm_rsrc1 >> 12) & 0xff)
        | u32::from(kd.enable_dx10_clamp()) << 8
        | u32::from(kd.enable_ieee_mode()) << 9
}

/// The values the command processor and SPI load into a wave.
pub struct LaunchValues {
    /// Entry instruction index.
    pub entry: u32,
    pub kernarg: u64,
    pub packet: u64,
    pub queue: u64,
    pub dispatch_id: u64,
    /// Host address of the scratch backing of the work-group's first wave.
    pub scratch_base: u64,
    /// Bytes of scratch per wave.
    pub scratch_wave_bytes: u32,
    /// Bytes of scratch per work-item (a multiple of 4).
    pub private_size: u32,
    /// The V# the ABI prescribes for the private segment buffer.
    pub private_vsharp: [u32; 4],
}

/// The private segment buffer V#: base = scratch backing, swizzled with element size 4 and index
/// stride 64, lane id added to the index (ADD_TID_ENABLE).
pub fn private_vsharp(base: u64) -> [u32; 4] {
    let w1 = ((base >> 32) as u32 & 0xffff) | 1 << 31; // SWIZZLE_ENABLE, stride 0
    let w3 = 0b100 // DST_SEL_X = X
        | 1 << 19 // ELEMENT_SIZE = 4 bytes
        | 3 << 21 // INDEX_STRIDE = 64
        | 1 << 23; // ADD_TID_ENABLE
    [base as u32, w1, u32::MAX, w3]
}

/// A short list of initial SGPR values (no allocation per wave).
#[derive(Default)]
struct Regs {
    v: [u32; 24],
    n: usize,
}

impl Regs {
    fn push(&mut self, x: u32) {
        if let Some(slot) = self.v.get_mut(self.n) {
            *slot = x;
            self.n += 1;
        }
    }
    fn extend(&mut self, xs: impl IntoIterator<Item = u32>) {
        for x in xs {
            self.push(x);
        }
    }
    fn len(&self) -> usize {
        self.n
    }
    fn as_slice(&self) -> &[u32] {
        &self.v[..self.n]
    }
}

/// Sets a wave to its initial state: SGPRs and VGPRs per the ABI, EXEC, MODE, pc.
pub fn init_wave(
    w: &mut Wave,
    kd: &KernelDescriptor,
    grid: &Grid,
    shape: &WorkGroupShape,
    wg_id: [u32; 3],
    index: u32,
    lv: &LaunchValues,
) {
    w.s = [0; 128];
    // VGPRs other than the work-item ids keep what the previous wave on this worker left, as on
    // hardware: zeroing up to 64 KiB per wave would dominate short kernels.
    w.scc = false;
    w.pc = lv.entry;
    w.mode = initial_mode(kd);
    w.trapsts = 0;
    w.gpr_idx_en = false;
    w.unfenced_stores = 0;
    w.time_slice = false;
    w.state = WaveState::Running;
    w.index = index;
    w.workgroup = wg_id;
    w.executed = 0;
    w.scratch_base = lv.scratch_base + u64::from(index) * u64::from(lv.scratch_wave_bytes);
    w.set_exec(shape.exec(index));

    let mut user = Regs::default();
    let pair = |v: u64| [v as u32, (v >> 32) as u32];
    if kd.enable_sgpr_private_segment_buffer {
        user.extend(lv.private_vsharp);
    }
    if kd.enable_sgpr_dispatch_ptr {
        user.extend(pair(lv.packet));
    }
    if kd.enable_sgpr_queue_ptr {
        user.extend(pair(lv.queue));
    }
    if kd.enable_sgpr_kernarg_segment_ptr {
        user.extend(pair(lv.kernarg));
    }
    if kd.enable_sgpr_dispatch_id {
        user.extend(pair(lv.dispatch_id));
    }
    if kd.enable_sgpr_flat_scratch_init {
        // GFX9: the 64-bit scratch base; the prolog adds the wave offset.
        user.extend(pair(lv.scratch_base));
    }
    if kd.enable_sgpr_private_segment_size {
        user.push(lv.private_size);
    }
    for d in 0..3 {
        if kd.enable_sgpr_grid_workgroup_count[d] && (d == 0 || user.len() < 16) {
            user.push(grid.counts[d]);
        }
    }
    // System SGPRs follow the USER_SGPR_COUNT user SGPRs the hardware loads.
    let mut sys = Regs::default();
    let ids = kd.enable_sgpr_workgroup_id();
    for d in 0..3 {
        if ids[d] {
            sys.push(wg_id[d]);
        }
    }
    if kd.enable_sgpr_workgroup_info() {
        let first = u32::from(index == 0) << 31;
        sys.push(first | (shape.waves & 0x3f));
    }
    if kd.enable_sgpr_private_segment_wave_offset() {
        sys.push(index * lv.scratch_wave_bytes);
    }
    let first_sys = (kd.user_sgpr_count() as usize).max(user.len());
    for (i, &v) in user.as_slice().iter().enumerate() {
        w.s[i.min(SGPR_COUNT - 1)] = v;
    }
    for (i, &v) in sys.as_slice().iter().enumerate() {
        w.s[(first_sys + i).min(SGPR_COUNT - 1)] = v;
    }
    // Hardware leaves FLAT_SCRATCH to the prolog; starting it at the wave's base is harmless and
    // lets hand-written code use scratch_* without one.
    let base = w.scratch_base;
    w.set_s64(FLAT_SCRATCH_LO, base);

    // Work-item ids by counting (X fastest) from lane 0's id: no division per lane.
    let dims = kd.enable_vgpr_workitem_id().min(2) as usize + 1;
    let [ex, ey, _] = shape.extent;
    let mut id = shape.workitem_id(index, 0);
    for lane in 0..64usize {
        for (d, &v) in id.iter().enumerate().take(dims) {
            w.v[d][lane] = v;
        }
        id[0] += 1;
        if id[0] == ex {
            id[0] = 0;
            id[1] += 1;
            if id[1] == ey {
                id[1] = 0;
                id[2] += 1;
            }
        }
    }
}
