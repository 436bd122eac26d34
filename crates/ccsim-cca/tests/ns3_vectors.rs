//! Replays the ns-3.44 unit-level vectors checked in under `validation/golden/ns3/cca-vectors/`
//! and requires cwnd, ssthresh and congestion state to equal ns-3's at every step, for every
//! algorithm. `scripted.json` and `random_seed{1,2,3}.json` are copies of the public
//! `shared/reference/ns3-cca-vectors/`; `random_gen_seed{4..23}.json` come from
//! `validation/ns3/cca_vectors/make_vectors.sh` (ns-3.44.post0 wheel).

use ccsim_cca::replay::{compare, parse, replay_file, replay_str, ReplayFile};
use ccsim_cca::{algorithm_names, ns3_vector_algorithms};
use std::path::PathBuf;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../validation/golden/ns3/cca-vectors")
}

fn load(name: &str) -> (String, ReplayFile) {
    let path = vectors_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let file = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (text, file)
}

/// Every algorithm with an ns-3.44 reference is exercised by `files` together, and they have no
/// other; all of them are in the factory.
fn assert_covers_every_algorithm(files: &[(String, ReplayFile)]) {
    for (name, file) in files {
        for v in &file.vectors {
            assert!(
                ns3_vector_algorithms().contains(&v.algorithm.as_str()),
                "{name}: vector for unexpected algorithm {}",
                v.algorithm
            );
        }
    }
    for type_id in ns3_vector_algorithms() {
        assert!(algorithm_names().iter().any(|(_, t)| t == type_id));
        assert!(
            files
                .iter()
                .any(|(_, f)| f.vectors.iter().any(|v| v.algorithm == *type_id)),
            "no vector for {type_id}"
        );
    }
}

fn check_file(name: &str) {
    let (_, reference) = load(name);
    assert_covers_every_algorithm(&[(name.to_string(), reference.clone())]);
    check_replay(name, &reference);
}

fn check_replay(name: &str, reference: &ReplayFile) {
    assert_eq!(reference.simulator, "ns-3.44");
    let ours = replay_file(reference).expect("replay");
    assert_eq!(ours.simulator, "ccsim");
    let report = compare(reference, &ours);
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

/// The `random_gen_seed*` family (gen_events.py): 20 seeds, 600 events, MSS and initial window
/// drawn from the seed, half of the algorithms per file (all of them over the family).
#[test]
fn random_gen_vectors_match_ns3() {
    let mut names: Vec<String> = std::fs::read_dir(vectors_dir())
        .expect("vector folder")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.starts_with("random_gen_seed") && n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "only {} random_gen files", names.len());
    let files: Vec<(String, ReplayFile)> = names.iter().map(|n| (n.clone(), load(n).1)).collect();
    assert_covers_every_algorithm(&files);
    for (name, reference) in &files {
        check_replay(name, reference);
    }
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

/// The in-repo copies of the public vectors are byte for byte the files in
/// `shared/reference/ns3-cca-vectors/` (`$CCSIM_SHARED` or `<workspace>/../shared`), when that
/// folder is present (a clone without it checks only the copies).
#[test]
fn in_repo_copies_equal_the_public_vectors() {
    let shared = std::env::var_os("CCSIM_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    );
    let public = shared.join("reference/ns3-cca-vectors");
    if !public.is_dir() {
        eprintln!("{} absent: copies not compared", public.display());
        return;
    }
    for name in [
        "scripted.json",
        "random_seed1.json",
        "random_seed2.json",
        "random_seed3.json",
    ] {
        let theirs = std::fs::read(public.join(name)).expect("public vector file");
        let ours = std::fs::read(vectors_dir().join(name)).expect("in-repo copy");
        assert!(
            theirs == ours,
            "{name}: in-repo copy differs from {}",
            public.display()
        );
    }
}
