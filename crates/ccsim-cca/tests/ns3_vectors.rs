//! Replays the ns-3.44 unit-level vectors shipped in `shared/reference/ns3-cca-vectors/` and
//! requires cwnd, ssthresh and congestion state to equal ns-3's at every step, for every
//! algorithm. The shared folder is `$CCSIM_SHARED` or `<workspace>/../shared`.

use ccsim_cca::replay::{compare, parse, replay_file, replay_str, ReplayFile};
use ccsim_cca::{algorithm_names, ns3_vector_algorithms};
use std::path::PathBuf;

fn shared_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CCSIM_SHARED") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn load(name: &str) -> (String, ReplayFile) {
    let path = shared_dir().join("reference/ns3-cca-vectors").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} (set CCSIM_SHARED): {e}", path.display()));
    let file = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (text, file)
}

fn check_file(name: &str) {
    let (_, reference) = load(name);
    assert_eq!(reference.simulator, "ns-3.44");
    // Every algorithm with an ns-3.44 reference is exercised by the file, and the file has no
    // other; all of them are in the factory.
    for v in &reference.vectors {
        assert!(
            ns3_vector_algorithms().contains(&v.algorithm.as_str()),
            "{name}: vector for unexpected algorithm {}",
            v.algorithm
        );
    }
    for type_id in ns3_vector_algorithms() {
        assert!(algorithm_names().iter().any(|(_, t)| t == type_id));
        assert!(
            reference.vectors.iter().any(|v| v.algorithm == *type_id),
            "{name}: no vector for {type_id}"
        );
    }
    let ours = replay_file(&reference).expect("replay");
    assert_eq!(ours.simulator, "ccsim");
    let report = compare(&reference, &ours);
    println!("== {name}\n{report}");
    assert!(
        report.all_equal(),
        "{name}: ccsim differs from ns-3.44:\n{report}"
    );
    // Inputs are carried through unchanged.
    for (r, o) in reference.vectors.iter().zip(&ours.vectors) {
        assert_eq!(r.steps.len(), o.steps.len());
        for (rs, os) in r.steps.iter().zip(&o.steps) {
            assert_eq!(
                (&rs.t_s, &rs.event, rs.segs_acked, &rs.rtt_ms),
                (&os.t_s, &os.event, os.segs_acked, &os.rtt_ms)
            );
        }
    }
}

#[test]
fn scripted_vectors_match_ns3() {
    check_file("scripted.json");
}

#[test]
fn random_seed1_vectors_match_ns3() {
    check_file("random_seed1.json");
}

#[test]
fn random_seed2_vectors_match_ns3() {
    check_file("random_seed2.json");
}

#[test]
fn random_seed3_vectors_match_ns3() {
    check_file("random_seed3.json");
}

#[test]
fn replay_str_round_trips_the_format() {
    let (text, reference) = load("random_seed1.json");
    let out = replay_str(&text).expect("replay_str");
    let ours = parse(&out).expect("our output parses as the same format");
    assert_eq!(ours.simulator, "ccsim");
    assert_eq!(ours.step_fields, reference.step_fields);
    assert_eq!(ours.state_codes, reference.state_codes);
    assert!(compare(&reference, &ours).all_equal());
}

#[test]
fn compare_finds_a_planted_difference() {
    let (_, reference) = load("scripted.json");
    let mut ours = replay_file(&reference).expect("replay");
    ours.vectors[3].steps[17].cwnd_bytes += 1;
    let report = compare(&reference, &ours);
    assert!(!report.all_equal());
    let v = &report.vectors[3];
    assert_eq!(v.first_mismatch.as_ref().map(|m| m.index), Some(17));
    assert_eq!(v.steps_equal, v.steps_total - 1);
}
