//! The data sender of one TCP connection (ns-3 `TcpSocketBase` on the sending side).
//!
//! Input: ACK segments (`on_segment`) and timer expiries (`on_timer`), each with `now`.
//! Output: segments pulled by the owner with `poll_transmit` until it returns `None`, and the
//! next timer deadline from `next_timer`. No allocation per segment: the scoreboard ring
//! buffer grows to the largest window once and is then reused.
//!
//! One job per file:
//! - `handshake.rs`: the connection phase (SYN, SYN-ACK, the handshake's ACK, SYN retries);
//! - `ack.rs`: one ACK, step by step in ns-3.44 `ReceivedAck` / `ProcessAck` order;
//! - `loss.rs`: duplicate ACKs, fast recovery and the retransmission timeout;
//! - `transmit.rs`: what to send next (NextSeg, the forced retransmissions, pacing);
//! - `rtt.rs`: the RTT history, timestamps and the RTO value;
//! - `burst.rs`: TCP Wave's burst mode;
//! - `undo.rs`: Linux's undo of spurious timeouts and F-RTO (`linux` profile);
//! - the application's writes are [`crate::app`].
//!
//! Call order toward the congestion control follows ns-3.44 `TcpSocketBase::ProcessAck`,
//! `DupAck`, `EnterRecovery` and `ReTxTimeout` (ns-3 passes the smoothed RTT to `PktsAcked`).

mod ack;
mod burst;
mod ca_rtt;
mod handshake;
mod loss;
mod rtt;
mod transmit;
mod undo;

use crate::app::BulkSendApp;
use crate::config::TcpConfig;
use crate::rate::RateEstimator;
use crate::recovery::Recovery;
use crate::rtt::RttEstimator;
use crate::scoreboard::Scoreboard;
use burst::BurstState;
use ccsim_cca::{Capabilities, CongState, Controller, TcpState};
use ccsim_core::{Time, TxTimeMemo};
use ccsim_net::TcpSegment;
use handshake::Phase;
use loss::{Episode, Forced};
use rtt::RttHistory;
use undo::Undo;

/// Initial sequence number of the SYN; data starts at `ISS + 1`.
const ISS: u64 = 0;

/// Counters of one sender, for the flow's summary.
#[derive(Clone, Debug, Default)]
pub struct SenderStats {
    pub tx_segments: u64,
    pub tx_bytes: u64,
    pub retx_segments: u64,
    pub retx_bytes: u64,
    pub rto_count: u64,
    pub fast_recoveries: u64,
    /// Timeouts undone as spurious (F-RTO step 3.b, `tcp.frto`).
    pub loss_undos: u64,
}

pub struct TcpSender {
    cfg: TcpConfig,
    pub tcb: TcpState,
    cca: Controller,
    /// What the algorithm asks of the sender: recovery policy, burst mode, full control
    /// (ns-3 `HasCongControl`: `pkts_acked`/`increase_window` and the recovery window rules
    /// are skipped; the algorithm sets cwnd and pacing from rate samples).
    caps: Capabilities,
    /// Connection phase, with the handshake's data.
    phase: Phase,
    /// The application above (ns-3 BulkSend).
    app: BulkSendApp,
    /// Delivery-rate samples, kept for full-control algorithms.
    rate: Option<RateEstimator>,
    /// The last segment received was an ACK that produced a rate sample.
    sampled_last_ack: bool,
    /// Burst mode (TCP Wave): a self-managed timer releases bursts.
    burst: Option<BurstState>,
    sb: Scoreboard,
    rtt: RttEstimator,
    /// RTT records of first transmissions (ns-3 `m_history`).
    history: RttHistory,
    /// RTT sample taken from the last ACK, if it gave one (for probes and rate samples).
    last_ack_rtt_sample: Option<Time>,
    /// The recovery algorithm's window rules (PRR or classic).
    recovery: Recovery,
    /// The loss-recovery episode (RFC 6582 / RFC 6675 RecoveryPoint).
    episode: Episode,
    /// Retransmissions recovery forces out regardless of cwnd.
    forced: Forced,
    /// Linux's undo and F-RTO state (`tcp.frto`).
    undo: Undo,
    /// Bytes this ACK's guessed SACKs deliver (`tcp.reno_sack_delivered`).
    reno_delivered: u64,
    /// A forced retransmission already accounted as sent during ACK processing
    /// (`ns3_retransmit_before_cong_control`); `poll_transmit` hands it out first.
    sent_in_ack: Option<TcpSegment>,
    dupacks: u32,
    /// Peer's advertised window.
    rwnd: u64,
    rto: Time,
    rto_deadline: Option<Time>,
    /// Timestamp to echo back (peer's latest TSval).
    ts_recent: u32,
    bytes_acked_not_processed: u32,
    /// Earliest time the pacer allows the next segment.
    pacing_release: Time,
    /// The pacing gap of the last (payload, pacing rate): both change rarely.
    pacing_gap: TxTimeMemo,
    /// Bytes in flight once the current ACK's SACK blocks and cumulative ACK are applied.
    in_flight_at_ack: u64,
    pub stats: SenderStats,
}

impl TcpSender {
    pub fn new(cfg: TcpConfig, cca: Controller, app_bytes: Option<u64>) -> Self {
        let mut tcb = TcpState::new(cfg.mss, cfg.initial_cwnd_segs, cfg.initial_ssthresh);
        tcb.pacing = cfg.pacing;
        tcb.max_pacing_rate_bps = cfg.max_pacing_rate_bps.unwrap_or(u64::MAX);
        tcb.last_acked_seq = ISS + 1;
        tcb.next_tx_seq = ISS + 1;
        tcb.high_tx_mark = ISS + 1;
        tcb.bytes_in_flight = 0;
        let sb = Scoreboard::new(cfg.dupack_threshold)
            .with_ns3_sacked_retx_in_flight(cfg.ns3_sacked_retx_in_flight)
            .with_rule1_below_highest_sack(cfg.nextseg_rule_1b)
            .with_guessed_sacks(!cfg.sack);
        let caps = cca.capabilities();
        TcpSender {
            tcb,
            caps,
            phase: Phase::Idle,
            app: BulkSendApp::new(ISS + 1, app_bytes, cfg.app_write_chunk, cfg.snd_buf),
            rate: caps.full_control.then(|| {
                RateEstimator::new(cfg.ns3_rate_sample_persists, cfg.ns3_33_rate_ack_elapsed)
            }),
            sampled_last_ack: false,
            burst: caps.burst_mode.then(BurstState::default),
            cca,
            sb,
            rtt: RttEstimator::default(),
            history: RttHistory::default(),
            last_ack_rtt_sample: None,
            recovery: Recovery::new(cfg.recovery, cfg.ns3_prr_quirks),
            episode: Episode::None,
            forced: Forced::default(),
            undo: Undo::default(),
            reno_delivered: 0,
            sent_in_ack: None,
            dupacks: 0,
            rwnd: cfg.rcv_buf,
            rto: cfg.initial_rto.max(cfg.min_rto),
            rto_deadline: None,
            ts_recent: 0,
            bytes_acked_not_processed: 0,
            pacing_release: Time::ZERO,
            pacing_gap: TxTimeMemo::default(),
            in_flight_at_ack: 0,
            stats: SenderStats::default(),
            cfg,
        }
    }

    /// One line of internal state, for debugging.
    pub fn debug_line(&self) -> String {
        format!(
            "cwnd={} ssth={} srtt={:?} una={} next={} high={} rwnd={} out={} sacked={} lost={} pipe={} rto_at={:?} episode={:?} dupacks={} state={:?}",
            self.tcb.cwnd, self.tcb.ssthresh, self.tcb.srtt, self.tcb.last_acked_seq, self.tcb.next_tx_seq, self.tcb.high_tx_mark, self.rwnd,
            self.sb.outstanding_bytes(), self.sb.sacked_bytes(), self.sb.lost_bytes(),
            self.sb.bytes_in_flight(), self.rto_deadline, self.episode, self.dupacks, self.tcb.cong_state
        )
    }

    /// The application writes `bytes` more (rate-limited or on/off sources). A sender created
    /// with `app_bytes = None` is an unlimited bulk source and ignores writes.
    pub fn write(&mut self, bytes: u64) {
        if self.app.write(bytes) && self.phase.is_established() {
            self.app_write(self.tcb.bytes_in_flight as u64);
        }
    }

    /// Bytes the application has written so far (`None` for an unlimited bulk source).
    pub fn written_bytes(&self) -> Option<u64> {
        self.app.total()
    }

    /// The delivery-rate estimator's connection is app-limited (ns-3 `m_appLimited` ≠ 0):
    /// samples taken until that data is delivered are marked app-limited.
    pub fn is_app_limited(&self) -> bool {
        self.rate.as_ref().is_some_and(|r| r.conn.app_limited != 0)
    }

    /// Delivery rate of the last ACK's rate sample (bit/s; 0 without a rate estimator or
    /// a valid sample).
    pub fn last_delivery_rate_bps(&self) -> u64 {
        self.rate.as_ref().map_or(0, |r| r.sample.delivery_rate_bps)
    }

    /// The rate sample the last segment produced, if it was an ACK that the full-control
    /// algorithm saw (for traces; `None` without a rate estimator).
    pub fn rate_sample_of_last_ack(&self) -> Option<&ccsim_cca::RateSample> {
        self.rate
            .as_ref()
            .filter(|_| self.sampled_last_ack)
            .map(|r| &r.sample)
    }

    pub fn cca_name(&self) -> &'static str {
        self.cca.name()
    }

    /// Bytes acknowledged by the peer (application data only).
    pub fn acked_bytes(&self) -> u64 {
        self.tcb.last_acked_seq - (ISS + 1)
    }

    /// True once every application byte has been acknowledged.
    pub fn is_complete(&self) -> bool {
        self.app.total().is_some_and(|n| self.acked_bytes() >= n)
    }

    pub fn has_failed(&self) -> bool {
        self.phase == Phase::Failed
    }

    pub fn srtt(&self) -> Option<Time> {
        self.rtt.srtt()
    }

    pub fn rto(&self) -> Time {
        self.rto
    }

    /// RTT sample of the last ACK processed, if it advanced SND.UNA (ms-quantised when the
    /// timestamp clock is 1 ms, as in ns-3).
    pub fn take_rtt_sample(&mut self) -> Option<Time> {
        self.last_ack_rtt_sample.take()
    }

    /// Processes a segment from the peer (SYN-ACK or ACK).
    pub fn on_segment(&mut self, now: Time, seg: &TcpSegment) {
        self.tcb.now = now;
        self.sampled_last_ack = false;
        if seg.timestamps {
            self.ts_recent = seg.ts_val;
        }
        if seg.flags.has(ccsim_net::TcpFlags::ACK) {
            if self.phase.is_established() {
                if seg.flags.has(ccsim_net::TcpFlags::SYN) {
                    // ns-3 `ProcessEstablished`: a repeated SYN-ACK (the peer's timer fired
                    // before our handshake ACK reached it) needs no action.
                    return;
                }
                self.on_ack(now, seg);
            } else {
                self.on_handshake_segment(now, seg);
            }
        }
    }

    /// Timer expiry: the algorithm's own timer, the burst timer, then the RTO (or SYN
    /// retransmission); pacing releases need no action here.
    pub fn on_timer(&mut self, now: Time) {
        self.tcb.now = now;
        if let Some(t) = self.cca.next_timer() {
            if t <= now {
                self.cca.on_timer(&mut self.tcb);
            }
        }
        self.on_burst_timer(now);
        match self.rto_deadline {
            Some(deadline) if deadline <= now => {}
            _ => return,
        }
        self.rto_deadline = None;
        if self.phase.is_established() {
            self.on_rto(now);
        } else {
            self.on_syn_timeout();
        }
    }

    /// Next time this sender needs `on_timer` (RTO, pacing release or the algorithm's own).
    pub fn next_timer(&self) -> Option<Time> {
        let mut t = self.rto_deadline;
        if let Some(d) = self.burst.as_ref().and_then(|b| b.deadline) {
            t = Some(t.map_or(d, |x| x.min(d)));
        }
        if let Some(c) = self.cca.next_timer() {
            t = Some(t.map_or(c, |x| x.min(c)));
        }
        if self.tcb.pacing && self.pacing_release > self.tcb.now {
            t = Some(t.map_or(self.pacing_release, |x| x.min(self.pacing_release)));
        }
        t
    }

    /// The next segment to put on the wire now, if the window, pacing and data allow one.
    /// The owner calls it until it returns `None`; that ends one transmission attempt.
    pub fn poll_transmit(&mut self, now: Time) -> Option<TcpSegment> {
        if let Some(ack) = self.take_handshake_ack(now) {
            return Some(ack); // not data: no window, RTO or burst accounting
        }
        // Tested before `take()`: taking moves the whole ~120-byte option on every poll.
        if self.sent_in_ack.is_some() {
            let seg = self.sent_in_ack.take();
            self.after_burst_poll(now, seg.as_ref());
            return seg;
        }
        if self.burst.is_some() {
            return self.poll_burst(now);
        }
        self.poll_data(now)
    }

    fn refresh_in_flight(&mut self) {
        self.tcb.bytes_in_flight = self.sb.bytes_in_flight().min(u32::MAX as u64) as u32;
    }

    /// Changes the congestion state, telling the algorithm first (ns-3 `CongestionStateSet`).
    fn set_state(&mut self, state: CongState) {
        self.cca.congestion_state_set(&mut self.tcb, state);
        self.tcb.cong_state = state;
    }

    /// The application's write when the socket tells it there is room (ns-3 `NotifySend`,
    /// from `NewAck` and from `SendPendingData`). Each `TcpSocketBase::Send` runs
    /// `TcpRateLinux::CalculateAppLimited`, which marks the flow app-limited when less than a
    /// segment is left to send past SND.NXT, cwnd has room and every lost segment has been
    /// retransmitted. A flow limited by its send buffer is therefore app-limited in ns-3, and
    /// BBR keeps those samples out of its full-pipe check.
    fn app_write(&mut self, in_flight: u64) {
        let Some(first_chunk_end) = self.app.notify_send(self.tcb.last_acked_seq, self.tcb.mss)
        else {
            return;
        };
        if first_chunk_end.saturating_sub(self.tcb.next_tx_seq) < self.tcb.mss as u64
            && in_flight < self.tcb.cwnd as u64
            && self.sb.lost_bytes() <= self.sb.retransmitted_bytes()
        {
            if let Some(r) = self.rate.as_mut() {
                r.on_app_limited(in_flight);
            }
        }
    }

    /// End of the data in the send buffer.
    fn buffered_end(&self) -> u64 {
        self.app.buffered_end(self.tcb.last_acked_seq, self.tcb.mss)
    }
}
