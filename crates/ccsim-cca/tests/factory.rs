//! The factory: names, tunables, and the error messages users see.

use ccsim_cca::{algorithm_names, algorithm_params, build, CcaError, TcpState};
use serde_json::{json, Map, Value};

fn params(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("object")
}

#[test]
fn every_algorithm_builds_by_short_name_type_id_and_full_type_id() {
    assert_eq!(algorithm_names().len(), 18);
    for (short, type_id) in algorithm_names() {
        for name in [
            short.to_string(),
            type_id.to_string(),
            format!("ns3::{type_id}"),
        ] {
            let cca = build(&name, &Map::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(cca.name(), *type_id);
        }
        assert!(algorithm_params(short).is_ok());
    }
}

#[test]
fn unknown_algorithm_lists_the_allowed_ones() {
    let err = build("cubik", &Map::new()).err().expect("must fail");
    let msg = err.to_string();
    assert!(msg.contains("\"cubik\""), "{msg}");
    for (short, type_id) in algorithm_names() {
        assert!(msg.contains(short) && msg.contains(type_id), "{msg}");
    }
}

#[test]
fn unknown_parameter_names_it_and_lists_the_allowed_ones() {
    let err = build("cubic", &params(json!({"betaa": 0.7})))
        .err()
        .expect("must fail");
    match &err {
        CcaError::UnknownParameter {
            parameter, allowed, ..
        } => {
            assert_eq!(parameter, "betaa");
            assert!(allowed.contains(&"beta") && allowed.contains(&"fast_convergence"));
        }
        other => panic!("unexpected {other:?}"),
    }
    let msg = err.to_string();
    assert!(
        msg.starts_with("unknown parameter \"betaa\" for cubic; allowed: fast_convergence,"),
        "{msg}"
    );
    let msg = build("newreno", &params(json!({"x": 1})))
        .err()
        .unwrap()
        .to_string();
    assert!(msg.contains("no tunables"), "{msg}");
}

#[test]
fn bad_values_name_the_parameter_and_the_range() {
    let msg = build("cubic", &params(json!({"beta": 1.5})))
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("\"beta\"") && msg.contains("[0, 0.999999]"),
        "{msg}"
    );
    let msg = build("bic", &params(json!({"max_incr": 0})))
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("\"max_incr\"") && msg.contains("[1, 4294967295]"),
        "{msg}"
    );
    let msg = build("cubic", &params(json!({"hystart": "yes"})))
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("\"hystart\"") && msg.contains("boolean"),
        "{msg}"
    );
    let msg = build("cubic", &params(json!({"hystart_detect": "TRAIN"})))
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("\"PACKET_TRAIN\", \"DELAY\", \"BOTH\""),
        "{msg}"
    );
    let msg = build("hybla", &params(json!({"r_rtt": "0.5ms"})))
        .err()
        .unwrap()
        .to_string();
    assert!(msg.contains("at least 1 ms"), "{msg}");
}

#[test]
fn tunables_take_effect() {
    // CUBIC's ssthresh is cwnd·beta (in segments): beta 0.5 halves a 100-segment window.
    let tcb = TcpState::new(1000, 100, u32::MAX);
    let mut default = build("cubic", &Map::new()).unwrap();
    assert_eq!(default.ssthresh(&tcb, tcb.cwnd), 70_000);
    let mut half = build("cubic", &params(json!({"beta": 0.5}))).unwrap();
    assert_eq!(half.ssthresh(&tcb, tcb.cwnd), 50_000);
    // Durations accept seconds or unit strings.
    assert!(build(
        "cubic",
        &params(json!({"cubic_delta": "4ms", "hystart_ack_delta": 0.002}))
    )
    .is_ok());
    // Scalable's multiplicative decrease factor.
    let mut stcp = build("scalable", &params(json!({"md_factor": 0.5}))).unwrap();
    assert_eq!(stcp.ssthresh(&tcb, tcb.cwnd), 50_000);
}
