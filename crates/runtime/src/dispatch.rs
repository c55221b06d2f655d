//! Kernel dispatch packets → the software GPU. (Owned by the GPU work.)
//!
//! The queue's packet processor calls [`launch_kernel_dispatch`] once per KERNEL_DISPATCH packet
//! (after the acquire fence). It finds the kernel, builds the [`Launch`] and starts it on the
//! [`Device`]; the queue's [`DispatchClient`] hears of its end (release fence, completion
//! signal). [`fault_status`] turns a fault into the HSA status the queue's error callback
//! receives.

use crate::loader::LoadedKernel;
use softhsa_abi::{
    hsa_kernel_dispatch_packet_t, hsa_status_t, HSA_STATUS_ERROR, HSA_STATUS_ERROR_EXCEPTION,
    HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
    HSA_STATUS_ERROR_INVALID_ALLOCATION, HSA_STATUS_ERROR_INVALID_ARGUMENT,
    HSA_STATUS_ERROR_INVALID_CODE_OBJECT, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
    HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, HSA_STATUS_ERROR_MEMORY_FAULT,
    HSA_STATUS_ERROR_OUT_OF_RESOURCES,
};
use softhsa_gpu::{
    Device, DispatchClient, Fault, FaultKind, JobHandle, Kernel, Launch, PacketField, Program,
};
use std::sync::Arc;

/// Lowest address outside the x86-64 user address space: accesses there are aperture faults.
const USER_ADDRESS_LIMIT: u64 = 1 << 47;

/// What a dispatch needs from the runtime besides the packet.
pub struct DispatchEnv<'a> {
    pub device: &'a Device,
    /// The device kernel of a packet's `kernel_object` (the loader's `Loader::kernel`, with the
    /// `softhsa_gpu::Kernel` cached on the loaded kernel; see [`device_kernel`]), or why there is
    /// none (not a loaded kernel, or a kernel that cannot run).
    pub find_kernel: &'a dyn Fn(u64) -> Result<Arc<Kernel>, String>,
    /// Memory map, events, and where the end of the dispatch is reported.
    pub client: &'a Arc<dyn DispatchClient>,
    /// Address of the queue's `amd_queue_t` (the kernel's queue ptr).
    pub queue_address: u64,
    /// The queue's priority (0 low, 1 normal, 2 high).
    pub priority: usize,
    /// Run the work-groups on the calling thread while a worker slot is free.
    pub inline: bool,
}

/// The device form of a loaded kernel, cached on it; its code segment is decoded once for all
/// the kernels of the code object (the loader shares one [`Program`] per segment), as
/// instruction set `gfx` (its agent's). The error says why the kernel cannot run (e.g. its
/// entry is not an instruction of its code).
pub fn device_kernel(k: &LoadedKernel, gfx: softhsa_isa::Gfx) -> Result<Arc<Kernel>, String> {
    k.device_kernel(|k| {
        let program = k.shared_program(|code, base| Program::new_for(code, base, gfx))?;
        Kernel::from_program(&k.name, k.descriptor.clone(), k.kernel_object, program)
    })
}

/// The HSA status a queue reports for a fault.
pub fn fault_status(kind: &FaultKind) -> hsa_status_t {
    match kind {
        FaultKind::MemoryViolation { address, .. } if *address >= USER_ADDRESS_LIMIT => {
            HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
        }
        FaultKind::MemoryViolation { .. } => HSA_STATUS_ERROR_MEMORY_FAULT,
        FaultKind::IllegalInstruction | FaultKind::Unimplemented => {
            HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
        }
        FaultKind::Trap { .. } | FaultKind::Halted | FaultKind::InstructionBudget { .. } => {
            HSA_STATUS_ERROR_EXCEPTION
        }
        FaultKind::InvalidDispatch(_) => HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
        // ROCm 5.2's queue error mapping (amd_aql_queue.cpp, from the packet processor's error
        // bits: invalid dimensions, group memory, work-group size; scratch exhaustion).
        FaultKind::BadPacket { field, .. } => match field {
            PacketField::Dimensions => HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
            PacketField::WorkGroupSize | PacketField::GridSize => HSA_STATUS_ERROR_INVALID_ARGUMENT,
            PacketField::GroupSegment => HSA_STATUS_ERROR_INVALID_ALLOCATION,
            PacketField::PrivateSegment => HSA_STATUS_ERROR_OUT_OF_RESOURCES,
        },
        FaultKind::Internal(_) => HSA_STATUS_ERROR,
    }
}

/// Launches one kernel dispatch packet (already copied out of the ring). `packet_address` is
/// where it sits in the ring (the kernel's dispatch ptr), `dispatch_id` the packet's index,
/// which is also the tag `env.client.finished` gets back. A packet the device cannot run is
/// refused here with the HSA status of the queue error (and `finished` is not called).
// A fault report is large, and rare: the error path is cold, so it is not boxed.
#[allow(clippy::result_large_err)]
pub fn launch_kernel_dispatch(
    env: &DispatchEnv,
    packet: &hsa_kernel_dispatch_packet_t,
    packet_address: u64,
    dispatch_id: u64,
) -> Result<JobHandle, (hsa_status_t, Fault)> {
    let kernel = match (env.find_kernel)(packet.kernel_object) {
        Ok(k) => k,
        Err(why) => {
            let f = Fault::dispatch(
                "<unknown>",
                format!("kernel_object {:#x} {why}", packet.kernel_object),
            );
            return Err((HSA_STATUS_ERROR_INVALID_CODE_OBJECT, f));
        }
    };
    let dims = packet.setup & 3;
    if dims == 0 {
        let f = Fault::bad_packet(
            &kernel.name,
            PacketField::Dimensions,
            "the packet's setup field has 0 dimensions",
        );
        return Err((fault_status(&f.kind), f));
    }
    // Dimensions beyond `dims` must be 1 (HSA); treat them so whatever the packet says.
    let pick = |d: u16, v: u32| if d < dims { v } else { 1 };
    let l = Launch {
        grid_size: [
            packet.grid_size_x,
            pick(1, packet.grid_size_y),
            pick(2, packet.grid_size_z),
        ],
        workgroup_size: [
            packet.workgroup_size_x,
            pick(1, u32::from(packet.workgroup_size_y)) as u16,
            pick(2, u32::from(packet.workgroup_size_z)) as u16,
        ],
        dynamic_group_segment_size: packet.group_segment_size,
        private_segment_size: packet.private_segment_size,
        kernarg_address: packet.kernarg_address as u64,
        packet_address,
        queue_address: env.queue_address,
        dispatch_id,
        priority: env.priority,
        tag: dispatch_id,
        kernel,
    };
    env.device
        .launch(l, env.client.clone(), env.inline)
        .map_err(|f| (fault_status(&f.kind), f))
}

#[cfg(test)]
mod tests {
    use super::*;

    use softhsa_gpu::{DeviceEvents, DispatchStats, MemoryMap};

    /// A client whose dispatches must never start (the packets are refused first).
    struct NoClient;
    impl MemoryMap for NoClient {
        fn lookup(&self, _addr: u64, _len: u64) -> Option<std::ops::Range<u64>> {
            None
        }
    }
    impl DeviceEvents for NoClient {}
    impl DispatchClient for NoClient {
        fn memory(&self) -> &dyn MemoryMap {
            self
        }
        fn events(&self) -> &dyn DeviceEvents {
            self
        }
        fn finished(&self, _tag: u64, _result: Result<DispatchStats, Fault>) {
            panic!("a refused packet was launched");
        }
    }

    #[test]
    fn unknown_kernel_object_is_an_error_status() {
        let device = Device::new(Default::default());
        let client: Arc<dyn DispatchClient> = Arc::new(NoClient);
        let env = DispatchEnv {
            device: &device,
            find_kernel: &|_| Err("is not a loaded kernel".to_string()),
            client: &client,
            queue_address: 0,
            priority: 1,
            inline: true,
        };
        let p = hsa_kernel_dispatch_packet_t {
            setup: 1,
            kernel_object: 0x1234,
            ..Default::default()
        };
        let (status, f) = launch_kernel_dispatch(&env, &p, 0, 0)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(status, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
        assert!(f.to_string().contains("0x1234"));
    }

    #[test]
    fn a_kernel_that_cannot_be_built_reports_why() {
        let device = Device::new(Default::default());
        let client: Arc<dyn DispatchClient> = Arc::new(NoClient);
        let find = |object: u64| {
            let kd = softhsa_codeobj::KernelDescriptor::default();
            Kernel::new("k", kd, object, &[0; 8], 0x9000)
                .map(Arc::new)
                .map_err(|e| format!("cannot run: {e}"))
        };
        let env = DispatchEnv {
            device: &device,
            find_kernel: &find,
            client: &client,
            queue_address: 0,
            priority: 1,
            inline: true,
        };
        let p = hsa_kernel_dispatch_packet_t {
            setup: 1,
            kernel_object: 0x5000,
            ..Default::default()
        };
        let (status, f) = launch_kernel_dispatch(&env, &p, 0, 0)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(status, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
        let text = f.to_string();
        assert!(
            text.contains("0x5000") && text.contains("entry 0x5000 is not in its code"),
            "{text}"
        );
    }

    #[test]
    fn fault_kinds_map_to_statuses() {
        let mv = |a| FaultKind::MemoryViolation {
            address: a,
            write: false,
        };
        assert_eq!(fault_status(&mv(0x1000)), HSA_STATUS_ERROR_MEMORY_FAULT);
        assert_eq!(
            fault_status(&mv(softhsa_gpu::SHARED_APERTURE_BASE)),
            HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
        );
        assert_eq!(
            fault_status(&FaultKind::Trap { code: 2 }),
            HSA_STATUS_ERROR_EXCEPTION
        );
        assert_eq!(
            fault_status(&FaultKind::IllegalInstruction),
            HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION
        );
    }
}
