//! The process-wide runtime: `hsa_init`/`hsa_shut_down` reference counting.

use crate::{config, copy, image, loader, memory, queue, signal, topology, Result};
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

/// The initialized runtime, or `None` before `hsa_init` (callers return NOT_INITIALIZED).
pub fn runtime() -> Option<Arc<Runtime>> {
    CURRENT.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// `hsa_init`: the first call builds the runtime, later ones count references.
pub fn init() -> Result<()> {
    let mut st = STATE.lock().unwrap_or_else(|e| e.into_inner());
    if st.refcount == 0 {
        let rt = Arc::new(Runtime::build()?);
        st.runtime = Some(rt.clone());
        *CURRENT.write().unwrap_or_else(|e| e.into_inner()) = Some(rt);
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
