use super::*;
use crate::config::Config;
use crate::topology::Topology;
use softhsa_gpu::MemoryMap;

const PAGE: u64 = 4096;

/// Agent `i` has handle `i + 100`: 0 is the CPU, 1 the GPU (the topology's order).
struct TwoAgents;

impl Agents for TwoAgents {
    fn index(&self, handle: u64) -> Result<usize> {
        match handle {
            100 | 101 => Ok(handle as usize - 100),
            _ => Err(Error::new(HSA_STATUS_ERROR_INVALID_AGENT)),
        }
    }
    fn handle(&self, index: usize) -> u64 {
        index as u64 + 100
    }
    fn is_cpu(&self, index: usize) -> bool {
        index == 0
    }
}

fn map(at: Option<u64>, pages: u64) -> u64 {
    let (addr, flags) = match at {
        Some(a) => (a as *mut libc::c_void, libc::MAP_FIXED),
        None => (std::ptr::null_mut(), 0),
    };
    // SAFETY: an anonymous mapping; MAP_FIXED only over pages this test itself unmapped.
    let p = unsafe {
        libc::mmap(
            addr,
            (pages * PAGE) as usize,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | flags,
            -1,
            0,
        )
    };
    assert_ne!(p, libc::MAP_FAILED);
    p as u64
}

fn unmap(at: u64, pages: u64) {
    // SAFETY: the pages are this test's own mapping, and nothing refers to them any more.
    let r = unsafe { libc::munmap(at as *mut libc::c_void, (pages * PAGE) as usize) };
    assert_eq!(r, 0);
}

fn read_mostly(mem: &Memory, at: u64, len: u64) -> u64 {
    let mut q = [(u64::from(HSA_AMD_SVM_ATTRIB_READ_MOSTLY), 7)];
    get(mem, &TwoAgents, at, len, &mut q).unwrap();
    q[0].1
}

/// `hipFree` then `hipMallocManaged`: the old allocation is unmapped, the new one lands inside
/// its hole and is given to the GPU. It must stay visible to the GPU after the dispatch's
/// pruning (merged with the dead record, it went with it), with default attributes.
#[test]
fn memory_mapped_again_inside_a_freed_span_starts_afresh() {
    let cfg = Config::default();
    let topo = Topology::new(&cfg).unwrap();
    let mem = Memory::new(&cfg, &topo).unwrap();
    let gpu = [(u64::from(HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE), 101)];
    let old = map(None, 8);
    set(&mem, &TwoAgents, old, 8 * PAGE, &gpu).unwrap();
    let mostly = [(u64::from(HSA_AMD_SVM_ATTRIB_READ_MOSTLY), 1)];
    set(&mem, &TwoAgents, old, 8 * PAGE, &mostly).unwrap();
    assert!(mem.translate(old, 8 * PAGE).is_some());
    assert_eq!(read_mostly(&mem, old, 8 * PAGE), 1);

    unmap(old, 8);
    let new = map(Some(old + 3 * PAGE), 1);
    set(&mem, &TwoAgents, new, PAGE, &gpu).unwrap();
    assert_eq!(read_mostly(&mem, new, PAGE), 0, "the dead record's advice");
    prune_unmapped(&mem);
    assert_eq!(
        mem.translate(new, PAGE).map(|(r, _)| r),
        Some(new..new + PAGE),
        "the new page after a dispatch's pruning"
    );
    // The pages around it went with the old allocation.
    assert!(mem.translate(old, PAGE).is_none());
    assert!(mem.translate(new + PAGE, PAGE).is_none());
    unmap(new, 1);
    prune_unmapped(&mem);
    assert!(mem.translate(new, PAGE).is_none());
}
