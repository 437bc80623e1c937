//! Invite codes, seat tokens and game seeds, all from the operating system's CSPRNG
//! (`getrandom`). Nothing here may take bytes from a UUID: a v4 UUID's version and variant
//! bits are fixed, and codes cut from them were measurably not uniform.

/// No look-alikes: no 0/O, 1/I/L, 5/S, 8/B, 2/Z.
pub const ALPHABET: &[u8] = b"34679ACDEFGHJKMNPQRTUVWXY";
/// 8 characters of a 25-letter alphabet: 25^8 ≈ 1.5·10^11, about 37 bits.
pub const CODE_LEN: usize = 8;

/// Fills `buf` from the OS CSPRNG. A machine whose kernel cannot supply randomness cannot
/// run a fair game, so this is fatal rather than silently weaker.
fn os_random(buf: &mut [u8]) {
    getrandom::fill(buf).expect("the operating system's random number generator failed");
}

/// A fresh invite code (uniqueness among live rooms is the registry's job). Every
/// character is uniform over [`ALPHABET`]: bytes ≥ 250 (= 10 × 25) are rejected, so
/// `b % 25` favours no letter.
pub fn invite_code() -> String {
    let limit = (256 / ALPHABET.len() * ALPHABET.len()) as u8;
    let mut out = String::with_capacity(CODE_LEN);
    let mut buf = [0u8; 16];
    while out.len() < CODE_LEN {
        os_random(&mut buf);
        for &b in buf.iter().filter(|&&b| b < limit) {
            if out.len() == CODE_LEN {
                break;
            }
            out.push(ALPHABET[b as usize % ALPHABET.len()] as char);
        }
    }
    out
}

/// A secret seat token: 128 random bits as 32 lowercase hex digits.
pub fn seat_token() -> String {
    let mut buf = [0u8; 16];
    os_random(&mut buf);
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// A game seed nobody can predict or choose.
pub fn random_seed() -> u64 {
    let mut buf = [0u8; 8];
    os_random(&mut buf);
    u64::from_le_bytes(buf)
}

/// Normalizes a code typed by a person: upper case, spaces and dashes dropped.
pub fn normalize(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_alphabet_and_differ() {
        let a = invite_code();
        assert_eq!(a.len(), CODE_LEN);
        assert!(a.bytes().all(|b| ALPHABET.contains(&b)));
        assert_ne!(a, invite_code());
        assert!((ALPHABET.len() as f64).powi(CODE_LEN as i32).log2() >= 30.0);
        assert_eq!(normalize(" abcd-efgh "), "ABCDEFGH");
    }

    /// Pearson's χ² of `counts` against a uniform distribution.
    fn chi_square(counts: &[u32]) -> f64 {
        let n: u32 = counts.iter().sum();
        let expected = n as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    /// Every position of the code is uniform over the alphabet: χ² with 24 degrees of
    /// freedom per position stays under 70 (p ≈ 2·10⁻⁶ for a truly uniform source, so
    /// this fails by chance about once in 60,000 runs), while the old UUID-derived codes
    /// (fixed version nibble in byte 6) gave χ² in the hundreds at the 7th position.
    #[test]
    fn every_position_is_uniform() {
        const CODES: usize = 25_000;
        let mut counts = vec![[0u32; 25]; CODE_LEN];
        for _ in 0..CODES {
            for (pos, ch) in invite_code().bytes().enumerate() {
                let i = ALPHABET.iter().position(|&a| a == ch).unwrap();
                counts[pos][i] += 1;
            }
        }
        for (pos, c) in counts.iter().enumerate() {
            let x2 = chi_square(c);
            assert!(x2 < 70.0, "position {pos}: χ² = {x2:.1} over {c:?}");
        }
        // The test can fail: a source biased like the old one (a letter twice as likely
        // at one position) is far above the bound.
        let mut biased = [1000u32; 25];
        biased[3] = 2000;
        assert!(chi_square(&biased) > 70.0);
    }

    #[test]
    fn tokens_and_seeds_are_random() {
        let t = seat_token();
        assert_eq!(t.len(), 32);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(t, seat_token());
        assert_ne!(random_seed(), random_seed());
    }
}
