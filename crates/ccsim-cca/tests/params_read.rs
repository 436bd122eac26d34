//! Every documented tunable (`Tunables::PARAMS`, what `docs/scenario-reference.md`'s
//! `cca_params` tables are generated from) changes the algorithm's config when set: a
//! parameter that is accepted and then dropped fails here. The default each one shows is the
//! config's default. Unknown names are rejected with the
//! allowed list (the schema's `deny_unknown_fields`).

use ccsim_cca::{bbr, bic, cubic, highspeed, htcp, hybla, illinois, linux_reno, newreno};
use ccsim_cca::{reno, scalable, siad, tahoe, vegas, wave, westwood, westwood_plus, yeah};
use ccsim_cca::{Accepts, CcaError, Tunables};
use serde_json::{json, Map, Value};
use std::fmt::Debug;

/// Values to try: one of them is valid for each kind of parameter and differs from its
/// default; an enum parameter's choices come from what it accepts.
fn candidates(accepts: &Accepts) -> Vec<Value> {
    let mut out: Vec<Value> = vec![
        json!(true),
        json!(false),
        json!(0.5),
        json!(0.3),
        json!(0.95),
        json!(0),
        json!(1),
        json!(2),
        json!(7),
        json!(100),
        json!(5000),
        json!("3ms"),
        json!("250ms"),
        json!(0.01),
    ];
    if let Accepts::OneOf(names) = accepts {
        out.extend(names.iter().map(|n| json!(n)));
    }
    out
}

/// A default as the docs show it, written back as a scenario value (`0.7`, `"2ms"`).
fn as_scenario_value(shown: &str) -> Value {
    serde_json::from_str(shown).unwrap_or_else(|_| json!(shown))
}

fn check<T: Tunables + Debug>() {
    let base = format!("{:?}", T::default());
    for p in T::PARAMS {
        assert!(
            p.help.trim().len() > 5,
            "{} {}: no help",
            T::ALGORITHM,
            p.name
        );
        // The default the docs show is the config's default: written back, it changes nothing.
        let shown = (p.default)();
        if shown != "unset" {
            let mut m = Map::new();
            m.insert(p.name.to_string(), as_scenario_value(&shown));
            let back = T::from_params(&m).map(|c| format!("{c:?}"));
            assert_eq!(
                back.as_ref(),
                Ok(&base),
                "{} {}: default {shown}",
                T::ALGORITHM,
                p.name
            );
        }
        let changed = candidates(&p.accepts).into_iter().any(|v| {
            let mut m = Map::new();
            m.insert(p.name.to_string(), v);
            T::from_params(&m).is_ok_and(|c| format!("{c:?}") != base)
        });
        assert!(
            changed,
            "{}: parameter `{}` is documented but never changes the config",
            T::ALGORITHM,
            p.name
        );
    }
    let mut m = Map::new();
    m.insert("no_such_parameter".into(), json!(1));
    match T::from_params(&m) {
        Err(CcaError::UnknownParameter { allowed, .. }) => {
            assert_eq!(allowed.len(), T::PARAMS.len(), "{}", T::ALGORITHM)
        }
        other => panic!("{}: unknown parameter accepted: {other:?}", T::ALGORITHM),
    }
}

#[test]
fn every_documented_parameter_changes_its_algorithms_config() {
    check::<newreno::NewRenoConfig>();
    check::<linux_reno::LinuxRenoConfig>();
    check::<cubic::CubicConfig>();
    check::<bic::BicConfig>();
    check::<scalable::ScalableConfig>();
    check::<highspeed::HighSpeedConfig>();
    check::<hybla::HyblaConfig>();
    check::<htcp::HtcpConfig>();
    check::<illinois::IllinoisConfig>();
    check::<vegas::VegasConfig>();
    check::<westwood_plus::WestwoodPlusConfig>();
    check::<yeah::YeahConfig>();
    check::<tahoe::TahoeConfig>();
    check::<reno::RenoConfig>();
    check::<westwood::WestwoodConfig>();
    check::<siad::SiadConfig>();
    check::<bbr::BbrConfig>();
    check::<wave::WaveConfig>();
    assert_eq!(
        ccsim_cca::algorithm_names().len(),
        18,
        "a new algorithm: add it above"
    );
}
