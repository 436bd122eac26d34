//! The radio parts of the scenario schema: the `[radio]` table (a `ccsim_radio::RadioConfig`
//! plus the node it hangs from), `[[trace_links]]` (Mahimahi trace-driven links) and
//! `[vertical_handover]` (seed 003), their validation with key paths, and the extra nodes
//! and routing-only links they add to an explicit topology. See `docs/radio.md`.
//!
//! `[radio]` is kept as a TOML table in [`Scenario`] so that any single key can be given or
//! overridden (`--set radio.mmwave.cell.rlc.buffer_bytes=7000000`) without restating the
//! rest: [`normalize`] lays the user's table over the defaults, checks it, and writes back
//! the complete configuration, which is what `scenario.json` then records.

use crate::config::Scenario;
use crate::error::ScenarioError;
use crate::units::{Bytes, Duration};
use ccsim_core::Time;
use ccsim_net::{DropTailQueue, Link, NodeId, QueueLimit};
use ccsim_radio::handover::HandoverConfig;
use ccsim_radio::ran::{ChannelConfig, Connectivity, RadioConfig, TechnologyConfig};
use ccsim_radio::Technology;
use serde::{Deserialize, Serialize};
use toml::{Table, Value};

/// Default name of the node the RAN hangs from (the S1-U end of the core network).
pub const DEFAULT_GATEWAY: &str = "gw";

/// A one-way link whose delivery opportunities come from a Mahimahi trace (`mm-link`),
/// followed by a fixed propagation delay (`mm-delay`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TraceLinkSpec {
    /// Name in the results (default `from->to`).
    pub name: Option<String>,
    pub from: String,
    pub to: String,
    /// Mahimahi trace file; a relative path is read from the scenario file's directory.
    pub trace: String,
    /// One-way propagation delay added after the link (default 0).
    pub delay: Option<Duration>,
    /// Drop-tail queue limit in bytes (default: unlimited, as `mm-link` without queue options).
    pub queue: Option<Bytes>,
    /// Simulated time at which the trace's time 0 falls (default 0).
    pub start: Option<Duration>,
}

/// Seed 003: traffic between two nodes uses one of two parallel links; at each event the
/// link in use goes down, every packet offered to the pair is lost for `outage` (the
/// handover time HT), and then link `to` carries the traffic.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VerticalHandoverSpec {
    /// The two links L1 and L2 by name (`[[links]] name`); both join the same two nodes.
    /// Bidirectional links switch in both directions.
    pub links: Vec<String>,
    /// Index (0 or 1) of the link in use at the start.
    #[serde(default)]
    pub initial: usize,
    pub events: Vec<VerticalHandoverEventSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VerticalHandoverEventSpec {
    /// When the link in use goes down.
    pub at: Duration,
    /// Handover time HT: the outage during which every packet is lost.
    pub outage: Duration,
    /// Index (0 or 1) of the link in use after the outage.
    pub to: usize,
}

fn err(path: impl Into<String>, msg: impl Into<String>) -> ScenarioError {
    ScenarioError::new(path, msg)
}

/// The `[radio]` defaults as a table (everything but `sites` and `ues`).
fn defaults() -> Table {
    fn v<T: Serialize>(x: T) -> Value {
        Value::try_from(x).expect("radio defaults serialise to TOML")
    }
    let mut t = Table::new();
    t.insert("mmwave".into(), v(TechnologyConfig::mmwave()));
    t.insert("lte".into(), v(TechnologyConfig::lte()));
    t.insert("channel".into(), v(ChannelConfig::default()));
    t.insert("handover".into(), v(HandoverConfig::default()));
    t.insert("connectivity".into(), v(Connectivity::default()));
    t.insert("uplink_sched_delay_slots".into(), Value::Integer(1));
    t.insert("uplink_grant_period_us".into(), Value::Integer(0));
    t.insert("obstacles".into(), Value::Array(Vec::new()));
    t
}

/// Lays `over` on `base`: tables merge key by key, anything else replaces. A table that
/// names a different variant (`model = ...`, `kind = ...`) replaces the default wholesale,
/// so that no field of the default variant is left behind.
fn merge(base: &mut Table, over: Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(Value::Table(b)), Value::Table(o)) if same_variant(b, &o) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn same_variant(base: &Table, over: &Table) -> bool {
    ["model", "kind"]
        .iter()
        .all(|tag| over.get(*tag).is_none_or(|t| base.get(*tag) == Some(t)))
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) => Some(*f),
        Value::Integer(i) => Some(*i as f64),
        _ => None,
    }
}

/// `obstacles[i].box = [x0, x1, y0, y1]` is shorthand for a rectangular footprint.
fn expand_boxes(t: &mut Table) -> Result<(), ScenarioError> {
    let Some(Value::Array(obstacles)) = t.get_mut("obstacles") else {
        return Ok(());
    };
    for (i, o) in obstacles.iter_mut().enumerate() {
        let Value::Table(o) = o else { continue };
        let Some(b) = o.remove("box") else { continue };
        let path = format!("radio.obstacles[{i}].box");
        if o.contains_key("footprint") {
            return Err(err(path, "give either `box` or `footprint`, not both"));
        }
        let nums: Option<Vec<f64>> = match &b {
            Value::Array(a) if a.len() == 4 => a.iter().map(as_f64).collect(),
            _ => None,
        };
        let Some(n) = nums else {
            return Err(err(
                path,
                format!("must be four numbers [x0, x1, y0, y1] in metres, got `{b}`"),
            ));
        };
        let (x0, x1, y0, y1) = (n[0], n[1], n[2], n[3]);
        if !(x0 < x1 && y0 < y1) || n.iter().any(|v| !v.is_finite()) {
            return Err(err(
                path,
                format!("needs x0 < x1 and y0 < y1 (finite), got `{b}`"),
            ));
        }
        let pt = |x: f64, y: f64| {
            let mut p = Table::new();
            p.insert("x".into(), Value::Float(x));
            p.insert("y".into(), Value::Float(y));
            Value::Table(p)
        };
        let mut fp = Table::new();
        fp.insert(
            "vertices".into(),
            Value::Array(vec![pt(x0, y0), pt(x1, y0), pt(x1, y1), pt(x0, y1)]),
        );
        o.insert("footprint".into(), Value::Table(fp));
    }
    Ok(())
}

/// The gateway node name of a normalised `[radio]` table.
pub fn gateway_name(t: &Table) -> &str {
    t.get("gateway")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_GATEWAY)
}

/// The [`RadioConfig`] of a normalised `[radio]` table.
pub fn radio_config(t: &Table) -> Result<RadioConfig, ScenarioError> {
    let mut t = t.clone();
    t.remove("gateway");
    serde_path_to_error::deserialize(Value::Table(t)).map_err(|e| {
        let p = e.path().to_string();
        let path = if p == "." {
            "radio".to_string()
        } else {
            format!("radio.{p}")
        };
        err(path, e.inner().message().trim())
    })
}

/// Fills in the `[radio]` defaults, names unnamed UEs (`ue<i>`) and sites (`cell<i>`),
/// and validates the result; the scenario then carries the complete table.
pub fn normalize(s: &mut Scenario) -> Result<(), ScenarioError> {
    let Some(mut user) = s.radio.take() else {
        return Ok(());
    };
    let gateway = match user.remove("gateway") {
        None => DEFAULT_GATEWAY.to_string(),
        Some(Value::String(g)) if !g.is_empty() => g,
        Some(v) => {
            return Err(err(
                "radio.gateway",
                format!("must be a node name, got `{v}`"),
            ))
        }
    };
    expand_boxes(&mut user)?;
    let mut merged = defaults();
    merge(&mut merged, user);
    let mut cfg = radio_config(&merged)?;
    for (i, u) in cfg.ues.iter_mut().enumerate() {
        if u.name.is_empty() {
            u.name = format!("ue{i}");
        }
    }
    for (i, c) in cfg.sites.iter_mut().enumerate() {
        if c.name.is_empty() {
            c.name = format!("cell{i}");
        }
    }
    validate(&cfg)?;
    let Value::Table(mut table) = Value::try_from(&cfg).map_err(|e| err("radio", e.to_string()))?
    else {
        unreachable!("a struct serialises to a table")
    };
    table.insert("gateway".into(), Value::String(gateway));
    s.radio = Some(table);
    Ok(())
}

fn check(ok: bool, path: String, msg: impl FnOnce() -> String) -> Result<(), ScenarioError> {
    if ok {
        Ok(())
    } else {
        Err(err(path, msg()))
    }
}

fn validate_technology(t: &TechnologyConfig, key: &str) -> Result<(), ScenarioError> {
    let p = |k: &str| format!("radio.{key}.{k}");
    check(
        t.carrier_hz.is_finite() && t.carrier_hz > 0.0,
        p("carrier_hz"),
        || format!("must be a positive frequency in Hz, got {}", t.carrier_hz),
    )?;
    for (k, v) in [
        ("tx_power_dbm", t.tx_power_dbm),
        ("ap_antenna_gain_db", t.ap_antenna_gain_db),
        ("ue_antenna_gain_db", t.ue_antenna_gain_db),
        ("ue_noise_figure_db", t.ue_noise_figure_db),
    ] {
        check(v.is_finite(), p(k), || format!("must be finite, got {v}"))?;
    }
    let f = &t.cell.frame;
    check(f.slot_ns > 0, p("cell.frame.slot_ns"), || {
        "must be positive".into()
    })?;
    check(f.subcarriers > 0, p("cell.frame.subcarriers"), || {
        "must be positive".into()
    })?;
    check(
        f.symbols_per_slot > f.control_symbols,
        p("cell.frame.control_symbols"),
        || {
            format!(
                "must be fewer than symbols_per_slot ({}), got {}",
                f.symbols_per_slot, f.control_symbols
            )
        },
    )?;
    let data = f.symbols_per_slot - f.control_symbols;
    check(
        f.uplink_data_symbols < data,
        p("cell.frame.uplink_data_symbols"),
        || {
            format!(
                "must be below the {data} data symbols, got {}",
                f.uplink_data_symbols
            )
        },
    )?;
    check(
        (0.0..1.0).contains(&f.overhead),
        p("cell.frame.overhead"),
        || format!("must be in [0, 1), got {}", f.overhead),
    )?;
    check(
        f.bandwidth_hz.is_finite() && f.bandwidth_hz > 0.0,
        p("cell.frame.bandwidth_hz"),
        || format!("must be positive, got {}", f.bandwidth_hz),
    )?;
    let r = &t.cell.rlc;
    check(r.buffer_bytes > 0, p("cell.rlc.buffer_bytes"), || {
        "must be at least 1 byte".into()
    })?;
    check(
        (0.0..1.0).contains(&r.residual_loss),
        p("cell.rlc.residual_loss"),
        || format!("must be in [0, 1), got {}", r.residual_loss),
    )?;
    let h = &t.cell.harq;
    for (k, v) in [("bler", h.bler), ("retx_bler", h.retx_bler)] {
        check(
            (0.0..1.0).contains(&v),
            p(&format!("cell.harq.{k}")),
            || format!("must be in [0, 1), got {v}"),
        )?;
    }
    check(h.max_attempts >= 1, p("cell.harq.max_attempts"), || {
        "must be at least 1".into()
    })?;
    check(h.rtt_slots >= 1, p("cell.harq.rtt_slots"), || {
        "must be at least 1".into()
    })?;
    // Fading and link adaptation check their own keys (`fading.subbands = 9: allowed 1..=8`).
    t.cell.validate().map_err(|e| err(p("cell"), e))?;
    Ok(())
}

fn finite3(p: ccsim_radio::Point3) -> bool {
    p.x.is_finite() && p.y.is_finite() && p.z.is_finite()
}

fn validate(c: &RadioConfig) -> Result<(), ScenarioError> {
    check(!c.sites.is_empty(), "radio.sites".into(), || {
        "at least one [[radio.sites]] entry is required".into()
    })?;
    check(!c.ues.is_empty(), "radio.ues".into(), || {
        "at least one [[radio.ues]] entry is required".into()
    })?;
    validate_technology(&c.mmwave, "mmwave")?;
    validate_technology(&c.lte, "lte")?;
    for (i, s) in c.sites.iter().enumerate() {
        check(
            finite3(s.position),
            format!("radio.sites[{i}].position"),
            || "coordinates must be finite".into(),
        )?;
        if c.sites[..i].iter().any(|o| o.name == s.name) {
            return Err(err(
                format!("radio.sites[{i}].name"),
                format!("site `{}` is defined twice", s.name),
            ));
        }
    }
    for (i, u) in c.ues.iter().enumerate() {
        if c.ues[..i].iter().any(|o| o.name == u.name) {
            return Err(err(
                format!("radio.ues[{i}].name"),
                format!("UE `{}` is defined twice", u.name),
            ));
        }
        let path = u
            .mobility
            .build()
            .map_err(|e| err(format!("radio.ues[{i}].mobility"), e))?;
        check(
            path.waypoints().iter().all(|w| finite3(w.pos)),
            format!("radio.ues[{i}].mobility"),
            || "coordinates must be finite".into(),
        )?;
        // A UE below ground was accepted silently (issue 18).
        check(
            path.waypoints().iter().all(|w| w.pos.z >= 0.0),
            format!("radio.ues[{i}].mobility"),
            || "the UE height (z) must be zero or positive (metres above ground)".into(),
        )?;
        if let Some(s) = u.initial_site {
            check(
                s < c.sites.len(),
                format!("radio.ues[{i}].initial_site"),
                || {
                    format!(
                        "no site {s}: sites are numbered 0..{} in [[radio.sites]] order",
                        c.sites.len()
                    )
                },
            )?;
        }
    }
    for (i, o) in c.obstacles.iter().enumerate() {
        check(
            o.footprint.is_valid(),
            format!("radio.obstacles[{i}].footprint"),
            || "needs at least 3 finite vertices".into(),
        )?;
        check(
            o.height.is_finite() && o.height > 0.0,
            format!("radio.obstacles[{i}].height"),
            || format!("must be positive (metres), got {}", o.height),
        )?;
    }
    check(
        c.channel.update_period_us > 0,
        "radio.channel.update_period_us".into(),
        || "must be positive".into(),
    )?;
    check(
        c.handover.measurement_period_us > 0,
        "radio.handover.measurement_period_us".into(),
        || "must be positive".into(),
    )?;
    if c.connectivity.uses_lte() {
        let mode = if c.connectivity == Connectivity::DualConnectivity {
            "dual_connectivity"
        } else {
            "single_connectivity"
        };
        check(
            c.sites.iter().any(|s| s.technology == Technology::Lte),
            "radio.connectivity".into(),
            || {
                format!(
                    "{mode} needs a site with technology = \"lte\" (allowed without one: \
                     standalone)"
                )
            },
        )?;
    }
    Ok(())
}

/// Adds the radio's nodes to an explicit topology's node list: the gateway (unless
/// `[[nodes]]` defines it) and one node per UE, named as the UE.
pub fn add_nodes(s: &Scenario, nodes: &mut Vec<String>) -> Result<(), ScenarioError> {
    let Some(t) = &s.radio else { return Ok(()) };
    let gw = gateway_name(t).to_string();
    if !nodes.contains(&gw) {
        nodes.push(gw.clone());
    }
    let cfg = radio_config(t)?;
    for (i, u) in cfg.ues.iter().enumerate() {
        if u.name == gw {
            return Err(err(
                format!("radio.ues[{i}].name"),
                format!("`{}` is the radio gateway's name", u.name),
            ));
        }
        if nodes.contains(&u.name) {
            return Err(err(
                format!("radio.ues[{i}].name"),
                format!(
                    "node `{}` is already defined; UEs become nodes by themselves, \
                     do not list them in [[nodes]]",
                    u.name
                ),
            ));
        }
        nodes.push(u.name.clone());
    }
    Ok(())
}

pub(crate) fn node_id(
    nodes: &[String],
    name: &str,
    path: impl Into<String>,
) -> Result<NodeId, ScenarioError> {
    nodes
        .iter()
        .position(|n| n == name)
        .map(|i| NodeId(i as u32))
        .ok_or_else(|| {
            err(
                path,
                format!("unknown node `{name}`; defined nodes: {}", nodes.join(", ")),
            )
        })
}

/// One routing-only link per radio hop (gateway → UE and UE → gateway for each UE, in UE
/// order) and per trace link, appended after the real links: routes through them end in
/// the radio glue rather than a link queue. Their ids follow the real links'.
pub fn pseudo_links(s: &Scenario, nodes: &[String]) -> Result<Vec<Link>, ScenarioError> {
    let mut out = Vec::new();
    let mk = |name: String, a: NodeId, z: NodeId| {
        Link::new(
            name,
            a,
            z,
            1,
            Time::ZERO,
            DropTailQueue::new(QueueLimit::Packets(1)),
        )
    };
    if let Some(t) = &s.radio {
        let gw = node_id(nodes, gateway_name(t), "radio.gateway")?;
        for (i, u) in radio_config(t)?.ues.iter().enumerate() {
            let ue = node_id(nodes, &u.name, format!("radio.ues[{i}].name"))?;
            out.push(mk(format!("radio:{}", u.name), gw, ue));
            out.push(mk(format!("radio:{}:up", u.name), ue, gw));
        }
    }
    for (i, l) in s.trace_links.iter().enumerate() {
        let a = node_id(nodes, &l.from, format!("trace_links[{i}].from"))?;
        let z = node_id(nodes, &l.to, format!("trace_links[{i}].to"))?;
        if a == z {
            return Err(err(
                format!("trace_links[{i}].to"),
                format!(
                    "a link must join two different nodes, both ends are `{}`",
                    l.to
                ),
            ));
        }
        out.push(mk(format!("trace:{i}"), a, z));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::scenario_from_toml;

    const MINI: &str = r#"
[radio]
[[radio.sites]]
position = { x = 0, y = 0, z = 10 }
[[radio.ues]]
mobility = { kind = "static", position = { x = 50, y = 0, z = 1.5 } }
[[radio.obstacles]]
box = [20, 25, -5, 5]
height = 20
[[flows]]
src = "gw"
dst = "ue0"
"#;

    #[test]
    fn defaults_are_filled_and_names_given() {
        let s = scenario_from_toml(MINI, &[]).unwrap();
        let t = s.radio.as_ref().unwrap();
        assert_eq!(gateway_name(t), "gw");
        let c = radio_config(t).unwrap();
        assert_eq!(c.ues[0].name, "ue0");
        assert_eq!(c.sites[0].name, "cell0");
        assert_eq!(c.mmwave, TechnologyConfig::mmwave());
        assert_eq!(c.obstacles[0].footprint.vertices.len(), 4);
    }

    #[test]
    fn single_keys_override_without_restating_the_rest() {
        let s = scenario_from_toml(
            MINI,
            &[
                "radio.mmwave.cell.rlc.buffer_bytes=7000000".into(),
                "radio.lte.pathloss.model=\"free_space\"".into(),
            ],
        )
        .unwrap();
        let c = radio_config(s.radio.as_ref().unwrap()).unwrap();
        assert_eq!(c.mmwave.cell.rlc.buffer_bytes, 7_000_000);
        assert_eq!(c.mmwave.cell.frame, TechnologyConfig::mmwave().cell.frame);
        assert_eq!(
            c.lte.pathloss,
            ccsim_radio::pathloss::PathLossModel::FreeSpace
        );
    }

    #[test]
    fn errors_name_the_key_path() {
        let e = scenario_from_toml(MINI, &["radio.mmwave.cell.rlc.bufer=1".into()]).unwrap_err();
        assert_eq!(e.path, "radio.mmwave.cell.rlc.bufer");
        let e = scenario_from_toml(MINI, &["radio.sites.0.position.x=\"far\"".into()]).unwrap_err();
        assert_eq!(e.path, "radio.sites[0].position.x");
        let e =
            scenario_from_toml(MINI, &["radio.obstacles.0.box=[1, 0, 0, 1]".into()]).unwrap_err();
        assert_eq!(e.path, "radio.obstacles[0].box");
        let e = scenario_from_toml(MINI, &["radio.ues.0.initial_site=3".into()]).unwrap_err();
        assert_eq!(e.path, "radio.ues[0].initial_site");
        let e =
            scenario_from_toml(MINI, &["radio.connectivity=dual_connectivity".into()]).unwrap_err();
        assert_eq!(e.path, "radio.connectivity");
        let e = scenario_from_toml(MINI, &["radio.connectivity=single_connectivity".into()])
            .unwrap_err();
        assert_eq!(e.path, "radio.connectivity");
        assert!(e.to_string().contains("single_connectivity needs"), "{e}");
        let e = scenario_from_toml(MINI, &["radio.mmwave.cell.harq.bler=1.5".into()]).unwrap_err();
        assert_eq!(e.path, "radio.mmwave.cell.harq.bler");
    }
}
