//! Algorithm tunables, declared once. [`tunables!`](crate::tunables) turns one declaration per
//! parameter (doc comment, type, default, what it accepts) into the config struct, its
//! `Default` (the ns-3.44 attribute defaults), the [`ParamSpec`] list that `ccsim schema cca`,
//! the docs tables and help texts are generated from, and the parser of the factory's `params`
//! (unknown names rejected with the allowed list; a bad value named with what it accepts).

use crate::CcaError;
use ccsim_core::Time;
pub use serde_json::Value as JsonValue;
use serde_json::{Map, Value};

/// One tunable, as users see it.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// Snake_case name (the ns-3 attribute name).
    pub name: &'static str,
    /// What a value may be ([`Accepts::describe`] says it in words).
    pub accepts: Accepts,
    /// The default as a scenario writes it (`0.7`, `2ms`, `BOTH`, `unset`).
    pub default: fn() -> String,
    /// The parameter's doc comment, lines joined with `\n`.
    pub help: &'static str,
}

/// The values a parameter accepts: what its parser admits and what the docs show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Accepts {
    Bool,
    /// A finite number in `[min, max]` (`min = f64::MIN_POSITIVE`: any positive number).
    Number {
        min: f64,
        max: f64,
    },
    /// An integer in `[min, max]`.
    Integer {
        min: u64,
        max: u64,
    },
    /// 0 (unset or off) or an integer in `[min, max]`.
    ZeroOrInteger {
        min: u64,
        max: u64,
    },
    /// A duration in `[min, max]`: seconds as a number, or a string with a unit (`"2ms"`).
    Duration {
        min: Time,
        max: Time,
    },
    /// One of these strings (case-sensitive, as ns-3 enum attributes).
    OneOf(&'static [&'static str]),
}

/// The longest duration any parameter accepts.
pub const MAX_DURATION: Time = Time::from_secs(3600);

impl Accepts {
    /// A duration between 0 and an hour.
    pub const DURATION: Accepts = Accepts::Duration {
        min: Time::ZERO,
        max: MAX_DURATION,
    };
    /// Any `u32`.
    pub const U32: Accepts = Accepts::Integer {
        min: 0,
        max: u32::MAX as u64,
    };

    /// In words, for the docs and error messages (`"a number in [0, 1]"`).
    pub fn describe(&self) -> String {
        match *self {
            Accepts::Bool => "a boolean (true or false)".into(),
            Accepts::Number { min, max } if min == f64::MIN && max == f64::MAX => {
                "any finite number".into()
            }
            Accepts::Number { min, max } if min == f64::MIN_POSITIVE => {
                format!("a number in (0, {max}]")
            }
            Accepts::Number { min, max } => format!("a number in [{min}, {max}]"),
            Accepts::Integer { min, max } => format!("an integer in [{min}, {max}]"),
            Accepts::ZeroOrInteger { min, max } => {
                format!("0 (unset) or an integer in [{min}, {max}]")
            }
            Accepts::Duration { min, max } => format!(
                "a duration in [{}, {}]",
                duration_shown(min),
                duration_shown(max)
            ),
            Accepts::OneOf(names) => {
                let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                format!("one of {}", quoted.join(", "))
            }
        }
    }

    fn integer(&self, v: &Value) -> Option<u64> {
        let x = v.as_u64()?;
        match *self {
            Accepts::Integer { min, max } => (min..=max).contains(&x).then_some(x),
            Accepts::ZeroOrInteger { min, max } => {
                (x == 0 || (min..=max).contains(&x)).then_some(x)
            }
            _ => None,
        }
    }
}

/// A Rust type a parameter can have: parsed from JSON as [`Accepts`] allows, shown as a
/// scenario writes it.
pub trait ParamValue: Sized {
    /// `v` as this type, or `None` when `accepts` does not admit it.
    fn from_json(v: &Value, accepts: &Accepts) -> Option<Self>;
    /// The value as a scenario file writes it (the docs' default column).
    fn shown(&self) -> String;
}

impl ParamValue for bool {
    fn from_json(v: &Value, accepts: &Accepts) -> Option<Self> {
        matches!(accepts, Accepts::Bool).then(|| v.as_bool())?
    }
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl ParamValue for f64 {
    fn from_json(v: &Value, accepts: &Accepts) -> Option<Self> {
        let Accepts::Number { min, max } = *accepts else {
            return None;
        };
        let x = v.as_f64()?;
        (x.is_finite() && x >= min && x <= max).then_some(x)
    }
    fn shown(&self) -> String {
        self.to_string()
    }
}

macro_rules! integer_param_value {
    ($($t:ty),*) => {$(
        impl ParamValue for $t {
            fn from_json(v: &Value, accepts: &Accepts) -> Option<Self> {
                <$t>::try_from(accepts.integer(v)?).ok()
            }
            fn shown(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
integer_param_value!(u8, u32, u64);

impl ParamValue for Time {
    fn from_json(v: &Value, accepts: &Accepts) -> Option<Self> {
        let Accepts::Duration { min, max } = *accepts else {
            return None;
        };
        let ns = match v {
            Value::Number(n) => n.as_f64().map(|s| s * 1e9),
            Value::String(s) => parse_duration_ns(s.trim()),
            _ => None,
        }?;
        let limit = max.min(MAX_DURATION).as_nanos() as f64;
        if !ns.is_finite() || ns < 0.0 || ns > limit {
            return None;
        }
        let t = Time::from_nanos(ns.round() as u64);
        (t >= min).then_some(t)
    }
    fn shown(&self) -> String {
        duration_shown(*self)
    }
}

/// A parameter with no default value (`unset`): set, it holds the value.
impl<T: ParamValue> ParamValue for Option<T> {
    fn from_json(v: &Value, accepts: &Accepts) -> Option<Self> {
        T::from_json(v, accepts).map(Some)
    }
    fn shown(&self) -> String {
        self.as_ref().map_or_else(|| "unset".into(), T::shown)
    }
}

/// Implements [`ParamValue`] for an enum from its names (case-sensitive, as ns-3 writes them),
/// and `Enum::CHOICES`, the names for [`Accepts::OneOf`].
#[macro_export]
macro_rules! choice_param {
    ($enum:ty { $($name:literal => $variant:ident),+ $(,)? }) => {
        impl $enum {
            /// The accepted names, in declaration order.
            pub const CHOICES: &'static [&'static str] = &[$($name),+];
        }

        impl $crate::params::ParamValue for $enum {
            fn from_json(
                v: &$crate::params::JsonValue,
                _accepts: &$crate::params::Accepts,
            ) -> Option<Self> {
                match v.as_str()? {
                    $($name => Some(<$enum>::$variant),)+
                    _ => None,
                }
            }
            fn shown(&self) -> String {
                match self {
                    $(<$enum>::$variant => $name.to_string(),)+
                }
            }
        }
    };
}

/// Declares an algorithm's config struct, each parameter once: its doc comment (the help
/// text and docs), type, default and what it accepts.
///
/// ```
/// ccsim_cca::tunables! {
///     /// Tunables of a hypothetical algorithm.
///     pub struct ExampleConfig for "example" {
///         /// Multiplicative decrease factor.
///         beta: f64 = 0.5, ccsim_cca::Accepts::Number { min: 0.0, max: 1.0 };
///     }
/// }
/// use ccsim_cca::Tunables;
/// assert_eq!(ExampleConfig::default().beta, 0.5);
/// assert_eq!((ExampleConfig::PARAMS[0].default)(), "0.5");
/// ```
#[macro_export]
macro_rules! tunables {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident for $alg:literal {
            $(
                $(#[doc = $doc:literal])+
                $field:ident : $ty:ty = $default:expr, $accepts:expr;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $( $(#[doc = $doc])+ pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::params::Tunables for $name {
            const ALGORITHM: &'static str = $alg;
            const PARAMS: &'static [$crate::params::ParamSpec] = &[
                $( $crate::params::ParamSpec {
                    name: stringify!($field),
                    accepts: $accepts,
                    default: || $crate::params::ParamValue::shown(&<$name as Default>::default().$field),
                    help: concat!($($doc, "\n"),+),
                }, )*
            ];

            fn set(
                &mut self,
                key: &str,
                _value: &$crate::params::JsonValue,
            ) -> Result<(), $crate::CcaError> {
                match key {
                    $( stringify!($field) => {
                        self.$field = $crate::params::parse($alg, key, _value, &$accepts)?;
                        Ok(())
                    } )*
                    _ => unreachable!("{key}: checked by from_params"),
                }
            }
        }
    };
}

/// Implemented by every algorithm's config struct (declared with [`tunables!`](crate::tunables)).
pub trait Tunables: Default {
    /// The short algorithm name used in error messages (e.g. `"cubic"`).
    const ALGORITHM: &'static str;
    /// Every tunable, in ns-3 attribute order.
    const PARAMS: &'static [ParamSpec];

    /// Set one tunable from a JSON value. `key` is one of [`Tunables::PARAMS`].
    fn set(&mut self, key: &str, value: &Value) -> Result<(), CcaError>;

    /// Defaults overridden by `params`; unknown keys are rejected with the allowed list.
    fn from_params(params: &Map<String, Value>) -> Result<Self, CcaError> {
        let mut cfg = Self::default();
        for (key, value) in params {
            if !Self::PARAMS.iter().any(|p| p.name == key) {
                return Err(CcaError::UnknownParameter {
                    algorithm: Self::ALGORITHM,
                    parameter: key.clone(),
                    allowed: Self::PARAMS.iter().map(|p| p.name).collect(),
                });
            }
            cfg.set(key, value)?;
        }
        Ok(cfg)
    }
}

/// `v` as parameter `name` of `algorithm`, or an error naming it and what it accepts.
pub fn parse<T: ParamValue>(
    algorithm: &'static str,
    name: &str,
    v: &Value,
    accepts: &Accepts,
) -> Result<T, CcaError> {
    T::from_json(v, accepts).ok_or_else(|| {
        let mut expected = accepts.describe();
        if let Accepts::Duration { .. } = accepts {
            expected += " (seconds as a number, or a string like \"2ms\", \"10us\", \"1s\")";
        }
        CcaError::BadValue {
            algorithm,
            parameter: name.to_string(),
            expected,
            got: v.to_string(),
        }
    })
}

/// A duration in the largest unit that writes it exactly (`2ms`, `10s`, `500ns`).
fn duration_shown(t: Time) -> String {
    let ns = t.as_nanos();
    match ns {
        0 => "0s".into(),
        _ if ns.is_multiple_of(1_000_000_000) => format!("{}s", ns / 1_000_000_000),
        _ if ns.is_multiple_of(1_000_000) => format!("{}ms", ns / 1_000_000),
        _ if ns.is_multiple_of(1_000) => format!("{}us", ns / 1_000),
        _ => format!("{ns}ns"),
    }
}

fn parse_duration_ns(s: &str) -> Option<f64> {
    let split = s.find(|c: char| c.is_ascii_alphabetic())?;
    let (num, unit) = s.split_at(split);
    let x: f64 = num.trim().parse().ok()?;
    let scale = match unit.trim() {
        "s" => 1e9,
        "ms" => 1e6,
        "us" => 1e3,
        "ns" => 1.0,
        _ => return None,
    };
    Some(x * scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn durations_are_shown_in_the_largest_exact_unit_and_parse_back() {
        for (t, s) in [
            (Time::from_millis(2), "2ms"),
            (Time::from_secs(10), "10s"),
            (Time::from_micros(1), "1us"),
            (Time::from_nanos(1500), "1500ns"),
            (Time::ZERO, "0s"),
        ] {
            assert_eq!(t.shown(), s);
            assert_eq!(Time::from_json(&json!(s), &Accepts::DURATION), Some(t));
        }
        assert_eq!(
            Time::from_json(&json!(0.25), &Accepts::DURATION),
            Some(Time::from_millis(250))
        );
        assert_eq!(Time::from_json(&json!("2h"), &Accepts::DURATION), None);
        assert_eq!(Time::from_json(&json!(3601), &Accepts::DURATION), None);
    }

    #[test]
    fn values_outside_what_is_accepted_are_refused() {
        let unit = Accepts::Number { min: 0.0, max: 1.0 };
        assert_eq!(f64::from_json(&json!(0.5), &unit), Some(0.5));
        assert_eq!(f64::from_json(&json!(1.5), &unit), None);
        let byte = Accepts::Integer { min: 2, max: 300 };
        assert_eq!(u8::from_json(&json!(255), &byte), Some(255));
        assert_eq!(u8::from_json(&json!(256), &byte), None, "does not fit a u8");
        assert_eq!(u8::from_json(&json!(1), &byte), None);
        let off_or = Accepts::ZeroOrInteger { min: 2, max: 9 };
        assert_eq!(u32::from_json(&json!(0), &off_or), Some(0));
        assert_eq!(u32::from_json(&json!(1), &off_or), None);
        assert_eq!(<Option<u32>>::from_json(&json!(5), &off_or), Some(Some(5)));
        assert_eq!(<Option<u32>>::None.shown(), "unset");
        // A type read with the wrong kind of `Accepts` accepts nothing.
        assert_eq!(bool::from_json(&json!(true), &unit), None);
        let min_ms = Accepts::Duration {
            min: Time::from_millis(1),
            max: MAX_DURATION,
        };
        assert_eq!(Time::from_json(&json!("0.5ms"), &min_ms), None);
    }
}
