//! Dispatches launched by the end of the previous one (what a queue's in-order stream does when
//! a worker ends a dispatch and launches the next packet): the scheduler runs each next link on
//! the thread that ended the last (its "LIFO slot"), one after another rather than nested, so a
//! long chain neither hops between threads nor grows the stack.

mod common;
use common::*;
use softhsa_gpu::{
    DeviceConfig, DeviceEvents, DispatchClient, DispatchStats, Fault, Launch, MemoryMap,
};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::Duration;

/// Each work-item adds 1 to the word the first kernarg points to.
const ADD: &str = "s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n\
    v_mov_b32 v1, 0\nv_mov_b32 v2, 1\nglobal_atomic_add v1, v2, s[4:5]\ns_waitcnt vmcnt(0)\n\
    s_endpgm\n";

const LINKS: u64 = 3000;

struct Chain {
    dev: softhsa_gpu::Device,
    kernel: Arc<softhsa_gpu::Kernel>,
    map: Map,
    events: Events,
    /// One counter per link and one kernarg block (the counter's address) per link.
    counts: Box<[AtomicU32]>,
    kernargs: Box<[u64]>,
    /// Which thread ended each link; a link that found the previous one unfinished.
    threads: Mutex<Vec<ThreadId>>,
    out_of_order: AtomicU32,
    done: Mutex<Option<mpsc::Sender<Result<(), String>>>>,
    me: OnceLock<std::sync::Weak<Chain>>,
}

impl Chain {
    fn launch(&self, link: u64) {
        let client: Arc<dyn DispatchClient> = self.me.get().unwrap().upgrade().unwrap();
        let l = Launch {
            kernel: self.kernel.clone(),
            grid_size: [64, 1, 1],
            workgroup_size: [64, 1, 1],
            dynamic_group_segment_size: 0,
            private_segment_size: 0,
            kernarg_address: &self.kernargs[link as usize] as *const u64 as u64,
            packet_address: 0,
            queue_address: 0,
            dispatch_id: link,
            priority: 1,
            tag: link,
        };
        // Not inline: like a queue's next packet launched where a dispatch ended.
        if let Err(f) = self.dev.launch(l, client, false) {
            self.finish(Err(format!("link {link}: {f}")));
        }
    }

    fn finish(&self, r: Result<(), String>) {
        if let Some(tx) = self.done.lock().unwrap().take() {
            let _ = tx.send(r);
        }
    }
}

impl DispatchClient for Chain {
    fn memory(&self) -> &dyn MemoryMap {
        &self.map
    }
    fn events(&self) -> &dyn DeviceEvents {
        &self.events
    }
    fn finished(&self, link: u64, result: Result<DispatchStats, Fault>) {
        if let Err(f) = result {
            return self.finish(Err(format!("link {link}: {f}")));
        }
        self.threads
            .lock()
            .unwrap()
            .push(std::thread::current().id());
        let this = self.counts[link as usize].load(Ordering::Acquire);
        let next = self
            .counts
            .get(link as usize + 1)
            .map(|c| c.load(Ordering::Acquire));
        if this != 64 || next.is_some_and(|n| n != 0) {
            self.out_of_order.fetch_add(1, Ordering::Relaxed);
        }
        if link + 1 < LINKS {
            self.launch(link + 1);
        } else {
            self.finish(Ok(()));
        }
    }
}

#[test]
fn a_chain_of_dispatches_stays_on_one_thread_without_nesting() {
    // A worker count no other test uses: its own scheduler, so no other job competes (a job
    // nobody serves would rightly take the chain's next link to the shared pool).
    let dev = softhsa_gpu::Device::new(DeviceConfig {
        worker_threads: 5,
        ..DeviceConfig::default()
    });
    let map = Map::default();
    let counts: Box<[AtomicU32]> = (0..LINKS).map(|_| AtomicU32::new(0)).collect();
    let base = counts.as_ptr() as u64;
    let len = (LINKS * 4) as usize;
    // SAFETY: only the address range is registered; the device writes the atomics through it.
    let words = unsafe { std::slice::from_raw_parts_mut(base as *mut u32, len / 4) };
    map.add(words);
    let kernargs: Box<[u64]> = (0..LINKS).map(|i| base + 4 * i).collect();
    map.add_readonly(&kernargs);
    let (tx, rx) = mpsc::channel();
    let chain = Arc::new(Chain {
        dev,
        kernel: Arc::new(kernel(ADD, descriptor())),
        map,
        events: Events::default(),
        counts,
        kernargs,
        threads: Mutex::new(Vec::new()),
        out_of_order: AtomicU32::new(0),
        done: Mutex::new(Some(tx)),
        me: OnceLock::new(),
    });
    chain.me.set(Arc::downgrade(&chain)).unwrap();
    chain.launch(0);
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the chain did not end")
        .unwrap_or_else(|e| panic!("{e}"));
    let bad = (0..LINKS as usize).find(|&i| chain.counts[i].load(Ordering::Acquire) != 64);
    assert_eq!(
        bad, None,
        "a link did not run its 64 work-items exactly once"
    );
    assert_eq!(chain.out_of_order.load(Ordering::Relaxed), 0);
    let threads = chain.threads.lock().unwrap();
    assert_eq!(threads.len() as u64, LINKS);
    let distinct: HashSet<_> = threads.iter().collect();
    // The first link goes to whichever worker picks it; every later one runs where the
    // previous one ended.
    assert!(
        distinct.len() <= 2,
        "{} threads ran the chain",
        distinct.len()
    );
}
