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
    assert!(msg.contains("a duration in [1ms, 3600s]"), "{msg}");
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

#[test]
fn new_algorithms_take_their_tunables_and_hooks() {
    use ccsim_cca::{CongState, RecoveryPolicy};
    use ccsim_core::Time;

    // Recovery policies are capabilities the factory returns.
    let policy = |name: &str| build(name, &Map::new()).unwrap().recovery_policy();
    assert_eq!(policy("tahoe"), RecoveryPolicy::Tahoe);
    assert_eq!(policy("TcpReno"), RecoveryPolicy::Reno);
    assert_eq!(policy("newreno"), RecoveryPolicy::NewReno);
    assert_eq!(policy("westwood"), RecoveryPolicy::NewReno);

    // SIAD: the ns-3 port forces ssthresh = 20 segments on its first IncreaseWindow; Linux
    // leaves it alone.
    for (compat, expected) in [(true, 20_000), (false, u32::MAX)] {
        let mut siad = build("siad", &params(json!({"ns3_port_compat": compat}))).unwrap();
        let mut tcb = TcpState::new(1000, 10, u32::MAX);
        siad.init(&mut tcb);
        tcb.last_rtt = Some(Time::from_millis(20));
        tcb.last_acked_seq += 1000;
        siad.pkts_acked(&mut tcb, 1, Time::from_millis(20));
        siad.increase_window(&mut tcb, 1);
        assert_eq!(tcb.ssthresh, expected, "compat {compat}");
    }
    let msg = build("siad", &params(json!({"num_rtt": 1})))
        .err()
        .unwrap()
        .to_string();
    assert!(
        msg.contains("\"num_rtt\"") && msg.contains("[2, 1000000]"),
        "{msg}"
    );

    // BBR: HighGain sets the initial pacing rate (gain · cwnd / minRtt).
    let mut bbr = build("bbr", &params(json!({"high_gain": 4.0, "seed": 9}))).unwrap();
    assert!(bbr.capabilities().full_control && !bbr.capabilities().burst_mode);
    let mut tcb = TcpState::new(1000, 10, u32::MAX);
    tcb.min_rtt = Some(Time::from_millis(100));
    bbr.congestion_state_set(&mut tcb, CongState::Open);
    assert_eq!(tcb.pacing_rate_bps, 4 * 800_000);
    assert!(build("bbr", &params(json!({"seed": -1}))).is_err());

    // Wave: burst mode with the configured burst and timer.
    let mut wave = build(
        "wave",
        &params(json!({"init_burst": 5, "init_timer": "100ms"})),
    )
    .unwrap();
    let burst = wave.burst_ops().expect("wave is built in burst mode");
    assert_eq!(burst.burst_interval(), Time::from_millis(100));
    assert_eq!(burst.send_quantum(), 5);
    assert!(wave.capabilities().burst_mode && wave.capabilities().full_control);
    let mut tcb = TcpState::new(1000, 10, u32::MAX);
    wave.init(&mut tcb);
    assert_eq!((tcb.cwnd, tcb.ssthresh), (5000, 0));
    // Every window algorithm stays out of burst mode; only BBR and Wave take full control.
    for (short, _) in algorithm_names() {
        let caps = build(short, &Map::new()).unwrap().capabilities();
        assert_eq!(
            caps.full_control,
            ["bbr", "wave"].contains(short),
            "{short}"
        );
        if *short != "wave" {
            let cca = build(short, &Map::new()).unwrap();
            assert!(cca.burst_ops().is_none(), "{short}");
            assert!(!caps.burst_mode, "{short}");
        }
    }
}
