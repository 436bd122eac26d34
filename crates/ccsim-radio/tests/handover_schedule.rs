//! `handover.schedule`: the RAN hands over at the recorded times to the recorded sites and
//! takes no decision of its own; a bad schedule is refused with the key named.

use ccsim_core::Time;
use ccsim_radio::handover::schedule::ScheduledHandover;
use ccsim_radio::handover::TttMode;
use ccsim_radio::ran::{HandoverRecord, RadioConfig, RadioNetwork};
use ccsim_radio::scenarios::seed000_handover_street;

fn street() -> RadioConfig {
    let mut cfg = seed000_handover_street().radio_config(&[]);
    cfg.handover.mode = TttMode::DynamicTtt;
    cfg
}

/// Runs the RAN (no traffic) to `end` and returns its handovers.
fn handovers(cfg: &RadioConfig, end: Time) -> Vec<HandoverRecord> {
    let mut ran = RadioNetwork::new(cfg, 1).unwrap();
    let mut out = Vec::new();
    while let Some(t) = ran.next_deadline().filter(|&t| t <= end) {
        ran.on_deadline(t, &mut out);
    }
    ran.handover_log().to_vec()
}

fn at(at_us: u64, site: usize) -> ScheduledHandover {
    ScheduledHandover { at_us, site, ue: 0 }
}

#[test]
fn a_schedule_replaces_the_decisions() {
    let end = seed000_handover_street().duration;
    let decided = handovers(&street(), end);
    assert!(
        decided.len() >= 2,
        "the street hands over on its own: {decided:?}"
    );
    // Different times and targets from the RAN's own: exactly these happen.
    let mut cfg = street();
    let start = decided[0].from;
    let other = (start + 1) % cfg.sites.len();
    cfg.handover.schedule = vec![
        at(7_654_321, other),
        at(20_000_000, start),
        at(21_000_000, start),
    ];
    let replayed = handovers(&cfg, end);
    let got: Vec<(Time, usize, usize)> = replayed.iter().map(|h| (h.at, h.from, h.to)).collect();
    assert_eq!(
        got,
        vec![
            (Time::from_micros(7_654_321), start, other),
            (Time::from_micros(20_000_000), other, start),
        ],
        "a handover to the serving site does nothing"
    );
}

#[test]
fn a_bad_schedule_names_the_entry_and_the_allowed_values() {
    let mut cfg = street();
    let n = cfg.sites.len();
    cfg.handover.schedule = vec![at(1_000, n)];
    let e = RadioNetwork::new(&cfg, 1).err().unwrap();
    assert!(
        e.contains("handover.schedule[0].site") && e.contains(&format!("0-{}", n - 1)),
        "{e}"
    );
    cfg.handover.schedule = vec![at(2_000, 0), at(1_000, 1)];
    let e = RadioNetwork::new(&cfg, 1).err().unwrap();
    assert!(
        e.contains("handover.schedule[1].at_us") && e.contains("time order"),
        "{e}"
    );
    cfg.handover.schedule = vec![ScheduledHandover {
        at_us: 0,
        site: 0,
        ue: 3,
    }];
    let e = RadioNetwork::new(&cfg, 1).err().unwrap();
    assert!(e.contains("handover.schedule[0].ue"), "{e}");
}
