//! Named, seeded random streams.
//!
//! Each consumer (a link's loss process, a flow's start jitter, ...) owns a stream derived
//! from (run seed, stream name), so adding a consumer never shifts the draws of another.
//! Generator: xoshiro256** (Blackman & Vigna), seeded through SplitMix64.

#[derive(Clone, Debug)]
pub struct RngStream {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a: a stable (platform- and version-independent) hash of the stream name.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

impl RngStream {
    /// The stream called `name` of the run seeded with `seed`.
    pub fn new(seed: u64, name: &str) -> Self {
        let mut state = seed ^ fnv1a(name.as_bytes());
        let s = [
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
        ];
        RngStream { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `p`.
    pub fn bernoulli(&mut self, p: f64) -> bool {
        p > 0.0 && self.next_f64() < p
    }

    /// Uniform integer in [0, n).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a1: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(RngStream::new(7, "a"), |r, _| Some(r.next_u64()))
            .collect();
        let a2: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(RngStream::new(7, "a"), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..4)
            .map(|_| 0)
            .scan(RngStream::new(7, "b"), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a1, a2);
        assert_ne!(a1, b);
    }

    #[test]
    fn f64_in_unit_interval() {
        let mut r = RngStream::new(1, "x");
        for _ in 0..1000 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
        }
    }
}
