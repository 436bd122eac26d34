//! Quantities with units as written in scenario files: rates ("100Mbps"), durations ("20ms"),
//! sizes ("4MB") and queue sizes ("333p", "500000B", "1bdp"). Bare numbers are base units
//! (bit/s, seconds, bytes, packets). Every parse error says what was read and what is allowed.

use ccsim_core::Time;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

fn split_number(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || c == '-'
                || c == '+'
                || ((c == 'e' || c == 'E')
                    && i > 0
                    && s[i + 1..]
                        .starts_with(|d: char| d.is_ascii_digit() || d == '-' || d == '+')))
        })
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    let value: f64 = s[..end].parse().ok()?;
    Some((value, s[end..].trim()))
}

/// A data rate in bits per second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rate(pub u64);

impl Rate {
    pub const UNITS: &'static str = "bps, kbps, Mbps, Gbps (also Kbps, kb/s, Mb/s, Gb/s, bit/s)";

    pub fn parse(s: &str) -> Result<Rate, String> {
        let (v, unit) = split_number(s).ok_or_else(|| {
            format!(
                "`{s}` is not a rate; write a number with a unit ({})",
                Self::UNITS
            )
        })?;
        let mult = match unit {
            "" | "bps" | "b/s" | "bit/s" => 1.0,
            "kbps" | "Kbps" | "kb/s" | "Kb/s" | "kbit/s" => 1e3,
            "Mbps" | "mbps" | "Mb/s" | "Mbit/s" => 1e6,
            "Gbps" | "gbps" | "Gb/s" | "Gbit/s" => 1e9,
            _ => {
                return Err(format!(
                    "unknown rate unit `{unit}` in `{s}`; allowed: {}",
                    Self::UNITS
                ))
            }
        };
        Self::from_bps_f64(v * mult, s)
    }

    /// Highest rate accepted: 1 Pb/s (beyond, packet times round to 0 ns).
    pub const MAX_BPS: f64 = 1e15;

    fn from_bps_f64(bps: f64, shown: &str) -> Result<Rate, String> {
        if !bps.is_finite() || bps <= 0.0 {
            return Err(format!("rate must be positive, got `{shown}`"));
        }
        // Checked after rounding: 0.4 bit/s used to pass as positive and become 0 (a panic).
        if bps.round() < 1.0 {
            return Err(format!("rate must be at least 1 bit/s, got `{shown}`"));
        }
        if bps > Self::MAX_BPS {
            return Err(format!("rate must be at most 1Pbps, got `{shown}`"));
        }
        Ok(Rate(bps.round() as u64))
    }

    pub fn bps(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        if b >= 1e9 && self.0.is_multiple_of(1_000_000) {
            write!(f, "{}Gbps", b / 1e9)
        } else if b >= 1e6 && self.0.is_multiple_of(1000) {
            write!(f, "{}Mbps", b / 1e6)
        } else {
            write!(f, "{}bps", self.0)
        }
    }
}

/// A span of simulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Duration(pub Time);

impl Duration {
    pub const UNITS: &'static str = "ns, us, ms, s, min";

    pub fn parse(s: &str) -> Result<Duration, String> {
        let (v, unit) = split_number(s).ok_or_else(|| {
            format!(
                "`{s}` is not a duration; write a number with a unit ({})",
                Self::UNITS
            )
        })?;
        let mult = match unit {
            "" | "s" | "sec" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            "min" => 60.0,
            _ => {
                return Err(format!(
                    "unknown time unit `{unit}` in `{s}`; allowed: {}",
                    Self::UNITS
                ))
            }
        };
        Self::from_secs_f64(v * mult, s)
    }

    /// Longest duration accepted: 10^9 s (31.7 years). Sums of a few such spans (a start
    /// plus a delay plus a timer) stay far below the 2^64 ns where integer time would wrap;
    /// larger values used to saturate silently.
    pub const MAX_SECS: f64 = 1e9;

    fn from_secs_f64(secs: f64, shown: &str) -> Result<Duration, String> {
        if !secs.is_finite() || secs < 0.0 {
            return Err(format!("duration must be zero or positive, got `{shown}`"));
        }
        if secs > Self::MAX_SECS {
            return Err(format!(
                "duration must be at most 1e9 s (about 31.7 years), got `{shown}`"
            ));
        }
        Ok(Duration(Time::from_secs_f64(secs)))
    }

    pub fn time(self) -> Time {
        self.0
    }
}

/// A size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl Bytes {
    pub const UNITS: &'static str =
        "B, kB, MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024)";

    pub fn parse(s: &str) -> Result<Bytes, String> {
        let (v, unit) = split_number(s).ok_or_else(|| {
            format!(
                "`{s}` is not a size; write a number with a unit ({})",
                Self::UNITS
            )
        })?;
        let mult = Self::unit_multiplier(unit).ok_or_else(|| {
            format!(
                "unknown size unit `{unit}` in `{s}`; allowed: {}",
                Self::UNITS
            )
        })?;
        Self::from_f64(v * mult, s)
    }

    fn unit_multiplier(unit: &str) -> Option<f64> {
        Some(match unit {
            "" | "B" => 1.0,
            "kB" | "KB" => 1e3,
            "MB" => 1e6,
            "GB" => 1e9,
            "KiB" => 1024.0,
            "MiB" => 1024.0 * 1024.0,
            "GiB" => 1024.0 * 1024.0 * 1024.0,
            _ => return None,
        })
    }

    fn from_f64(v: f64, shown: &str) -> Result<Bytes, String> {
        if !v.is_finite() || v < 0.0 {
            return Err(format!("size must be zero or positive, got `{shown}`"));
        }
        if v > 1e18 {
            return Err(format!("size must be at most 1e18 bytes, got `{shown}`"));
        }
        Ok(Bytes(v.round() as u64))
    }
}

/// A queue capacity: packets, bytes, or a multiple of the path's bandwidth-delay product.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueueSize {
    Packets(u64),
    Bytes(u64),
    Bdp(f64),
}

impl QueueSize {
    pub const UNITS: &'static str = "packets (`333p` or a bare number), bytes (`500000B`, `7MB`), or bandwidth-delay products (`1bdp`)";

    pub fn parse(s: &str) -> Result<QueueSize, String> {
        let (v, unit) = split_number(s)
            .ok_or_else(|| format!("`{s}` is not a queue size; allowed: {}", Self::UNITS))?;
        let q = match unit {
            "" | "p" | "packets" => QueueSize::Packets(Self::whole(v, s)?),
            "bdp" | "BDP" => {
                if !v.is_finite() || v <= 0.0 {
                    return Err(format!("queue size must be positive, got `{s}`"));
                }
                QueueSize::Bdp(v)
            }
            u => match Bytes::unit_multiplier(u) {
                Some(m) => QueueSize::Bytes(Self::whole(v * m, s)?),
                None => {
                    return Err(format!(
                        "unknown queue size unit `{u}` in `{s}`; allowed: {}",
                        Self::UNITS
                    ))
                }
            },
        };
        Ok(q)
    }

    fn whole(v: f64, s: &str) -> Result<u64, String> {
        if !v.is_finite() || v < 1.0 {
            return Err(format!(
                "queue size must be at least 1 packet or byte, got `{s}`"
            ));
        }
        Ok(v.round() as u64)
    }
}

macro_rules! unit_serde {
    ($t:ty, $what:expr, $from_num:expr, $to_string:expr) => {
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $t;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$t, E> {
                        <$t>::parse(s).map_err(E::custom)
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$t, E> {
                        ($from_num)(v as f64).map_err(E::custom)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$t, E> {
                        ($from_num)(v as f64).map_err(E::custom)
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$t, E> {
                        ($from_num)(v).map_err(E::custom)
                    }
                }
                d.deserialize_any(V)
            }
        }
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&($to_string)(self))
            }
        }
    };
}

unit_serde!(
    Rate,
    "a rate such as \"100Mbps\"",
    |v: f64| Rate::from_bps_f64(v, &v.to_string()),
    |r: &Rate| r.to_string()
);
unit_serde!(
    Duration,
    "a duration such as \"20ms\"",
    |v: f64| Duration::from_secs_f64(v, &v.to_string()),
    |d: &Duration| format!("{}s", d.0.as_secs_f64())
);
unit_serde!(
    Bytes,
    "a size such as \"4MB\"",
    |v: f64| Bytes::from_f64(v, &v.to_string()),
    |b: &Bytes| format!("{}B", b.0)
);
unit_serde!(
    QueueSize,
    "a queue size such as \"1bdp\", \"333p\" or \"500kB\"",
    |v: f64| if v.fract() == 0.0 {
        QueueSize::whole(v, &v.to_string()).map(QueueSize::Packets)
    } else {
        Err(format!(
            "queue size in packets must be a whole number, got {v}"
        ))
    },
    |q: &QueueSize| match q {
        QueueSize::Packets(n) => format!("{n}p"),
        QueueSize::Bytes(b) => format!("{b}B"),
        QueueSize::Bdp(x) => format!("{x}bdp"),
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates() {
        assert_eq!(Rate::parse("100Mbps").unwrap(), Rate(100_000_000));
        assert_eq!(Rate::parse("1.3 Gbps").unwrap(), Rate(1_300_000_000));
        assert_eq!(Rate::parse("5e6").unwrap(), Rate(5_000_000));
        assert!(Rate::parse("-5Mbps").unwrap_err().contains("positive"));
        assert!(Rate::parse("0").unwrap_err().contains("positive"));
        assert!(Rate::parse("5 parsecs").unwrap_err().contains("allowed"));
        // Issue 18 item 4: positive before rounding, zero after (then a panic).
        assert!(Rate::parse("0.4bps")
            .unwrap_err()
            .contains("at least 1 bit/s"));
        assert_eq!(Rate::parse("0.5bps").unwrap(), Rate(1));
        assert!(Rate::parse("2e19").unwrap_err().contains("at most"));
    }

    #[test]
    fn times_that_do_not_fit_are_refused() {
        // Issue 18 item 5: 2^64 ns and more saturated silently.
        assert!(Duration::parse("1e12s").unwrap_err().contains("at most"));
        assert!(Duration::parse("18446744073709551616ns").is_err());
        assert_eq!(
            Duration::parse("1e9s").unwrap().time(),
            Time::from_secs(1_000_000_000)
        );
        assert!(Bytes::parse("1e30B").unwrap_err().contains("at most"));
    }

    #[test]
    fn durations_and_sizes() {
        assert_eq!(
            Duration::parse("20ms").unwrap().time(),
            Time::from_millis(20)
        );
        assert_eq!(
            Duration::parse("1.5").unwrap().time(),
            Time::from_millis(1500)
        );
        assert!(Duration::parse("-1s").is_err());
        assert_eq!(Bytes::parse("4MB").unwrap(), Bytes(4_000_000));
        assert_eq!(Bytes::parse("2MiB").unwrap(), Bytes(2 << 20));
    }

    #[test]
    fn queue_sizes() {
        assert_eq!(QueueSize::parse("333p").unwrap(), QueueSize::Packets(333));
        assert_eq!(
            QueueSize::parse("7MB").unwrap(),
            QueueSize::Bytes(7_000_000)
        );
        assert_eq!(QueueSize::parse("1bdp").unwrap(), QueueSize::Bdp(1.0));
        assert!(QueueSize::parse("0p").unwrap_err().contains("at least 1"));
        assert!(QueueSize::parse("0").is_err());
    }
}
