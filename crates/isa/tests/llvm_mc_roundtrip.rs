//! decode → print → re-assemble with Debian's llvm-mc-15 gives the same bytes: random words of
//! every encoding family (gfx906) that the decoder accepts are printed, the text is assembled
//! by `llvm-mc-15 -arch=amdgcn -mcpu=gfx906 -show-encoding` in one run, and every encoding it
//! reports must be the original bytes. Where LLVM's assembler canonicalizes bits its
//! disassembler ignores (unused fields), the re-assembled bytes must at least decode to the same
//! text; the share of byte-exact round trips is asserted too, so a printer that drops operands
//! cannot hide behind that rule. Encodings LLVM's disassembler accepts but its assembler refuses
//! (constant-bus limits, image dmask rules, registers gfx906 lacks) are not valid programs: for
//! those, LLVM's own disassembly (`llvm-mc-15 -disassemble`) must print our text.

use softhsa_isa::{decode_for, Gfx};
use std::io::Write;
use std::process::{Command, Stdio};

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// Valid instructions from random words, each family's top bits forced in turn.
fn samples(count: usize) -> Vec<(Vec<u8>, String)> {
    let mut rng = XorShift(0x5DEE_CE66_D1CE_4E5B);
    let prefixes: [(u32, u32); 9] = [
        (0, 1),
        (0b10, 2),
        (0b110000, 6),
        (0b110100, 6),
        (0b110110, 6),
        (0b110111, 6),
        (0b111000, 6),
        (0b111010, 6),
        (0b111100, 6),
    ];
    let mut out = Vec::new();
    let mut round = 0usize;
    while out.len() < count && round < 50 * count {
        let (p, n) = prefixes[round % prefixes.len()];
        round += 1;
        let w0 = (p << (32 - n)) | (rng.next() >> n);
        let bytes: Vec<u8> = [w0, rng.next(), rng.next()]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        if let Ok(inst) = decode_for(&bytes, Gfx::Gfx906) {
            let len = usize::from(inst.len);
            let text = inst.display(0).to_string();
            // Branch targets print as offsets from pc 0, which llvm-mc reads as labels.
            if text.starts_with("s_branch") || text.starts_with("s_cbranch") {
                continue;
            }
            out.push((bytes[..len].to_vec(), text));
        }
    }
    out
}

/// Assembles one instruction per line; per line, the encoding or the assembler's error.
fn assemble(lines: &[String]) -> Vec<Result<Vec<u8>, String>> {
    let mut child = Command::new("llvm-mc-15")
        .args(["-arch=amdgcn", "-mcpu=gfx906", "-show-encoding"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc-15 must be installed (scripts/install-deps.sh)");
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut result: Vec<Result<Vec<u8>, String>> =
        vec![Err("no encoding printed".into()); lines.len()];
    // Errors name their line: "<stdin>:N:M: error: ...".
    for e in stderr.lines().filter(|l| l.contains(": error:")) {
        if let Some(n) = e
            .strip_prefix("<stdin>:")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<usize>().ok())
        {
            if let Some(slot) = result.get_mut(n - 1) {
                *slot = Err(e.to_string());
            }
        }
    }
    // Encodings come in input order, one per assembled line.
    let ok: Vec<usize> = (0..lines.len())
        .filter(|&i| !matches!(&result[i], Err(e) if e.contains(": error:")))
        .collect();
    let mut ok_lines = ok.into_iter();
    for l in stdout.lines() {
        let Some(enc) = l.split("encoding: [").nth(1) else {
            continue;
        };
        let bytes: Vec<u8> = enc
            .trim_end_matches(']')
            .split(',')
            .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        if let Some(i) = ok_lines.next() {
            result[i] = Ok(bytes);
        }
    }
    result
}

/// LLVM's own texts for each of `items` (`llvm-mc-15 -disassemble`, one instruction per input
/// line, in order), whitespace-normalized; `None` when LLVM did not print one line per item.
fn llvm_disassembly(items: &[&[u8]]) -> Option<Vec<String>> {
    let input: String = items
        .iter()
        .map(|b| b.iter().map(|b| format!("0x{b:02x} ")).collect::<String>() + "\n")
        .collect();
    let mut child = Command::new("llvm-mc-15")
        .args(["-disassemble", "-arch=amdgcn", "-mcpu=gfx906"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('.'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    (lines.len() == items.len()).then_some(lines)
}

#[test]
fn decode_print_reassemble_gives_the_same_bytes() {
    let samples = samples(6000);
    assert!(samples.len() >= 5000, "only {} samples", samples.len());
    let texts: Vec<String> = samples.iter().map(|(_, t)| t.clone()).collect();
    let encodings = assemble(&texts);
    let (mut exact, mut same_text, mut refused) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    let refused_items: Vec<&[u8]> = samples
        .iter()
        .zip(&encodings)
        .filter(|(_, e)| e.is_err())
        .map(|((b, _), _)| b.as_slice())
        .collect();
    let llvm_texts = llvm_disassembly(&refused_items).unwrap_or_default();
    let mut llvm_text = llvm_texts.into_iter();
    for ((bytes, text), enc) in samples.iter().zip(&encodings) {
        match enc {
            Ok(e) if e == bytes => exact += 1,
            Ok(e) => match decode_for(e, Gfx::Gfx906) {
                Ok(i) if i.display(0).to_string() == *text => same_text += 1,
                other => failures.push(format!(
                    "{bytes:02x?} `{text}` re-assembles to {e:02x?}, which decodes to {:?}",
                    other.map(|i| i.display(0).to_string())
                )),
            },
            Err(why) => match llvm_text.next() {
                Some(t) if t == *text => refused += 1,
                other => failures.push(format!(
                    "{bytes:02x?} `{text}`: {why}; llvm-mc -disassemble: {other:?}"
                )),
            },
        }
    }
    let n = samples.len();
    println!(
        "{n} instructions: {exact} re-assemble byte for byte, {same_text} to canonical bytes \
         with the same text, {refused} refused by the assembler and printed alike by LLVM's \
         disassembler, {} failures",
        failures.len()
    );
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} round-trip failures",
        failures.len()
    );
    // Random words set bits LLVM's assembler canonicalizes (unused fields): about half the
    // samples re-assemble byte for byte (2961 of 6000 when written).
    assert!(exact * 10 >= n * 4, "only {exact} of {n} byte-exact");
}
