//! Runs a scenario file and prints the summary JSON (a Rust-only driver for profiling):
//! `cargo run --release --example run_scenario -- FILE.toml [key=value ...]`

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: run_scenario FILE.toml [key.path=value ...]");
    let overrides: Vec<String> = args.collect();
    let text = std::fs::read_to_string(&path).expect("cannot read scenario");
    let scenario = match ccsim_scenario::scenario_from_toml(&text, &overrides) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut sim = match ccsim_scenario::Simulation::new(scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    sim.run();
    println!("{}", serde_json::to_string_pretty(&sim.summary()).unwrap());
}
