//! Which global accesses address 64 consecutive dwords by construction, or rows of them: a
//! compile-time analysis of the lane-linear values a kernel computes from its work-item ids.
//!
//! A 1-D kernel's `x[i]` starts from VGPR 0, the work-item id, which in most waves counts up
//! by one from lane to lane. Adding uniform values (the group's first id), shifting by a
//! constant, widening to 64 bits and adding a uniform base keep that shape: the address of
//! lane l is lane 0's plus 4l. Where the analysis proves an address has that shape, the
//! access only checks lane 63's address against lane 0's (`mem_inline.rs`), instead of
//! comparing all 64 lanes (about 45 host instructions fewer, and the stub's call).
//!
//! A 2-D work-group narrower than a wave (16 x 16: the stencil's, a tiled matrix product's)
//! puts rows of its x ids in a wave: lanes 16r..16r+15 hold x ids 0..15 and one y id. The
//! analysis is the same along each row: a value is "linear with stride t" when, in each
//! row, lane l holds the row's first lane's value + t·(l - first), and "stride 0" when it is
//! the same across each row (the y id, products of such values, kernel arguments). In a wave
//! of one row that is the 1-D shape above; in rows of 16 or 32 the access checks each row
//! of 16 lanes (`mem_inline.rs`).
//!
//! The proof is static, over the kernel's control flow, with two conditions checked at run
//! time (`Wave::lin_rows`, set when the wave starts, the row length):
//! - The wave's lanes come in rows: in each aligned group of `lin_rows` lanes the x ids count
//!   up and the y and z ids stay (1-D work-groups and waves inside one row: one row of 64;
//!   work-groups 8, 16 or 32 wide: rows that wide). Every x id is below 1024.
//! - Every instruction the analysis took a value from ran with all 64 lanes active: a lane
//!   left out keeps its old value. Segments with such instructions clear `Wave::lin_rows`
//!   when they run with a partial EXEC, and so does every instruction the interpreter runs
//!   with one (`run_code_in`, `callout`). The flag never comes back within the wave.
//!
//! Values (per VGPR, at each point; "lane 0" is the first lane of the lane's row):
//! - `Lin { t, zeros }`: lane l holds lane 0's value + t·l (mod 2^32), and the bits in
//!   `zeros` are clear in every lane (for `or` acting as `add`);
//! - `Const(c)`: every lane holds c;
//! - `Sign(r)`: every lane holds the sign of VGPR r (`v_ashrrev_i32 d, 31, r`), the high
//!   dword of r sign-extended.
//!
//! A pair (r, r+1) may hold `Z { c, t }`: lane l's 64-bit value is B + c·ext(u_l) for a B
//! the same across the row and a 32-bit value u with u_l = u_0 + t·l (mod 2^32), ext a zero
//! or sign extension. Within 64 lanes u wraps at most once (|t| is small), and a wrap changes
//! the last lane's value against lane 0's by c·2^32, never 0 mod 2^64 for 0 < c < 2^32: so
//! when the access finds a row's last address exactly c·t·(its lanes - 1) above its first,
//! no lane of it wrapped, and lane l's address is lane 0's + c·t·l.
//!
//! A `saddr` access adds a uniform 64-bit base to each lane's 32-bit offset: an offset linear
//! with stride 4 is lane 0's + 4l in every lane unless it wraps within the wave, which the
//! access rules out from lane 0's offset alone (at most 2^32 - 253).
//!
//! Anything the analysis does not model makes what it writes unknown: call-outs to the
//! interpreter and wave-wide VGPR writes forget every value. Kernels with dynamic control
//! flow or VGPR indexing are not analysed at all.

use super::plan::{Block, Item, Plan};
use super::select::{Kind, LaneInst, LaneOp, Opd, VmemInst};
use crate::exec::int32::Int32;
use crate::program::{Program, Slot};

/// A VGPR's value across the wave's lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Unknown,
    Lin {
        t: i32,
        zeros: u32,
    },
    Const(u32),
    Sign(u8),
    /// gfx90a's packed work-item ids (`x | y << 10 | z << 20`): `x` the mask of the x ids'
    /// bits, `yz` of the y and z ids' (linear with stride 1 along each row: the x ids count
    /// up below 1024 and the y and z ids stay).
    Packed {
        x: u32,
        yz: u32,
    },
}

/// A pair's 64-bit value B + c·ext(u), u linear with stride t (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Z {
    c: u32,
    t: i32,
}

/// A carry a segment's `v_add_co_u32` wrote into SGPR pair `mask`: the low half of pair
/// value `z` (whose high dword is VGPR `hi`) plus a uniform, now in VGPR `lo`. The
/// `v_addc_co_u32` that adds `hi`, a uniform and this carry into `lo + 1` completes the pair.
#[derive(Clone, Copy, Debug)]
struct Carry {
    mask: u8,
    lo: u8,
    hi: u8,
    z: Z,
}

/// What is known at a point of the kernel.
#[derive(Clone, PartialEq, Eq)]
struct State {
    v: Vec<Val>,
    pair: Vec<Option<Z>>,
    /// Some value may be a `Sign` (writes then look for the values linked to their register).
    signs: bool,
}

/// The analysis' results for the emitter.
#[derive(Default)]
pub(super) struct Linear {
    /// Global dword accesses (instruction indexes, ascending) whose 64-bit address is lane
    /// 0's + 4l along each row of the wave (`Wave::lin_rows`), and LDS dword accesses whose
    /// address is.
    pub accesses: Vec<u32>,
    /// Segments (their first instruction's index, ascending) whose values the accesses may
    /// depend on: they clear `Wave::lin_rows` when they run with a partial EXEC.
    pub segments: Vec<u32>,
    /// LDS reads (instruction indexes, ascending) whose address is the same along each row:
    /// one dword per row and offset, broadcast (`mem_lds.rs`).
    pub same: Vec<u32>,
    /// Accesses proven linear, and LDS reads proven the same along each row, only in rows
    /// of 16 or 32 lanes (`Wave::lin_rows`), where the ids are smaller.
    pub narrow: Vec<u32>,
    pub narrow_same: Vec<u32>,
    /// 32-bit integer compares (instruction indexes, ascending) of a value linear with
    /// stride 1 against a uniform one (the linear one source 1 when `true`): in a wave of one
    /// row whose value does not wrap, the lanes that pass are a prefix or a suffix
    /// (`lane_prefix.rs`).
    pub prefix: Vec<(u32, bool)>,
    /// The kernel's waves start with y ids: its work-groups may be narrower than a wave, so
    /// its linear accesses also take the rows paths (`mem_inline.rs`, `mem_lds.rs`).
    pub rows: bool,
    /// Segments (their first instruction's index, ascending) after which every VGPR they
    /// write is known along the rows (`lane_rep.rs`), and how: per written VGPR, ascending.
    pub reps: Vec<(u32, Vec<(u8, Rep)>)>,
}

/// Takes each segment (its first instruction) all of whose writes are known, and how.
type RepSink<'a> = dyn FnMut(u32, Vec<(u8, Rep)>) + 'a;

/// How a VGPR's lanes follow from the first lane of their row (`lane_rep.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rep {
    /// Lane l holds the row's first lane's value + t·l (mod 2^32; t = 0: the same).
    Lin(i32),
    /// The high dword of a pair (the VGPR before it the low one) whose 64-bit value steps by
    /// this much from lane to lane along a row where its 32-bit index does not wrap: then
    /// the same along the row as long as the row's last lane's is the first's.
    Hi(i64),
}

/// What an access's addresses are along each row of the wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Other,
    /// Lane l's is lane 0's + 4l.
    Linear,
    /// Every lane's is lane 0's (LDS reads).
    Same,
    /// A compare of a value linear with stride 1 (source 1 when `true`) against a uniform
    /// one.
    Prefix(bool),
}

impl Linear {
    /// Whether access `i` is lane-linear.
    fn access(&self, i: u32) -> bool {
        self.accesses.binary_search(&i).is_ok()
    }

    /// Whether LDS read `i` reads one address per row.
    fn same(&self, i: u32) -> bool {
        self.same.binary_search(&i).is_ok()
    }

    /// Whether access `i` is proven linear (`Some(narrow)`), and only in narrow rows.
    pub fn linear(&self, i: u32) -> Option<bool> {
        if self.access(i) {
            Some(false)
        } else {
            self.narrow.binary_search(&i).is_ok().then_some(true)
        }
    }

    /// Whether LDS read `i` is proven to read one address per row (`Some(narrow)`), and
    /// only in narrow rows.
    pub fn same_in_rows(&self, i: u32) -> Option<bool> {
        if self.same(i) {
            Some(false)
        } else {
            self.narrow_same.binary_search(&i).is_ok().then_some(true)
        }
    }

    /// Whether compare `i` is a prefix compare, and whether its linear value is source 1.
    pub fn prefix(&self, i: u32) -> Option<bool> {
        self.prefix
            .binary_search_by_key(&i, |p| p.0)
            .ok()
            .map(|k| self.prefix[k].1)
    }

    /// What segment `first` writes, if all of it is known along the rows.
    pub fn rep(&self, first: u32) -> Option<&[(u8, Rep)]> {
        let k = self.reps.binary_search_by_key(&first, |r| r.0).ok()?;
        Some(&self.reps[k].1)
    }

    /// Whether segment `first` must clear the flag on a partial EXEC.
    pub fn segment(&self, first: u32) -> bool {
        !(self.accesses.is_empty()
            && self.same.is_empty()
            && self.narrow.is_empty()
            && self.narrow_same.is_empty()
            && self.prefix.is_empty())
            && self.segments.binary_search(&first).is_ok()
    }
}

/// The access shape the proof covers: one dword per lane, a 64-bit address in a VGPR pair.
pub(super) fn covered(m: &VmemInst) -> bool {
    m.dwords == 1
        && m.sub.is_none()
        && m.buf.is_none()
        && m.saddr.is_none()
        && !m.flat
        && m.vaddr < 255
}

/// The other shape it covers: one dword per lane at a uniform base (`saddr`) plus a 32-bit
/// lane offset, linear with stride 4 (lane 0's + 4l, unless lane 0's is within 252 of 2^32).
pub(super) fn covered_saddr(m: &VmemInst) -> bool {
    m.dwords == 1 && m.sub.is_none() && m.buf.is_none() && m.saddr.is_some() && !m.flat
}

/// Analyses `plan` (compiled from `prog`).
pub(super) fn analyse(prog: &Program, plan: &Plan) -> Linear {
    let blocks = &plan.blocks;
    // (Most of a compile's time goes nowhere without an access to prove.)
    let any = blocks.iter().flat_map(|b| &b.items).any(|it| match it {
        Item::Op(_, Kind::Vmem(m)) => covered(m) || covered_saddr(m),
        Item::Op(_, Kind::Ds(d)) => super::mem_lds::lin_ds(d),
        Item::Seg(insts) => insts.iter().any(|(_, li)| matches!(li.op, LaneOp::Cmp(..))),
        _ => false,
    });
    if !any {
        return Linear::default();
    }
    let Some(succs) = successors(prog, plan) else {
        return Linear::default();
    };
    let packed = prog.gfx.unified_vgprs();
    let start = |narrow| State::at_start(plan.ids, narrow, packed);
    let Some(mut out) = solve(plan, &succs, start(false), true) else {
        return Linear::default();
    };
    out.rows = plan.ids > 0;
    if out.rows {
        // Rows of 16 or 32 lanes bound the ids more tightly (a work-group at most 32 wide
        // and 1024 items: x below 32, y and z below 64), which proves more: the `or` of a
        // tile's base and a shifted x (`0x400 | 4 * x`).
        if let Some(n) = solve(plan, &succs, start(true), false) {
            out.narrow = n
                .accesses
                .iter()
                .copied()
                .filter(|i| !out.access(*i))
                .collect();
            out.narrow_same = n.same.iter().copied().filter(|i| !out.same(*i)).collect();
            out.segments.extend(n.segments);
            out.segments.sort_unstable();
            out.segments.dedup();
        }
    }
    out
}

/// The analysis from `start` at the plan's entry (`None`: it did not settle in time).
/// `reps`: also list the segments all of whose writes are known (`Linear::reps`).
fn solve(plan: &Plan, succs: &[Vec<usize>], start: State, reps: bool) -> Option<Linear> {
    let blocks = &plan.blocks;
    let n = blocks.len();
    let mut entry: Vec<Option<State>> = vec![None; n];
    let first = plan.entry_block()?;
    entry[first] = Some(start);
    let mut work = vec![first];
    let mut out = Linear::default();
    let mut rounds = 0usize;
    while let Some(k) = work.pop() {
        // Bounded: each block's state only loses facts, but a huge kernel should not cost
        // more here than its compile.
        rounds += 1;
        if rounds > 16 * n + 64 {
            return None;
        }
        let mut s = entry[k].clone().expect("queued blocks have a state");
        walk(&blocks[k], &mut s, &mut |_, _| {}, &mut |_| {}, None);
        for &t in &succs[k] {
            let merged = match &entry[t] {
                None => s.clone(),
                Some(e) => e.meet(&s),
            };
            if entry[t].as_ref() != Some(&merged) {
                entry[t] = Some(merged);
                if !work.contains(&t) {
                    work.push(t);
                }
            }
        }
    }
    for (k, b) in blocks.iter().enumerate() {
        let Some(mut s) = entry[k].clone() else {
            continue;
        };
        walk(
            b,
            &mut s,
            &mut |i, found| match found {
                Found::Linear => out.accesses.push(i),
                Found::Same => out.same.push(i),
                Found::Prefix(second) => out.prefix.push((i, second)),
                Found::Other => {}
            },
            &mut |first| out.segments.push(first),
            reps.then_some(&mut |first, known| out.reps.push((first, known))),
        );
    }
    out.accesses.sort_unstable();
    out.same.sort_unstable();
    out.prefix.sort_unstable();
    out.segments.sort_unstable();
    out.reps.sort_unstable_by_key(|r| r.0);
    Some(out)
}

/// Each block's successors (the plan's); `None` when the kernel has control flow or VGPR
/// addressing the analysis cannot follow.
fn successors(prog: &Program, plan: &Plan) -> Option<Vec<Vec<usize>>> {
    for b in &plan.blocks {
        for i in b.start..b.end {
            let Slot::Ok(x) = &prog.slots[i as usize] else {
                return None;
            };
            let name = x.inst.op.name();
            // (VGPR indexing and VSKIP change what instructions read and write.)
            let dynamic = super::plan::computed_jump(x.inst.op)
                || name.starts_with("s_set_gpr_idx")
                || name.starts_with("s_setvskip");
            if dynamic {
                return None;
            }
        }
    }
    plan.succs.iter().cloned().collect()
}

/// Follows block `b` from state `s`: `access(i, found)` for each covered access,
/// `producer(first)` for each segment that wrote a known value, `rep(first, reps)` (where
/// given: the fixpoint's rounds do without) for each segment all of whose writes are known.
fn walk(
    b: &Block,
    s: &mut State,
    access: &mut dyn FnMut(u32, Found),
    producer: &mut dyn FnMut(u32),
    mut rep: Option<&mut RepSink>,
) {
    let mut carries: Vec<Carry> = Vec::new();
    for item in &b.items {
        match item {
            Item::Seg(insts) => {
                let mut produced = false;
                let mut exec_written = false;
                for (i, li) in insts {
                    if let Some(second) = s.prefix_compare(li).filter(|_| !exec_written) {
                        access(*i, Found::Prefix(second));
                    }
                    produced |= s.lane(li, &mut carries, exec_written);
                    exec_written |= li.writes_exec;
                }
                if produced {
                    producer(insts[0].0);
                }
                if let Some(rep) = rep.as_mut().filter(|_| !exec_written) {
                    if let Some(reps) = s.reps(insts).filter(|r| !r.is_empty()) {
                        rep(insts[0].0, reps);
                    }
                }
            }
            Item::Callout(_) => {
                s.forget_all();
                carries.clear();
            }
            Item::Op(i, k) => {
                carries.clear();
                match k {
                    Kind::Vmem(m) => {
                        let linear = if covered(m) {
                            let z = s.pair_fact(m.vaddr);
                            z.is_some_and(|z| i64::from(z.c) * i64::from(z.t) == 4)
                        } else {
                            let v = s.v[usize::from(m.vaddr)];
                            covered_saddr(m) && matches!(v, Val::Lin { t: 4, .. })
                        };
                        if linear {
                            access(*i, Found::Linear);
                        }
                        if m.load {
                            for d in 0..m.dwords {
                                s.write(m.data.wrapping_add(d), Val::Unknown);
                            }
                        }
                    }
                    Kind::Ds(d) => {
                        if super::mem_lds::lin_ds(d) {
                            let v = s.v[usize::from(d.addr)];
                            access(
                                *i,
                                match v {
                                    Val::Lin { t: 4, .. } => Found::Linear,
                                    _ if d.load && uniform(v) => Found::Same,
                                    _ => Found::Other,
                                },
                            );
                        }
                        if d.load {
                            let n = d.dwords * if d.two { 2 } else { 1 };
                            for k in 0..n {
                                s.write(d.dst.wrapping_add(k), Val::Unknown);
                            }
                        }
                    }
                    Kind::DsAtomic(d) if d.rtn => {
                        for k in 0..d.regs() {
                            s.write(d.dst.wrapping_add(k), Val::Unknown);
                        }
                    }
                    Kind::VAtomic(m) if m.rtn => {
                        for k in 0..m.regs() {
                            s.write(m.dst.wrapping_add(k), Val::Unknown);
                        }
                    }
                    Kind::DsAtomic(_)
                    | Kind::VAtomic(_)
                    | Kind::Salu(_)
                    | Kind::Smem(_)
                    | Kind::Waitcnt(_)
                    | Kind::Nop
                    | Kind::Branch(_)
                    | Kind::End
                    | Kind::Barrier => {}
                    _ => s.forget_all(),
                }
            }
        }
    }
}

impl State {
    /// A wave's start: VGPR 0 the x id (below 1024, counting up along each row:
    /// `Wave::lin_rows`), and the y and z ids in the next `ids` VGPRs (the same along each
    /// row, below 1024). `narrow`: in rows of 16 or 32 (x below 32, y and z below 64).
    /// `packed`: gfx90a's one VGPR of ids, `x | y << 10 | z << 20` ([`Val::Packed`]).
    fn at_start(ids: u8, narrow: bool, packed: bool) -> State {
        let mut s = State {
            v: vec![Val::Unknown; 256],
            pair: vec![None; 256],
            signs: false,
        };
        let (x, yz) = if narrow { (0x1f, 0x3f) } else { (0x3ff, 0x3ff) };
        if packed {
            s.v[0] = Val::Packed { x, yz };
            return s;
        }
        s.v[0] = Val::Lin { t: 1, zeros: !x };
        for r in 1..=usize::from(ids.min(2)) {
            s.v[r] = Val::Lin { t: 0, zeros: !yz };
        }
        s
    }

    /// What holds on both paths.
    fn meet(&self, o: &State) -> State {
        State {
            v: self.v.iter().zip(&o.v).map(|(&a, &b)| meet(a, b)).collect(),
            pair: self
                .pair
                .iter()
                .zip(&o.pair)
                .map(|(a, b)| if a == b { *a } else { None })
                .collect(),
            signs: self.signs || o.signs,
        }
    }

    fn forget_all(&mut self) {
        self.v.fill(Val::Unknown);
        self.pair.fill(None);
        self.signs = false;
    }

    /// After segment `insts`: how each VGPR it wrote follows from its rows' first lanes, if
    /// that is known of all of them.
    fn reps(&self, insts: &[(u32, LaneInst)]) -> Option<Vec<(u8, Rep)>> {
        let rep = |r: u8| -> Option<Rep> {
            if let Some((t, _)) = lin(self.v[usize::from(r)]) {
                return Some(Rep::Lin(t));
            }
            let z = self.pair[usize::from(r.checked_sub(1)?)]?;
            Some(Rep::Hi(i64::from(z.c) * i64::from(z.t)))
        };
        let writes = || insts.iter().flat_map(|(_, li)| li.vgpr_writes());
        // (Most segments write something unknown: found out before anything is allocated.)
        if !writes().all(|r| rep(r).is_some()) {
            return None;
        }
        let mut out: Vec<(u8, Rep)> = Vec::new();
        writes().try_for_each(|r| {
            if !out.iter().any(|o| o.0 == r) {
                out.push((r, rep(r)?));
            }
            Some(())
        })?;
        out.sort_unstable_by_key(|o| o.0);
        Some(out)
    }

    /// VGPR `r` now holds `v`: what was known through its old value goes.
    fn write(&mut self, r: u8, v: Val) {
        if self.signs {
            for x in self.v.iter_mut() {
                if *x == Val::Sign(r) {
                    *x = Val::Unknown;
                }
            }
        }
        self.signs |= matches!(v, Val::Sign(_));
        self.v[usize::from(r)] = v;
        self.pair[usize::from(r)] = None;
        self.pair[usize::from(r.wrapping_sub(1))] = None;
    }

    /// An operand's value.
    fn opd(&self, o: Opd) -> Val {
        match o {
            Opd::V(r) => self.v[usize::from(r)],
            // (Every lane reads the same SGPR.)
            Opd::S(_) => Val::Lin { t: 0, zeros: 0 },
            Opd::K(c) => Val::Const(c),
        }
    }

    /// Whether `li` compares a value linear with stride 1 against a uniform one (32-bit
    /// integers, less or greater, plain operands): `Some(true)` when the linear one is
    /// source 1.
    fn prefix_compare(&self, li: &LaneInst) -> Option<bool> {
        use crate::valu::{CmpTy, Cond};
        let LaneOp::Cmp(ty, cond) = li.op else {
            return None;
        };
        let plain = matches!(ty, CmpTy::U32 | CmpTy::I32)
            && matches!(cond, Cond::Lt | Cond::Le | Cond::Gt | Cond::Ge)
            && li.n == 2
            && li.wide == [false; 3]
            && li.sdwa.is_none()
            && li.abs == 0
            && li.neg == 0
            && !li.writes_exec
            && li.mask_out.is_some();
        if !plain {
            return None;
        }
        let step = |o: Opd| matches!(o, Opd::V(_)) && matches!(self.opd(o), Val::Lin { t: 1, .. });
        let (a, b) = (li.src[0][0], li.src[1][0]);
        if step(a) && uniform(self.opd(b)) {
            Some(false)
        } else if step(b) && uniform(self.opd(a)) {
            Some(true)
        } else {
            None
        }
    }

    /// The 64-bit value of pair (r, r+1): recorded, or a linear low dword zero- or
    /// sign-extended.
    fn pair_fact(&self, r: u8) -> Option<Z> {
        if r == 255 {
            return None;
        }
        if let Some(z) = self.pair[usize::from(r)] {
            return Some(z);
        }
        let (t, _) = lin(self.v[usize::from(r)])?;
        match self.v[usize::from(r) + 1] {
            Val::Const(0) => Some(Z { c: 1, t }),
            Val::Sign(x) if x == r => Some(Z { c: 1, t }),
            _ => None,
        }
    }

    /// Lane instruction `li` (after an EXEC write in its segment: `exec_written`); returns
    /// whether it wrote a known value.
    fn lane(&mut self, li: &LaneInst, carries: &mut Vec<Carry>, exec_written: bool) -> bool {
        // Sources are read before anything is written (a carry-in read, then the carry-out
        // written to the same pair; a shift in place).
        let (val, pair, carry) = if exec_written || li.writes_exec {
            (Val::Unknown, None, None)
        } else {
            self.eval(li, carries)
        };
        if let Some(m) = li.mask_out {
            carries.retain(|c| c.mask.abs_diff(m) >= 2);
        }
        for r in li.vgpr_writes() {
            carries.retain(|c| c.lo != r && c.hi != r);
            self.write(r, Val::Unknown);
        }
        let Some(d) = li.dst else {
            return false;
        };
        // (For a wide destination, `val` is its low dword's.)
        if val != Val::Unknown {
            self.write(d, val);
        }
        if let Some(z) = pair {
            let lo = if li.dst_wide { d } else { d.wrapping_sub(1) };
            self.pair[usize::from(lo)] = Some(z);
        }
        if let Some(c) = carry {
            carries.push(c);
        }
        val != Val::Unknown || pair.is_some() || carry.is_some()
    }

    /// The value `li` writes to its destination (for a wide one: to its low dword), a pair
    /// value it completes, and a carry it starts.
    fn eval(&self, li: &LaneInst, carries: &[Carry]) -> (Val, Option<Z>, Option<Carry>) {
        let src = |i: usize| self.opd(li.src[i][0]);
        let none = (Val::Unknown, None, None);
        match li.op {
            LaneOp::Int(op) => {
                let v = int(op, li, &src);
                match op {
                    Int32::AddCo if li.dst.is_some() => {
                        let c = li.mask_out.and_then(|mask| {
                            let d = li.dst?;
                            // One source the low dword of a pair value, the other uniform.
                            let p = match (li.src[0][0], li.src[1][0]) {
                                (Opd::V(p), u) | (u, Opd::V(p)) if uniform(self.opd(u)) => p,
                                _ => return None,
                            };
                            // (A sum into the pair's own high dword leaves nothing to
                            // complete it with.)
                            if d == p.wrapping_add(1) {
                                return None;
                            }
                            let z = self.pair_fact(p)?;
                            Some(Carry {
                                mask,
                                lo: d,
                                hi: p.checked_add(1)?,
                                z,
                            })
                        });
                        (v, None, c)
                    }
                    Int32::Addc => {
                        let (Some(d), Some(m)) = (li.dst, li.mask_in) else {
                            return none;
                        };
                        let Some(c) = carries.iter().find(|c| c.mask == m) else {
                            return none;
                        };
                        let ok = d == c.lo.wrapping_add(1)
                            && c.lo != 255
                            && matches!(
                                (li.src[0][0], li.src[1][0]),
                                // (A guard is tried for each alternative that matches.)
                                (Opd::V(h), u) | (u, Opd::V(h))
                                    if h == c.hi && uniform(self.opd(u))
                            );
                        if ok {
                            (Val::Unknown, Some(c.z), None)
                        } else {
                            none
                        }
                    }
                    _ => (v, None, None),
                }
            }
            // The low dword of src0 * src1 + src2 (signed or not: the same low bits).
            LaneOp::Mad64 { .. } if li.n >= 3 => (add(mul(src(0), src(1)), src(2)), None, None),
            // The y or z ids out of the packed ids: `v_bfe_u32 d, v0, 10 (20), 10`.
            LaneOp::Bits(crate::valu::BitsOp::BfeU32) if li.abs == 0 && li.neg == 0 => {
                match (src(0), src(1), src(2)) {
                    (Val::Packed { yz, .. }, Val::Const(10 | 20), Val::Const(10)) => {
                        (Val::Lin { t: 0, zeros: !yz }, None, None)
                    }
                    _ => none,
                }
            }
            // v_lshlrev_b64 d, k, (lo, hi).
            LaneOp::Shift64(0) => {
                let (Val::Const(k), [Opd::V(lo), Opd::V(hi)]) = (src(0), li.src[1]) else {
                    return none;
                };
                let k = k & 63;
                if hi != lo.wrapping_add(1) || k >= 32 {
                    return none;
                }
                let Some(z) = self.pair_fact(lo) else {
                    return none;
                };
                let c = u64::from(z.c) << k;
                let low = match lin(self.v[usize::from(lo)]) {
                    Some((t, zeros)) => Val::Lin {
                        t: t.wrapping_shl(k),
                        zeros: zeros << k | ((1u32 << k) - 1),
                    },
                    None => Val::Unknown,
                };
                match u32::try_from(c) {
                    Ok(c) => (low, Some(Z { c, t: z.t }), None),
                    Err(_) => none,
                }
            }
            _ => none,
        }
    }
}

/// What holds of a VGPR whichever of two paths came: one stride, the bits clear on both
/// (a uniform value on one path and a constant on the other: uniform).
fn meet(a: Val, b: Val) -> Val {
    if a == b {
        return a;
    }
    match (lin(a), lin(b)) {
        (Some((ta, za)), Some((tb, zb))) if ta == tb => Val::Lin {
            t: ta,
            zeros: za & zb,
        },
        _ => Val::Unknown,
    }
}

/// A `Lin` view of a value: (stride, bits clear in every lane).
fn lin(v: Val) -> Option<(i32, u32)> {
    match v {
        Val::Lin { t, zeros } => Some((t, zeros)),
        Val::Const(c) => Some((0, !c)),
        Val::Packed { x, yz } => Some((1, !(x | yz << 10 | yz << 20))),
        _ => None,
    }
}

/// Every lane holds the same value.
fn uniform(v: Val) -> bool {
    lin(v).is_some_and(|(t, _)| t == 0)
}

/// `a | b` when no bit may be set in both: then it is `a + b`, lane by lane.
fn disjoint_or(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Const(x), Val::Const(y)) => Val::Const(x | y),
        _ => match (lin(a), lin(b)) {
            (Some((ta, za)), Some((tb, zb))) if !za & !zb == 0 => Val::Lin {
                t: ta.wrapping_add(tb),
                zeros: za & zb,
            },
            _ => Val::Unknown,
        },
    }
}

/// `a << k` for a constant k.
fn shl(a: Val, k: Val) -> Val {
    let Val::Const(k) = k else {
        return Val::Unknown;
    };
    let k = k & 31;
    match a {
        Val::Const(x) => Val::Const(x << k),
        _ => match lin(a) {
            Some((t, z)) => Val::Lin {
                t: t.wrapping_shl(k),
                zeros: z << k | ((1u32 << k) - 1),
            },
            None => Val::Unknown,
        },
    }
}

/// `a + b` (t adds; nothing is known of the bits).
fn add(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Const(x), Val::Const(y)) => Val::Const(x.wrapping_add(y)),
        (Val::Const(0), v) | (v, Val::Const(0)) => v,
        _ => match (lin(a), lin(b)) {
            (Some((ta, _)), Some((tb, _))) => Val::Lin {
                t: ta.wrapping_add(tb),
                zeros: 0,
            },
            _ => Val::Unknown,
        },
    }
}

/// `a - b`.
fn sub(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Const(x), Val::Const(y)) => Val::Const(x.wrapping_sub(y)),
        (v, Val::Const(0)) => v,
        _ => match (lin(a), lin(b)) {
            (Some((ta, _)), Some((tb, _))) => Val::Lin {
                t: ta.wrapping_sub(tb),
                zeros: 0,
            },
            _ => Val::Unknown,
        },
    }
}

/// `a * b` with b a constant, or both the same across each row (the low 32 bits).
fn mul(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Const(x), Val::Const(y)) => Val::Const(x.wrapping_mul(y)),
        (Val::Lin { t: 0, .. }, Val::Lin { t: 0, .. }) => Val::Lin { t: 0, zeros: 0 },
        (v, Val::Const(c)) | (Val::Const(c), v) => match lin(v) {
            Some((t, _)) => Val::Lin {
                t: t.wrapping_mul(c as i32),
                zeros: 0,
            },
            None => Val::Unknown,
        },
        _ => Val::Unknown,
    }
}

/// Bits 24 and up clear in every lane (a 24-bit multiply's operand is the value itself).
fn fits24(v: Val) -> bool {
    lin(v).is_some_and(|(_, z)| z & 0xff00_0000 == 0xff00_0000)
}

/// The value a 32-bit integer op writes (`src(i)`: source i's value).
fn int(op: Int32, li: &LaneInst, src: &dyn Fn(usize) -> Val) -> Val {
    use Int32::*;
    if li.n < op_arity(op) {
        return Val::Unknown;
    }
    match op {
        Mov => src(0),
        Add | AddCo => add(src(0), src(1)),
        Sub | SubCo => sub(src(0), src(1)),
        SubRev | SubRevCo => sub(src(1), src(0)),
        LshlRev => shl(src(1), src(0)),
        AshrRev => match (src(0), li.src[1][0]) {
            // (Not into its own source: the sign of a value it no longer holds.)
            (Val::Const(k), Opd::V(r))
                if k & 31 == 31 && lin(src(1)).is_some() && li.dst != Some(r) =>
            {
                Val::Sign(r)
            }
            _ => Val::Unknown,
        },
        And => match (src(0), src(1)) {
            (Val::Const(x), Val::Const(y)) => Val::Const(x & y),
            // The x ids out of the packed ids: a mask that keeps their bits and none of y's
            // or z's.
            (Val::Const(m), Val::Packed { x, yz }) | (Val::Packed { x, yz }, Val::Const(m))
                if m & x == x && m & (yz << 10 | yz << 20) == 0 =>
            {
                Val::Lin { t: 1, zeros: !x }
            }
            // A mask that keeps every bit the value may have set.
            (Val::Const(m), v) | (v, Val::Const(m)) => match lin(v) {
                Some((_, z)) if !z & !m == 0 => v,
                _ => Val::Unknown,
            },
            _ => Val::Unknown,
        },
        Or | Xor => disjoint_or(src(0), src(1)),
        // The y and z ids out of the packed ids (`v >> 10`, `v >> 20`).
        LshrRev => match (src(0), src(1)) {
            (Val::Const(10), Val::Packed { yz, .. }) => Val::Lin {
                t: 0,
                zeros: !(yz | yz << 10),
            },
            (Val::Const(20), Val::Packed { yz, .. }) => Val::Lin { t: 0, zeros: !yz },
            _ => Val::Unknown,
        },
        MulLo => mul(src(0), src(1)),
        MulU24 if fits24(src(0)) && fits24(src(1)) => mul(src(0), src(1)),
        MadU24 if fits24(src(0)) && fits24(src(1)) => add(mul(src(0), src(1)), src(2)),
        LshlAdd => add(shl(src(0), src(1)), src(2)),
        AddLshl => shl(add(src(0), src(1)), src(2)),
        Add3 => add(add(src(0), src(1)), src(2)),
        LshlOr => disjoint_or(shl(src(0), src(1)), src(2)),
        Or3 => disjoint_or(disjoint_or(src(0), src(1)), src(2)),
        _ => Val::Unknown,
    }
}

/// Sources `int` reads for `op`.
fn op_arity(op: Int32) -> usize {
    use Int32::*;
    match op {
        Mov => 1,
        LshlAdd | AddLshl | Add3 | LshlOr | Or3 | MadU24 | MadI24 => 3,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(t: i32) -> Val {
        Val::Lin { t, zeros: 0 }
    }

    #[test]
    fn or_is_add_only_for_disjoint_bits() {
        // (s << 12) | id, id < 1024: linear; id | id is not.
        let id = Val::Lin {
            t: 1,
            zeros: !0x3ff,
        };
        let hi = shl(Val::Lin { t: 0, zeros: 0 }, Val::Const(12));
        assert_eq!(disjoint_or(hi, id), Val::Lin { t: 1, zeros: 0xc00 });
        assert_eq!(disjoint_or(id, id), Val::Unknown);
        assert_eq!(disjoint_or(v(1), Val::Const(0x400)), Val::Unknown);
    }

    #[test]
    fn paths_meet_on_a_common_stride_only() {
        let u = |zeros| Val::Lin { t: 0, zeros };
        assert_eq!(meet(Val::Const(0), u(0xff00)), u(0xff00));
        assert_eq!(meet(Val::Const(1), Val::Const(2)), u(!3));
        assert_eq!(meet(v(4), Val::Lin { t: 4, zeros: 3 }), v(4));
        assert_eq!(meet(v(4), v(0)), Val::Unknown);
        assert_eq!(meet(v(4), Val::Const(0)), Val::Unknown);
        assert_eq!(meet(Val::Sign(0), v(0)), Val::Unknown);
    }

    #[test]
    fn shifts_scale_the_stride_and_clear_low_bits() {
        assert_eq!(shl(v(1), Val::Const(2)), Val::Lin { t: 4, zeros: 3 });
        assert_eq!(shl(v(1), Val::Lin { t: 0, zeros: 0 }), Val::Unknown);
        assert_eq!(mul(v(3), Val::Const(4)), v(12));
        assert_eq!(sub(v(1), v(1)), v(0));
    }

    /// A lane instruction from its parts (the fields the analysis reads).
    fn li(op: Int32, src: [Opd; 3], n: usize, dst: u8) -> LaneInst {
        LaneInst {
            op: LaneOp::Int(op),
            src: src.map(|o| [o, Opd::K(0)]),
            wide: [false; 3],
            n,
            dst: Some(dst),
            dst_wide: false,
            mask_in: matches!(op, Int32::Addc).then_some(106),
            mask_out: matches!(op, Int32::AddCo | Int32::Addc).then_some(106),
            writes_exec: false,
            abs: 0,
            neg: 0,
            sdwa: None,
        }
    }

    #[test]
    fn a_carry_chain_completes_a_pair_only_from_its_own_high_dword() {
        use Opd::{K, S, V};
        // (v0, v1) = zext(id); v[2:3] = s[10:11] + (v0, v1): linear.
        let run = |chain: &[LaneInst]| {
            let mut s = State::at_start(0, false, false);
            s.write(1, Val::Const(0));
            let mut carries = Vec::new();
            for l in chain {
                s.lane(l, &mut carries, false);
            }
            s
        };
        let s = run(&[
            li(Int32::AddCo, [S(10), V(0), K(0)], 2, 2),
            li(Int32::Addc, [S(11), V(1), K(0)], 2, 3),
        ]);
        assert_eq!(s.pair_fact(2), Some(Z { c: 1, t: 1 }));
        // The low sum written over the pair's high dword, then "completed" with it: no pair.
        let s = run(&[
            li(Int32::AddCo, [S(10), V(0), K(0)], 2, 1),
            li(Int32::Addc, [S(11), V(1), K(0)], 2, 2),
        ]);
        assert_eq!(s.pair_fact(1), None);
        // The high source rewritten between the two: no pair.
        let s = run(&[
            li(Int32::AddCo, [S(10), V(0), K(0)], 2, 2),
            li(Int32::Mov, [S(4), K(0), K(0)], 1, 1),
            li(Int32::Addc, [S(11), V(1), K(0)], 2, 3),
        ]);
        assert_eq!(s.pair_fact(2), None);
        // A sign taken in place is no sign of anything.
        let s = run(&[li(Int32::AshrRev, [K(31), V(0), K(0)], 2, 0)]);
        assert_eq!(s.v[0], Val::Unknown);
    }

    #[test]
    fn a_pair_is_linear_only_when_zero_or_sign_extended() {
        let mut s = State::at_start(0, false, false);
        s.v[1] = Val::Const(0);
        assert_eq!(s.pair_fact(0), Some(Z { c: 1, t: 1 }));
        s.write(1, Val::Sign(0));
        assert_eq!(s.pair_fact(0), Some(Z { c: 1, t: 1 }));
        // Rewriting the low dword ends the sign's link to it.
        s.write(0, v(1));
        assert_eq!(s.v[1], Val::Unknown);
        assert_eq!(s.pair_fact(0), None);
        s.write(3, Val::Const(7));
        s.write(2, v(1));
        assert_eq!(s.pair_fact(2), None);
    }

    #[test]
    fn packed_ids_give_x_y_and_z() {
        use Opd::{K, V};
        let run = |narrow: bool, chain: &[LaneInst]| {
            let mut s = State::at_start(1, narrow, true);
            let mut carries = Vec::new();
            for l in chain {
                s.lane(l, &mut carries, false);
            }
            s
        };
        let bfe = |off: u32, width: u32, dst: u8| LaneInst {
            op: LaneOp::Bits(crate::valu::BitsOp::BfeU32),
            ..li(Int32::Mov, [V(0), K(off), K(width)], 3, dst)
        };
        // v4 = v0 & 0x3ff (x), v5 = bfe(v0, 10, 10) (y), v6 = bfe(v0, 20, 10) (z),
        // v7 = v0 >> 20 (z), v8 = v0 >> 10 (y | z << 10).
        let chain = [
            li(Int32::And, [K(0x3ff), V(0), K(0)], 2, 4),
            bfe(10, 10, 5),
            bfe(20, 10, 6),
            li(Int32::LshrRev, [K(20), V(0), K(0)], 2, 7),
            li(Int32::LshrRev, [K(10), V(0), K(0)], 2, 8),
        ];
        let s = run(false, &chain);
        assert_eq!(
            s.v[0],
            Val::Packed {
                x: 0x3ff,
                yz: 0x3ff
            }
        );
        assert_eq!(
            s.v[4],
            Val::Lin {
                t: 1,
                zeros: !0x3ff
            }
        );
        assert_eq!(
            s.v[5],
            Val::Lin {
                t: 0,
                zeros: !0x3ff
            }
        );
        assert_eq!(
            s.v[6],
            Val::Lin {
                t: 0,
                zeros: !0x3ff
            }
        );
        assert_eq!(
            s.v[7],
            Val::Lin {
                t: 0,
                zeros: !0x3ff
            }
        );
        assert_eq!(
            s.v[8],
            Val::Lin {
                t: 0,
                zeros: !0xf_ffff
            }
        );
        // The packed value itself steps by one along a row: bits 30 and 31 are clear.
        assert_eq!(lin(s.v[0]), Some((1, 0xc000_0000)));
        // VGPRs 1 and 2 hold no ids here.
        assert_eq!(s.v[1], Val::Unknown);
        let s = run(true, &chain);
        assert_eq!(s.v[4], Val::Lin { t: 1, zeros: !0x1f });
        assert_eq!(s.v[5], Val::Lin { t: 0, zeros: !0x3f });
        // Masks that keep part of x, or reach into y; other fields: unknown.
        let s = run(
            false,
            &[
                li(Int32::And, [K(0xff), V(0), K(0)], 2, 4),
                li(Int32::And, [K(0x7ff), V(0), K(0)], 2, 5),
                bfe(10, 20, 6),
                bfe(11, 10, 7),
                li(Int32::LshrRev, [K(12), V(0), K(0)], 2, 8),
            ],
        );
        for r in 4..=8 {
            assert_eq!(s.v[r], Val::Unknown, "v{r}");
        }
    }
}
