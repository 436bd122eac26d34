//! Parsing of algorithm tunables from a JSON object (the factory's `params`), with errors that
//! name the parameter and what it accepts.

use crate::CcaError;
use ccsim_core::Time;
use serde_json::{Map, Value};

/// One tunable: its snake_case name (the ns-3 attribute name) and a one-line help text.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub help: &'static str,
}

/// Implemented by every algorithm's config struct.
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

fn bad(algorithm: &'static str, parameter: &str, expected: String, value: &Value) -> CcaError {
    CcaError::BadValue {
        algorithm,
        parameter: parameter.to_string(),
        expected,
        got: value.to_string(),
    }
}

/// A boolean.
pub fn bool_param(alg: &'static str, name: &str, v: &Value) -> Result<bool, CcaError> {
    v.as_bool()
        .ok_or_else(|| bad(alg, name, "a boolean (true or false)".into(), v))
}

/// A finite number in `[min, max]`.
pub fn f64_param(
    alg: &'static str,
    name: &str,
    v: &Value,
    min: f64,
    max: f64,
) -> Result<f64, CcaError> {
    match v.as_f64() {
        Some(x) if x.is_finite() && x >= min && x <= max => Ok(x),
        _ => Err(bad(alg, name, format!("a number in [{min}, {max}]"), v)),
    }
}

/// An integer in `[min, max]`.
pub fn u32_param(
    alg: &'static str,
    name: &str,
    v: &Value,
    min: u32,
    max: u32,
) -> Result<u32, CcaError> {
    match v.as_u64() {
        Some(x) if x >= min as u64 && x <= max as u64 => Ok(x as u32),
        _ => Err(bad(alg, name, format!("an integer in [{min}, {max}]"), v)),
    }
}

/// A duration: a number of seconds, or a string with a unit (`"2ms"`, `"10us"`, `"1s"`,
/// `"500ns"`). Must be at most one hour.
pub fn time_param(alg: &'static str, name: &str, v: &Value) -> Result<Time, CcaError> {
    let expected = || {
        "a duration: seconds as a number, or a string like \"2ms\", \"10us\", \"1s\" (0 to 3600 s)"
            .to_string()
    };
    let ns = match v {
        Value::Number(n) => n.as_f64().map(|s| s * 1e9),
        Value::String(s) => parse_duration_ns(s.trim()),
        _ => None,
    };
    match ns {
        Some(ns) if ns.is_finite() && (0.0..=3.6e12).contains(&ns) => {
            Ok(Time::from_nanos(ns.round() as u64))
        }
        _ => Err(bad(alg, name, expected(), v)),
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

/// One of a fixed set of strings (case-sensitive, as ns-3 enum attributes).
pub fn enum_param<T: Copy>(
    alg: &'static str,
    name: &str,
    v: &Value,
    choices: &[(&str, T)],
) -> Result<T, CcaError> {
    if let Some(s) = v.as_str() {
        if let Some((_, t)) = choices.iter().find(|(n, _)| *n == s) {
            return Ok(*t);
        }
    }
    let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    Err(bad(alg, name, format!("one of {}", names.join(", ")), v))
}
