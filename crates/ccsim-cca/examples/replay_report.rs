//! Replay ns-3 CCA vectors and print the agreement per algorithm.
//!
//! `cargo run -p ccsim-cca --example replay_report -- FILE.json [FILE.json ...]`

use ccsim_cca::replay::{compare, parse, replay_file};

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: replay_report FILE.json [FILE.json ...]");
        std::process::exit(2);
    }
    let mut all_equal = true;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(2)
        });
        let reference = parse(&text).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(2)
        });
        let ours = replay_file(&reference).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(2)
        });
        let report = compare(&reference, &ours);
        println!("== {path}");
        print!("{report}");
        all_equal &= report.all_equal();
    }
    std::process::exit(if all_equal { 0 } else { 1 });
}
