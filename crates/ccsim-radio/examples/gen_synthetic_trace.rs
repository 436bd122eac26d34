//! Regenerates `traces/synthetic-blockage.down`:
//! `cargo run -p ccsim-radio --example gen_synthetic_trace > crates/ccsim-radio/traces/synthetic-blockage.down`
fn main() {
    print!(
        "{}",
        ccsim_radio::trace::SyntheticTrace::shipped()
            .generate()
            .to_text()
    );
}
