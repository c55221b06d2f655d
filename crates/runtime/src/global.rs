//! The process-wide runtime: `hsa_init`/`hsa_shut_down` reference counting.

use crate::{config, copy, image, loader, memory, queue, signal, topology, Result};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Everything `hsa_init` creates. Each part is owned by its module.
pub struct Runtime {
    pub config: config::Config,
    pub topology: topology::Topology,
    pub memory: memory::Memory,
    pub signals: signal::Signals,
    pub queues: queue::Queues,
    pub copies: copy::Copies,
    pub loader: loader::Loader,
    pub images: image::Images,
}

struct State {
    refcount: u32,
    runtime: Option<Arc<Runtime>>,
}

static STATE: Mutex<State> = Mutex::new(State {
    refcount: 0,
    runtime: None,
});
/// Read side kept separate so that every API call does not contend on the init lock.
static CURRENT: RwLock<Option<Arc<Runtime>>> = RwLock::new(None);

/// Moves whenever `CURRENT` changes (init, shut-down): threads' cached runtimes then refresh.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The initialized runtime, or `None` before `hsa_init` (callers return NOT_INITIALIZED).
pub fn runtime() -> Option<Arc<Runtime>> {
    CURRENT.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// A thread's copy of `CURRENT` (with the generation it was read at), and how many
/// [`with_current`] calls of the thread use it now (it is replaced only when none does).
struct Cached {
    runtime: RefCell<Option<(u64, Arc<Runtime>)>>,
    users: Cell<u32>,
}

thread_local! {
    static CACHED: Cached = const {
        Cached {
            runtime: RefCell::new(None),
            users: Cell::new(0),
        }
    };
}

/// Runs `f` with the initialized runtime (`None` before `hsa_init`), like [`runtime`] but
/// without touching a shared cache line in the common case: every API call goes through here,
/// and a lock plus a reference count shared by all threads made host threads submitting to
/// different queues, and the packet processors, contend on every call. The thread keeps its own
/// reference and re-reads `CURRENT` only when the generation moved. (A runtime shut down stays
/// allocated until each thread that cached it calls again or exits; it is inert by then.)
pub fn with_current<R>(f: impl FnOnce(Option<&Runtime>) -> R) -> R {
    let generation = GENERATION.load(Ordering::Acquire);
    let cached = CACHED
        .try_with(|c| {
            let users = c.users.get();
            let mut slot = c.runtime.try_borrow_mut().ok()?;
            if slot.as_ref().map(|(g, _)| *g) != Some(generation) {
                if users > 0 {
                    return None; // an outer call of this thread uses the cached one
                }
                *slot = runtime().map(|rt| (generation, rt));
            }
            c.users.set(users + 1);
            Some(slot.as_ref().map(|(_, rt)| Arc::as_ptr(rt)))
        })
        .ok()
        .flatten();
    match cached {
        Some(ptr) => {
            /// Counts the use out, also when `f` unwinds.
            struct Done;
            impl Drop for Done {
                fn drop(&mut self) {
                    let _ = CACHED.try_with(|c| c.users.set(c.users.get() - 1));
                }
            }
            let _done = Done;
            // SAFETY: the thread's cached `Arc` owns a reference to the runtime and is not
            // replaced while `users` > 0 (nested calls take the fallback below), nor dropped
            // before the thread exits.
            f(ptr.map(|p| unsafe { &*p }))
        }
        None => f(runtime().as_deref()),
    }
}

/// `hsa_init`: the first call builds the runtime, later ones count references.
pub fn init() -> Result<()> {
    let mut st = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if st.refcount == 0 {
        let rt = Arc::new(Runtime::build()?);
        st.runtime = Some(rt.clone());
        *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = Some(rt);
        GENERATION.fetch_add(1, Ordering::AcqRel);
    }
    st.refcount += 1;
    Ok(())
}

/// `hsa_shut_down`: the last reference tears the runtime down.
pub fn shut_down() -> Result<()> {
    let mut st = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if st.refcount == 0 {
        return Err(softhsa_abi::HSA_STATUS_ERROR_NOT_INITIALIZED.into());
    }
    st.refcount -= 1;
    if st.refcount == 0 {
        *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = None;
        GENERATION.fetch_add(1, Ordering::AcqRel);
        // This thread's cached reference goes now (others' at their next call or exit).
        let _ = CACHED.try_with(|c| {
            if c.users.get() == 0 {
                if let Ok(mut slot) = c.runtime.try_borrow_mut() {
                    *slot = None;
                }
            }
        });
        if let Some(rt) = st.runtime.take() {
            rt.shut_down();
        }
    }
    Ok(())
}

impl Runtime {
    fn build() -> Result<Runtime> {
        let config = config::Config::from_env()?;
        let topology = topology::Topology::new(&config)?;
        let memory = memory::Memory::new(&config, &topology)?;
        let signals = signal::Signals::new_registered(&config, &memory)?;
        let queues = queue::Queues::new(&config)?;
        let loader = loader::Loader::new();
        let copies = copy::Copies::default();
        Ok(Runtime {
            config,
            topology,
            memory,
            signals,
            queues,
            copies,
            loader,
            images: image::Images::default(),
        })
    }

    /// Stops runtime threads (packet processors, copy workers, handler threads) and frees memory.
    fn shut_down(&self) {
        self.queues.shut_down();
        self.copies.shut_down();
        self.signals.shut_down();
    }
}
