//! The host CPU as the CPU agent sees it: read from /proc and /sys once, at `hsa_init`.
//!
//! Missing files (containers, non-Linux sysfs layouts) fall back to neutral values rather than
//! failing initialisation: the CPU agent must always exist (HIP indexes it unconditionally).

use std::fs;

/// One CPU cache level as reported by `hsa_agent_iterate_caches`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheDesc {
    pub name: String,
    pub level: u8,
    /// Bytes.
    pub size: u32,
}

/// What the CPU agent reports.
#[derive(Clone, Debug)]
pub struct HostCpu {
    /// "model name" of /proc/cpuinfo.
    pub name: String,
    /// Online logical CPUs.
    pub cores: u32,
    pub max_clock_mhz: u32,
    pub cacheline: u32,
    /// cpu0's caches, L1 first.
    pub caches: Vec<CacheDesc>,
    /// NUMA node of cpu0.
    pub numa_node: u32,
    /// Physical memory in bytes (MemTotal).
    pub memory_bytes: u64,
}

const CPU_SYSFS: &str = "/sys/devices/system/cpu";

impl HostCpu {
    /// Reads the running host.
    pub fn probe() -> HostCpu {
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let name = cpuinfo_field(&cpuinfo, "model name")
            .unwrap_or("CPU")
            .to_string();
        let cores = read(&format!("{CPU_SYSFS}/online"))
            .and_then(|s| count_cpu_list(&s))
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32));
        let max_clock_mhz = read(&format!("{CPU_SYSFS}/cpu0/cpufreq/cpuinfo_max_freq"))
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map(|khz| (khz / 1000) as u32)
            .or_else(|| {
                cpuinfo_field(&cpuinfo, "cpu MHz")
                    .and_then(|s| s.parse::<f64>().ok())
                    .map(|m| m as u32)
            })
            .unwrap_or(0);
        let (caches, cacheline) = probe_caches();
        let numa_node = fs::read_dir(format!("{CPU_SYSFS}/cpu0"))
            .ok()
            .and_then(|dir| {
                dir.flatten()
                    .find_map(|e| e.file_name().to_str()?.strip_prefix("node")?.parse().ok())
            })
            .unwrap_or(0);
        let memory_bytes = fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| meminfo_total(&m))
            .unwrap_or(1 << 30);
        HostCpu {
            name,
            cores,
            max_clock_mhz,
            cacheline,
            caches,
            numa_node,
            memory_bytes,
        }
    }

    /// Size in bytes of the first data or unified cache of `level`, 0 if none.
    pub fn data_cache_size(&self, level: u8) -> u32 {
        self.caches
            .iter()
            .find(|c| c.level == level && !c.name.ends_with("Instruction"))
            .map_or(0, |c| c.size)
    }
}

fn read(path: &str) -> Option<String> {
    fs::read_to_string(path).ok()
}

fn cpuinfo_field<'a>(cpuinfo: &'a str, key: &str) -> Option<&'a str> {
    cpuinfo.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// Counts CPUs in a sysfs list such as `0-3,8,10-11`.
pub(crate) fn count_cpu_list(list: &str) -> Option<u32> {
    let mut n = 0;
    for part in list.trim().split(',').filter(|p| !p.is_empty()) {
        n += match part.split_once('-') {
            Some((a, b)) => b.parse::<u32>().ok()?.checked_sub(a.parse::<u32>().ok()?)? + 1,
            None => part.parse::<u32>().map(|_| 1).ok()?,
        };
    }
    (n > 0).then_some(n)
}

/// `32K`, `1024K`, `32M` → bytes.
pub(crate) fn parse_cache_size(s: &str) -> Option<u32> {
    let s = s.trim();
    let (num, mul) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 1 << 10),
        'M' => (&s[..s.len() - 1], 1 << 20),
        'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u32>().ok()?.checked_mul(mul)
}

fn meminfo_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn probe_caches() -> (Vec<CacheDesc>, u32) {
    let mut caches = Vec::new();
    let mut line = 64;
    for i in 0.. {
        let dir = format!("{CPU_SYSFS}/cpu0/cache/index{i}");
        let Some(level) = read(&format!("{dir}/level")).and_then(|s| s.trim().parse::<u8>().ok())
        else {
            break;
        };
        let kind = read(&format!("{dir}/type")).unwrap_or_default();
        let Some(size) = read(&format!("{dir}/size")).and_then(|s| parse_cache_size(&s)) else {
            continue;
        };
        if let Some(l) =
            read(&format!("{dir}/coherency_line_size")).and_then(|s| s.trim().parse().ok())
        {
            line = l;
        }
        let name = match kind.trim() {
            "Data" => format!("L{level} Data"),
            "Instruction" => format!("L{level} Instruction"),
            _ => format!("L{level}"),
        };
        caches.push(CacheDesc { name, level, size });
    }
    caches.sort_by_key(|c| c.level);
    (caches, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers() {
        assert_eq!(count_cpu_list("0-3,8,10-11\n"), Some(7));
        assert_eq!(count_cpu_list("0"), Some(1));
        assert_eq!(count_cpu_list("x"), None);
        assert_eq!(parse_cache_size("32K\n"), Some(32 << 10));
        assert_eq!(parse_cache_size("32768K"), Some(32 << 20));
        assert_eq!(
            meminfo_total("MemTotal:       16384 kB\nMemFree: 1 kB"),
            Some(16 << 20)
        );
        let info = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\ncpu MHz\t\t: 2450.000\n";
        assert_eq!(cpuinfo_field(info, "model name"), Some("AMD EPYC 7B13"));
    }

    #[test]
    fn probe_agrees_with_sysfs() {
        let cpu = HostCpu::probe();
        let online = std::fs::read_to_string("/sys/devices/system/cpu/online").unwrap();
        assert_eq!(Some(cpu.cores), count_cpu_list(&online));
        // L1 data cache size as sysfs reports it for index0/index1 (whichever is Data).
        let l1d = (0..4)
            .filter_map(|i| {
                let d = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
                let t = std::fs::read_to_string(format!("{d}/type")).ok()?;
                let lvl = std::fs::read_to_string(format!("{d}/level")).ok()?;
                (t.trim() == "Data" && lvl.trim() == "1")
                    .then(|| parse_cache_size(&std::fs::read_to_string(format!("{d}/size")).ok()?))
                    .flatten()
            })
            .next();
        if let Some(l1d) = l1d {
            assert_eq!(cpu.data_cache_size(1), l1d);
        }
        assert!(cpu.memory_bytes > 0 && !cpu.name.is_empty());
    }
}
