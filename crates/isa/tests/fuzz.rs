//! Fuzz-style robustness: random words of every encoding family decode to an instruction or to
//! an error, never a panic, and decoded instructions print and report a sane length.

use softhsa_isa::{decode, decode_all, Gfx};

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

#[test]
fn random_words_never_panic() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    // Force the top bits of the first dword onto each encoding family in turn.
    let prefixes: [(u32, u32); 10] = [
        (0, 1),
        (0b10, 2),
        (0b110000, 6),
        (0b110100, 6),
        (0b110110, 6),
        (0b110111, 6),
        (0b111000, 6),
        (0b111010, 6),
        (0b111100, 6),
        (0, 0),
    ];
    let (mut ok, mut total) = (0usize, 0usize);
    for round in 0..200_000 {
        let (p, n) = prefixes[round % prefixes.len()];
        let mut w0 = rng.next();
        if n > 0 {
            w0 = (p << (32 - n)) | (w0 >> n);
        }
        let bytes: Vec<u8> = [w0, rng.next(), rng.next()]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let take = [4, 8, 12][round % 3];
        total += 1;
        if let Ok(i) = decode(&bytes[..take]) {
            ok += 1;
            assert!(
                matches!(i.len, 4 | 8 | 12) && i.len as usize <= take,
                "bad length {}",
                i.len
            );
            let text = i.display(0x1000).to_string();
            assert!(
                text.starts_with(i.op.name()),
                "{text} does not start with {}",
                i.op.name()
            );
        }
    }
    // Random words of these families are often valid: the decoder must accept a good share.
    assert!(ok > total / 10, "only {ok}/{total} decoded");
}

#[test]
fn truncated_input_is_an_error() {
    // v_mov_b32 v0, literal needs 8 bytes; s_mov_b32 needs 4.
    let lit = [0xFFu8, 0x02, 0x00, 0x7E, 0x78, 0x56, 0x34, 0x12];
    assert!(decode(&lit[..4]).is_err());
    assert!(decode(&lit[..3]).is_err());
    let i = decode(&lit).expect("v_mov_b32 with literal");
    assert_eq!((i.len, i.literal), (8, 0x1234_5678));
    // decode_all walks a range and never reads past it.
    let all = decode_all(&lit[..6], Gfx::Gfx906);
    assert_eq!(all.len(), 1);
}
