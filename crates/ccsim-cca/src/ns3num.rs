//! Bit-exact emulation of the ns-3 numeric conversions the algorithms rely on.
//!
//! ns-3 keeps `Time` as an `int64_t` count of nanoseconds (default resolution), and converts it
//! to seconds through its `int64x64_t` fixed-point type (`src/core/model/nstime.h`
//! `Time::To`/`ToDouble`, `src/core/model/int64x64-128.{h,cc}` `MulByInvert`, `Invert`,
//! `GetDouble`). That path is *not* `ns as f64 / 1e9`: it multiplies by a rounded-up 128-bit
//! inverse of 10^9, truncates, and rounds twice (first to the x87 80-bit `long double`, then to
//! `double`). [`seconds`] reproduces it so that every float computed from a time matches ns-3 to
//! the last bit.
//!
//! C++ `static_cast<uint32_t>(double)` on x86-64 (GCC/Clang: `cvttsd2si` into a 64-bit register,
//! keep the low 32 bits) is reproduced by [`cast_u32`]; Rust's saturating `as u32` differs for
//! out-of-range values.

use ccsim_core::Time;

const MASK_LO: u128 = u64::MAX as u128;

/// ns-3 `int64x64_t::UmulByInvert`: the product of `a` (64.64 fixed point) and `b` (a 0.128
/// inverse from `Invert`), keeping only the terms ns-3 keeps.
const fn umul_by_invert(a: u128, b: u128) -> u128 {
    let (ah, al) = (a >> 64, a & MASK_LO);
    let (bh, bl) = (b >> 64, b & MASK_LO);
    let high = ah * bh;
    let mid = (ah * bl + al * bh) >> 64;
    high + mid
}

/// ns-3 `int64x64_t::Invert(v)`: floor(2^128 / v), plus one unless `v * inverse` reads back 1.
/// (`Udiv` is exact for the divisors used here, 10^3..10^9.)
const fn invert(v: u64) -> u128 {
    let mut inv = u128::MAX / v as u128; // == floor(2^128 / v) since v does not divide 2^128
    let tmp = umul_by_invert((v as u128) << 64, inv);
    if (tmp >> 64) != 1 {
        inv += 1;
    }
    inv
}

/// The inverse of 10^9 that `Time::GetSeconds()` multiplies by, split in its 64-bit halves.
const INV_NS: u128 = invert(1_000_000_000);
const INV_NS_HI: u128 = INV_NS >> 64;
const INV_NS_LO: u128 = INV_NS & MASK_LO;

/// ns-3 `int64x64_t::GetDouble` on a magnitude in 64.64 fixed point: `fhi + flo` in x87
/// `long double` (64-bit mantissa, rounded to nearest even), then narrowed to `double`.
/// The second rounding is Rust's `u64 as f64` (also nearest even) on the 64-bit mantissa;
/// scaling by a power of two is exact.
#[inline]
fn fixed_to_f64(magnitude: u128, negative: bool) -> f64 {
    let n = 128 - magnitude.leading_zeros();
    let (mantissa, exp) = if n <= 64 {
        (magnitude as u64 as f64, -64)
    } else {
        let shift = n - 64;
        let q = (magnitude >> shift) as u64;
        let rem = magnitude & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rem > half || (rem == half && q & 1 == 1);
        // q + 1 == 2^64 when q is all ones: still exact as a double.
        let m = match q.checked_add(up as u64) {
            Some(q) => q as f64,
            None => 18_446_744_073_709_551_616.0,
        };
        (m, shift as i32 - 64)
    };
    // 2^exp for exp in [-64, 0]: a normal double, built from its bits.
    let v = mantissa * f64::from_bits(((1023 + exp) as u64) << 52);
    if negative {
        -v
    } else {
        v
    }
}

/// ns-3 `Time::GetSeconds()` for a signed nanosecond count: `UmulByInvert(|ns| << 64, 1/10^9)`,
/// whose low 64 input bits are zero, so two 64 × 64-bit products are all it needs.
pub fn seconds_i64(ns: i64) -> f64 {
    let negative = ns < 0;
    let mag = ns.unsigned_abs() as u128;
    let r = mag * INV_NS_HI + ((mag * INV_NS_LO) >> 64);
    fixed_to_f64(r, negative)
}

/// ns-3 `Time::GetSeconds()`.
pub fn seconds(t: Time) -> f64 {
    seconds_i64(t.as_nanos() as i64)
}

/// ns-3 `Time::GetMilliSeconds()`: integer division, truncated.
pub fn millis(t: Time) -> i64 {
    (t.as_nanos() / 1_000_000) as i64
}

/// ns-3 `Time::GetDouble()`: the raw nanosecond count as a double.
pub fn raw_double(t: Time) -> f64 {
    t.as_nanos() as i64 as f64
}

/// C++ `static_cast<uint32_t>(x)` for a double as x86-64 compilers emit it (`cvttsd2si` to 64
/// bits, low 32 bits kept; NaN and out-of-range give the "integer indefinite" 0x8000...0).
pub fn cast_u32(x: f64) -> u32 {
    const LIMIT: f64 = 9_223_372_036_854_775_808.0; // 2^63
    if x.is_nan() || !(-LIMIT..LIMIT).contains(&x) {
        0
    } else {
        (x as i64) as u32
    }
}

/// C++ `static_cast<uint64_t>(x)` for a double (GCC x86-64 semantics for values in
/// `[0, 2^64)`; negative or NaN inputs do not occur in the algorithms and give 0 here).
pub fn cast_u64(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else {
        x as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_close_to_naive() {
        for ns in [
            0i64,
            1,
            999,
            1_000_000,
            45_481_000,
            50_000_000,
            1_409_660_680,
            123_456_789_012,
        ] {
            let s = seconds_i64(ns);
            let naive = ns as f64 / 1e9;
            assert!(
                (s - naive).abs() <= naive.abs() * 1e-15 + 1e-18,
                "{ns}: {s} vs {naive}"
            );
        }
        assert_eq!(seconds_i64(-50_000_000), -seconds_i64(50_000_000));
        assert_eq!(seconds_i64(1_000_000_000), 1.0);
    }

    /// The conversion as ns-3 writes it: 128-bit product, then `round_to_bits` to the x87
    /// mantissa (64 bits) and to the double's (53), ties to even each time.
    fn reference_seconds(ns: i64) -> f64 {
        fn round_to_bits(v: u128, bits: u32) -> u128 {
            let n = 128 - v.leading_zeros();
            if n <= bits {
                return v;
            }
            let shift = n - bits;
            let (q, rem, half) = (v >> shift, v & ((1u128 << shift) - 1), 1u128 << (shift - 1));
            let q = if rem > half || (rem == half && q & 1 == 1) {
                q + 1
            } else {
                q
            };
            q << shift
        }
        let r = umul_by_invert((ns.unsigned_abs() as u128) << 64, invert(1_000_000_000));
        let v = round_to_bits(round_to_bits(r, 64), 53) as f64 * (-64f64).exp2();
        if ns < 0 {
            -v
        } else {
            v
        }
    }

    #[test]
    fn seconds_matches_the_two_roundings_bit_for_bit() {
        // A fixed-seed LCG over every magnitude (2^0 .. 2^63), plus the edges and values near
        // whole seconds, where ties between the two roundings happen.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut cases = vec![
            0i64,
            1,
            -1,
            i64::MAX,
            i64::MIN + 1,
            999_999_999,
            1_000_000_001,
        ];
        for bits in 0..63 {
            for _ in 0..2000 {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let v = (x >> 1) >> (62 - bits);
                cases.push(v as i64);
                cases.push(-(v as i64));
            }
        }
        for s in 0..5000i64 {
            for d in -3..=3 {
                cases.push(s * 1_000_000_000 + d);
                cases.push(s * 1_048_576 + d);
            }
        }
        for ns in cases {
            assert_eq!(
                seconds_i64(ns).to_bits(),
                reference_seconds(ns).to_bits(),
                "{ns}"
            );
        }
    }

    #[test]
    fn inverse_is_rounded_up() {
        let inv = invert(1_000_000_000);
        assert_eq!(inv, u128::MAX / 1_000_000_000 + 1);
    }

    #[test]
    fn cast_matches_x86() {
        assert_eq!(cast_u32(3.99), 3);
        assert_eq!(cast_u32(4_294_967_296.0 + 5.0), 5);
        assert_eq!(cast_u32(f64::INFINITY), 0);
        assert_eq!(cast_u32(f64::NAN), 0);
        assert_eq!(cast_u32(-1.0), u32::MAX);
    }
}
