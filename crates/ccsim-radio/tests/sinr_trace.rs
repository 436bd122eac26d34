//! `channel.sinr_trace`: UE 0's SINR towards a traced site is the trace's, for its data and
//! for the handover decisions, which then follow the trace; a bad trace names the key.

use ccsim_core::Time;
use ccsim_radio::ran::{RadioConfig, RadioNetwork, SinrTrace, SiteSinr};
use ccsim_radio::scenarios::seed000_handover_street;

const PERIOD_US: u64 = 10_000;

/// The street with a 10 ms channel update and a trace: site 0 at 20 dB, site 1 at 10 dB, site
/// 2 at 5 dB until 1 s and 30 dB after.
fn traced() -> RadioConfig {
    let mut cfg = seed000_handover_street().radio_config(&[]);
    cfg.channel.update_period_us = PERIOD_US;
    let n = 300;
    let series = |f: &dyn Fn(usize) -> f64| (0..n).map(f).collect::<Vec<f64>>();
    cfg.channel.sinr_trace = Some(SinrTrace {
        period_us: PERIOD_US,
        sites: vec![
            SiteSinr {
                site: 0,
                sinr_db: series(&|_| 20.0),
            },
            SiteSinr {
                site: 1,
                sinr_db: series(&|_| 10.0),
            },
            SiteSinr {
                site: 2,
                sinr_db: series(&|k| if k < 100 { 5.0 } else { 30.0 }),
            },
        ],
    });
    cfg
}

#[test]
fn the_trace_sets_the_sinr_and_the_handovers_follow_it() {
    let mut ran = RadioNetwork::new(&traced(), 1).unwrap();
    assert_eq!(ran.serving_site(0), 0, "the best traced site at the start");
    let mut out = Vec::new();
    let end = Time::from_secs(3);
    let mut checked = 0;
    while let Some(t) = ran.next_deadline().filter(|&t| t <= end) {
        ran.on_deadline(t, &mut out);
        if t.as_nanos() % (PERIOD_US * 1000) == 0 {
            let want = [20.0, 10.0, if t < Time::from_secs(1) { 5.0 } else { 30.0 }];
            for (s, w) in want.iter().enumerate() {
                assert_eq!(
                    (ran.sinr_db(0, s), ran.measured_sinr_db(0, s)),
                    (*w, *w),
                    "{t:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 250);
    let h = ran.handover_log();
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].from, h[0].to), (0, 2));
    assert!(
        h[0].at > Time::from_secs(1) && h[0].at < Time::from_millis(1200),
        "{h:?}"
    );
    // The geometry alone does not hand over in these 3 s.
    let mut free_cfg = traced();
    free_cfg.channel.sinr_trace = None;
    let mut free = RadioNetwork::new(&free_cfg, 1).unwrap();
    while let Some(t) = free.next_deadline().filter(|&t| t <= end) {
        free.on_deadline(t, &mut out);
    }
    assert!(free.handover_log().is_empty(), "{:?}", free.handover_log());
}

#[test]
fn a_bad_trace_names_the_key() {
    let mut cfg = traced();
    cfg.channel.sinr_trace.as_mut().unwrap().sites[1].site = 9;
    let e = RadioNetwork::new(&cfg, 1).err().unwrap();
    assert!(
        e.contains("channel.sinr_trace.sites[1].site") && e.contains("0-2"),
        "{e}"
    );
    let mut cfg = traced();
    cfg.channel.sinr_trace.as_mut().unwrap().sites[0]
        .sinr_db
        .push(f64::NAN);
    let e = RadioNetwork::new(&cfg, 1).err().unwrap();
    assert!(e.contains("channel.sinr_trace.sites[0].sinr_db"), "{e}");
}
