//! Shared virtual memory as ROCm exposes it (`hsa_amd_svm_*`).

/// The SVM attributes of a range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attributes {}
