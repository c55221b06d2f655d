//! Tracing: text lines by category (`SOFTHSA_TRACE`) and a Chrome trace-event timeline
//! (`SOFTHSA_TIMELINE`).
//!
//! Both are process-wide and configured lazily from the environment on first use (so that code
//! running before `hsa_init`, and every crate, sees the same settings). Text goes to stderr or
//! `SOFTHSA_TRACE_FILE`; each line is `softhsa[<category>] <message>`.
//!
//! The timeline is written as a JSON array, one event per line, as events happen; [`flush`]
//! (called by `hsa_shut_down`, and at exit for programs that never shut down) writes the buffered
//! tail and closes the array. Chrome and Perfetto also accept the array without its closing
//! bracket, so even a process killed by a signal leaves a readable file.
//!
//! Use [`enabled`] before building an expensive message, or the [`trace!`](crate::trace!) macro,
//! which does that for you.

use crate::config::TraceConfig;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, Once};

/// Trace categories (`SOFTHSA_TRACE=api,packet,...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Failed API calls and unimplemented entry points.
    Api,
    /// AQL packets consumed by packet processors.
    Packet,
    /// Kernel dispatches with their timings.
    Dispatch,
    /// Faults of dispatches (memory violations, illegal instructions, budget).
    Fault,
    /// Every executed instruction (very verbose).
    Isa,
}

const ALL: [(Category, &str); 5] = [
    (Category::Api, "api"),
    (Category::Packet, "packet"),
    (Category::Dispatch, "dispatch"),
    (Category::Fault, "fault"),
    (Category::Isa, "isa"),
];

impl Category {
    pub const fn bit(self) -> u32 {
        1 << self as u32
    }
    pub fn name(self) -> &'static str {
        ALL[self as usize].1
    }
}

/// Parses `api,packet` / `all`; `None` if a name is unknown.
pub fn parse_categories(list: &str) -> Option<u32> {
    let mut bits = 0;
    for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let w = word.to_ascii_lowercase();
        bits |= match ALL.iter().find(|(_, n)| *n == w) {
            Some((c, _)) => c.bit(),
            None if w == "all" => ALL.iter().fold(0, |b, (c, _)| b | c.bit()),
            None => return None,
        };
    }
    Some(bits)
}

struct Sinks {
    text: Option<BufWriter<File>>,
    timeline: Option<BufWriter<File>>,
    timeline_events: u64,
}

static INIT: Once = Once::new();
static MASK: AtomicU32 = AtomicU32::new(0);
/// Bit 31 of MASK: the timeline is on (kept in the same word so the hot check is one load).
const TIMELINE_BIT: u32 = 1 << 31;
static SINKS: Mutex<Sinks> = Mutex::new(Sinks {
    text: None,
    timeline: None,
    timeline_events: 0,
});

fn mask() -> u32 {
    INIT.call_once(|| {
        let cfg = TraceConfig::from_lookup(|n| std::env::var(n).ok()).unwrap_or_default();
        install(&cfg);
    });
    MASK.load(Ordering::Relaxed)
}

/// Opens the configured outputs. Called once, lazily; tests may call it to redirect output.
pub fn install(cfg: &TraceConfig) {
    let mut sinks = SINKS.lock().unwrap_or_else(|e| e.into_inner());
    let mut bits = cfg.categories;
    sinks.text = cfg.file.as_ref().and_then(|p| match File::create(p) {
        Ok(f) => Some(BufWriter::new(f)),
        Err(e) => {
            eprintln!(
                "softhsa: cannot open SOFTHSA_TRACE_FILE {}: {e}; tracing to stderr",
                p.display()
            );
            None
        }
    });
    sinks.timeline = cfg.timeline.as_ref().and_then(|p| match File::create(p) {
        Ok(f) => Some(BufWriter::new(f)),
        Err(e) => {
            eprintln!("softhsa: cannot open SOFTHSA_TIMELINE {}: {e}", p.display());
            None
        }
    });
    sinks.timeline_events = 0;
    if let Some(w) = sinks.timeline.as_mut() {
        let _ = writeln!(w, "[");
        bits |= TIMELINE_BIT;
    }
    if sinks.text.is_some() || sinks.timeline.is_some() {
        flush_at_exit();
    }
    MASK.store(bits, Ordering::Relaxed);
}

/// Has [`flush`] run when the process exits: many programs (HIP's among them) end without
/// `hsa_shut_down`, and the buffered tail of a file would be lost.
fn flush_at_exit() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        extern "C" fn at_exit() {
            // Nothing may unwind out of an exit handler.
            let _ = std::panic::catch_unwind(flush);
        }
        // SAFETY: registers a plain `extern "C"` function that takes nothing and never unwinds.
        unsafe { libc::atexit(at_exit) };
    });
}

/// Whether `category` is traced.
#[inline]
pub fn enabled(category: Category) -> bool {
    mask() & category.bit() != 0
}

/// Writes one trace line (if the category is on).
pub fn log(category: Category, message: fmt::Arguments<'_>) {
    if !enabled(category) {
        return;
    }
    let mut sinks = SINKS.lock().unwrap_or_else(|e| e.into_inner());
    match sinks.text.as_mut() {
        Some(w) => {
            let _ = writeln!(w, "softhsa[{}] {message}", category.name());
            if category == Category::Fault {
                let _ = w.flush();
            }
        }
        None => eprintln!("softhsa[{}] {message}", category.name()),
    }
}

/// `trace!(Category::Packet, "barrier-and at {}", index)`: formats only when the category is on.
#[macro_export]
macro_rules! trace {
    ($cat:expr, $($arg:tt)*) => {
        if $crate::system::trace::enabled($cat) {
            $crate::system::trace::log($cat, format_args!($($arg)*));
        }
    };
}

/// Whether a timeline is being written (check before collecting event data).
#[inline]
pub fn timeline_enabled() -> bool {
    mask() & TIMELINE_BIT != 0
}

/// A complete ("X") timeline event: `name` on track `track` (a queue, a worker, a copy engine),
/// from `start_ns` to `end_ns` in system timestamp ticks (ns, see `system::timestamp`).
/// `args` are shown by the viewer when the event is selected.
pub fn timeline_event(
    name: &str,
    category: &str,
    track: u64,
    start_ns: u64,
    end_ns: u64,
    args: &[(&str, &str)],
) {
    if !timeline_enabled() {
        return;
    }
    let dur = end_ns.saturating_sub(start_ns);
    let mut line = format!(
        "{{\"name\":{},\"cat\":{},\"ph\":\"X\",\"pid\":1,\"tid\":{track},\"ts\":{}.{:03},\"dur\":{}.{:03}",
        json_str(name),
        json_str(category),
        start_ns / 1000,
        start_ns % 1000,
        dur / 1000,
        dur % 1000
    );
    push_args(&mut line, args);
    write_timeline(line);
}

/// An instant ("i") event, e.g. a fault, at `ts_ns` on `track`.
pub fn timeline_instant(name: &str, category: &str, track: u64, ts_ns: u64, args: &[(&str, &str)]) {
    if !timeline_enabled() {
        return;
    }
    let mut line = format!(
        "{{\"name\":{},\"cat\":{},\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":{track},\"ts\":{}.{:03}",
        json_str(name),
        json_str(category),
        ts_ns / 1000,
        ts_ns % 1000
    );
    push_args(&mut line, args);
    write_timeline(line);
}

/// Names a track ("queue 0 (gfx906)", "copy engine") in the viewer.
pub fn timeline_track_name(track: u64, name: &str) {
    if !timeline_enabled() {
        return;
    }
    let line = format!(
        "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{track},\"args\":{{\"name\":{}}}}}",
        json_str(name)
    );
    write_timeline(line);
}

/// Flushes both outputs and closes the timeline's JSON array (`hsa_shut_down` calls this, and
/// the process's exit).
pub fn flush() {
    let mut sinks = SINKS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(w) = sinks.text.as_mut() {
        let _ = w.flush();
    }
    if let Some(mut w) = sinks.timeline.take() {
        let _ = writeln!(w, "\n]");
        let _ = w.flush();
        MASK.fetch_and(!TIMELINE_BIT, Ordering::Relaxed);
    }
}

fn push_args(line: &mut String, args: &[(&str, &str)]) {
    if !args.is_empty() {
        line.push_str(",\"args\":{");
        for (i, (k, v)) in args.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            line.push_str(&json_str(k));
            line.push(':');
            line.push_str(&json_str(v));
        }
        line.push('}');
    }
    line.push('}');
}

fn write_timeline(event: String) {
    let mut sinks = SINKS.lock().unwrap_or_else(|e| e.into_inner());
    let first = sinks.timeline_events == 0;
    if let Some(w) = sinks.timeline.as_mut() {
        let _ = if first {
            writeln!(w, "{event}")
        } else {
            writeln!(w, ",{event}")
        };
        sinks.timeline_events += 1;
    }
}

fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_parse_by_name_and_all() {
        assert_eq!(parse_categories("api"), Some(1));
        assert_eq!(
            parse_categories("dispatch,isa"),
            Some(Category::Dispatch.bit() | Category::Isa.bit())
        );
        assert_eq!(parse_categories("all"), Some(0b11111));
        assert_eq!(parse_categories("api,nope"), None);
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }

    /// The only test that installs sinks (they are process-wide).
    #[test]
    fn timeline_is_a_json_array_of_events() {
        let dir = std::env::temp_dir().join(format!("softhsa-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tl = dir.join("timeline.json");
        let text = dir.join("trace.txt");
        mask(); // run the lazy initialisation first so it cannot overwrite this test's sinks
        install(&TraceConfig {
            categories: Category::Fault.bit(),
            file: Some(text.clone()),
            timeline: Some(tl.clone()),
        });
        assert!(enabled(Category::Fault) && !enabled(Category::Api));
        crate::trace!(Category::Fault, "fault at {:#x}", 0x1000);
        crate::trace!(Category::Api, "not written");
        timeline_track_name(7, "queue \"0\"");
        timeline_event("kernel", "dispatch", 7, 1_500, 4_000, &[("grid", "64")]);
        timeline_instant("fault", "fault", 7, 4_000, &[]);
        flush();
        assert!(!timeline_enabled());
        let body = std::fs::read_to_string(&tl).unwrap();
        let lines: Vec<&str> = body.lines().collect();
        assert_eq!(lines[0], "[");
        assert!(lines[1].starts_with("{\"name\":\"thread_name\""));
        assert!(lines[2].starts_with(",{\"name\":\"kernel\""));
        assert!(lines[2].contains("\"ts\":1.500,\"dur\":2.500,\"args\":{\"grid\":\"64\"}}"));
        assert_eq!(*lines.last().unwrap(), "]");
        assert_eq!(
            std::fs::read_to_string(&text).unwrap(),
            "softhsa[fault] fault at 0x1000\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
