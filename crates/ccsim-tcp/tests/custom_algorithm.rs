//! docs/architecture.md "How to add an algorithm", step by step: an algorithm written outside
//! `ccsim-cca` — a fixed window of `W` segments that halves on loss — implements the
//! `CongestionOps` hooks, is wrapped with its capabilities in a `Controller`, and drives a
//! `TcpSender`, which calls the hooks in ns-3.44 order.

use ccsim_cca::{CongState, CongestionOps, Controller, RateConnection, RateSample};
use ccsim_cca::{RecoveryPolicy, TcpState, Tunables};
use ccsim_core::Time;
use ccsim_net::{TcpFlags, TcpSegment};
use ccsim_tcp::{TcpConfig, TcpSender};

const MSS: u32 = 1000;

ccsim_cca::tunables! {
    /// Step 1: the tunables, each declared once: doc comment, type, default, accepted values.
    pub struct FixedWindowConfig for "fixedwindow" {
        /// Window in segments.
        segments: u32 = 4, ccsim_cca::Accepts::Integer { min: 1, max: 1000 };
    }
}

/// Step 1: the state in one struct.
struct FixedWindow {
    segments: u32,
}

/// Step 2: the hooks (ns-3 `TcpCongestionOps` names; required: name, ssthresh,
/// increase_window).
impl CongestionOps for FixedWindow {
    fn name(&self) -> &'static str {
        "FixedWindow"
    }
    fn init(&mut self, tcb: &mut TcpState) {
        tcb.cwnd = self.segments * tcb.mss;
    }
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        (tcb.cwnd / 2).max(2 * tcb.mss)
    }
    fn increase_window(&mut self, _tcb: &mut TcpState, _segments_acked: u32) {}
}

/// Step 2 for a rate-sample algorithm: `cong_control` sets the window (here a fixed 8 segments);
/// the window hooks would shrink it to one segment.
struct RateDriven;

impl CongestionOps for RateDriven {
    fn name(&self) -> &'static str {
        "RateDriven"
    }
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        tcb.ssthresh
    }
    fn increase_window(&mut self, tcb: &mut TcpState, _segments_acked: u32) {
        tcb.cwnd = tcb.mss;
    }
    fn cong_control(&mut self, tcb: &mut TcpState, _rc: &RateConnection, _rs: &RateSample) {
        tcb.cwnd = 8 * tcb.mss;
    }
}

fn ack(n_segments: u64, sack: &[(u64, u64)]) -> TcpSegment {
    let mut a = TcpSegment {
        flags: TcpFlags(TcpFlags::ACK),
        ack: 1 + n_segments * MSS as u64,
        window: 1 << 20,
        ..Default::default()
    };
    for &(s, e) in sack {
        a.sack.push(1 + s * MSS as u64, 1 + e * MSS as u64);
    }
    a
}

#[test]
fn an_algorithm_from_outside_the_crate_drives_the_sender() {
    // Step 3: wrap it with its capabilities (here: ns-3's NewReno recovery, no burst mode).
    let params = serde_json::json!({ "segments": 4 });
    let config = FixedWindowConfig::from_params(params.as_object().unwrap()).unwrap();
    let alg = FixedWindow {
        segments: config.segments,
    };
    let controller = Controller::window(Box::new(alg), RecoveryPolicy::NewReno);
    assert!(!controller.capabilities().burst_mode);
    let (mut s, sent) = established(controller);
    let t = Time::from_millis(100);
    // The handshake's ACK, then the algorithm's 4-segment window.
    assert_eq!(sent.len(), 1 + 4);
    // Segment 0 lost: three SACKing duplicate ACKs start fast recovery, which asks the
    // algorithm for ssthresh.
    for k in 2..=4 {
        s.on_segment(t, &ack(0, &[(1, k)]));
    }
    assert_eq!(s.tcb.cong_state, CongState::Recovery);
    assert_eq!(s.tcb.ssthresh, 2 * MSS);
}

/// A sender past its handshake (at 100 ms), and what it sent then.
fn established(controller: Controller) -> (TcpSender, Vec<TcpSegment>) {
    let cfg = TcpConfig {
        mss: MSS,
        timestamps: false,
        ..TcpConfig::default()
    };
    let mut s = TcpSender::new(cfg, controller, None);
    s.start(Time::ZERO);
    s.poll_transmit(Time::ZERO).expect("SYN");
    let synack = TcpSegment {
        flags: TcpFlags(TcpFlags::SYN | TcpFlags::ACK),
        ack: 1,
        window: 1 << 20,
        ..Default::default()
    };
    let t = Time::from_millis(100);
    s.on_segment(t, &synack);
    let sent: Vec<_> = std::iter::from_fn(|| s.poll_transmit(t)).collect();
    (s, sent)
}

#[test]
fn full_control_is_a_capability_declared_where_the_algorithm_is_built() {
    // Step 3: the same hooks, built with and without full control. With it the sender calls
    // `cong_control` on every ACK (cwnd 8 segments); without it, `increase_window` (1 segment).
    for (full, expected_cwnd) in [(true, 8 * MSS), (false, MSS)] {
        let mut controller = Controller::window(Box::new(RateDriven), RecoveryPolicy::NewReno);
        if full {
            controller = controller.with_full_control();
        }
        assert_eq!(controller.capabilities().full_control, full);
        let (mut s, _) = established(controller);
        s.on_segment(Time::from_millis(200), &ack(1, &[]));
        assert_eq!(s.tcb.cwnd, expected_cwnd, "full control {full}");
    }
}

#[test]
fn an_outside_algorithms_tunables_are_parsed_and_documented_from_one_declaration() {
    let spec = &FixedWindowConfig::PARAMS[0];
    assert_eq!((spec.name, (spec.default)()), ("segments", "4".to_string()));
    assert_eq!(spec.help.trim(), "Window in segments.");
    let bad = serde_json::json!({ "segments": 0 });
    let msg = FixedWindowConfig::from_params(bad.as_object().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("\"segments\"") && msg.contains("[1, 1000]"),
        "{msg}"
    );
    let unknown = serde_json::json!({ "segment": 4 });
    let msg = FixedWindowConfig::from_params(unknown.as_object().unwrap())
        .unwrap_err()
        .to_string();
    assert!(msg.contains("allowed: segments"), "{msg}");
}
