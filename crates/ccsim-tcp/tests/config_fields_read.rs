//! Every `TcpConfig` field is read by the TCP code: a knob that is set from a scenario key but
//! never consulted (as `tcp.limited_transmit` once was, issue 13) fails here. The fields are
//! taken from `TcpConfig`'s `Debug` output, so a new field is checked without editing this
//! test; the reads are searched for in `src/` outside `config.rs`.

use ccsim_tcp::TcpConfig;
use std::path::Path;

fn field_names() -> Vec<String> {
    let debug = format!("{:?}", TcpConfig::default());
    let body = debug
        .strip_prefix("TcpConfig {")
        .and_then(|b| b.strip_suffix('}'))
        .expect("TcpConfig's Debug is a braced struct");
    let mut names = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    // Split at top-level commas: values may be `Some(..)` or nested structs.
    for (i, ch) in body.char_indices() {
        match ch {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                names.push(body[start..i].to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    names.push(body[start..].to_string());
    names
        .iter()
        .filter_map(|f| f.split(':').next())
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

fn sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") && !p.ends_with("config.rs") {
            out.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
}

/// `text` reads `.name` as a whole identifier (not as a prefix of a longer one).
fn reads(text: &str, name: &str) -> bool {
    let needle = format!(".{name}");
    text.match_indices(&needle).any(|(i, _)| {
        let next = text[i + needle.len()..].chars().next();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn every_tcp_config_field_is_read_outside_config_rs() {
    let names = field_names();
    assert!(names.len() > 30, "parsed {names:?}");
    let mut text = String::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut text,
    );
    let unread: Vec<_> = names.iter().filter(|n| !reads(&text, n)).collect();
    assert!(unread.is_empty(), "TcpConfig fields never read: {unread:?}");
}

#[test]
fn the_check_sees_a_field_that_is_not_read() {
    assert!(reads("if self.cfg.sack {", "sack"));
    assert!(!reads("self.cfg.sack_blocks", "sack"));
}
