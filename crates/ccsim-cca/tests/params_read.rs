//! Every documented tunable (`Tunables::PARAMS`, what `docs/scenario-reference.md`'s
//! `cca_params` tables are generated from) changes the algorithm's config when set: a
//! parameter that is accepted and then dropped fails here. Unknown names are rejected with the
//! allowed list (the schema's `deny_unknown_fields`).

use ccsim_cca::{bbr, bic, cubic, highspeed, htcp, hybla, illinois, linux_reno, newreno};
use ccsim_cca::{reno, scalable, siad, tahoe, vegas, wave, westwood, westwood_plus, yeah};
use ccsim_cca::{CcaError, Tunables};
use serde_json::{json, Map, Value};
use std::fmt::Debug;

/// Values to try: one of them is valid for each kind of parameter and differs from its
/// default; quoted words of the help text are the enum choices.
fn candidates(help: &str) -> Vec<Value> {
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
    out.extend(help.split('"').skip(1).step_by(2).map(|w| json!(w)));
    out
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
        let changed = candidates(p.help).into_iter().any(|v| {
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
