//! Reading scenario text, applying `--set key.path=value` overrides, and deserialising into
//! the typed [`Scenario`] with errors that name the key path.

use crate::config::Scenario;
use crate::error::ScenarioError;

/// Parses a TOML scenario and applies the overrides in order.
pub fn scenario_from_toml(text: &str, overrides: &[String]) -> Result<Scenario, ScenarioError> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        ScenarioError::new(
            "",
            format!("not valid TOML: {}", e.message().trim()).to_string()
                + &line_hint(text, e.span()),
        )
    })?;
    let mut value = toml::Value::Table(table);
    for o in overrides {
        apply_override(&mut value, o)?;
    }
    scenario_from_value(value)
}

/// Parses a JSON scenario (same schema as TOML).
pub fn scenario_from_json(text: &str, overrides: &[String]) -> Result<Scenario, ScenarioError> {
    let json: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| ScenarioError::new("", format!("not valid JSON: {e}")))?;
    let mut value = toml::Value::try_from(json)
        .map_err(|e| ScenarioError::new("", format!("cannot use this JSON as a scenario: {e}")))?;
    for o in overrides {
        apply_override(&mut value, o)?;
    }
    scenario_from_value(value)
}

fn line_hint(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    match span {
        Some(r) => {
            let line = text[..r.start.min(text.len())].matches('\n').count() + 1;
            format!(" (line {line})")
        }
        None => String::new(),
    }
}

fn scenario_from_value(value: toml::Value) -> Result<Scenario, ScenarioError> {
    let mut s: Scenario = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        // `message()`: without toml's trailing "in `key`", which repeats the path.
        ScenarioError::new(path, e.inner().message().trim())
    })?;
    crate::radio_spec::normalize(&mut s)?;
    Ok(s)
}

/// Applies `a.b.c=value`: the value is read as a TOML literal when it is one (`5`, `true`,
/// `"x"`, `[1, 2]`) and as a string otherwise (`100Mbps`). Numeric segments index arrays.
pub fn apply_override(root: &mut toml::Value, assignment: &str) -> Result<(), ScenarioError> {
    let (path, raw) = assignment.split_once('=').ok_or_else(|| {
        ScenarioError::new(
            "",
            format!("override `{assignment}` must look like key.path=value"),
        )
    })?;
    let path = path.trim();
    if path.is_empty() {
        return Err(ScenarioError::new(
            "",
            format!("override `{assignment}` has an empty key path"),
        ));
    }
    let raw = raw.trim();
    let value = format!("v = {raw}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string()));

    let segments: Vec<&str> = path.split('.').collect();
    let mut node = root;
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        let so_far = segments[..=i].join(".");
        node = match node {
            toml::Value::Table(t) => {
                if last {
                    t.insert(seg.to_string(), value);
                    return Ok(());
                }
                t.entry(seg.to_string())
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            }
            toml::Value::Array(a) => {
                let idx: usize = seg.parse().map_err(|_| {
                    ScenarioError::new(
                        &so_far,
                        format!("`{seg}` must be an index into the list (0..{})", a.len()),
                    )
                })?;
                let len = a.len();
                let slot = a.get_mut(idx).ok_or_else(|| {
                    ScenarioError::new(
                        &so_far,
                        format!("index {idx} is out of range: the list has {len} entries"),
                    )
                })?;
                if last {
                    *slot = value;
                    return Ok(());
                }
                slot
            }
            _ => {
                return Err(ScenarioError::new(
                    segments[..i].join("."),
                    format!("is a plain value, so `{so_far}` cannot be set inside it"),
                ))
            }
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
[dumbbell.bottleneck]
rate = "100Mbps"
delay = "20ms"
[[flows]]
cca = "cubic"
"#;

    #[test]
    fn overrides_set_nested_and_indexed_keys() {
        let s = scenario_from_toml(
            MINI,
            &[
                "dumbbell.bottleneck.rate=50Mbps".into(),
                "flows.0.cca=newreno".into(),
                "run.seed=7".into(),
            ],
        )
        .unwrap();
        assert_eq!(s.dumbbell.unwrap().bottleneck.rate.bps(), 50_000_000);
        assert_eq!(s.flows[0].cca, "newreno");
        assert_eq!(s.run.seed, 7);
    }

    #[test]
    fn unknown_key_names_its_path_and_the_allowed_keys() {
        let e = scenario_from_toml(MINI, &["dumbbell.bottleneck.rtae=5".into()]).unwrap_err();
        assert_eq!(e.path, "dumbbell.bottleneck.rtae");
        assert!(e.message.contains("rate"), "{e}");
    }

    #[test]
    fn bad_value_names_path_and_value() {
        let e = scenario_from_toml(MINI, &["dumbbell.bottleneck.rate=-5Mbps".into()]).unwrap_err();
        assert_eq!(e.path, "dumbbell.bottleneck.rate");
        assert!(
            e.message.contains("-5Mbps") && e.message.contains("positive"),
            "{e}"
        );
    }

    #[test]
    fn out_of_range_index_is_reported() {
        let e = scenario_from_toml(MINI, &["flows.3.cca=bbr".into()]).unwrap_err();
        assert_eq!(e.path, "flows.3");
    }

    #[test]
    fn toml_syntax_error_has_a_line() {
        let e = scenario_from_toml("[run\nduration=1", &[]).unwrap_err();
        assert!(e.message.contains("line 1"), "{e}");
    }
}
