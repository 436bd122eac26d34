//! L'Ecuyer's MRG32k3a combined multiple-recursive generator, seeded and split into streams and
//! substreams the way ns-3's `RngStream` does, so that an algorithm with a random choice (BBR's
//! PROBE_BW starting phase) can draw exactly the numbers its ns-3.44 counterpart draws.
//!
//! Source: P. L'Ecuyer, "Good parameters and implementations for combined multiple recursive
//! random number generators", Operations Research 47(1), 1999 (the recurrences and constants);
//! P. L'Ecuyer, R. Simard, E. J. Chen, W. D. Kelton, "An object-oriented random-number package
//! with many long streams and substreams", Operations Research 50(6), 2002 (streams 2^127 and
//! substreams 2^76 apart). ns-3 (`src/core/model/rng-stream.cc`, `random-variable-stream.cc`)
//! seeds all six state words with the global seed, jumps `stream` streams then `run`
//! substreams ahead, and numbers user-chosen streams from 2^63 up.
//!
//! Arithmetic here is exact integer arithmetic; ns-3 uses doubles whose operands stay below
//! 2^53, which is exact too, so both produce the same sequence bit for bit.

const M1: u64 = 4_294_967_087;
const M2: u64 = 4_294_944_443;
const A12: i64 = 1_403_580;
const A13N: i64 = 810_728;
const A21: i64 = 527_612;
const A23N: i64 = 1_370_589;
/// 1 / (M1 + 1), written as the reference implementation writes it (same double).
#[allow(clippy::excessive_precision)]
const NORM: f64 = 2.328_306_549_295_727_688e-10;

/// log2 of the distance between streams and between substreams.
const STREAM_SHIFT: u32 = 127;
const SUBSTREAM_SHIFT: u32 = 76;

type Matrix = [[u64; 3]; 3];

/// One-step transition matrices of the two components.
const A1: Matrix = [[0, 1, 0], [0, 0, 1], [M1 - A13N as u64, A12 as u64, 0]];
const A2: Matrix = [[0, 1, 0], [0, 0, 1], [M2 - A23N as u64, 0, A21 as u64]];

fn mat_mul(a: &Matrix, b: &Matrix, m: u64) -> Matrix {
    let mut c = [[0u64; 3]; 3];
    for (i, row) in c.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            let s: u128 = (0..3).map(|k| a[i][k] as u128 * b[k][j] as u128).sum();
            *cell = (s % m as u128) as u64;
        }
    }
    c
}

fn mat_vec(a: &Matrix, v: &[u64], m: u64) -> [u64; 3] {
    let mut out = [0u64; 3];
    for (i, o) in out.iter_mut().enumerate() {
        let s: u128 = (0..3).map(|k| a[i][k] as u128 * v[k] as u128).sum();
        *o = (s % m as u128) as u64;
    }
    out
}

/// A random stream of ns-3's generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mrg32k3a {
    s: [u64; 6],
}

impl Mrg32k3a {
    /// ns-3 `RngStream(seed, stream, substream)`.
    pub fn new(seed: u32, stream: u64, substream: u64) -> Self {
        assert!(seed != 0, "MRG32k3a seed must be non-zero");
        let mut g = Mrg32k3a {
            s: [seed as u64; 6],
        };
        g.advance(stream, STREAM_SHIFT);
        g.advance(substream, SUBSTREAM_SHIFT);
        g
    }

    /// The stream a `RandomVariableStream::SetStream(stream)` with `stream ≥ 0` gets in a run
    /// (`RngSeed` = `seed`, `RngRun` = `run`): stream 2^63 + `stream`, substream `run`.
    pub fn ns3_user_stream(seed: u32, run: u64, stream: u64) -> Self {
        Self::new(seed, (1u64 << 63) + stream, run)
    }

    /// Jumps `n × 2^shift` steps ahead (ns-3 `AdvanceNthBy`): one matrix power per set bit.
    fn advance(&mut self, n: u64, shift: u32) {
        let (mut p1, mut p2) = (A1, A2);
        for _ in 0..shift {
            p1 = mat_mul(&p1, &p1, M1);
            p2 = mat_mul(&p2, &p2, M2);
        }
        for bit in 0..64 {
            if (n >> bit) & 1 == 1 {
                let a = mat_vec(&p1, &self.s[0..3], M1);
                let b = mat_vec(&p2, &self.s[3..6], M2);
                self.s = [a[0], a[1], a[2], b[0], b[1], b[2]];
            }
            p1 = mat_mul(&p1, &p1, M1);
            p2 = mat_mul(&p2, &p2, M2);
        }
    }

    /// Uniform in (0, 1) (ns-3 `RandU01`).
    pub fn next_f64(&mut self) -> f64 {
        let s = &mut self.s;
        let p1 = (A12 * s[1] as i64 - A13N * s[0] as i64).rem_euclid(M1 as i64);
        s[0] = s[1];
        s[1] = s[2];
        s[2] = p1 as u64;
        let p2 = (A21 * s[5] as i64 - A23N * s[3] as i64).rem_euclid(M2 as i64);
        s[3] = s[4];
        s[4] = s[5];
        s[5] = p2 as u64;
        let d = if p1 > p2 {
            p1 - p2
        } else {
            p1 - p2 + M1 as i64
        };
        d as f64 * NORM
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of the reference package's default stream (seed 12345 in all six
    /// words), as L'Ecuyer's `testRngStream` prints them: 0.127011122, 0.318527565, ...
    #[test]
    fn default_stream_matches_the_reference_package() {
        let mut g = Mrg32k3a { s: [12345; 6] };
        let u: Vec<f64> = (0..2).map(|_| g.next_f64()).collect();
        assert!((u[0] - 0.127_011_122_0).abs() < 1e-10, "{u:?}");
        assert!((u[1] - 0.318_527_565_3).abs() < 1e-10, "{u:?}");
    }

    #[test]
    fn jumping_a_substream_equals_stepping_through_it() {
        // A jump of 2^0 × 2^shift with shift 0 is one step of the recurrence.
        let mut a = Mrg32k3a::new(1, 0, 0);
        let mut b = a.clone();
        b.advance(5, 0);
        for _ in 0..5 {
            a.next_f64();
        }
        assert_eq!(a, b);
    }
}
