//! Shared virtual memory as ROCm 5.2 exposes it on a discrete gfx9 board with HMM:
//! `hsa_amd_svm_attributes_set/get`, `hsa_amd_svm_prefetch_async`, and the system facts HIP
//! reads (`HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED` true, `SVM_ACCESSIBLE_BY_DEFAULT` false because
//! gfx9 runs with XNACK off, no direct host access to device-resident SVM).
//!
//! HIP's `hipMallocManaged` maps ordinary host memory and gives every GPU access to it with
//! `HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE`; only then may kernels touch it (ordinary host memory
//! stays out of reach: accessible-by-default is false). Attributes are kept per page run in the
//! allocation registry ([`crate::memory::RangeKind::Svm`] ranges, see `memory::registry::svm`)
//! with KFD's semantics: new ranges start fine-grained with host access, migration granularity
//! 2^9 pages and no preferred location; a query over pages that differ reports what all of
//! them share (flags set on every page, a location only if uniform, INDETERMINATE coherence).
//! Memory never moves (the GPU works on host memory), so a prefetch records its destination and
//! completes once its dependencies have.
//!
//! The program may unmap SVM memory without telling the runtime (HIP's `hipFree` does), so
//! each dispatch first drops the records of ranges no longer wholly mapped ([`prune_unmapped`]),
//! as KFD drops them at the unmap, and each SVM call drops those overlapping its span: the
//! freed span may be mapped again in part by then (`hipFree` then `hipMallocManaged`, the new
//! pages inside the old hole), and the new pages must start from the defaults, not merge with
//! the dead record and then vanish with it at the next dispatch. Memory unmapped and mapped
//! again whole between two calls into the runtime cannot be told from memory that stayed: it
//! keeps its record.

use crate::memory::{registry::SvmPiece, Memory};
use crate::{Error, Result};
use softhsa_abi::*;

mod range;
pub use range::{mapped, page_span};

/// Default migration granularity (log2 of pages), as KFD's.
const GRANULARITY: u8 = 9;

/// The SVM attributes of a run of pages (access is the registry range's `access` mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attributes {
    /// HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED (else fine-grained).
    pub coarse: bool,
    pub read_only: bool,
    pub hive_local: bool,
    pub read_mostly: bool,
    /// log2 of the migration granularity in pages.
    pub granularity: u8,
    /// Agent index + 1 of the preferred location (0: none).
    pub preferred: usize,
    /// Agent index + 1 of the last prefetch destination (0: none).
    pub prefetched: usize,
    /// Agents (bit per index) given access in place rather than with migration.
    pub in_place: u64,
}

impl Default for Attributes {
    fn default() -> Self {
        Attributes {
            coarse: false,
            read_only: false,
            hive_local: false,
            read_mostly: false,
            granularity: GRANULARITY,
            preferred: 0,
            prefetched: 0,
            in_place: 0,
        }
    }
}

/// Defaults of pages that have no record yet: host access only, default attributes.
fn defaults() -> (u64, Attributes) {
    (1, Attributes::default())
}

/// Agent handles as the runtime's topology resolves them.
pub trait Agents {
    /// The index of the agent with `handle`, or INVALID_AGENT.
    fn index(&self, handle: u64) -> Result<usize>;
    /// The handle of agent `index`.
    fn handle(&self, index: usize) -> u64;
    /// Whether agent `index` is the CPU.
    fn is_cpu(&self, index: usize) -> bool;
}

/// One `(attribute, value)` pair of `hsa_amd_svm_attribute_pair_t`.
pub type Pair = (u64, u64);

/// `hsa_amd_svm_attributes_set` over `[ptr, ptr + size)` (widened to whole pages).
pub fn set(mem: &Memory, agents: &dyn Agents, ptr: u64, size: u64, list: &[Pair]) -> Result<()> {
    let (start, end) = page_span(ptr, size)?;
    let ops = parse_set(agents, list)?;
    prune_span(mem, start, end);
    if !mapped(start, end - start) {
        return Err(Error::with_message(
            HSA_STATUS_ERROR,
            format!("[{start:#x}, {end:#x}) is not mapped memory of this process"),
        ));
    }
    mem.registry()
        .svm_update(start, end, defaults(), |access, a| apply(&ops, access, a))
}

/// A validated attribute change.
enum SetOp {
    Coarse(bool),
    ReadOnly(bool),
    HiveLocal(bool),
    ReadMostly(bool),
    Granularity(u8),
    Preferred(usize),
    /// (agent index, accessible, in place)
    Access(usize, bool, bool),
}

fn parse_set(agents: &dyn Agents, list: &[Pair]) -> Result<Vec<SetOp>> {
    let invalid =
        |why: &str| Error::with_message(HSA_STATUS_ERROR_INVALID_ARGUMENT, why.to_string());
    let twice =
        |why: &str| Error::with_message(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, why.to_string());
    let (mut seen_attr, mut seen_agent) = (0u64, 0u64);
    let mut ops = Vec::new();
    for &(attr, value) in list {
        let once = |seen: &mut u64| {
            if *seen >> attr & 1 != 0 {
                return Err(twice("attribute given twice"));
            }
            *seen |= 1 << attr;
            Ok(())
        };
        let op = match attr {
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG) => {
                once(&mut seen_attr)?;
                match value {
                    v if v == u64::from(HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED) => {
                        SetOp::Coarse(false)
                    }
                    v if v == u64::from(HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED) => {
                        SetOp::Coarse(true)
                    }
                    _ => return Err(invalid("invalid HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG value")),
                }
            }
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_READ_ONLY) => {
                once(&mut seen_attr)?;
                SetOp::ReadOnly(value != 0)
            }
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_HIVE_LOCAL) => {
                once(&mut seen_attr)?;
                SetOp::HiveLocal(value != 0)
            }
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_READ_MOSTLY) => {
                once(&mut seen_attr)?;
                SetOp::ReadMostly(value != 0)
            }
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY) => {
                once(&mut seen_attr)?;
                // At most 1 GiB (2^18 pages), as ROCm clamps it.
                SetOp::Granularity(value.min(18) as u8)
            }
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION) => {
                once(&mut seen_attr)?;
                SetOp::Preferred(if value == 0 {
                    0
                } else {
                    agents.index(value)? + 1
                })
            }
            a if a == u64::from(HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE)
                || a == u64::from(HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE)
                || a == u64::from(HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS) =>
            {
                let i = agents.index(value)?;
                if seen_agent >> i & 1 != 0 {
                    return Err(twice("several access attributes for one agent"));
                }
                seen_agent |= 1 << i;
                let no = a == u64::from(HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS);
                let in_place = a == u64::from(HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE);
                SetOp::Access(i, !no, in_place)
            }
            _ => {
                return Err(invalid(
                    "attribute not settable (PREFETCH_LOCATION, ACCESS_QUERY, unknown)",
                ))
            }
        };
        ops.push(op);
    }
    Ok(ops)
}

fn apply(ops: &[SetOp], access: &mut u64, a: &mut Attributes) {
    for op in ops {
        match *op {
            SetOp::Coarse(v) => a.coarse = v,
            SetOp::ReadOnly(v) => a.read_only = v,
            SetOp::HiveLocal(v) => a.hive_local = v,
            SetOp::ReadMostly(v) => a.read_mostly = v,
            SetOp::Granularity(g) => a.granularity = g,
            SetOp::Preferred(p) => a.preferred = p,
            SetOp::Access(i, on, in_place) => {
                let bit = 1u64 << i;
                *access = if on { *access | bit } else { *access & !bit };
                a.in_place = if on && in_place {
                    a.in_place | bit
                } else {
                    a.in_place & !bit
                };
            }
        }
    }
}

/// `hsa_amd_svm_attributes_get`: fills the values (and, for ACCESS_QUERY, the attribute) of
/// `list` for `[ptr, ptr + size)`.
pub fn get(
    mem: &Memory,
    agents: &dyn Agents,
    ptr: u64,
    size: u64,
    list: &mut [Pair],
) -> Result<()> {
    let (start, end) = page_span(ptr, size)?;
    prune_span(mem, start, end);
    if !mapped(start, end - start) {
        return Err(Error::with_message(
            HSA_STATUS_ERROR,
            format!("[{start:#x}, {end:#x}) is not mapped memory of this process"),
        ));
    }
    let pieces = mem.registry().svm_pieces(start, end, defaults())?;
    let all = |f: &dyn Fn(&SvmPiece) -> bool| pieces.iter().all(f);
    let uniform = |f: &dyn Fn(&SvmPiece) -> usize| {
        let v = f(&pieces[0]);
        if pieces.iter().all(|p| f(p) == v) {
            v
        } else {
            0
        }
    };
    let handle_of = |i: usize| if i == 0 { 0 } else { agents.handle(i - 1) };
    for (attr, value) in list.iter_mut() {
        let a = *attr as u32;
        *value = match a {
            HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG => u64::from(if all(&|p| !p.attrs.coarse) {
                HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED
            } else if all(&|p| p.attrs.coarse) {
                HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED
            } else {
                HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE
            }),
            HSA_AMD_SVM_ATTRIB_READ_ONLY => u64::from(all(&|p| p.attrs.read_only)),
            HSA_AMD_SVM_ATTRIB_HIVE_LOCAL => u64::from(all(&|p| p.attrs.hive_local)),
            HSA_AMD_SVM_ATTRIB_READ_MOSTLY => u64::from(all(&|p| p.attrs.read_mostly)),
            HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY => u64::from(
                pieces
                    .iter()
                    .map(|p| p.attrs.granularity)
                    .min()
                    .unwrap_or(GRANULARITY),
            ),
            HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION => handle_of(uniform(&|p| p.attrs.preferred)),
            HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION => handle_of(uniform(&|p| p.attrs.prefetched)),
            HSA_AMD_SVM_ATTRIB_ACCESS_QUERY => {
                let i = agents.index(*value)?;
                let bit = 1u64 << i;
                if agents.is_cpu(i) {
                    // The CPU has host access unless denied on some page; otherwise ROCm
                    // leaves the pair as it was.
                    if all(&|p| p.access & bit != 0) {
                        *attr = u64::from(HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE);
                    }
                } else {
                    *attr = u64::from(if all(&|p| p.attrs.in_place & bit != 0) {
                        HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE
                    } else if all(&|p| p.access & bit != 0) {
                        HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE
                    } else {
                        HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS
                    });
                }
                *value
            }
            _ => {
                return Err(Error::with_message(
                    HSA_STATUS_ERROR_INVALID_ARGUMENT,
                    "attribute not queryable (AGENT_ACCESSIBLE*, NO_ACCESS, unknown)",
                ))
            }
        };
    }
    Ok(())
}

/// `hsa_amd_svm_prefetch_async`'s bookkeeping: records agent `index` as the destination of the
/// pages of `[ptr, ptr + size)` (the copy engine then completes the signal after the
/// dependencies).
pub fn record_prefetch(mem: &Memory, ptr: u64, size: u64, index: usize) -> Result<()> {
    let (start, end) = page_span(ptr, size)?;
    prune_span(mem, start, end);
    if !mapped(start, end - start) {
        return Err(Error::with_message(
            HSA_STATUS_ERROR,
            format!("[{start:#x}, {end:#x}) is not mapped memory of this process"),
        ));
    }
    mem.registry()
        .svm_update(start, end, defaults(), |_, a| a.prefetched = index + 1)
}

/// Drops the SVM records of ranges the program has unmapped, wholly or in part (before every
/// dispatch).
pub fn prune_unmapped(mem: &Memory) {
    mem.registry().svm_retain(mapped);
}

/// [`prune_unmapped`] for the records overlapping `[start, end)` (before an SVM call over it).
fn prune_span(mem: &Memory, start: u64, end: u64) {
    mem.registry().svm_retain_overlapping(start, end, mapped);
}

#[cfg(test)]
mod tests;
