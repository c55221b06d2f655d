//! `SOFTHSA_TRACE=isa`: every executed instruction of one chosen wave, with the registers it
//! changed, to stderr (or to a buffer, for tests and tools).

use crate::program::Program;
use crate::wave::Wave;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

/// Which wave to trace, and where the lines go.
#[derive(Clone, Debug, Default)]
pub struct TraceConfig {
    pub workgroup: [u32; 3],
    pub wave: u32,
    /// Lines go here when set, else to stderr.
    pub sink: Option<Arc<Mutex<String>>>,
}

impl TraceConfig {
    /// From `SOFTHSA_TRACE` (a comma list; `isa` enables this trace) and `SOFTHSA_TRACE_WAVE`
    /// (`x,y,z:w` or `x:w`; default work-group (0,0,0) wave 0). `None` when not enabled.
    pub fn from_env_values(trace: Option<&str>, wave: Option<&str>) -> Option<TraceConfig> {
        if !trace?.split(',').any(|t| t.trim() == "isa") {
            return None;
        }
        let mut cfg = TraceConfig::default();
        if let Some(s) = wave {
            let (wg, wv) = s.split_once(':').unwrap_or((s, "0"));
            for (i, p) in wg.split(',').take(3).enumerate() {
                cfg.workgroup[i] = p.trim().parse().unwrap_or(0);
            }
            cfg.wave = wv.trim().parse().unwrap_or(0);
        }
        Some(cfg)
    }

    /// Reads the two variables from the process environment.
    pub fn from_env() -> Option<TraceConfig> {
        let t = std::env::var("SOFTHSA_TRACE").ok();
        let w = std::env::var("SOFTHSA_TRACE_WAVE").ok();
        Self::from_env_values(t.as_deref(), w.as_deref())
    }
}

/// The state of one traced wave before the current instruction.
pub struct Tracer {
    cfg: TraceConfig,
    s: [u32; 128],
    scc: bool,
    v: Box<[[u32; 64]; 256]>,
    kernel: String,
}

impl Tracer {
    pub fn new(cfg: TraceConfig, kernel: &str) -> Self {
        Tracer {
            cfg,
            s: [0; 128],
            scc: false,
            v: Box::new([[0; 64]; 256]),
            kernel: kernel.to_string(),
        }
    }

    #[inline]
    pub fn wants(&self, w: &Wave) -> bool {
        w.workgroup == self.cfg.workgroup && w.index == self.cfg.wave
    }

    pub fn before(&mut self, w: &Wave) {
        self.s = w.s;
        self.scc = w.scc;
        *self.v = w.v.0;
    }

    pub fn after(&mut self, w: &Wave, prog: &Program, i: u32) {
        let mut line = format!("[{}] {:#x}: {}", self.kernel, prog.addr(i), prog.text(i));
        for r in 0..128 {
            if w.s[r] != self.s[r] {
                let _ = write!(line, " {}={:#x}", sreg_name(r), w.s[r]);
            }
        }
        if w.scc != self.scc {
            let _ = write!(line, " scc={}", u8::from(w.scc));
        }
        for r in 0..256 {
            if w.v[r] != self.v[r] {
                let changed: Vec<usize> = (0..64).filter(|&l| w.v[r][l] != self.v[r][l]).collect();
                let _ = write!(line, " v{r}[{} lanes]", changed.len());
                for &l in changed.iter().take(4) {
                    let _ = write!(line, " l{l}={:#x}", w.v[r][l]);
                }
            }
        }
        match &self.cfg.sink {
            Some(s) => {
                let mut g = s.lock().unwrap_or_else(|e| e.into_inner());
                g.push_str(&line);
                g.push('\n');
            }
            None => eprintln!("{line}"),
        }
    }
}

/// Assembler name of a scalar register by operand code.
fn sreg_name(r: usize) -> String {
    match r {
        0..=101 => format!("s{r}"),
        102 => "flat_scratch_lo".into(),
        103 => "flat_scratch_hi".into(),
        104 => "xnack_mask_lo".into(),
        105 => "xnack_mask_hi".into(),
        106 => "vcc_lo".into(),
        107 => "vcc_hi".into(),
        108..=123 => format!("ttmp{}", r - 108),
        124 => "m0".into(),
        126 => "exec_lo".into(),
        127 => "exec_hi".into(),
        _ => format!("sreg{r}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_values_parse() {
        assert!(TraceConfig::from_env_values(Some("api"), None).is_none());
        let c = TraceConfig::from_env_values(Some("api,isa"), Some("1,2,0:3")).unwrap();
        assert_eq!((c.workgroup, c.wave), ([1, 2, 0], 3));
        let c = TraceConfig::from_env_values(Some("isa"), Some("4:1")).unwrap();
        assert_eq!((c.workgroup, c.wave), ([4, 0, 0], 1));
    }
}
