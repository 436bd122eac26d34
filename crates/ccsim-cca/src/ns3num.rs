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
fn umul_by_invert(a: u128, b: u128) -> u128 {
    let (ah, al) = (a >> 64, a & MASK_LO);
    let (bh, bl) = (b >> 64, b & MASK_LO);
    let high = ah * bh;
    let mid = (ah * bl + al * bh) >> 64;
    high + mid
}

/// ns-3 `int64x64_t::Invert(v)`: floor(2^128 / v), plus one unless `v * inverse` reads back 1.
/// (`Udiv` is exact for the divisors used here, 10^3..10^9.)
fn invert(v: u64) -> u128 {
    let mut inv = u128::MAX / v as u128; // == floor(2^128 / v) since v does not divide 2^128
    let tmp = umul_by_invert((v as u128) << 64, inv);
    if (tmp >> 64) != 1 {
        inv += 1;
    }
    inv
}

/// Round a positive integer to `bits` significant bits, ties to even.
fn round_to_bits(v: u128, bits: u32) -> u128 {
    let n = 128 - v.leading_zeros();
    if n <= bits {
        return v;
    }
    let shift = n - bits;
    let q = v >> shift;
    let rem = v & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let q = if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    };
    q << shift
}

/// ns-3 `int64x64_t::GetDouble` on a magnitude in 64.64 fixed point: `fhi + flo` in x87
/// `long double` (64-bit mantissa), then narrowed to `double`.
fn fixed_to_f64(magnitude: u128, negative: bool) -> f64 {
    let extended = round_to_bits(magnitude, 64);
    let narrowed = round_to_bits(extended, 53);
    // `narrowed` has at most 53 significant bits: the conversion and the scaling are exact.
    let v = narrowed as f64 * (-64f64).exp2();
    if negative {
        -v
    } else {
        v
    }
}

/// ns-3 `Time::GetSeconds()` for a signed nanosecond count.
pub fn seconds_i64(ns: i64) -> f64 {
    let negative = ns < 0;
    let mag = ns.unsigned_abs() as u128;
    let r = umul_by_invert(mag << 64, invert(1_000_000_000));
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
