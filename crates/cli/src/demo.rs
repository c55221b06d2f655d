//! `softhsa demo`: runs the built-in code object (`examples/demo/demo.hsaco`, a fixed-point
//! Mandelbrot kernel; `examples/demo/build.sh` rebuilds it) on the software GPU through the HSA
//! C API, exactly as a C program would, checks every pixel against a host computation, and
//! prints the picture, the dispatch time and the wave instructions per second.
//!
//! `--workers 1,2,4` repeats the run with that many host worker threads (`SOFTHSA_WORKERS`,
//! read at `hsa_init`), to show that work-groups spread over the cores.
//!
//! Each run goes twice, under the JIT (`SOFTHSA_JIT`, `on` unless set) and under the
//! interpreter, and prints the JIT's speed-up; `SOFTHSA_JIT=off` runs the interpreter only.
//!
//! The HSA functions are softhsa-capi's exports, declared in `demo/hsa.rs` and resolved at link time
//! (the cli links softhsa-capi); no compiler or ROCm installation is needed.

use softhsa_abi::*;
use std::time::Instant;

use softhsa_capi as _;

/// The committed code object and the one kernel in it.
const CODE_OBJECT: &[u8] = include_bytes!("../../../examples/demo/demo.hsaco");
const KERNEL_SYMBOL: &std::ffi::CStr = c"mandelbrot.kd";
/// Q4.28 fixed point, as demo.cl computes.
const FRAC: u32 = 28;

mod hsa;
use hsa::Hsa;

struct Options {
    width: u32,
    height: u32,
    max_iter: u32,
    workers: Vec<usize>,
    picture: bool,
}

const USAGE: &str = "usage: softhsa demo [--size WxH] [--iterations N] [--workers N[,N...]] \
                     [--no-picture]";

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        width: 640,
        height: 480,
        max_iter: 256,
        workers: vec![],
        picture: true,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))
        };
        match a.as_str() {
            "--size" => {
                let v = value()?;
                let (w, h) = v.split_once('x').ok_or_else(|| format!("bad size {v}"))?;
                o.width = w.parse().map_err(|_| format!("bad width {w}"))?;
                o.height = h.parse().map_err(|_| format!("bad height {h}"))?;
            }
            "--iterations" => {
                let v = value()?;
                o.max_iter = v.parse().map_err(|_| format!("bad iteration count {v}"))?;
            }
            "--workers" => {
                for w in value()?.split(',') {
                    match w.parse::<usize>() {
                        Ok(n) if n > 0 => o.workers.push(n),
                        _ => return Err(format!("bad worker count {w}")),
                    }
                }
            }
            "--no-picture" => o.picture = false,
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    if o.width == 0 || o.height == 0 || o.width > 16384 || o.height > 16384 {
        return Err("the size must be between 1x1 and 16384x16384".into());
    }
    Ok(o)
}

/// The region of the complex plane: x in [-2.2, 1.0], centred vertically, as Q4.28.
fn view(o: &Options) -> (i32, i32, i32) {
    let step = ((3.2 * f64::from(1u32 << FRAC)) / f64::from(o.width)) as i32;
    let x0 = (-2.2 * f64::from(1u32 << FRAC)) as i32;
    let y0 = -(step * (o.height as i32 / 2));
    (x0, y0, step)
}

/// The host reference: the same fixed-point iteration as demo.cl.
fn reference(o: &Options, (x0, y0, step): (i32, i32, i32)) -> Vec<u32> {
    let mut out = vec![0u32; o.width as usize * o.height as usize];
    for py in 0..o.height {
        let cy = i64::from(y0) + i64::from(py) * i64::from(step);
        for px in 0..o.width {
            let cx = i64::from(x0) + i64::from(px) * i64::from(step);
            let (mut x, mut y, mut n) = (0i64, 0i64, 0u32);
            while n < o.max_iter {
                let (x2, y2) = ((x * x) >> FRAC, (y * y) >> FRAC);
                if x2 + y2 > (4i64 << FRAC) {
                    break;
                }
                y = ((x * y) >> (FRAC - 1)) + cy;
                x = x2 - y2 + cx;
                n += 1;
            }
            out[(py * o.width + px) as usize] = n;
        }
    }
    out
}

/// What one run measured.
struct Measured {
    counts: Vec<u32>,
    dispatch_ns: u64,
    wall_ns: u64,
    waves: u64,
    wave_instructions: Option<u64>,
}

/// Explicit kernel arguments of `mandelbrot`, laid out as clang does (kernarg_segment_size 32).
#[repr(C)]
struct Args {
    counts: *mut u32,
    width: u32,
    height: u32,
    x0: i32,
    y0: i32,
    step: i32,
    max_iter: u32,
}

/// What the runtime's default worker count is here, for the report: `SOFTHSA_WORKERS` as
/// set, else one per host core.
fn default_workers() -> String {
    match std::env::var("SOFTHSA_WORKERS") {
        Ok(v) => format!("{v} (SOFTHSA_WORKERS)"),
        Err(_) => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            format!("default ({cores})")
        }
    }
}

fn run_once(o: &Options, v: (i32, i32, i32)) -> Result<Measured, String> {
    let hsa = Hsa::init()?;
    let gpu = hsa.agent(HSA_DEVICE_TYPE_GPU)?;
    let pools = hsa.cpu_pools()?;
    let kernel = hsa.load_kernel(gpu, CODE_OBJECT, KERNEL_SYMBOL)?;
    let pixels = o.width as usize * o.height as usize;
    let counts = hsa.alloc(pools.fine, pixels * 4, gpu)?.cast::<u32>();
    let args = Args {
        counts,
        width: o.width,
        height: o.height,
        x0: v.0,
        y0: v.1,
        step: v.2,
        max_iter: o.max_iter,
    };
    let kernarg_size = (kernel.kernarg_size as usize).max(std::mem::size_of::<Args>());
    let kernarg = hsa.alloc(pools.kernarg, kernarg_size, gpu)?;
    // SAFETY: `kernarg` is a fresh allocation of at least size_of::<Args>() bytes, aligned for
    // any kernarg (pool allocations are page-aligned); nothing else uses it yet.
    unsafe {
        std::ptr::write_bytes(kernarg.cast::<u8>(), 0, kernarg_size);
        kernarg.cast::<Args>().write(args);
    }
    let wg = [16u16, 16];
    let grid = [o.width, o.height];
    let start = Instant::now();
    let times = hsa.dispatch(gpu, &kernel, grid, wg, kernarg)?;
    let wall_ns = start.elapsed().as_nanos() as u64;
    let mut out = vec![0u32; pixels];
    // SAFETY: the dispatch completed (its signal was acquired), so the device's writes to the
    // `pixels` u32 of `counts` are visible, and nothing writes them any more.
    unsafe { std::ptr::copy_nonoverlapping(counts, out.as_mut_ptr(), pixels) };
    let waves = wave_count(grid, wg);
    Ok(Measured {
        counts: out,
        dispatch_ns: times.unwrap_or(wall_ns),
        wall_ns,
        waves,
        wave_instructions: hsa.wave_instructions(),
    })
}

/// Waves launched: each work-group (partial at the right and bottom edges) has
/// ceil(work-items / 64) waves.
fn wave_count(grid: [u32; 2], wg: [u16; 2]) -> u64 {
    let (wx, wy) = (u32::from(wg[0]), u32::from(wg[1]));
    let mut waves = 0u64;
    for gy in 0..grid[1].div_ceil(wy) {
        let h = wy.min(grid[1] - gy * wy);
        for gx in 0..grid[0].div_ceil(wx) {
            let w = wx.min(grid[0] - gx * wx);
            waves += u64::from((w * h).div_ceil(64));
        }
    }
    waves
}

/// A small rendering of the set: one character per cell of pixels, darker for more iterations
/// (square root scale, so that the few-iteration halo stays visible; `@` = inside).
fn picture(o: &Options, counts: &[u32]) -> String {
    const SHADES: &[u8] = b" .:-=+*#%@";
    let (cols, rows) = (72u32.min(o.width), 24u32.min(o.height));
    let top = (SHADES.len() - 1) as f64;
    let mut s = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let (px, py) = (c * o.width / cols, r * o.height / rows);
            let n = counts[(py * o.width + px) as usize];
            let shade = if n >= o.max_iter {
                SHADES.len() - 1
            } else {
                ((f64::from(n) / f64::from(o.max_iter)).sqrt() * top).min(top - 1.0) as usize
            };
            s.push(SHADES[shade] as char);
        }
        s.push('\n');
    }
    s
}

/// Runs the demo with the arguments after `demo`; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let v = view(&o);
    let t = Instant::now();
    let want = reference(&o, v);
    let host_ns = t.elapsed().as_nanos() as u64;
    let runs: Vec<Option<usize>> = if o.workers.is_empty() {
        vec![None]
    } else {
        o.workers.iter().map(|&w| Some(w)).collect()
    };
    println!(
        "softhsa demo: Mandelbrot {}x{}, up to {} iterations, {} work-items in 16x16 groups",
        o.width,
        o.height,
        o.max_iter,
        want.len()
    );
    let mut status = 0;
    let mut first_ns = std::collections::HashMap::new();
    // The engine asked for (default: the JIT), then the interpreter to compare with.
    let asked = std::env::var("SOFTHSA_JIT").unwrap_or_else(|_| "on".into());
    let engines: Vec<String> = match softhsa_gpu::Engine::parse(&asked) {
        Some(softhsa_gpu::Engine::Interpreter) | None => vec![asked.clone()],
        Some(_) => vec![asked.clone(), "off".into()],
    };
    let runs: Vec<(Option<usize>, &str)> = runs
        .iter()
        .flat_map(|&w| engines.iter().map(move |e| (w, e.as_str())))
        .collect();
    let mut jit_ns = None;
    for (i, &(workers, engine)) in runs.iter().enumerate() {
        if let Some(w) = workers {
            // Read by the runtime at hsa_init; each run initializes a fresh runtime.
            std::env::set_var("SOFTHSA_WORKERS", w.to_string());
        }
        std::env::set_var("SOFTHSA_JIT", engine);
        let engine_name = softhsa_gpu::Engine::parse(engine).map_or("?", |e| e.effective().name());
        let m = match run_once(&o, v) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("softhsa demo: {e}");
                return 1;
            }
        };
        let bad = m.counts.iter().zip(&want).filter(|(g, w)| g != w).count();
        if i == 0 && o.picture {
            print!("{}", picture(&o, &m.counts));
        }
        let label = workers.map_or_else(default_workers, |w| w.to_string());
        let ms = m.dispatch_ns as f64 / 1e6;
        let rate = match m.wave_instructions {
            Some(n) if m.dispatch_ns > 0 => {
                format!(
                    "{n} wave instructions, {:.1} M/s",
                    n as f64 * 1e3 / m.dispatch_ns as f64
                )
            }
            _ => "wave instructions: not reported by this runtime build".to_string(),
        };
        // Scaling: against this engine's first run.
        let first = first_ns.entry(engine_name).or_insert(m.dispatch_ns);
        let mut speedup = if *first == m.dispatch_ns {
            String::new()
        } else {
            format!(
                ", {:.2}x the first run",
                *first as f64 / m.dispatch_ns.max(1) as f64
            )
        };
        if engine_name == "interpreter" {
            if let Some(j) = jit_ns.take() {
                speedup = format!(
                    "{speedup}; the JIT was {:.2}x faster",
                    m.dispatch_ns as f64 / f64::max(j as f64, 1.0)
                );
            }
        } else {
            jit_ns = Some(m.dispatch_ns);
        }
        println!(
            "workers {label}, {engine_name}: dispatch {ms:.2} ms (wall {:.2} ms), {} waves, \
             {rate}{speedup}; {}",
            m.wall_ns as f64 / 1e6,
            m.waves,
            if bad == 0 {
                "all pixels match the host".to_string()
            } else {
                format!("{bad} pixels DIFFER from the host")
            }
        );
        if bad != 0 {
            status = 1;
        }
    }
    println!("host reference: {:.2} ms on one core", host_ns as f64 / 1e6);
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(w: u32, h: u32, it: u32) -> Options {
        Options {
            width: w,
            height: h,
            max_iter: it,
            workers: vec![],
            picture: false,
        }
    }

    #[test]
    fn reference_matches_known_points() {
        // Column 0 is x = -2.2 (outside: escapes at once); the centre row at x = -0.2 is inside.
        let o = opts(16, 8, 100);
        let (x0, y0, step) = view(&o);
        let r = reference(&o, (x0, y0, step));
        assert_eq!(y0 + step * 4, 0, "row 4 is the real axis");
        assert_eq!(r[4 * 16], 1, "c = -2.2 escapes after one step");
        // Column 10: x = -2.2 + 10 * 0.2 = -0.2 (inside the main cardioid).
        assert_eq!(r[4 * 16 + 10], 100);
    }

    #[test]
    fn wave_count_handles_partial_groups() {
        assert_eq!(wave_count([32, 32], [16, 16]), 16);
        // 20x18: groups of 16x16 (4 waves), 4x16 (1), 16x2 (1), 4x2 (1).
        assert_eq!(wave_count([20, 18], [16, 16]), 7);
    }

    #[test]
    fn options_parse() {
        let a: Vec<String> = ["--size", "64x32", "--workers", "1,2", "--iterations", "9"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = parse(&a).unwrap();
        assert_eq!(
            (o.width, o.height, o.max_iter, o.workers.clone()),
            (64, 32, 9, vec![1, 2])
        );
        assert!(parse(&["--bogus".to_string()]).is_err());
        assert!(parse(&["--size".to_string(), "0x5".to_string()]).is_err());
    }

    #[test]
    fn embedded_code_object_is_a_v5_gfx906_amdgpu_elf() {
        assert_eq!(&CODE_OBJECT[..4], b"\x7fELF");
        assert_eq!(CODE_OBJECT[7], 64, "ELFOSABI_AMDGPU_HSA");
        assert_eq!(CODE_OBJECT[8], 3, "ABI version 3 = code object v5");
    }
}
