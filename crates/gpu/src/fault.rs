//! Faults: what stops a dispatch, and the readable report the runtime prints and maps to an HSA
//! status.

use std::fmt;

/// Why a wave stopped the dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A lane touched memory outside every range the runtime knows (or outside its scratch/LDS).
    MemoryViolation { address: u64, write: bool },
    /// The pc points at bytes that do not decode, or outside the kernel's code.
    IllegalInstruction,
    /// The instruction decodes but this device does not implement it.
    Unimplemented,
    /// `s_trap` with this trap id.
    Trap { code: u16 },
    /// `s_sethalt 1`: the wave halted, and no debugger is attached to resume it.
    Halted,
    /// The wave executed more instructions than the device's per-wave budget.
    InstructionBudget { limit: u64 },
    /// The dispatch cannot run on this device (e.g. a processor it does not execute yet).
    InvalidDispatch(Box<str>),
    /// A field of the dispatch packet is out of range; checked before any wave runs.
    BadPacket { field: PacketField, why: Box<str> },
    /// A bug in the device (a caught panic); the process keeps running.
    Internal(Box<str>),
}

/// The dispatch packet field a [`FaultKind::BadPacket`] refuses; each maps to the status ROCm's
/// packet processor reports for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketField {
    /// `setup`'s dimension count is 0.
    Dimensions,
    /// A work-group size of 0 or more than 1024 work-items.
    WorkGroupSize,
    /// A grid size of 0.
    GridSize,
    /// More group (LDS) memory than a work-group can have.
    GroupSegment,
    /// More private (scratch) memory per work-item than the device provides.
    PrivateSegment,
}

/// A fault report: kind, where it happened, and who.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// Kernel name.
    pub kernel: Box<str>,
    /// Byte address of the faulting instruction.
    pub pc: u64,
    /// Disassembly of the faulting instruction (empty when it did not decode).
    pub instruction: Box<str>,
    /// Work-group id X/Y/Z.
    pub workgroup: [u32; 3],
    /// Wave index within the work-group.
    pub wave: u32,
    /// First faulting lane, when the fault is a lane's.
    pub lane: Option<u32>,
    /// Faulting address, for memory faults.
    pub address: Option<u64>,
    /// What the runtime knows about that address (see `MemoryMap::describe`).
    pub note: Option<Box<str>>,
}

impl Fault {
    /// A fault of the dispatch as a whole (no wave).
    pub fn dispatch(kernel: &str, why: impl Into<String>) -> Fault {
        Fault {
            kind: FaultKind::InvalidDispatch(why.into().into()),
            kernel: kernel.into(),
            pc: 0,
            instruction: "".into(),
            workgroup: [0; 3],
            wave: 0,
            lane: None,
            address: None,
            note: None,
        }
    }
}

impl Fault {
    /// A dispatch refused for one out-of-range packet field.
    pub fn bad_packet(kernel: &str, field: PacketField, why: impl Into<String>) -> Fault {
        Fault::dispatch(kernel, "").with_kind(FaultKind::BadPacket {
            field,
            why: why.into().into(),
        })
    }

    /// A caught panic of the device while running work-group `wg`.
    pub fn internal(kernel: &str, wg: [u32; 3], why: String) -> Fault {
        Fault {
            workgroup: wg,
            ..Fault::dispatch(kernel, "")
        }
        .with_kind(FaultKind::Internal(why.into()))
    }

    fn with_kind(mut self, kind: FaultKind) -> Fault {
        self.kind = kind;
        self
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::MemoryViolation { address, write } => write!(
                f,
                "memory violation: {} at {address:#x}",
                if *write { "write" } else { "read" }
            ),
            FaultKind::IllegalInstruction => write!(f, "illegal instruction"),
            FaultKind::Unimplemented => write!(f, "unimplemented instruction"),
            FaultKind::Trap { code } => write!(f, "s_trap {code}"),
            FaultKind::Halted => write!(f, "wave halted by s_sethalt (no debugger to resume it)"),
            FaultKind::InstructionBudget { limit } => {
                write!(f, "wave exceeded its budget of {limit} instructions")
            }
            FaultKind::InvalidDispatch(why) | FaultKind::BadPacket { why, .. } => {
                write!(f, "invalid dispatch: {why}")
            }
            FaultKind::Internal(why) => write!(f, "internal device error: {why}"),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GPU fault in kernel `{}`: {}", self.kernel, self.kind)?;
        if matches!(
            self.kind,
            FaultKind::InvalidDispatch(_) | FaultKind::BadPacket { .. }
        ) {
            return Ok(());
        }
        write!(f, "\n  pc {:#x}", self.pc)?;
        if !self.instruction.is_empty() {
            write!(f, ": {}", self.instruction)?;
        }
        let [x, y, z] = self.workgroup;
        write!(f, "\n  work-group ({x}, {y}, {z}), wave {}", self.wave)?;
        if let Some(lane) = self.lane {
            write!(f, ", lane {lane}")?;
        }
        if let Some(a) = self.address {
            write!(f, "\n  address {a:#x}")?;
        }
        if let Some(note) = &self.note {
            write!(f, ": {note}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}
