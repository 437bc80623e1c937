//! Invite codes and seat tokens, from the operating system's randomness (via uuid v4).

/// No look-alikes: no 0/O, 1/I/L, 5/S, 8/B, 2/Z.
pub const ALPHABET: &[u8] = b"34679ACDEFGHJKMNPQRTUVWXY";
/// 8 characters of a 25-letter alphabet: 25^8 ≈ 1.5·10^11, about 37 bits.
pub const CODE_LEN: usize = 8;

/// A fresh invite code (uniqueness among live rooms is the registry's job).
pub fn invite_code() -> String {
    let mut out = String::with_capacity(CODE_LEN);
    while out.len() < CODE_LEN {
        for b in uuid::Uuid::new_v4().as_bytes() {
            // Rejection sampling keeps every letter equally likely.
            if (*b as usize) < 250 && out.len() < CODE_LEN {
                out.push(ALPHABET[*b as usize % ALPHABET.len()] as char);
            }
        }
    }
    out
}

/// A secret seat token: 122 random bits.
pub fn seat_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
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
}
