//! Helpers shared by the integration tests.

use ccsim_scenario::{scenario_from_toml, Simulation, Summary};

/// Runs the scenario `text` with `key=value` overrides to its end and returns its summary.
pub fn run_toml(text: &str, overrides: &[&str]) -> Summary {
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    let mut sim = Simulation::new(scenario_from_toml(text, &overrides).unwrap()).unwrap();
    sim.run();
    sim.summary()
}
