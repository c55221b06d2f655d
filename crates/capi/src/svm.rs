//! `hsa_amd_svm_attributes_set/get` and `hsa_amd_svm_prefetch_async` (`softhsa_runtime::svm`).

use crate::with_runtime;
use softhsa_abi::*;
use softhsa_runtime::copy::CopyJob;
use softhsa_runtime::signal::Signal;
use softhsa_runtime::{svm, Error, Result, Runtime};
use std::ffi::c_void;

/// The topology's agents, for the SVM module.
struct Agents<'a>(&'a Runtime);

impl svm::Agents for Agents<'_> {
    fn index(&self, handle: u64) -> Result<usize> {
        self.0.topology.agent(handle).map(|a| a.index)
    }
    fn handle(&self, index: usize) -> u64 {
        self.0.topology.agents().get(index).map_or(0, |a| a.handle)
    }
    fn is_cpu(&self, index: usize) -> bool {
        self.0
            .topology
            .agents()
            .get(index)
            .is_some_and(|a| !a.is_gpu())
    }
}

/// The program's attribute list as `(attribute, value)` pairs.
///
/// # Safety
/// `list` points to `count` readable pairs (checked non-NULL when `count` > 0).
unsafe fn read_pairs(
    list: *const hsa_amd_svm_attribute_pair_t,
    count: usize,
) -> Result<Vec<svm::Pair>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if list.is_null() {
        return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
    }
    // SAFETY: per the caller.
    let pairs = unsafe { std::slice::from_raw_parts(list, count) };
    Ok(pairs.iter().map(|p| (p.attribute, p.value)).collect())
}

#[no_mangle]
pub extern "C" fn hsa_amd_svm_attributes_set(
    ptr: *mut c_void,
    size: usize,
    attributes: *mut c_void,
    count: usize,
) -> hsa_status_t {
    with_runtime("hsa_amd_svm_attributes_set", |rt| {
        // SAFETY: the program passes `count` hsa_amd_svm_attribute_pair_t.
        let pairs = unsafe { read_pairs(attributes as *const _, count) }?;
        svm::set(&rt.memory, &Agents(rt), ptr as u64, size as u64, &pairs)
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_svm_attributes_get(
    ptr: *mut c_void,
    size: usize,
    attributes: *mut c_void,
    count: usize,
) -> hsa_status_t {
    with_runtime("hsa_amd_svm_attributes_get", |rt| {
        let list = attributes as *mut hsa_amd_svm_attribute_pair_t;
        // SAFETY: the program passes `count` hsa_amd_svm_attribute_pair_t to fill.
        let mut pairs = unsafe { read_pairs(list, count) }?;
        svm::get(&rt.memory, &Agents(rt), ptr as u64, size as u64, &mut pairs)?;
        for (i, (a, v)) in pairs.into_iter().enumerate() {
            // SAFETY: `i` < `count`; the list was readable and is the caller's to write.
            unsafe {
                list.add(i).write_unaligned(hsa_amd_svm_attribute_pair_t {
                    attribute: a,
                    value: v,
                })
            };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn hsa_amd_svm_prefetch_async(
    ptr: *mut c_void,
    size: usize,
    agent: hsa_agent_t,
    num_dep_signals: u32,
    dep_signals: *const hsa_signal_t,
    completion_signal: hsa_signal_t,
) -> hsa_status_t {
    with_runtime("hsa_amd_svm_prefetch_async", |rt| {
        let index = rt.topology.agent(agent.handle)?.index;
        if num_dep_signals > 0 && dep_signals.is_null() {
            return Err(Error::new(HSA_STATUS_ERROR_INVALID_ARGUMENT));
        }
        let deps: Vec<Signal> = (0..num_dep_signals as usize)
            // SAFETY: the program passes `num_dep_signals` signals (checked non-NULL).
            .map(|i| Signal(unsafe { dep_signals.add(i).read_unaligned() }.handle))
            .collect();
        rt.signals.get(Signal(completion_signal.handle))?;
        svm::record_prefetch(&rt.memory, ptr as u64, size as u64, index)?;
        // Nothing moves: the copy engine completes the signal once the dependencies have.
        rt.copies.submit(
            rt,
            CopyJob {
                spans: Vec::new(),
                deps,
                completion: Signal(completion_signal.handle),
            },
        )
    })
}
