//! ccsim-cca: congestion-control algorithms behind one trait, [`CongestionOps`], whose hooks
//! are those of ns-3.44 `TcpCongestionOps` (`src/internet/model/tcp-congestion-ops.h`) and
//! Linux `struct tcp_congestion_ops` (`include/net/tcp.h`), so a researcher maps them at once.
//!
//! The algorithm reads and writes the shared socket state [`TcpState`] (the ns-3 `TcpSocketState`
//! "tcb"), which carries the simulated clock `now` explicitly: no algorithm reads a global clock.

pub mod state;

pub use state::{CaEvent, CongState, RateConnection, RateSample, TcpState};

use ccsim_core::Time;

/// The congestion-control hooks. Required: [`name`](CongestionOps::name),
/// [`ssthresh`](CongestionOps::ssthresh), [`increase_window`](CongestionOps::increase_window).
/// Everything else is optional with ns-3's default behaviour (do nothing).
pub trait CongestionOps: Send {
    /// ns-3 TypeId name, e.g. `"TcpCubic"`.
    fn name(&self) -> &'static str;

    /// ns-3 `Init(tcb)`: called once when the connection is set up.
    fn init(&mut self, _tcb: &mut TcpState) {}

    /// ns-3 `GetSsThresh(tcb, bytesInFlight)` / Linux `ssthresh`: the slow-start threshold
    /// to use after a loss event. Returns bytes.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32;

    /// ns-3 `IncreaseWindow(tcb, segmentsAcked)` / Linux `cong_avoid`.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32);

    /// ns-3 `PktsAcked(tcb, segmentsAcked, rtt)` / Linux `pkts_acked`. ns-3.44 passes the
    /// smoothed RTT here (see `TcpSocketBase::ProcessAck`); `tcb.last_rtt` holds the raw sample.
    fn pkts_acked(&mut self, _tcb: &mut TcpState, _segments_acked: u32, _rtt: Time) {}

    /// ns-3 `CongestionStateSet` / Linux `set_state`. Called before `tcb.cong_state` changes.
    fn congestion_state_set(&mut self, _tcb: &mut TcpState, _new_state: CongState) {}

    /// ns-3 `CwndEvent` / Linux `cwnd_event`.
    fn cwnd_event(&mut self, _tcb: &mut TcpState, _event: CaEvent) {}

    /// ns-3 `HasCongControl`: when true, the socket calls [`cong_control`](CongestionOps::cong_control)
    /// on every ACK instead of `pkts_acked` + `increase_window` (BBR).
    fn has_cong_control(&self) -> bool {
        false
    }

    /// ns-3 `CongControl(tcb, rc, rs)` / Linux `cong_control`: full control of cwnd and pacing.
    fn cong_control(&mut self, _tcb: &mut TcpState, _rc: &RateConnection, _rs: &RateSample) {}

    /// Linux `undo_cwnd` (ns-3 has no such hook; ccsim never calls it in ns-3 mode).
    fn undo_cwnd(&mut self, tcb: &mut TcpState) -> u32 {
        tcb.cwnd
    }

    /// Algorithms that keep their own timers (ns-3 Westwood+ bandwidth sampling) report the
    /// next one here; the owner calls [`on_timer`](CongestionOps::on_timer) at that time.
    fn next_timer(&self) -> Option<Time> {
        None
    }

    /// Runs the algorithm's own timer (see [`next_timer`](CongestionOps::next_timer)).
    fn on_timer(&mut self, _tcb: &mut TcpState) {}
}
