//! `softhsa info`: what rocminfo prints (system attributes, then each agent with its pools and
//! ISAs, in rocminfo's layout), obtained only through the public C API of the built
//! `libhsa-runtime64.so.1`, loaded with dlopen — so it also checks the library as programs see it.
//!
//! The library is the one given, else `libhsa-runtime64.so.1` beside the `softhsa` executable
//! (both are built into target/release), else the dynamic loader's search.

use softhsa_abi::*;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

// dlopen/dlsym/dlerror of the C library (glibc >= 2.34 has them in libc itself).
extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}
const RTLD_NOW: c_int = 2;

type Iter<T> = unsafe extern "C" fn(T, *mut c_void) -> hsa_status_t;

type InitFn = unsafe extern "C" fn() -> hsa_status_t;
type SystemInfoFn = unsafe extern "C" fn(hsa_system_info_t, *mut c_void) -> hsa_status_t;
type IterAgentsFn = unsafe extern "C" fn(Option<Iter<hsa_agent_t>>, *mut c_void) -> hsa_status_t;
type AgentInfoFn = unsafe extern "C" fn(hsa_agent_t, hsa_agent_info_t, *mut c_void) -> hsa_status_t;
type IterPoolsFn = unsafe extern "C" fn(
    hsa_agent_t,
    Option<Iter<hsa_amd_memory_pool_t>>,
    *mut c_void,
) -> hsa_status_t;
type PoolInfoFn = unsafe extern "C" fn(
    hsa_amd_memory_pool_t,
    hsa_amd_memory_pool_info_t,
    *mut c_void,
) -> hsa_status_t;
type IterIsasFn =
    unsafe extern "C" fn(hsa_agent_t, Option<Iter<hsa_isa_t>>, *mut c_void) -> hsa_status_t;
type IsaInfoFn = unsafe extern "C" fn(hsa_isa_t, hsa_isa_info_t, *mut c_void) -> hsa_status_t;
type StatusStringFn = unsafe extern "C" fn(hsa_status_t, *mut *const c_char) -> hsa_status_t;

/// The entry points `info` uses.
struct Api {
    init: InitFn,
    shut_down: InitFn,
    system_get_info: SystemInfoFn,
    iterate_agents: IterAgentsFn,
    agent_get_info: AgentInfoFn,
    iterate_pools: IterPoolsFn,
    pool_get_info: PoolInfoFn,
    iterate_isas: IterIsasFn,
    isa_get_info: IsaInfoFn,
    status_string: StatusStringFn,
}

fn load(path: &Path) -> Result<Api, String> {
    let c_path = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: dlopen with a NUL-terminated path; the handle is kept for the process lifetime.
    let handle = unsafe { dlopen(c_path.as_ptr(), RTLD_NOW) };
    if handle.is_null() {
        // SAFETY: dlerror returns NULL or a NUL-terminated message.
        let msg = unsafe { dlerror() };
        let msg = if msg.is_null() {
            "unknown error".into()
        } else {
            // SAFETY: non-NULL message from dlerror.
            unsafe { CStr::from_ptr(msg) }
                .to_string_lossy()
                .into_owned()
        };
        return Err(format!("cannot load {}: {msg}", path.display()));
    }
    macro_rules! sym {
        ($name:literal, $ty:ty) => {{
            // SAFETY: dlsym on a live handle with a NUL-terminated name.
            let p = unsafe { dlsym(handle, concat!($name, "\0").as_ptr().cast()) };
            if p.is_null() {
                return Err(format!("{} does not export {}", path.display(), $name));
            }
            // SAFETY: the symbol is the HSA function of that name, whose C signature (hsa.h)
            // is the field's type.
            unsafe { std::mem::transmute::<*mut c_void, $ty>(p) }
        }};
    }
    Ok(Api {
        init: sym!("hsa_init", InitFn),
        shut_down: sym!("hsa_shut_down", InitFn),
        system_get_info: sym!("hsa_system_get_info", SystemInfoFn),
        iterate_agents: sym!("hsa_iterate_agents", IterAgentsFn),
        agent_get_info: sym!("hsa_agent_get_info", AgentInfoFn),
        iterate_pools: sym!("hsa_amd_agent_iterate_memory_pools", IterPoolsFn),
        pool_get_info: sym!("hsa_amd_memory_pool_get_info", PoolInfoFn),
        iterate_isas: sym!("hsa_agent_iterate_isas", IterIsasFn),
        isa_get_info: sym!("hsa_isa_get_info_alt", IsaInfoFn),
        status_string: sym!("hsa_status_string", StatusStringFn),
    })
}

/// Collects the handles an iteration function reports.
unsafe extern "C" fn collect<T: Copy>(item: T, data: *mut c_void) -> hsa_status_t {
    // SAFETY: `data` is the `Vec<T>` passed by `list` for the duration of the iteration.
    unsafe { (*data.cast::<Vec<T>>()).push(item) };
    HSA_STATUS_SUCCESS
}

fn list<T: Copy>(
    iterate: impl FnOnce(Option<Iter<T>>, *mut c_void) -> hsa_status_t,
) -> (Vec<T>, hsa_status_t) {
    let mut items: Vec<T> = Vec::new();
    let status = iterate(Some(collect::<T>), (&mut items as *mut Vec<T>).cast());
    (items, status)
}

/// A query result: the value, or the failing status.
fn query<T: Default>(f: impl FnOnce(*mut c_void) -> hsa_status_t) -> Result<T, hsa_status_t> {
    let mut v = T::default();
    match f((&mut v as *mut T).cast()) {
        HSA_STATUS_SUCCESS => Ok(v),
        s => Err(s),
    }
}

fn text(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

fn num(v: u64) -> String {
    format!("{v}({v:#x})")
}

/// One rocminfo line: label column 25 wide after the indent.
fn line(indent: usize, label: &str, value: impl std::fmt::Display) {
    println!("{:indent$}{:<25}{}", "", label, value, indent = indent);
}

struct Printer<'a> {
    api: &'a Api,
}

impl Printer<'_> {
    fn agent<T: Default>(&self, a: hsa_agent_t, attr: u32) -> Result<T, hsa_status_t> {
        // SAFETY: a library function called with a buffer of the attribute's type.
        query(|v| unsafe { (self.api.agent_get_info)(a, attr, v) })
    }

    fn pool<T: Default>(&self, p: hsa_amd_memory_pool_t, attr: u32) -> Result<T, hsa_status_t> {
        // SAFETY: as above.
        query(|v| unsafe { (self.api.pool_get_info)(p, attr, v) })
    }

    fn isa<T: Default>(&self, i: hsa_isa_t, attr: u32) -> Result<T, hsa_status_t> {
        // SAFETY: as above.
        query(|v| unsafe { (self.api.isa_get_info)(i, attr, v) })
    }

    fn system(&self) -> Result<(), hsa_status_t> {
        let sys = |attr| -> Result<u64, hsa_status_t> {
            // SAFETY: as above (every attribute read here fits in a u64).
            query(|v| unsafe { (self.api.system_get_info)(attr, v) })
        };
        println!("=====================    \nHSA System Attributes    \n=====================    ");
        let (major, minor) = (
            sys(HSA_SYSTEM_INFO_VERSION_MAJOR)? as u16,
            sys(HSA_SYSTEM_INFO_VERSION_MINOR)? as u16,
        );
        line(0, "Runtime Version:", format!("{major}.{minor}"));
        line(
            0,
            "System Timestamp Freq.:",
            format!(
                "{:.6}MHz",
                sys(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY)? as f64 / 1e6
            ),
        );
        let wait = sys(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT)?;
        line(
            0,
            "Sig. Max Wait Duration:",
            format!("{wait} ({wait:#X}) (timestamp count)"),
        );
        let model = if sys(HSA_SYSTEM_INFO_MACHINE_MODEL)? as u32 == HSA_MACHINE_MODEL_LARGE {
            "LARGE"
        } else {
            "SMALL"
        };
        line(0, "Machine Model:", model);
        let endian = if sys(HSA_SYSTEM_INFO_ENDIANNESS)? as u32 == HSA_ENDIANNESS_LITTLE {
            "LITTLE"
        } else {
            "BIG"
        };
        line(0, "System Endianness:", endian);
        println!(
            "\n==========               \nHSA Agents               \n==========               "
        );
        Ok(())
    }

    fn agent_block(&self, n: usize, a: hsa_agent_t) -> Result<(), hsa_status_t> {
        println!("*******                  \nAgent {n:<19}\n*******                  ");
        let s = |attr, len| -> Result<String, hsa_status_t> {
            let mut buf = vec![0u8; len];
            // SAFETY: `buf` holds the attribute's char array.
            match unsafe { (self.api.agent_get_info)(a, attr, buf.as_mut_ptr().cast()) } {
                HSA_STATUS_SUCCESS => Ok(text(&buf)),
                e => Err(e),
            }
        };
        let u = |attr| self.agent::<u32>(a, attr);
        line(2, "Name:", s(HSA_AGENT_INFO_NAME, 64)?);
        line(2, "Uuid:", s(HSA_AMD_AGENT_INFO_UUID, 64)?);
        line(
            2,
            "Marketing Name:",
            s(HSA_AMD_AGENT_INFO_PRODUCT_NAME, 64)?,
        );
        line(2, "Vendor Name:", s(HSA_AGENT_INFO_VENDOR_NAME, 64)?);
        let feature = u(HSA_AGENT_INFO_FEATURE)?;
        let features = match feature {
            HSA_AGENT_FEATURE_KERNEL_DISPATCH => "KERNEL_DISPATCH",
            HSA_AGENT_FEATURE_AGENT_DISPATCH => "AGENT_DISPATCH",
            _ => "None specified",
        };
        line(2, "Feature:", features);
        line(
            2,
            "Profile:",
            if u(HSA_AGENT_INFO_PROFILE)? == HSA_PROFILE_FULL {
                "FULL_PROFILE"
            } else {
                "BASE_PROFILE"
            },
        );
        let round = ["DEFAULT", "ZERO", "NEAR"]
            .get(u(HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE)? as usize)
            .copied()
            .unwrap_or("?");
        line(2, "Float Round Mode:", round);
        line(
            2,
            "Max Queue Number:",
            num(u(HSA_AGENT_INFO_QUEUES_MAX)?.into()),
        );
        line(
            2,
            "Queue Min Size:",
            num(u(HSA_AGENT_INFO_QUEUE_MIN_SIZE)?.into()),
        );
        line(
            2,
            "Queue Max Size:",
            num(u(HSA_AGENT_INFO_QUEUE_MAX_SIZE)?.into()),
        );
        line(
            2,
            "Queue Type:",
            if u(HSA_AGENT_INFO_QUEUE_TYPE)? == HSA_QUEUE_TYPE_MULTI {
                "MULTI"
            } else {
                "SINGLE"
            },
        );
        line(2, "Node:", u(HSA_AGENT_INFO_NODE)?);
        let device = u(HSA_AGENT_INFO_DEVICE)?;
        line(
            2,
            "Device Type:",
            ["CPU", "GPU", "DSP"]
                .get(device as usize)
                .copied()
                .unwrap_or("?"),
        );
        line(2, "Cache Info:", "");
        let caches: [u32; 4] = self.agent(a, HSA_AGENT_INFO_CACHE_SIZE)?;
        for (i, size) in caches.iter().enumerate().filter(|(_, s)| **s > 0) {
            line(
                4,
                &format!("L{}:", i + 1),
                format!("{} KB", num((size / 1024).into())),
            );
        }
        line(2, "Chip ID:", num(u(HSA_AMD_AGENT_INFO_CHIP_ID)?.into()));
        line(
            2,
            "Cacheline Size:",
            num(u(HSA_AMD_AGENT_INFO_CACHELINE_SIZE)?.into()),
        );
        line(
            2,
            "Max Clock Freq. (MHz):",
            u(HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY)?,
        );
        line(2, "BDFID:", u(HSA_AMD_AGENT_INFO_BDFID)?);
        line(
            2,
            "Internal Node ID:",
            u(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID)?,
        );
        line(
            2,
            "Compute Unit:",
            u(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT)?,
        );
        line(2, "SIMDs per CU:", u(HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU)?);
        line(
            2,
            "Shader Engines:",
            u(HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES)?,
        );
        line(
            2,
            "Shader Arrs. per Eng.:",
            u(HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE)?,
        );
        line(
            2,
            "WatchPts on Addr. Ranges:",
            u(HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS)?,
        );
        line(2, "Features:", features);
        if feature == HSA_AGENT_FEATURE_KERNEL_DISPATCH {
            let fast: bool = self.agent(a, HSA_AGENT_INFO_FAST_F16_OPERATION)?;
            line(
                2,
                "Fast F16 Operation:",
                if fast { "TRUE" } else { "FALSE" },
            );
            line(
                2,
                "Wavefront Size:",
                num(u(HSA_AGENT_INFO_WAVEFRONT_SIZE)?.into()),
            );
            line(
                2,
                "Workgroup Max Size:",
                num(u(HSA_AGENT_INFO_WORKGROUP_MAX_SIZE)?.into()),
            );
            let dims: [u16; 3] = self.agent(a, HSA_AGENT_INFO_WORKGROUP_MAX_DIM)?;
            dim3(2, "Workgroup Max Size per Dimension:", dims.map(u64::from));
            let waves = u(HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU)?;
            line(2, "Max Waves Per CU:", num(waves.into()));
            line(
                2,
                "Max Work-item Per CU:",
                num(u64::from(waves) * u64::from(u(HSA_AGENT_INFO_WAVEFRONT_SIZE)?)),
            );
            line(
                2,
                "Grid Max Size:",
                num(u(HSA_AGENT_INFO_GRID_MAX_SIZE)?.into()),
            );
            let grid: [u32; 3] = self.agent(a, HSA_AGENT_INFO_GRID_MAX_DIM)?;
            dim3(2, "Grid Max Size per Dimension:", grid.map(u64::from));
            line(
                2,
                "Max fbarriers/Workgrp:",
                u(HSA_AGENT_INFO_FBARRIER_MAX_SIZE)?,
            );
        }
        line(2, "Pool Info:", "");
        // SAFETY: iteration with `collect`, whose data is the Vec `list` passes.
        let (pools, status) = list(|cb, d| unsafe { (self.api.iterate_pools)(a, cb, d) });
        if status != HSA_STATUS_SUCCESS {
            return Err(status);
        }
        for (i, p) in pools.iter().enumerate() {
            self.pool_block(i + 1, *p)?;
        }
        line(2, "ISA Info:", "");
        // SAFETY: as above.
        let (isas, _) = list(|cb, d| unsafe { (self.api.iterate_isas)(a, cb, d) });
        if isas.is_empty() {
            line(4, "N/A", "");
        }
        for (i, isa) in isas.iter().enumerate() {
            self.isa_block(i + 1, *isa)?;
        }
        Ok(())
    }

    fn pool_block(&self, n: usize, p: hsa_amd_memory_pool_t) -> Result<(), hsa_status_t> {
        line(4, &format!("Pool {n}"), "");
        let segment: u32 = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT)?;
        let seg = match segment {
            HSA_AMD_SEGMENT_GLOBAL => {
                let flags: u32 = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS)?;
                let mut names = Vec::new();
                if flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT != 0 {
                    names.push("KERNARG");
                }
                if flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED != 0 {
                    names.push("FINE GRAINED");
                }
                if flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED != 0 {
                    names.push("COARSE GRAINED");
                }
                format!("GLOBAL; FLAGS: {}", names.join(", "))
            }
            HSA_AMD_SEGMENT_READONLY => "READONLY".into(),
            HSA_AMD_SEGMENT_PRIVATE => "PRIVATE".into(),
            HSA_AMD_SEGMENT_GROUP => "GROUP".into(),
            _ => "?".into(),
        };
        line(6, "Segment:", seg);
        let size: usize = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_SIZE)?;
        line(6, "Size:", format!("{} KB", num(size as u64 / 1024)));
        let alloc: bool = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED)?;
        line(6, "Allocatable:", if alloc { "TRUE" } else { "FALSE" });
        let granule: usize = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE)?;
        line(6, "Alloc Granule:", format!("{}KB", granule / 1024));
        let align: usize = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT)?;
        line(6, "Alloc Alignment:", format!("{}KB", align / 1024));
        let all: bool = self.pool(p, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL)?;
        line(6, "Accessible by all:", if all { "TRUE" } else { "FALSE" });
        Ok(())
    }

    fn isa_block(&self, n: usize, i: hsa_isa_t) -> Result<(), hsa_status_t> {
        line(4, &format!("ISA {n}"), "");
        let len: u32 = self.isa(i, HSA_ISA_INFO_NAME_LENGTH)?;
        let mut name = vec![0u8; len as usize + 1];
        // SAFETY: `name` holds NAME_LENGTH bytes.
        match unsafe { (self.api.isa_get_info)(i, HSA_ISA_INFO_NAME, name.as_mut_ptr().cast()) } {
            HSA_STATUS_SUCCESS => {}
            e => return Err(e),
        }
        line(6, "Name:", text(&name));
        let models: [bool; 2] = self.isa(i, HSA_ISA_INFO_MACHINE_MODELS)?;
        let names = ["HSA_MACHINE_MODEL_SMALL", "HSA_MACHINE_MODEL_LARGE"];
        line(6, "Machine Models:", pick(&models, &names));
        let profiles: [bool; 2] = self.isa(i, HSA_ISA_INFO_PROFILES)?;
        line(
            6,
            "Profiles:",
            pick(&profiles, &["HSA_PROFILE_BASE", "HSA_PROFILE_FULL"]),
        );
        let modes: [bool; 3] = self.isa(i, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES)?;
        line(
            6,
            "Default Rounding Mode:",
            pick(&modes, &["DEFAULT", "ZERO", "NEAR"]),
        );
        let base: [bool; 3] =
            self.isa(i, HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES)?;
        line(
            6,
            "Default Rounding Mode:",
            pick(&base, &["DEFAULT", "ZERO", "NEAR"]),
        );
        let fast: bool = self.isa(i, HSA_ISA_INFO_FAST_F16_OPERATION)?;
        line(6, "Fast f16:", if fast { "TRUE" } else { "FALSE" });
        let wg: u32 = self.isa(i, HSA_ISA_INFO_WORKGROUP_MAX_SIZE)?;
        line(6, "Workgroup Max Size:", num(wg.into()));
        let dims: [u16; 3] = self.isa(i, HSA_ISA_INFO_WORKGROUP_MAX_DIM)?;
        dim3(6, "Workgroup Max Size per Dimension:", dims.map(u64::from));
        let grid: u64 = self.isa(i, HSA_ISA_INFO_GRID_MAX_SIZE)?;
        line(6, "Grid Max Size:", num(grid));
        let gdims: [u32; 3] = self.isa(i, HSA_ISA_INFO_GRID_MAX_DIM)?;
        dim3(6, "Grid Max Size per Dimension:", gdims.map(u64::from));
        let fb: u32 = self.isa(i, HSA_ISA_INFO_FBARRIER_MAX_SIZE)?;
        line(6, "FBarrier Max Size:", fb);
        Ok(())
    }
}

fn pick(flags: &[bool], names: &[&str]) -> String {
    flags
        .iter()
        .zip(names)
        .filter(|(f, _)| **f)
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(" ")
}

fn dim3(indent: usize, label: &str, v: [u64; 3]) {
    println!("{:indent$}{label}", "", indent = indent);
    for (axis, x) in ["x", "y", "z"].iter().zip(v) {
        line(indent + 2, axis, num(x));
    }
}

/// The default library: beside the executable, else the loader's search path.
fn default_library() -> PathBuf {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.join("libhsa-runtime64.so.1")));
    beside
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from("libhsa-runtime64.so.1"))
}

/// `softhsa info [LIBRARY]`: prints the report; returns the process exit code.
pub fn run(library: Option<&Path>) -> i32 {
    let path = library.map_or_else(default_library, Path::to_path_buf);
    let api = match load(&path) {
        Ok(api) => api,
        Err(e) => {
            eprintln!("softhsa info: {e}");
            return 1;
        }
    };
    let p = Printer { api: &api };
    let describe = |s: hsa_status_t| {
        let mut t: *const c_char = std::ptr::null();
        // SAFETY: the library writes a pointer to a static string, or fails.
        if unsafe { (api.status_string)(s, &mut t) } == HSA_STATUS_SUCCESS && !t.is_null() {
            // SAFETY: non-NULL, NUL-terminated static text.
            unsafe { CStr::from_ptr(t) }.to_string_lossy().into_owned()
        } else {
            format!("status {s:#x}")
        }
    };
    // SAFETY: hsa_init takes no arguments.
    let status = unsafe { (api.init)() };
    if status != HSA_STATUS_SUCCESS {
        eprintln!("softhsa info: hsa_init failed: {}", describe(status));
        return 1;
    }
    let result = p.system().and_then(|()| {
        // SAFETY: iteration with `collect`, whose data is the Vec `list` passes.
        let (agents, status) = list(|cb, d| unsafe { (api.iterate_agents)(cb, d) });
        if status != HSA_STATUS_SUCCESS {
            return Err(status);
        }
        agents
            .iter()
            .enumerate()
            .try_for_each(|(i, a)| p.agent_block(i + 1, *a))
    });
    println!("*** Done ***             ");
    let code = match result {
        Ok(()) => 0,
        Err(s) => {
            eprintln!("softhsa info: a query failed: {}", describe(s));
            1
        }
    };
    // SAFETY: balances the hsa_init above.
    unsafe { (api.shut_down)() };
    code
}
