//! An independent reading of the headers' text (not libclang, not the generator): the names of
//! every struct with its fields, every typedef and enum tag, every enumerator and integer
//! `#define`, so the layout test can prove its list is complete.

/// Where Debian's libhsa-runtime-dev puts the headers.
pub const HSA_DIR: &str = "/usr/include/hsa";

/// The headers softhsa-abi mirrors (one module each).
pub const HEADERS: [&str; 8] = [
    "hsa.h",
    "hsa_ext_amd.h",
    "hsa_ven_amd_loader.h",
    "amd_hsa_queue.h",
    "amd_hsa_signal.h",
    "amd_hsa_kernel_code.h",
    "hsa_ext_image.h",
    "hsa_ext_finalize.h",
];

#[derive(Default)]
pub struct Scan {
    /// Struct/union typedef name -> its field names (members of anonymous unions included).
    pub structs: Vec<(String, Vec<String>)>,
    /// Typedef names (other than struct typedefs) and tags of enums without a typedef.
    pub types: Vec<String>,
    /// Enumerators and integer `#define`s.
    pub constants: Vec<String>,
}

pub fn scan_all() -> Scan {
    let mut scan = Scan::default();
    for h in HEADERS {
        let path = format!("{HSA_DIR}/{h}");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}: install Debian's libhsa-runtime-dev"));
        let code = preprocess(&strip_comments(&text), &mut scan.constants);
        declarations(&tokens(&code), &mut scan);
    }
    scan
}

fn strip_comments(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out += &s[start..i.min(b.len())];
        } else if s[i..].starts_with("//") {
            i = s[i..].find('\n').map_or(b.len(), |n| i + n);
        } else if s[i..].starts_with("/*") {
            i = s[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
            out.push(' ');
        } else {
            let n = s[i..].chars().next().map_or(1, char::len_utf8);
            out += &s[i..i + n];
            i += n;
        }
    }
    out
}

/// Drop directive lines, keep only the `HSA_LARGE_MODEL` branch of its conditionals (x86-64 is
/// LP64) and collect integer `#define`s.
fn preprocess(s: &str, constants: &mut Vec<String>) -> String {
    let joined = s.replace("\\\n", " ");
    let mut out = String::new();
    // (conditional on HSA_LARGE_MODEL, branch number)
    let mut stack: Vec<(bool, u32)> = Vec::new();
    for line in joined.lines() {
        let t = line.trim_start();
        let active = stack.iter().all(|&(lm, br)| !lm || br == 0);
        if let Some(d) = t.strip_prefix('#') {
            let words: Vec<&str> = d.split_whitespace().collect();
            match words.first().copied() {
                Some("if" | "ifdef" | "ifndef") => stack.push((
                    words[0] == "ifdef" && words.get(1) == Some(&"HSA_LARGE_MODEL"),
                    0,
                )),
                Some("elif" | "else") => stack.last_mut().expect("#else without #if").1 += 1,
                Some("endif") => {
                    stack.pop();
                }
                Some("define") if active && words.len() == 3 => {
                    let v = words[2].trim_end_matches(['u', 'U', 'l', 'L']);
                    if !v.is_empty() && v.bytes().all(|c| c.is_ascii_digit()) {
                        constants.push(words[1].to_string());
                    }
                }
                _ => {}
            }
        } else if active {
            out += line;
            out.push('\n');
        }
    }
    out
}

fn tokens(s: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_alphanumeric() || c == '_' {
            let mut w = String::new();
            while let Some(&c) = chars.peek().filter(|c| c.is_alphanumeric() || **c == '_') {
                w.push(c);
                chars.next();
            }
            v.push(w);
        } else if c == '"' {
            chars.next();
            let mut w = String::from('"');
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                w.push(c);
            }
            v.push(w);
        } else {
            chars.next();
            if !c.is_whitespace() {
                v.push(c.to_string());
            }
        }
    }
    v
}

fn is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c.is_alphabetic() || c == '_')
}

/// Index of the token closing the bracket opened at `open`.
fn matching(t: &[String], open: usize) -> usize {
    let (o, c) = (t[open].as_str(), if t[open] == "{" { "}" } else { ")" });
    let mut depth = 0;
    for (i, tok) in t.iter().enumerate().skip(open) {
        if tok == o {
            depth += 1;
        } else if tok == c {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    panic!("unbalanced {o}");
}

/// Split `t` at top-level (bracket depth 0) occurrences of `sep`.
fn split_top<'a>(t: &'a [String], sep: &str) -> Vec<&'a [String]> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, tok) in t.iter().enumerate() {
        match tok.as_str() {
            "{" | "(" | "[" => depth += 1,
            "}" | ")" | "]" => depth -= 1,
            s if s == sep && depth == 0 => {
                parts.push(&t[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&t[start..]);
    parts
}

fn declarations(t: &[String], scan: &mut Scan) {
    let mut i = 0;
    while i < t.len() {
        let is_typedef = t[i] == "typedef";
        // `typedef ALIGN_MACRO struct ...` puts an attribute macro before the keyword.
        let kw = if is_typedef {
            (i + 1..t.len().min(i + 3))
                .find(|&j| matches!(t[j].as_str(), "struct" | "union" | "enum"))
                .unwrap_or(i + 1)
        } else {
            i
        };
        let tag_kind = t.get(kw).map(String::as_str);
        let brace = (kw + 1..t.len().min(kw + 4)).find(|&j| t[j] == "{" || t[j] == ";");
        let body = brace.filter(|&j| t[j] == "{");
        match (tag_kind, body) {
            (Some(k @ ("struct" | "union" | "enum")), Some(open)) if is_typedef || kw == i => {
                let close = matching(t, open);
                let end = (close..t.len())
                    .find(|&j| t[j] == ";")
                    .expect("`;` after a body");
                let name = t[close + 1..end].iter().rev().find(|s| is_ident(s));
                let tag = t[kw + 1..open].iter().rev().find(|s| is_ident(s));
                if k == "enum" {
                    enumerators(&t[open + 1..close], &mut scan.constants);
                    if let Some(n) = name.or(tag) {
                        scan.types.push(n.clone());
                    }
                } else {
                    let name = name.or(tag).expect("a struct needs a name");
                    let mut fields = Vec::new();
                    struct_fields(&t[open + 1..close], &mut fields);
                    scan.structs.push((name.clone(), fields));
                }
                i = end + 1;
            }
            _ if is_typedef => {
                let end = (i..t.len())
                    .find(|&j| t[j] == ";")
                    .expect("`;` after typedef");
                let d = &t[i + 1..end];
                scan.types.push(declarator_name(d));
                i = end + 1;
            }
            _ => i += 1,
        }
    }
}

/// The name a declaration declares: `T (*name)(..)` or `T name[N]`.
fn declarator_name(d: &[String]) -> String {
    if let Some(p) = d.windows(2).position(|w| w[0] == "(" && w[1] == "*") {
        return d[p + 2].clone();
    }
    let mut end = d.len();
    while end > 0 && d[end - 1] == "]" {
        end = d[..end]
            .iter()
            .rposition(|s| s == "[")
            .expect("`[` before `]`");
    }
    d[..end]
        .iter()
        .rev()
        .find(|s| is_ident(s))
        .expect("a declarator name")
        .clone()
}

fn struct_fields(body: &[String], out: &mut Vec<String>) {
    for decl in split_top(body, ";").into_iter().filter(|d| !d.is_empty()) {
        if let Some(open) = decl.iter().position(|s| s == "{") {
            let close = matching(decl, open);
            match decl[close + 1..].iter().rev().find(|s| is_ident(s)) {
                Some(named) => out.push(named.clone()),
                None => struct_fields(&decl[open + 1..close], out),
            }
        } else {
            for d in split_top(decl, ",") {
                out.push(declarator_name(d));
            }
        }
    }
}

fn enumerators(body: &[String], out: &mut Vec<String>) {
    for item in split_top(body, ",").into_iter().filter(|d| !d.is_empty()) {
        if item[0] == "AMD_HSA_BITS_CREATE_ENUM_ENTRIES" {
            let n = &item[2];
            out.extend([format!("{n}_SHIFT"), format!("{n}_WIDTH"), n.clone()]);
        } else {
            out.push(item[0].clone());
        }
    }
}
