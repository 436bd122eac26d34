//! The documented schema and the simulator agree:
//! - the generated tables in `docs/scenario-reference.md` are what the schema generates now
//!   (`CCSIM_UPDATE_DOCS=1 cargo test -p ccsim-scenario --test schema_docs` rewrites them);
//! - every documented `[tcp]` key changes the flow's `TcpConfig` (a key that is parsed and
//!   then dropped fails here), and every profile default round-trips through the keys.
//!
//! That each `TcpConfig` field is then read by the sender is checked in
//! `crates/ccsim-tcp/tests/config_fields_read.rs`.

use ccsim_scenario::build::tcp_config;
use ccsim_scenario::config::{Profile, TcpOptions};
use ccsim_scenario::schema_doc::{replace_section, section, SECTIONS};

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs");

#[test]
fn generated_docs_are_up_to_date() {
    let mut files: Vec<&str> = SECTIONS.iter().map(|(_, f)| *f).collect();
    files.dedup();
    for file in files {
        let path = format!("{DOCS}/{file}");
        let committed = std::fs::read_to_string(&path).expect("a docs file");
        let mut fresh = committed.clone();
        for (name, _) in SECTIONS.iter().filter(|(_, f)| *f == file) {
            fresh = replace_section(&fresh, name, &section(name).unwrap())
                .unwrap_or_else(|e| panic!("docs/{file}: {e}"));
        }
        if std::env::var_os("CCSIM_UPDATE_DOCS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        assert!(
            committed == fresh,
            "docs/{file} differs from the schema's doc comments; regenerate it with \
             CCSIM_UPDATE_DOCS=1 cargo test -p ccsim-scenario --test schema_docs"
        );
    }
}

fn options_from(v: &serde_json::Value) -> TcpOptions {
    serde_json::from_value(v.clone()).unwrap()
}

#[test]
fn profile_defaults_round_trip_through_the_keys() {
    for profile in [Profile::Ns3, Profile::Linux] {
        let keys = TcpOptions::profile_defaults(profile);
        let base = TcpOptions {
            profile: Some(profile),
            ..TcpOptions::default()
        };
        assert_eq!(
            format!("{:?}", tcp_config(&keys, "tcp").unwrap()),
            format!("{:?}", tcp_config(&base, "tcp").unwrap()),
            "{profile:?}"
        );
    }
}

/// Values to try for a key, so that one differs from the profile's default and is valid.
fn candidates(default: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::json;
    let mut out = vec![];
    match default {
        serde_json::Value::Bool(b) => out.push(json!(!b)),
        serde_json::Value::Number(n) => out.push(json!(n.as_u64().unwrap() + 1)),
        _ => {}
    }
    out.extend([
        json!("linux"),
        json!("classic"),
        json!("123ms"),
        json!("300000B"),
        json!("1000B"),
        json!("1Gbps"),
    ]);
    out
}

#[test]
fn every_documented_tcp_key_changes_the_config() {
    let defaults = serde_json::to_value(TcpOptions::profile_defaults(Profile::Ns3)).unwrap();
    let base = format!("{:?}", tcp_config(&options_from(&defaults), "tcp").unwrap());
    for k in TcpOptions::KEYS {
        let changed = candidates(&defaults[k.key]).into_iter().any(|v| {
            let mut o = defaults.clone();
            o[k.key] = v;
            let Ok(opts) = serde_json::from_value::<TcpOptions>(o) else {
                return false;
            };
            tcp_config(&opts, "tcp").is_ok_and(|c| format!("{c:?}") != base)
        });
        assert!(
            changed,
            "tcp.{} is documented but never changes TcpConfig",
            k.key
        );
    }
}

#[test]
fn every_key_has_a_doc_comment_and_the_schema_rejects_unknown_keys() {
    for k in TcpOptions::KEYS {
        assert!(k.doc.trim().len() > 10, "tcp.{} has no doc comment", k.key);
    }
    let e = serde_json::from_value::<TcpOptions>(serde_json::json!({ "limited_transmt": true }))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("limited_transmt") && e.contains("limited_transmit"),
        "{e}"
    );
}
