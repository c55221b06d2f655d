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

/// Where a wave is in its life. (One byte: generated code stores it when it switches waves
/// at a barrier, `jit/wave_switch.rs`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
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
    /// Stopped before a global wave sync instruction that must wait (a GWS barrier or
    /// semaphore, `exec::gws`): it executes again when the scheduler resumes the wave, which
    /// it does once the device's GWS changed after [`Wave::gws_epoch`].
    Gws,
}

/// One wave of 64 lanes.
#[derive(Clone)]
pub struct Wave {
    /// Scalar registers by operand encoding (0..=127): SGPRs, FLAT_SCRATCH, XNACK_MASK, VCC,
    /// TTMPs, M0, EXEC.
    pub s: [u32; 128],
    /// Vector registers, lane-contiguous.
    pub v: Box<RegFile>,
    /// Accumulation registers (AGPRs, gfx908+), lane-contiguous like the VGPRs. On gfx90a+ the
    /// hardware carves them out of one register file after the kernel's `accum_offset` VGPRs;
    /// as architectural registers `a0..a255` they are a file of their own here.
    pub a: Box<RegFile>,
    /// The JIT's scratch for segments run on a few lanes (`jit/lane_rep.rs`); never state.
    pub rep: Box<RepFile>,
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
    /// Vector instructions must run in the interpreter: GPR indexing ([`Wave::gpr_index`]) or
    /// VSKIP is on. The JIT tests this byte before its translated VALU code.
    pub gpr_idx_en: bool,
    /// `s_set_gpr_idx_on` mode: VGPR operands named by `M0[15:12]` are offset by `M0[7:0]`.
    pub gpr_index: bool,
    /// Kinds of store ([`UNFENCED_VECTOR`], [`UNFENCED_SCALAR`]) made since the wave's last full
    /// host fence: the `s_waitcnt` that waits for them issues one (see `exec::control`).
    pub unfenced_stores: u8,
    /// The interpreter's `budget` ends a time slice, not the dispatch's instruction budget: at
    /// the limit the wave stops ([`WaveState::Sliced`]) instead of faulting. Set by the
    /// scheduler before each run.
    pub time_slice: bool,
    /// The device's GWS epoch when this wave's GWS operation had to wait ([`WaveState::Gws`]).
    pub gws_epoch: u64,
    /// A GWS semaphore or barrier this wave waits in (`exec::gws`; 0: none).
    pub gws_pending: u16,
    /// The wave's lanes come in rows of this many (64, 32, 16 or 8; 0: none): in each aligned
    /// group of `lin_rows` lanes the work-item ids in VGPR 0 count up by one, and those in
    /// VGPRs 1 and 2 (where the wave starts with them) stay the same; every x id is below
    /// 1024 (gfx90a packs the y and z ids above it in VGPR 0, which stay along a row too);
    /// and every lane of every VGPR write the JIT's lane-linear analysis relies on
    /// so far had all lanes active (`jit/lane_linear.rs`). Set at the wave's start; cleared
    /// for good (0) by a partial-EXEC run of such a write.
    pub lin_rows: u8,
}

/// Instructions a wave runs before the others of its work-group get a turn.
pub const WAVE_SLICE: u64 = 1 << 16;

impl Wave {
    /// Starts the wave's turn in its work-group's round (`workgroup.rs`): running, with a time
    /// slice of [`WAVE_SLICE`] instructions unless the dispatch's instruction budget `limit`
    /// (0: none) ends first. Returns the interpreter's budget for the turn (`ExecCtx::budget`).
    /// Generated code that switches waves at a barrier does the same (`jit/wave_switch.rs`).
    pub fn start_turn(&mut self, limit: u64) -> u64 {
        self.state = WaveState::Running;
        let slice_end = self.executed + WAVE_SLICE;
        self.time_slice = limit == 0 || slice_end < limit;
        if self.time_slice {
            slice_end
        } else {
            limit
        }
    }
}

/// 256 lane-contiguous 64-lane registers, aligned to a cache line: generated code moves a
/// register's lanes in chunks of 32 (AVX2) or 64 bytes (AVX-512), and a chunk that straddles two
/// lines costs two accesses and defeats store forwarding. (With the allocator's 16-byte
/// alignment, a kernel's speed depended on where the file landed: two libraries with
/// byte-identical code for matmul ran it at 1.78 and 2.12 ms, only their heap layouts
/// differing.)
#[derive(Clone)]
#[repr(C, align(64))]
pub struct RegFile(pub [[u32; 64]; 256]);

/// Scratch of the JIT's segments run on the first and last lane of each row of 16
/// (`jit/lane_rep.rs`): per VGPR, a chunk of those lanes; then the lane masks such a segment
/// writes, by SGPR pair (one chunk's bits each). Written before it is read, within one segment;
/// then how many such runs passed their checks (tests look), and whether the last run left
/// VGPRs unfilled for the global loads right after it, which read their addresses here.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct RepFile {
    pub v: [[u32; 16]; 256],
    pub masks: [u32; 128],
    pub runs: u32,
    pub lazy: u32,
}

impl RepFile {
    /// A zeroed file on the heap.
    pub fn boxed() -> Box<RepFile> {
        Box::new(RepFile {
            v: [[0; 16]; 256],
            masks: [0; 128],
            runs: 0,
            lazy: 0,
        })
    }
}

impl RegFile {
    /// A zeroed file on the heap.
    pub fn boxed() -> Box<RegFile> {
        Box::new(RegFile([[0; 64]; 256]))
    }
}

impl std::ops::Deref for RegFile {
    type Target = [[u32; 64]; 256];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for RegFile {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// Memory instructions' data registers are numbered 0..=255 for VGPRs and `AGPR_BASE` + n for
/// AGPR n (gfx90a+: the ACC bit puts loaded, stored and returned data in AGPRs).
pub const AGPR_BASE: usize = 256;

/// Register `k` of the tuple that starts at data register `r` (wrapping within its file).
#[inline]
pub fn dnext(r: usize, k: usize) -> usize {
    (r & AGPR_BASE) | ((r + k) & 255)
}

/// The data register number of operand `o`: a VGPR's or an AGPR's (0 for anything else).
#[inline]
pub fn data_reg(o: softhsa_isa::Operand) -> usize {
    match (o.vgpr_index(), o.agpr_index()) {
        (Some(v), _) => usize::from(v),
        (_, Some(a)) => AGPR_BASE + usize::from(a),
        _ => 0,
    }
}

/// A vector memory store or atomic (waited for by `vmcnt`) is not yet fenced.
pub const UNFENCED_VECTOR: u8 = 1;
/// A scalar memory store (waited for by `lgkmcnt`) is not yet fenced.
pub const UNFENCED_SCALAR: u8 = 2;

impl Wave {
    pub fn new() -> Self {
        Wave {
            s: [0; 128],
            v: RegFile::boxed(),
            a: RegFile::boxed(),
            rep: RepFile::boxed(),
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
            gpr_index: false,
            unfenced_stores: 0,
            time_slice: false,
            gws_epoch: 0,
            gws_pending: 0,
            lin_rows: 0,
        }
    }

    /// Data register `r` (see [`AGPR_BASE`]).
    #[inline]
    pub fn dreg(&self, r: usize) -> &[u32; 64] {
        if r & AGPR_BASE != 0 {
            &self.a[r & 255]
        } else {
            &self.v[r & 255]
        }
    }

    /// Data register `r`, mutably.
    #[inline]
    pub fn dreg_mut(&mut self, r: usize) -> &mut [u32; 64] {
        if r & AGPR_BASE != 0 {
            &mut self.a[r & 255]
        } else {
            &mut self.v[r & 255]
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

    /// Recomputes [`Wave::gpr_idx_en`] after GPR indexing or MODE.VSKIP changed.
    #[inline]
    pub fn sync_vector_path(&mut self) {
        self.gpr_idx_en = self.gpr_index || self.mode & 1 << 28 != 0;
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// gfx90a+: the work-item ids are packed into v0 (x in bits 9:0, y in 19:10, z in 29:20).
    pub packed_ids: bool,
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

/// Writes initial SGPR values in order from `next`, straight into the wave (no allocation or
/// copy per wave); values past the last SGPR are dropped.
struct SgprWriter<'a> {
    s: &'a mut [u32; 128],
    next: usize,
}

impl SgprWriter<'_> {
    fn push(&mut self, x: u32) {
        if self.next < SGPR_COUNT {
            self.s[self.next] = x;
            self.next += 1;
        }
    }
    fn extend(&mut self, xs: impl IntoIterator<Item = u32>) {
        for x in xs {
            self.push(x);
        }
    }
}

/// What every wave of one work-group starts with, computed once per work-group: the SGPRs
/// the hardware loads (the user SGPRs, the work-group ids), MODE, and where the few values
/// that differ between its waves go ([`init_wave`]).
#[derive(Debug, PartialEq, Eq)]
pub struct WaveStart {
    s: [u32; 128],
    /// The SGPRs of the work-group ids X, Y, Z, if enabled.
    wg_slots: [Option<usize>; 3],
    mode: u32,
    /// The SGPRs of the work-group info and of the private segment wave offset, if enabled.
    info: Option<usize>,
    wave_offset: Option<usize>,
    /// Work-item id VGPRs (0: packed into v0, gfx90a+).
    id_dims: usize,
    wg_id: [u32; 3],
    /// Groups of 8 SGPRs from s0 up that hold every SGPR the hardware sets and the kernel
    /// uses (below [`SPECIAL_GROUP`]).
    used_groups: usize,
}

/// The first group of 8 SGPRs that [`init_wave`] always sets: s96-s101, then the special
/// registers from FLAT_SCRATCH (s102) on (XNACK_MASK, VCC, the trap temporaries, M0).
const SPECIAL_GROUP: usize = SGPR_COUNT / 8;

impl WaveStart {
    /// The start of the waves of work-group `wg_id` of a dispatch of `kd`.
    pub fn new(
        kd: &KernelDescriptor,
        grid: &Grid,
        wg_id: [u32; 3],
        lv: &LaunchValues,
    ) -> WaveStart {
        let mut s = [0; 128];
        let mut user = SgprWriter { s: &mut s, next: 0 };
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
            if kd.enable_sgpr_grid_workgroup_count[d] && (d == 0 || user.next < 16) {
                user.push(grid.counts[d]);
            }
        }
        // System SGPRs follow the USER_SGPR_COUNT user SGPRs the hardware loads.
        let first_sys = (kd.user_sgpr_count() as usize).max(user.next);
        let mut sys = SgprWriter {
            s: &mut s,
            next: first_sys,
        };
        let ids = kd.enable_sgpr_workgroup_id();
        let mut wg_slots = [None; 3];
        for d in 0..3 {
            if ids[d] {
                wg_slots[d] = (sys.next < SGPR_COUNT).then_some(sys.next);
                sys.push(wg_id[d]);
            }
        }
        // Per wave (`init_wave`); a slot past the last SGPR is dropped, as the writer drops it.
        let mut slot = || {
            let at = sys.next;
            sys.push(0);
            (at < SGPR_COUNT).then_some(at)
        };
        let info = kd.enable_sgpr_workgroup_info().then(&mut slot).flatten();
        let wave_offset = kd
            .enable_sgpr_private_segment_wave_offset()
            .then(&mut slot)
            .flatten();
        let used = sys.next.max(kd.sgpr_bound() as usize);
        let used_groups = used.div_ceil(8).min(SPECIAL_GROUP);
        WaveStart {
            s,
            wg_slots,
            mode: initial_mode(kd),
            info,
            wave_offset,
            id_dims: if lv.packed_ids {
                0
            } else {
                kd.enable_vgpr_workitem_id().min(2) as usize + 1
            },
            wg_id,
            used_groups,
        }
    }
}

impl WaveStart {
    /// The work-group id it was made (or last set) for.
    pub fn wg_id(&self) -> [u32; 3] {
        self.wg_id
    }

    /// This start made for work-group `wg_id` of the same dispatch: only the work-group id
    /// SGPRs differ between work-groups (a runner keeps its context's start from one
    /// work-group to the next rather than building it again).
    pub fn set_workgroup(&mut self, wg_id: [u32; 3]) {
        for (slot, id) in self.wg_slots.iter().zip(wg_id) {
            if let Some(at) = *slot {
                self.s[at] = id;
            }
        }
        self.wg_id = wg_id;
    }
}

/// Sets wave `index` of a work-group to its initial state: SGPRs and VGPRs per the ABI, EXEC,
/// MODE, pc (`start`: the work-group's [`WaveStart`]).
pub fn init_wave(
    w: &mut Wave,
    start: &WaveStart,
    shape: &WorkGroupShape,
    index: u32,
    lv: &LaunchValues,
) {
    // A wave's start is part of every wave's cost (a streaming kernel's waves run a few
    // hundred host instructions each): with AVX2 the SGPR copy and the id loops move 8 lanes
    // per instruction instead of the baseline's 4.
    #[cfg(target_arch = "x86_64")]
    {
        // AVX-512 code loads a VGPR chunk as one 64-byte load, which a store forwards only
        // when it wrote the whole chunk: the ids as 64-byte stores spare the wave's first
        // segment that wait (and take half the store-buffer entries).
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the host has AVX-512F and BW (and so AVX2), the features the function adds.
            unsafe { init_wave_avx512(w, start, shape, index, lv) };
            return;
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the host has AVX2, the only feature the function adds.
            unsafe { init_wave_avx2(w, start, shape, index, lv) };
            return;
        }
    }
    init_wave_any(w, start, shape, index, lv)
}

/// The start's SGPRs into `w`: those up to the kernel's SGPR count (from its descriptor: the
/// registers a kernel may use) and the special registers. Those past the count keep what
/// the previous wave on this context left (hardware leaves them undefined): copying all 512
/// bytes was a fifth of a streaming kernel's wave start, its stores queued behind the
/// previous wave's stores to memory.
#[inline(always)]
fn copy_sgprs(w: &mut Wave, start: &WaveStart) {
    for g in 0..start.used_groups {
        let (d, s) = (&mut w.s[8 * g..8 * g + 8], &start.s[8 * g..8 * g + 8]);
        d.copy_from_slice(s);
    }
    w.s[8 * SPECIAL_GROUP..].copy_from_slice(&start.s[8 * SPECIAL_GROUP..]);
}

/// [`init_wave`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn init_wave_avx2(
    w: &mut Wave,
    start: &WaveStart,
    shape: &WorkGroupShape,
    index: u32,
    lv: &LaunchValues,
) {
    // (With AVX2 each group of 8 SGPRs moves in one instruction.)
    init_wave_any(w, start, shape, index, lv)
}

/// [`init_wave`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx2")]
unsafe fn init_wave_avx512(
    w: &mut Wave,
    start: &WaveStart,
    shape: &WorkGroupShape,
    index: u32,
    lv: &LaunchValues,
) {
    init_wave_any(w, start, shape, index, lv)
}

/// [`init_wave`]'s body, inlined into each of its compilations.
#[inline(always)]
fn init_wave_any(
    w: &mut Wave,
    start: &WaveStart,
    shape: &WorkGroupShape,
    index: u32,
    lv: &LaunchValues,
) {
    copy_sgprs(w, start);
    // VGPRs other than the work-item ids keep what the previous wave on this worker left, as on
    // hardware: zeroing up to 64 KiB per wave would dominate short kernels.
    w.scc = false;
    w.pc = lv.entry;
    w.mode = start.mode;
    w.trapsts = 0;
    w.gpr_idx_en = false;
    w.gpr_index = false;
    w.unfenced_stores = 0;
    w.time_slice = false;
    w.gws_pending = 0;
    w.state = WaveState::Running;
    w.index = index;
    w.workgroup = start.wg_id;
    w.executed = 0;
    w.scratch_base = lv.scratch_base + u64::from(index) * u64::from(lv.scratch_wave_bytes);
    w.set_exec(shape.exec(index));
    if let Some(at) = start.info {
        let first = u32::from(index == 0) << 31;
        w.s[at] = first | (shape.waves & 0x3f);
    }
    if let Some(at) = start.wave_offset {
        w.s[at] = index * lv.scratch_wave_bytes;
    }
    // Hardware leaves FLAT_SCRATCH to the prolog; starting it at the wave's base is harmless and
    // lets hand-written code use scratch_* without one.
    let base = w.scratch_base;
    w.set_s64(FLAT_SCRATCH_LO, base);

    if start.id_dims == 0 {
        // gfx90a+: one VGPR holds all three ids, 10 bits each.
        fill_workitem_ids(w, shape, index, 3);
        for l in 0..64 {
            w.v[0][l] |= w.v[1][l] << 10 | w.v[2][l] << 20;
        }
        // (Y and z ids packed above x: along each row the x ids still count up below 1024
        // and y and z stay, which is what the JIT's lane-linear analysis takes of packed
        // ids, `Val::Packed` in `jit/lane_linear.rs`.)
    } else {
        fill_workitem_ids(w, shape, index, start.id_dims);
    }
}

/// VGPRs 0..dims = the lanes' work-item ids (X fastest). The common shapes take loops the
/// compiler vectorizes: a wave inside one row, or power-of-two extents.
#[inline(always)]
fn fill_workitem_ids(w: &mut Wave, shape: &WorkGroupShape, index: u32, dims: usize) {
    let [ex, ey, ez] = shape.extent;
    let flat0 = index * 64;
    w.lin_rows = 0;
    if ey == 1 && ez == 1 {
        // 1-D: x is the flat index (no division: a wave's start is cheap for short waves).
        for (l, v) in w.v[0].iter_mut().enumerate() {
            *v = flat0 + l as u32;
        }
        w.lin_rows = if flat0 + 63 < 1024 { 64 } else { 0 };
        if dims > 1 {
            w.v[1] = [0; 64];
        }
        if dims > 2 {
            w.v[2] = [0; 64];
        }
        return;
    }
    // (A division is a few percent of a 2-D kernel's wave start; its extents are mostly
    // powers of two.)
    let x0 = match ex.is_power_of_two() {
        true => flat0 & (ex - 1),
        false => flat0 % ex,
    };
    if x0 + 63 < ex {
        // One row: x counts up, y and z stay.
        let [_, y, z] = shape.workitem_id(index, 0);
        for (l, v) in w.v[0].iter_mut().enumerate() {
            *v = x0 + l as u32;
        }
        w.lin_rows = if x0 + 63 < 1024 { 64 } else { 0 };
        if dims > 1 {
            w.v[1] = [y; 64];
        }
        if dims > 2 {
            w.v[2] = [z; 64];
        }
        return;
    }
    // Rows of a work-group narrower than a wave: a wave starts at a multiple of 64, so at a
    // row's start, and every row of the wave is whole.
    if ex.is_power_of_two() && ex >= 8 {
        w.lin_rows = ex as u8;
    }
    if ex.is_power_of_two() && ey.is_power_of_two() {
        let (sx, sy) = (ex.trailing_zeros(), ey.trailing_zeros());
        for (l, v) in w.v[0].iter_mut().enumerate() {
            *v = (flat0 + l as u32) & (ex - 1);
        }
        if dims > 1 {
            for (l, v) in w.v[1].iter_mut().enumerate() {
                *v = (flat0 + l as u32) >> sx & (ey - 1);
            }
        }
        if dims > 2 {
            for (l, v) in w.v[2].iter_mut().enumerate() {
                *v = (flat0 + l as u32) >> (sx + sy);
            }
        }
        return;
    }
    // Any shape: count from lane 0's id (no division per lane).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// [`fill_workitem_ids`] as [`init_wave`] runs it on an AVX2 host.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn fill_avx2(w: &mut Wave, shape: &WorkGroupShape, index: u32, dims: usize) {
        fill_workitem_ids(w, shape, index, dims)
    }

    /// [`fill_workitem_ids`] as [`init_wave`] runs it on an AVX-512 host.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    unsafe fn fill_avx512(w: &mut Wave, shape: &WorkGroupShape, index: u32, dims: usize) {
        fill_workitem_ids(w, shape, index, dims)
    }

    /// Every compilation of each fill path (the baseline's, AVX2's and AVX-512's, where the host
    /// has them) gives each lane the id `WorkGroupShape::workitem_id` defines.
    #[test]
    fn workitem_ids_match_the_definition() {
        type Fill = fn(&mut Wave, &WorkGroupShape, u32, usize);
        let mut fills: Vec<(&str, Fill)> = vec![("baseline", fill_workitem_ids)];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            fills.push(("avx2", |w, s, i, d| {
                // SAFETY: the host has AVX2.
                unsafe { fill_avx2(w, s, i, d) }
            }));
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            fills.push(("avx512", |w, s, i, d| {
                // SAFETY: the host has AVX-512F and BW.
                unsafe { fill_avx512(w, s, i, d) }
            }));
        }
        for (what, fill) in fills {
            fill_all(what, fill);
        }
    }

    fn fill_all(what: &str, fill: fn(&mut Wave, &WorkGroupShape, u32, usize)) {
        for extent in [
            [256, 1, 1],
            [100, 1, 1],
            [1, 1, 1],
            [16, 16, 1],
            [32, 8, 1],
            [4, 16, 1],
            [8, 4, 2],
            [12, 5, 3],
            [100, 3, 1],
            [1, 1, 64],
            [64, 4, 1],
            [128, 2, 2],
            [1024, 1, 1],
        ] {
            let shape = WorkGroupShape::new(extent);
            let mut w = Wave::new();
            for index in 0..shape.waves {
                fill(&mut w, &shape, index, 3);
                // The JIT's lane-linear accesses rely on this flag (`jit/lane_linear.rs`): what
                // it claims holds, and it claims the widest rows there are where the work-group
                // is one row per wave or its rows are a power of two wide.
                let rows = |r: usize| {
                    r > 0
                        && (0..64).all(|l| {
                            let first = l - l % r;
                            w.v[0][l] == w.v[0][first].wrapping_add((l - first) as u32)
                                && w.v[1][l] == w.v[1][first]
                                && w.v[2][l] == w.v[2][first]
                        })
                        && w.v[0].iter().all(|&x| x < 1024)
                };
                let ctx = format!("{what}: {extent:?} wave {index}: lin_rows {}", w.lin_rows);
                assert!(
                    w.lin_rows == 0 || [8, 16, 32, 64].contains(&w.lin_rows),
                    "{ctx}"
                );
                assert!(w.lin_rows == 0 || rows(usize::from(w.lin_rows)), "{ctx}");
                if extent[0].is_power_of_two() || extent[1] * extent[2] == 1 {
                    let widest = [64, 32, 16, 8].into_iter().find(|&r| rows(r)).unwrap_or(0);
                    assert_eq!(usize::from(w.lin_rows), widest, "{ctx}");
                }
                for lane in 0..64u32 {
                    if index * 64 + lane >= shape.items {
                        continue;
                    }
                    let id = shape.workitem_id(index, lane);
                    let got = [0, 1, 2].map(|d| w.v[d][lane as usize]);
                    assert_eq!(got, id, "{what}: {extent:?} wave {index} lane {lane}");
                }
            }
        }
    }

    /// A start made for one work-group and moved to another (`set_workgroup`) is the start
    /// made for the other, whichever SGPRs the descriptor enables.
    #[test]
    fn a_start_moved_to_another_workgroup_is_that_workgroups() {
        let grid = Grid::new([1000, 70, 9], [64, 2, 3]).expect("valid grid");
        let lv = LaunchValues {
            entry: 3,
            kernarg: 0x7000_1234_5678,
            packet: 0x7100_0000_0040,
            queue: 0x7200_0000_0000,
            dispatch_id: 42,
            scratch_base: 0x7300_0000_1000,
            scratch_wave_bytes: 256,
            private_size: 4,
            private_vsharp: private_vsharp(0x7300_0000_1000),
            packed_ids: false,
        };
        let (a, b) = ([3, 1, 0], [15, 34, 2]);
        for bits in 0u32..1 << 12 {
            let mut kd = KernelDescriptor {
                enable_sgpr_private_segment_buffer: bits & 1 != 0,
                enable_sgpr_dispatch_ptr: bits & 2 != 0,
                enable_sgpr_kernarg_segment_ptr: bits & 4 != 0,
                enable_sgpr_dispatch_id: bits & 8 != 0,
                enable_sgpr_flat_scratch_init: bits & 16 != 0,
                ..Default::default()
            };
            // USER_SGPR_COUNT (0, 6 or 31), the three id enables, the info and wave offset.
            let user = [0, 6, 31][(bits >> 5) as usize % 3];
            kd.pgm_rsrc2 = user << 1 | (bits >> 7 & 7) << 7 | (bits >> 10 & 1) << 10;
            kd.pgm_rsrc2 |= bits >> 11 & 1;
            let mut moved = WaveStart::new(&kd, &grid, a, &lv);
            moved.set_workgroup(b);
            assert_eq!(moved, WaveStart::new(&kd, &grid, b, &lv), "bits {bits:#x}");
        }
    }
}
