//! The data sender of one TCP connection (ns-3 `TcpSocketBase` on the sending side).
//!
//! Input: ACK segments (`on_segment`) and timer expiries (`on_timer`), each with `now`.
//! Output: segments pulled by the owner with `poll_transmit` until it returns `None`, and the
//! next timer deadline from `next_timer`. No allocation per segment: the scoreboard ring
//! buffer grows to the largest window once and is then reused.
//!
//! Call order toward the congestion control follows ns-3.44 `TcpSocketBase::ProcessAck`,
//! `DupAck`, `EnterRecovery` and `ReTxTimeout` (ns-3 passes the smoothed RTT to `PktsAcked`).

use crate::config::TcpConfig;
use crate::rate::RateEstimator;
use crate::recovery::Recovery;
use crate::rtt::RttEstimator;
use crate::scoreboard::Scoreboard;
use ccsim_cca::{CaEvent, CongState, Controller, RecoveryPolicy, TcpState};
use ccsim_core::Time;
use ccsim_net::{TcpFlags, TcpSegment};

/// Initial sequence number of the SYN; data starts at `ISS + 1`.
const ISS: u64 = 0;
/// SYN retransmissions before giving up (ns-3 `SynRetries`).
const SYN_RETRIES: u32 = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for the application start time.
    Idle,
    /// SYN sent (or due), waiting for SYN-ACK.
    SynSent,
    Established,
    /// Connection gave up (SYN retries exhausted).
    Failed,
}

/// Counters of one sender, for the flow's summary.
#[derive(Clone, Debug, Default)]
pub struct SenderStats {
    pub tx_segments: u64,
    pub tx_bytes: u64,
    pub retx_segments: u64,
    pub retx_bytes: u64,
    pub rto_count: u64,
    pub fast_recoveries: u64,
}

/// Burst-mode bookkeeping (TCP Wave's TxTime timer; `ccsim_cca::wave` module docs, steps 2–3).
#[derive(Clone, Debug, Default)]
struct BurstState {
    /// Next burst-timer expiry, once armed.
    deadline: Option<Time>,
    /// Segments sent in the current transmission attempt.
    sent_in_attempt: u32,
    /// The current attempt follows a timer expiry: report it even if it sends nothing, then
    /// re-arm the timer.
    after_expiry: bool,
}

pub struct TcpSender {
    cfg: TcpConfig,
    pub tcb: TcpState,
    cca: Controller,
    /// The algorithm sets cwnd and pacing itself from rate samples (ns-3 `HasCongControl`, BBR):
    /// `pkts_acked`/`increase_window` and the recovery window rules are skipped.
    full_control: bool,
    /// How the algorithm wants loss recovery run (NewReno, Reno, Tahoe).
    policy: RecoveryPolicy,
    /// Delivery-rate samples, kept for full-control algorithms.
    rate: Option<RateEstimator>,
    /// Burst mode (TCP Wave): a self-managed timer releases bursts; see [`BurstState`].
    burst: Option<BurstState>,
    sb: Scoreboard,
    rtt: RttEstimator,
    recovery: Recovery,
    phase: Phase,
    /// Bytes the application will ever write (None = unlimited bulk).
    app_bytes: Option<u64>,
    /// Peer's advertised window.
    rwnd: u64,
    rto: Time,
    rto_deadline: Option<Time>,
    syn_due: bool,
    /// The pure ACK that completes the three-way handshake is due (ns-3 `ProcessSynSent`
    /// sends it before any data; Linux too when no data is queued at SYN-ACK time).
    handshake_ack_due: bool,
    syn_tries: u32,
    syn_sent_at: Time,
    /// Timestamp to echo back (peer's latest TSval).
    ts_recent: u32,
    dupacks: u32,
    /// Duplicate ACKs in Disorder that each let one new segment out without SACK (RFC 3042
    /// limited transmit; ns-3.44 `AddRenoSack`). With SACK the SACKed bytes leave the pipe.
    limited_transmit_segments: u32,
    /// RFC 6582 / RFC 6675 RecoveryPoint.
    recover: u64,
    recover_active: bool,
    /// Retransmit the head at once, bypassing cwnd (fast retransmit / partial ACK).
    force_head_retx: bool,
    /// Send NextSeg's choice at once, bypassing cwnd (ns-3.44 `DoRetransmit` on a partial ACK).
    force_next_seg: bool,
    /// A forced retransmission already accounted as sent during ACK processing
    /// (`ns3_retransmit_before_cong_control`); `poll_transmit` hands it out first.
    sent_in_ack: Option<TcpSegment>,
    /// The next partial ACK is the first of this recovery episode (ns-3 `m_isFirstPartialAck`).
    first_partial_ack: bool,
    bytes_acked_not_processed: u32,
    /// Earliest time the pacer allows the next segment.
    pacing_release: Time,
    /// Bytes in flight once the current ACK's SACK blocks and cumulative ACK are applied.
    in_flight_at_ack: u64,
    /// A partial ACK's application write waits for the forced retransmission.
    app_write_after_forced: bool,
    /// The last segment received was an ACK that produced a rate sample.
    sampled_last_ack: bool,
    /// End of what the application has written into the send buffer, with
    /// `app_write_chunk` (ns-3's BulkSend writes only when the socket calls `NotifySend`).
    app_end: u64,
    /// RTT sample taken from the last ACK, if it gave one (for probes and rate samples).
    last_ack_rtt_sample: Option<Time>,
    /// RTT records of first transmissions, oldest first (ns-3 `m_history`).
    rtt_history: std::collections::VecDeque<RttRecord>,
    pub stats: SenderStats,
}

/// One first transmission, for RTT sampling (ns-3 `RttHistory`).
#[derive(Clone, Copy, Debug)]
struct RttRecord {
    seq: u64,
    end: u64,
    time: Time,
    /// Data inside it was retransmitted: no sample from it without timestamps (Karn).
    retx: bool,
}

impl TcpSender {
    pub fn new(cfg: TcpConfig, cca: Controller, app_bytes: Option<u64>) -> Self {
        let persistent_rate_sample = cfg.ns3_rate_sample_persists;
        let mut tcb = TcpState::new(cfg.mss, cfg.initial_cwnd_segs, cfg.initial_ssthresh);
        tcb.pacing = cfg.pacing;
        tcb.max_pacing_rate_bps = cfg.max_pacing_rate_bps.unwrap_or(u64::MAX);
        tcb.last_acked_seq = ISS + 1;
        tcb.next_tx_seq = ISS + 1;
        tcb.high_tx_mark = ISS + 1;
        tcb.bytes_in_flight = 0;
        let sb = Scoreboard::new(cfg.dupack_threshold)
            .with_ns3_sacked_retx_in_flight(cfg.ns3_sacked_retx_in_flight)
            .with_rule1_below_highest_sack(cfg.nextseg_rule_1b);
        let recovery = Recovery::new(cfg.recovery, cfg.ns3_prr_quirks);
        let rto = cfg.initial_rto.max(cfg.min_rto);
        let rwnd = cfg.rcv_buf;
        let full_control = cca.has_cong_control();
        let policy = cca.recovery_policy();
        TcpSender {
            cfg,
            tcb,
            full_control,
            policy,
            rate: full_control.then(|| RateEstimator::new(persistent_rate_sample)),
            burst: cca.burst_ops().map(|_| BurstState::default()),
            cca,
            sb,
            rtt: RttEstimator::default(),
            recovery,
            phase: Phase::Idle,
            app_bytes,
            rwnd,
            rto,
            rto_deadline: None,
            syn_due: false,
            handshake_ack_due: false,
            syn_tries: 0,
            syn_sent_at: Time::ZERO,
            ts_recent: 0,
            dupacks: 0,
            limited_transmit_segments: 0,
            recover: 0,
            recover_active: false,
            force_head_retx: false,
            force_next_seg: false,
            sent_in_ack: None,
            first_partial_ack: true,
            bytes_acked_not_processed: 0,
            pacing_release: Time::ZERO,
            app_end: 0,
            in_flight_at_ack: 0,
            app_write_after_forced: false,
            sampled_last_ack: false,
            last_ack_rtt_sample: None,
            rtt_history: std::collections::VecDeque::new(),
            stats: SenderStats::default(),
        }
    }

    /// One line of internal state, for debugging.
    pub fn debug_line(&self) -> String {
        format!(
            "cwnd={} ssth={} srtt={:?} una={} next={} high={} rwnd={} out={} sacked={} lost={} pipe={} rto_at={:?} recover={} dupacks={} state={:?}",
            self.tcb.cwnd, self.tcb.ssthresh, self.tcb.srtt, self.tcb.last_acked_seq, self.tcb.next_tx_seq, self.tcb.high_tx_mark, self.rwnd,
            self.sb.outstanding_bytes(), self.sb.sacked_bytes(), self.sb.lost_bytes(),
            self.sb.bytes_in_flight(), self.rto_deadline, self.recover, self.dupacks, self.tcb.cong_state
        )
    }

    /// The application writes `bytes` more (rate-limited or on/off sources). A sender created
    /// with `app_bytes = None` is an unlimited bulk source and ignores writes.
    pub fn write(&mut self, bytes: u64) {
        if let Some(total) = self.app_bytes.as_mut() {
            *total += bytes;
            if self.phase == Phase::Established {
                self.app_write(self.tcb.bytes_in_flight as u64);
            }
        }
    }

    /// Bytes the application has written so far (`None` for an unlimited bulk source).
    pub fn written_bytes(&self) -> Option<u64> {
        self.app_bytes
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

    /// The application opens the connection: a SYN is due.
    pub fn start(&mut self, now: Time) {
        self.tcb.now = now;
        self.phase = Phase::SynSent;
        self.syn_due = true;
        // BulkSend fills the send buffer when the connection opens.
        self.app_end = self.writable_end(ISS + 1);
    }

    /// Bytes acknowledged by the peer (application data only).
    pub fn acked_bytes(&self) -> u64 {
        self.tcb.last_acked_seq - (ISS + 1)
    }

    /// True once every application byte has been acknowledged.
    pub fn is_complete(&self) -> bool {
        self.app_bytes.is_some_and(|n| self.acked_bytes() >= n)
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

    fn ts_now(&self, now: Time) -> u32 {
        (now.as_nanos() / self.cfg.ts_tick.as_nanos().max(1)) as u32
    }

    /// RTT from a timestamp echo (ns-3 `TcpOptionTS::ElapsedTimeFromTsValue`), whole ticks;
    /// a zero result becomes 1 µs as in ns-3 `EstimateRtt`.
    fn ts_elapsed(&self, now: Time, echo: u32) -> Time {
        let now_ticks = self.ts_now(now);
        let ticks = now_ticks.saturating_sub(echo) as u64;
        let t = Time(ticks * self.cfg.ts_tick.as_nanos());
        if t == Time::ZERO {
            Time::from_micros(1)
        } else {
            t
        }
    }

    fn app_limit_seq(&self) -> u64 {
        match self.app_bytes {
            Some(n) => ISS + 1 + n,
            None => u64::MAX,
        }
    }

    fn refresh_in_flight(&mut self) {
        self.tcb.bytes_in_flight = self.sb.bytes_in_flight().min(u32::MAX as u64) as u32;
    }

    fn set_state(&mut self, state: CongState) {
        if state != CongState::Disorder {
            self.limited_transmit_segments = 0;
        }
        self.cca.congestion_state_set(&mut self.tcb, state);
        self.tcb.cong_state = state;
    }

    /// A new ACK re-arms the timer with a fresh RTO from the estimator, which also drops any
    /// exponential backoff (ns-3 `TcpSocketBase::NewAck` with resetRTO; RFC 6298 §5.3).
    fn restart_rto(&mut self, now: Time) {
        self.update_rto_value();
        self.rto_deadline = if self.sb.is_empty() {
            None
        } else {
            Some(now + self.rto)
        };
    }

    fn update_rto_value(&mut self) {
        self.rto = self
            .rtt
            .rto(
                self.cfg.min_rto,
                self.cfg.clock_granularity,
                self.cfg.initial_rto,
            )
            .min(self.cfg.max_rto);
    }

    /// Processes a segment from the peer (SYN-ACK or ACK).
    pub fn on_segment(&mut self, now: Time, seg: &TcpSegment) {
        self.tcb.now = now;
        self.sampled_last_ack = false;
        if seg.timestamps {
            self.ts_recent = seg.ts_val;
        }
        match self.phase {
            Phase::SynSent if seg.flags.has(TcpFlags::SYN) && seg.flags.has(TcpFlags::ACK) => {
                self.on_syn_ack(now, seg)
            }
            Phase::Established if seg.flags.has(TcpFlags::ACK) => self.on_ack(now, seg),
            _ => {}
        }
    }

    fn on_syn_ack(&mut self, now: Time, seg: &TcpSegment) {
        self.phase = Phase::Established;
        self.syn_due = false;
        self.handshake_ack_due = true;
        self.rwnd = seg.window;
        // The SYN-ACK gives the first RTT measurement (unless the SYN was retransmitted).
        if self.syn_tries == 1 {
            let sample = if seg.timestamps && self.cfg.timestamps {
                self.ts_elapsed(now, seg.ts_ecr)
            } else {
                now - self.syn_sent_at
            };
            self.rtt.sample(sample);
            self.tcb.srtt = self.rtt.srtt();
            self.tcb.last_rtt = Some(sample);
            self.tcb.min_rtt = Some(sample);
            // Reported with the flow's RTT samples, as ns-3's history holds the SYN.
            self.last_ack_rtt_sample = Some(sample);
        }
        self.update_rto_value();
        self.rto_deadline = None;
        self.cca.init(&mut self.tcb);
        // BulkSend fills the buffer once connected: its first write finds nothing in flight
        // and less than a segment to send, so the first flight is app-limited in ns-3.
        if self.cfg.app_write_chunk.is_some_and(|c| c < self.tcb.mss) {
            if let Some(r) = self.rate.as_mut() {
                r.on_app_limited(0);
            }
        }
    }

    fn on_ack(&mut self, now: Time, seg: &TcpSegment) {
        let ack = seg.ack;
        let old_una = self.tcb.last_acked_seq;
        if ack < old_una || ack > self.tcb.high_tx_mark {
            return; // stale, or acknowledges data never sent
        }
        self.rwnd = seg.window;
        self.last_ack_rtt_sample = None;
        let prior_in_flight = self.tcb.bytes_in_flight;
        let lost_before = self.sb.lost_bytes();
        let mut rate = self.rate.take();
        if let Some(r) = rate.as_mut() {
            r.begin_ack();
        }

        // RFC 6675 §5: update the scoreboard from the SACK blocks first.
        let newly_sacked = if self.cfg.sack && !seg.sack.is_empty() {
            self.sb
                .on_sack_with(seg.sack.as_slice(), |s| {
                    if let Some(r) = rate.as_mut() {
                        r.on_delivered(s, now)
                    }
                })
                .newly_sacked_bytes
        } else {
            0
        };

        // RTT sample, as ns-3.44 `EstimateRtt`: the sender keeps one record per *first*
        // transmission (a retransmission inside a record moves its end to the retransmission's
        // end) and drops them all on a timeout; an ACK gives one sample when it covers the
        // oldest record. With timestamps the sample is the echo, retransmitted or not (RFC
        // 7323 makes it unambiguous; the reference's mirror of `m_history`, verified against
        // ns-3's `LastRtt` trace, takes it so); without, the time since that first
        // transmission, unless it was retransmitted (Karn).
        {
            let sample = match self.rtt_history.front() {
                Some(h) if ack >= h.end => {
                    if self.cfg.timestamps && seg.timestamps {
                        Some(self.ts_elapsed(now, seg.ts_ecr))
                    } else {
                        (!h.retx).then(|| now - h.time)
                    }
                }
                _ => None,
            };
            while self.rtt_history.front().is_some_and(|h| h.end <= ack) {
                self.rtt_history.pop_front();
            }
            if let Some(sample) = sample {
                self.last_ack_rtt_sample = Some(sample);
                self.rtt.sample(sample);
                self.tcb.srtt = self.rtt.srtt();
                self.tcb.last_rtt = Some(sample);
                self.tcb.min_rtt = Some(self.tcb.min_rtt.map_or(sample, |m| m.min(sample)));
                self.update_rto_value();
            }
        }

        // ns-3 `ReceivedAck`: a partial ACK in recovery that covers retransmitted data is
        // "safe" for PRR.
        let safe_ack = ack > old_una
            && ack < self.recover
            && self.tcb.cong_state == CongState::Recovery
            && self.sb.retransmission_ends_at(ack);
        self.recovery.set_safe_ack(safe_ack);
        let (newly_acked, _) = self.sb.on_cumulative_ack_with(ack, |s| {
            if let Some(r) = rate.as_mut() {
                r.on_delivered(s, now)
            }
        });
        self.rate = rate;
        let delivered = newly_acked + newly_sacked;
        self.tcb.delivered += delivered;
        self.tcb.last_acked_seq = ack;
        self.refresh_in_flight();
        // ns-3.44 `ReceivedAck` updates bytes in flight after the SACK and cumulative ACK
        // are processed; an application write during `ProcessAck` sees this value.
        self.in_flight_at_ack = self.tcb.bytes_in_flight as u64;

        let is_dupack = if self.cfg.sack {
            newly_sacked > 0
        } else {
            ack == old_una && ack < self.tcb.high_tx_mark
        };
        self.tcb.last_acked_sacked_bytes = delivered.min(u32::MAX as u64) as u32;
        let old_dupacks = self.dupacks;
        if is_dupack {
            self.on_dupack(now, delivered);
        }
        if ack == old_una {
            if ack < self.tcb.high_tx_mark && self.tcb.cong_state != CongState::Loss {
                let srtt = self.srtt_or_zero();
                self.cc_pkts_acked(1, srtt);
            }
        } else {
            self.on_new_ack(now, ack, old_una, is_dupack, old_dupacks, delivered);
        }
        // ns-3.44 `ProcessAck` sends recovery's forced retransmission (`DoRetransmit`) before
        // `ReceivedAck` calls `CongControl`, which then sees it in bytes in flight.
        if self.cfg.ns3_retransmit_before_cong_control && self.sent_in_ack.is_none() {
            self.sent_in_ack = self.forced_segment(now);
        }
        if std::mem::take(&mut self.app_write_after_forced) {
            self.app_write(self.in_flight_at_ack);
        }
        // Full control (ns-3 `ReceivedAck`: GenerateSample, then CongControl) on every ACK.
        if let Some(r) = self.rate.as_mut() {
            let lost_now = self.sb.lost_bytes();
            let lost = lost_now.abs_diff(lost_before).min(u32::MAX as u64) as u32;
            r.generate(
                delivered.min(u32::MAX as u64) as u32,
                lost,
                prior_in_flight,
                self.tcb.min_rtt,
                self.last_ack_rtt_sample,
            );
            self.tcb.now = now;
            self.sampled_last_ack = true;
            self.cca.cong_control(&mut self.tcb, &r.conn, &r.sample);
        }
    }

    /// `PktsAcked`, skipped for full-control algorithms (ns-3 `HasCongControl`).
    fn cc_pkts_acked(&mut self, segments: u32, rtt: Time) {
        if !self.full_control {
            self.cca.pkts_acked(&mut self.tcb, segments, rtt);
        }
    }

    /// `IncreaseWindow`, skipped for full-control algorithms.
    fn cc_increase_window(&mut self, segments: u32) {
        if !self.full_control {
            self.cca.increase_window(&mut self.tcb, segments);
        }
    }

    fn srtt_or_zero(&self) -> Time {
        self.tcb.srtt.unwrap_or(Time::ZERO)
    }

    /// ns-3 `TcpSocketBase::DupAck` (RFC 6675 §5 steps 1–3, RFC 3042).
    fn on_dupack(&mut self, now: Time, delivered: u64) {
        if self.tcb.cong_state != CongState::Loss {
            self.dupacks += 1;
        }
        if self.tcb.cong_state == CongState::Open {
            self.set_state(CongState::Disorder);
        }
        match self.tcb.cong_state {
            CongState::Recovery if !self.full_control => {
                self.recovery.on_dupack(&mut self.tcb, delivered)
            }
            CongState::Disorder => {
                // RFC 6582 §3.2 step 2: no new recovery before SND.UNA passes `recover`
                // (Reno has no such guard).
                let may_recover = self.policy == RecoveryPolicy::Reno
                    || !self.recover_active
                    || self.tcb.last_acked_seq >= self.recover;
                if (self.dupacks >= self.cfg.dupack_threshold && may_recover)
                    || (self.cfg.sack && self.sb.head_is_lost() && may_recover)
                {
                    if self.policy == RecoveryPolicy::Tahoe {
                        // Tahoe: fast retransmit without fast recovery = an early timeout.
                        self.enter_loss(now, false);
                    } else {
                        self.enter_recovery(delivered);
                    }
                } else if !self.cfg.sack && self.cfg.limited_transmit {
                    // RFC 3042 limited transmit without SACK: each duplicate ACK counts one
                    // segment as gone, so one new segment may leave (ns-3.44 `DupAck`:
                    // `AddRenoSack` if `LimitedTransmit`). With SACK it needs no switch: the
                    // SACKed bytes have left the pipe, so cwnd − pipe allows new data (ns-3.44
                    // documents limited transmit as always on with SACK).
                    self.limited_transmit_segments += 1;
                }
            }
            _ => {}
        }
    }

    /// ns-3 `TcpSocketBase::EnterRecovery` (RFC 6675 §5 step 4).
    fn enter_recovery(&mut self, delivered: u64) {
        self.stats.fast_recoveries += 1;
        if !self.sb.head_is_lost() {
            self.sb.mark_head_lost();
        }
        self.recover = self.tcb.high_tx_mark;
        self.recover_active = true;
        self.set_state(CongState::Recovery);
        self.refresh_in_flight();
        let bif = if self.cfg.sack {
            self.tcb.bytes_in_flight
        } else {
            self.tcb.bytes_in_flight + self.tcb.mss
        };
        self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, bif);
        let flight = self.tcb.high_tx_mark - self.tcb.last_acked_seq;
        if !self.full_control {
            self.recovery.enter(&mut self.tcb, flight, delivered);
        }
        // (4.3) Retransmit the first segment presumed dropped, whatever the window says.
        self.force_head_retx = true;
    }

    /// A cumulative ACK that advances SND.UNA (ns-3 `ProcessAck`, "ackNumber > oldHead").
    fn on_new_ack(
        &mut self,
        now: Time,
        ack: u64,
        old_una: u64,
        is_dupack: bool,
        old_dupacks: u32,
        delivered: u64,
    ) {
        let mss = self.tcb.mss;
        // Segments for the window rules count what this ACK newly delivered (cumulatively
        // ACKed bytes not SACKed before, plus newly SACKed ones), not SND.UNA's advance:
        // ns-3.44 `ProcessAck` ("Set segsAcked ... based on currentDelivered"), Linux
        // `tcp_ack`'s acked_sacked. They differ when the ACK covers SACKed data (after a loss).
        let bytes_acked = delivered;
        let mut segs_acked = (bytes_acked / mss as u64) as u32;
        self.bytes_acked_not_processed += (bytes_acked % mss as u64) as u32;
        if self.bytes_acked_not_processed >= mss {
            segs_acked += 1;
            self.bytes_acked_not_processed -= mss;
        }
        if !is_dupack {
            self.dupacks = 0;
        }
        let srtt = self.srtt_or_zero();
        let state = self.tcb.cong_state;
        // Reno (RFC 5681 §3.2 step 6) leaves recovery on the first new ACK, partial or not.
        let partial = ack < self.recover && self.policy != RecoveryPolicy::Reno;
        if state == CongState::Recovery && partial {
            // Partial ACK (RFC 6582 §3.2 step 3, RFC 6675 (B)).
            if segs_acked >= 1 && !self.full_control {
                self.recovery.on_ack(&mut self.tcb, delivered);
            }
            if self.cfg.ns3_partial_ack_retransmit {
                // ns-3.44 `ProcessAck`: without SACK the head is marked lost; then
                // `DoRetransmit` sends whatever NextSeg picks — the first lost segment not yet
                // retransmitted, else new data, else the head — regardless of cwnd. (Seen in
                // its NS_LOG: "Retransmitting <SND.NXT>" on a partial ACK whose head is
                // neither lost nor SACKed above.)
                if !self.cfg.sack {
                    self.sb.mark_head_lost();
                }
                self.refresh_in_flight();
                // "If the packet is already retransmitted do not retransmit it": no
                // `DoRetransmit` when an un-SACKed retransmission ends one MSS past the new
                // SND.UNA (`IsRetransmittedDataAcked(ack + MSS)`).
                if !self.sb.retransmission_ends_at(ack + mss as u64) {
                    self.force_next_seg = true;
                }
            } else if self.sb.head().is_some_and(|s| !s.retransmitted) {
                if !self.cfg.sack || !self.sb.head_is_lost() {
                    self.sb.mark_head_lost();
                    self.refresh_in_flight();
                }
                self.force_head_retx = true;
            }
            self.cc_pkts_acked(1, srtt);
            // `NewAck` (and so the application's write) comes after `DoRetransmit` here: the
            // forced retransmission cannot pick data written on this ACK.
            self.app_write_after_forced = true;
            // RFC 6582 §3.2 step 3 ("impatient" variant, as ns-3): only the first partial ACK
            // of an episode re-arms the retransmission timer.
            if self.first_partial_ack {
                self.first_partial_ack = false;
                self.restart_rto(now);
            }
        } else if state == CongState::Loss && ack < self.recover {
            self.cc_pkts_acked(segs_acked, srtt);
            self.cc_increase_window(segs_acked);
            self.app_write(self.in_flight_at_ack);
            self.restart_rto(now);
        } else {
            let mut exited_recovery = false;
            match state {
                CongState::Open => self.cc_pkts_acked(segs_acked, srtt),
                CongState::Disorder => {
                    // The dupACKs already went to PktsAcked one segment each.
                    if segs_acked >= old_dupacks {
                        self.cc_pkts_acked(segs_acked - old_dupacks, srtt);
                    }
                    if !is_dupack {
                        self.set_state(CongState::Open);
                    }
                }
                CongState::Recovery => {
                    // ns-3 recounts from SND.UNA's advance when recovery ends.
                    segs_acked = ((ack - old_una) / mss as u64) as u32;
                    self.cc_pkts_acked(segs_acked, srtt);
                    self.cca.cwnd_event(&mut self.tcb, CaEvent::CompleteCwr);
                    self.set_state(CongState::Open);
                    exited_recovery = true;
                    self.first_partial_ack = true;
                    self.dupacks = 0;
                }
                CongState::Loss => {
                    self.first_partial_ack = true;
                    segs_acked = (ack.saturating_sub(self.recover) / mss as u64) as u32;
                    self.cc_pkts_acked(segs_acked, srtt);
                    self.set_state(CongState::Open);
                }
                CongState::Cwr => self.cc_pkts_acked(segs_acked, srtt),
            }
            if ack >= self.recover {
                self.recover_active = false;
            }
            if exited_recovery
                && (!self.full_control || self.cfg.ns3_exit_recovery_for_cong_control)
            {
                self.recovery.exit(&mut self.tcb);
            }
            if self.tcb.cong_state == CongState::Open {
                self.cc_increase_window(segs_acked);
            }
            // ns-3.44 `ProcessAck` calls `NewAck` (which re-arms the timer) in every branch
            // but one: an ACK that advances SND.UNA while SACKing new data leaves the flow in
            // Disorder, and the timer keeps running from the earlier ACK.
            // `NewAck` is also where the application is told it may write more.
            if !(self.cfg.ns3_disorder_ack_keeps_rto && self.tcb.cong_state == CongState::Disorder)
            {
                self.app_write(self.in_flight_at_ack);
                self.restart_rto(now);
            }
        }
    }

    /// Timer expiry: RTO (or SYN retransmission); pacing releases need no action here.
    pub fn on_timer(&mut self, now: Time) {
        self.tcb.now = now;
        if let Some(t) = self.cca.next_timer() {
            if t <= now {
                self.cca.on_timer(&mut self.tcb);
            }
        }
        if let Some(b) = self.burst.as_mut() {
            if b.deadline.is_some_and(|d| d <= now) {
                b.deadline = None;
                b.after_expiry = true;
                b.sent_in_attempt = 0;
                if let Some(ops) = self.cca.burst_ops_mut() {
                    ops.on_burst_timer(&mut self.tcb);
                }
            }
        }
        match self.rto_deadline {
            Some(deadline) if deadline <= now => {}
            _ => return,
        }
        self.rto_deadline = None;
        match self.phase {
            Phase::SynSent => {
                if self.syn_tries > SYN_RETRIES {
                    self.phase = Phase::Failed;
                } else {
                    self.syn_due = true;
                }
            }
            Phase::Established => self.on_rto(now),
            _ => {}
        }
    }

    /// ns-3 `TcpSocketBase::ReTxTimeout` (RFC 6298 §5.4–5.6, RFC 6675 §5.1).
    fn on_rto(&mut self, now: Time) {
        if self.sb.is_empty() {
            return;
        }
        self.stats.rto_count += 1;
        // ns-3 `ReTxTimeout` clears the RTT history: no sample until new data is ACKed.
        self.rtt_history.clear();
        self.enter_loss(now, true);
    }

    /// Enters the Loss state: every unSACKed segment is lost and cwnd restarts from one
    /// segment. `timeout` distinguishes a real RTO (timer backed off, RFC 6298 §5.5) from
    /// Tahoe's fast retransmit, which is an early timeout (timer restarted, not doubled).
    /// Call order as ns-3.44 `ReTxTimeout`: GetSsThresh, CwndEvent(LOSS),
    /// CongestionStateSet(LOSS), then cwnd = 1 MSS (BBR saves the window in between).
    fn enter_loss(&mut self, now: Time, timeout: bool) {
        if !timeout {
            self.stats.fast_recoveries += 1;
        }
        let in_flight_before = self.tcb.bytes_in_flight;
        let head_retx = self.sb.head().is_some_and(|s| s.ever_retransmitted);
        self.sb.mark_all_lost();
        self.refresh_in_flight();
        // RFC 5681 §3.1 / Linux `tcp_enter_loss`: a repeated timeout of the same
        // retransmitted head keeps ssthresh. ns-3.44's `ReTxTimeout` asks
        // `IsHeadRetransmitted()` only after `SetSentListLost()` has cleared every
        // retransmitted mark, so it recomputes ssthresh on every timeout.
        let keep_ssthresh = self.tcb.cong_state == CongState::Loss
            && head_retx
            && !self.cfg.ns3_rto_always_resets_ssthresh;
        if !keep_ssthresh {
            self.tcb.ssthresh = self.cca.ssthresh(&self.tcb, in_flight_before);
        }
        self.cca.cwnd_event(&mut self.tcb, CaEvent::Loss);
        self.set_state(CongState::Loss);
        self.tcb.cwnd = self.tcb.mss;
        self.recover = self.tcb.high_tx_mark;
        self.recover_active = true;
        self.dupacks = 0;
        if timeout {
            self.rto = Time(self.rto.as_nanos().saturating_mul(2)).min(self.cfg.max_rto);
        } else {
            self.rto_deadline = Some(now + self.rto);
        }
        self.pacing_release = now;
        self.force_head_retx = true;
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
        if self.handshake_ack_due {
            // Not data: no window, RTO or burst accounting.
            self.handshake_ack_due = false;
            return Some(self.data_segment(now, ISS + 1, 0));
        }
        if let Some(seg) = self.sent_in_ack.take() {
            self.after_burst_poll(now, true);
            return Some(seg);
        }
        if let Some(b) = self.burst.as_ref() {
            // Burst mode: at most `send_quantum` segments per attempt, back to back.
            let quantum = self.cca.burst_ops().map_or(u32::MAX, |o| o.send_quantum());
            let seg = if b.sent_in_attempt < quantum {
                self.poll_transmit_inner(now)
            } else {
                None
            };
            self.after_burst_poll(now, seg.is_some());
            return seg;
        }
        self.poll_transmit_inner(now)
    }

    /// Burst-mode accounting around one `poll_transmit` (Wave module docs, steps 2–3).
    fn after_burst_poll(&mut self, now: Time, sent: bool) {
        let Some(b) = self.burst.as_mut() else { return };
        if sent {
            b.sent_in_attempt += 1;
            return;
        }
        if self.phase != Phase::Established {
            return;
        }
        let n = b.sent_in_attempt;
        let report = b.after_expiry || n > 0;
        let rearm = b.after_expiry || (b.deadline.is_none() && n > 0);
        b.after_expiry = false;
        b.sent_in_attempt = 0;
        if report {
            if let Some(ops) = self.cca.burst_ops_mut() {
                ops.on_burst_sent(&mut self.tcb, n);
            }
        }
        if rearm {
            let interval = self
                .cca
                .burst_ops()
                .map_or(Time::from_millis(200), |o| o.burst_interval());
            if let Some(b) = self.burst.as_mut() {
                b.deadline = Some(now + interval);
            }
        }
    }

    fn poll_transmit_inner(&mut self, now: Time) -> Option<TcpSegment> {
        self.tcb.now = now;
        match self.phase {
            Phase::SynSent if self.syn_due => return Some(self.make_syn(now)),
            Phase::Established => {}
            _ => return None,
        }
        // ns-3.44 (`tcp.ns3_pacing_timer`): the initial window is not paced
        // (`PaceInitialWindow` = false) and the retransmissions recovery forces out are sent
        // directly (`SendDataPacket`), not through the pacing check of `SendPendingData`.
        let iw_end = ISS + 1 + self.cfg.initial_cwnd_segs as u64 * self.tcb.mss as u64;
        let bypass = self.cfg.ns3_pacing_timer
            && (self.force_head_retx || self.force_next_seg || self.tcb.high_tx_mark < iw_end);
        if self.tcb.pacing && now < self.pacing_release && !bypass {
            return None;
        }
        let mss = self.tcb.mss;
        if let Some(seg) = self.forced_segment(now) {
            return Some(seg);
        }
        let window = (self.tcb.cwnd as u64).min(self.rwnd);
        let in_flight = self
            .sb
            .bytes_in_flight()
            .saturating_sub(self.limited_transmit_segments as u64 * mss as u64);
        let avail = window.saturating_sub(in_flight);
        // ns-3.44 semantics: the flow is cwnd-limited when cwnd has no room for another full
        // segment at the moment the sender stops (a receive-window or application limit is not).
        self.tcb.is_cwnd_limited = (self.tcb.cwnd as u64) < in_flight + mss as u64;
        // RFC 6675 NextSeg rule 1: lost segments first.
        if avail >= 1 {
            if let Some((seq, len)) = self.sb.next_lost() {
                if self.cfg.ns3_recut_retransmissions {
                    return self.pending_retransmission(now, seq, len, avail, in_flight);
                }
                if avail >= len as u64 || in_flight == 0 {
                    return Some(self.emit_retransmission(now, seq, len));
                }
                return None;
            }
        }
        // Rule 2: new data, within the send buffer and the receiver's window.
        let next = self.tcb.next_tx_seq;
        let limit = self.app_limit_seq();
        if next >= limit {
            // Nothing left to send while cwnd has room: samples are app-limited until this
            // data is delivered (ns-3 `TcpRateLinux::CalculateAppLimited`).
            if let Some(r) = self.rate.as_mut() {
                if in_flight < self.tcb.cwnd as u64 {
                    r.on_app_limited(in_flight);
                }
            }
            return self.rule3_retransmission(now, avail, in_flight);
        }
        let len = (limit - next).min(mss as u64) as u32;
        let outstanding = next - self.tcb.last_acked_seq;
        // The send buffer and, per RFC 793, the receiver's window [SND.UNA, SND.UNA + RCV.WND)
        // bound new data. Linux waits until a whole segment fits in both; ns-3.44 sends what
        // the buffer holds and (`TcpTxBuffer::NextSeg` rule 2) cuts the segment at
        // SND.UNA + RCV.WND, sending the part (docs/tcp-model.md).
        let (send_len, sws_len) = if self.cfg.strict_receive_window {
            if outstanding + len as u64 > self.cfg.snd_buf.max(mss as u64)
                || outstanding + len as u64 > self.rwnd.max(mss as u64)
            {
                return None;
            }
            (len, len)
        } else {
            let buffered = self.buffered_end();
            if next >= buffered {
                return self.rule3_retransmission(now, avail, in_flight);
            }
            let rwnd_end = self.tcb.last_acked_seq + self.rwnd;
            if next >= rwnd_end {
                return None;
            }
            let data = buffered - next;
            self.notify_send(data, avail, in_flight);
            let end = self.buffered_end().min(rwnd_end);
            // ns-3 sends less than a segment when that is all the buffer holds past
            // `next` (`TcpSocketBase::SendPendingData`, `SizeFromSequence`; no Nagle), and
            // never more than the window's room.
            let buffered_len = data.min(mss as u64) as u32;
            let send = (end - next).min(avail.max(buffered_len as u64));
            (len.min(send.min(u32::MAX as u64) as u32), buffered_len)
        };
        // Silly-window avoidance: wait until cwnd − pipe has room for a whole segment of the
        // data available (ns-3 `SendPendingData` checks this before NextSeg cuts the segment).
        if avail < sws_len as u64 {
            return None;
        }
        Some(self.emit_new(now, next, send_len))
    }

    /// The segment recovery forces out regardless of the window, if one is due: the fast
    /// retransmit / partial-ACK retransmission of the head, or NextSeg's choice.
    fn forced_segment(&mut self, now: Time) -> Option<TcpSegment> {
        if self.force_head_retx {
            self.force_head_retx = false;
            if let Some(head) = self.sb.head() {
                if !head.sacked {
                    let (seq, len) = (head.seq, head.len);
                    return Some(self.emit_retransmission(now, seq, self.forced_len(len)));
                }
            }
        }
        if self.force_next_seg {
            self.force_next_seg = false;
            return self.next_seg_outside_window(now);
        }
        None
    }

    /// The application's write when the socket tells it there is room (ns-3 `NotifySend`,
    /// from `NewAck` and from `SendPendingData`): BulkSend fills the buffer in
    /// `app_write_chunk`s, and each `TcpSocketBase::Send` runs
    /// `TcpRateLinux::CalculateAppLimited`, which marks the flow app-limited when less than a
    /// segment is left to send past SND.NXT, cwnd has room and every lost segment has been
    /// retransmitted. The first chunk is the one that can pass the first test. A flow
    /// limited by its send buffer is therefore app-limited in ns-3, and BBR keeps those
    /// samples out of its full-pipe check. Without `app_write_chunk` the buffer is always
    /// full and nothing happens here.
    fn app_write(&mut self, in_flight: u64) {
        let Some(chunk) = self.cfg.app_write_chunk else {
            return;
        };
        let new_end = self.writable_end(self.tcb.last_acked_seq);
        if new_end <= self.app_end {
            return; // no room for a whole chunk: nothing written
        }
        let tail = (self.app_end + chunk.max(1) as u64).min(new_end);
        self.app_end = new_end;
        if tail.saturating_sub(self.tcb.next_tx_seq) < self.tcb.mss as u64
            && in_flight < self.tcb.cwnd as u64
            && self.sb.lost_bytes() <= self.sb.retransmitted_bytes()
        {
            if let Some(r) = self.rate.as_mut() {
                r.on_app_limited(in_flight);
            }
        }
    }

    /// End of the data in the send buffer: what the application has written, at most
    /// `snd_buf` past SND.UNA, in whole `app_write_chunk`s (ns-3 `BulkSendApplication`).
    fn buffered_end(&self) -> u64 {
        if self.cfg.app_write_chunk.is_some() {
            self.app_end.max(ISS + 1)
        } else {
            self.writable_end(self.tcb.last_acked_seq)
        }
    }

    /// How far the application would fill the send buffer with SND.UNA at `una`.
    fn writable_end(&self, una: u64) -> u64 {
        let mut end = una + self.cfg.snd_buf.max(self.tcb.mss as u64);
        if let Some(chunk) = self.cfg.app_write_chunk {
            let chunk = chunk.max(1) as u64;
            end = ISS + 1 + (end - ISS - 1) / chunk * chunk;
        }
        self.app_limit_seq().min(end)
    }

    /// RFC 6675 NextSeg as ns-3.44 `DoRetransmit` uses it, with no window check: the first
    /// lost segment not yet retransmitted (rule 1), else one segment of new data if any is
    /// buffered and the sent bytes fit the receiver's window (rule 2), else the head.
    fn next_seg_outside_window(&mut self, now: Time) -> Option<TcpSegment> {
        if let Some((seq, len)) = self.sb.next_lost() {
            return Some(self.emit_retransmission(now, seq, self.forced_len(len)));
        }
        let next = self.tcb.next_tx_seq;
        let outstanding = next - self.tcb.last_acked_seq;
        let buffered = self.buffered_end();
        if next < buffered && outstanding <= self.rwnd {
            let len = (buffered - next)
                .min(self.tcb.mss as u64)
                .min(self.rwnd - outstanding)
                .max(1) as u32;
            return Some(self.emit_new(now, next, len));
        }
        let head = self.sb.head().filter(|h| !h.sacked)?;
        let (seq, len) = (head.seq, head.len);
        Some(self.emit_retransmission(now, seq, self.forced_len(len)))
    }

    /// RFC 6675 NextSeg rule 3, as ns-3.44 applies it in fast recovery with SACK when there
    /// is nothing lost to resend (rule 1) and no unsent data (rule 2): the first segment that
    /// is neither SACKed, lost nor retransmitted is resent (`tcp.nextseg_rule_3`). It matters
    /// for a flow limited by its send buffer, which runs out of new data in recovery.
    fn rule3_retransmission(
        &mut self,
        now: Time,
        avail: u64,
        in_flight: u64,
    ) -> Option<TcpSegment> {
        if !(self.cfg.nextseg_rule_3 && self.cfg.sack && self.tcb.cong_state == CongState::Recovery)
        {
            return None;
        }
        let (seq, len) = self.sb.first_unmarked()?;
        self.pending_retransmission(now, seq, len, avail, in_flight)
    }

    /// A retransmission of the segment `(seq, len)` as ns-3.44's `SendPendingData` sends one
    /// (NextSeg rules 1 and 3): the application may write first, the silly-window check
    /// compares the room with the data from `seq` on, and min(room, MSS) bytes are re-cut
    /// from `seq`.
    fn pending_retransmission(
        &mut self,
        now: Time,
        seq: u64,
        len: u32,
        avail: u64,
        in_flight: u64,
    ) -> Option<TcpSegment> {
        let mss = self.tcb.mss as u64;
        let data = self.buffered_end().saturating_sub(seq);
        self.notify_send(data, avail, in_flight);
        if avail < mss && data > avail && in_flight > 0 {
            return None;
        }
        let want = mss.min(avail.max(len as u64)) as u32;
        Some(self.emit_retransmission(now, seq, want))
    }

    /// `SendPendingData` asks the application for more data ("if there's less app data than
    /// the full window") once NextSeg has chosen a segment with `data` bytes buffered from it
    /// on: BulkSend writes if there is room.
    fn notify_send(&mut self, data: u64, avail: u64, in_flight: u64) {
        if data < avail {
            self.app_write(in_flight);
        }
    }

    /// Length asked for a retransmission forced out by recovery (`DoRetransmit` asks
    /// `SendDataPacket` for a whole segment).
    fn forced_len(&self, record_len: u32) -> u32 {
        if self.cfg.ns3_recut_retransmissions {
            self.tcb.mss
        } else {
            record_len
        }
    }

    fn make_syn(&mut self, now: Time) -> TcpSegment {
        self.syn_due = false;
        self.syn_tries += 1;
        self.syn_sent_at = now;
        // ns-3 `SendEmptyPacket`: SYN timeout = ConnTimeout (3 s) doubled per retry.
        let backoff = 1u64 << (self.syn_tries - 1).min(16);
        self.rto_deadline = Some(now + Time(Time::from_secs(3).as_nanos() * backoff));
        self.tcb.now = now;
        TcpSegment {
            flags: TcpFlags(TcpFlags::SYN),
            seq: ISS,
            ack: 0,
            payload: 0,
            window: self.cfg.rcv_buf,
            ts_val: self.ts_now(now),
            ts_ecr: 0,
            timestamps: self.cfg.timestamps,
            sack_permitted: self.cfg.sack,
            mss_option: self.cfg.syn_mss_option,
            wscale_option: self.cfg.window_scaling,
            ..Default::default()
        }
    }

    fn data_segment(&self, now: Time, seq: u64, len: u32) -> TcpSegment {
        TcpSegment {
            flags: TcpFlags(TcpFlags::ACK),
            seq,
            ack: 1,
            payload: len,
            window: self.cfg.rcv_buf,
            ts_val: self.ts_now(now),
            ts_ecr: self.ts_recent,
            timestamps: self.cfg.timestamps,
            ..Default::default()
        }
    }

    fn after_send(&mut self, now: Time, seg: &TcpSegment) {
        self.stats.tx_segments += 1;
        self.stats.tx_bytes += seg.payload as u64;
        if self.tcb.cong_state == CongState::Recovery {
            self.recovery.on_sent(seg.payload);
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rto);
        }
        self.refresh_in_flight();
        // Pacing (`tcb.pacing`: from the config, or switched on by the algorithm, e.g. BBR):
        // the next segment leaves one payload-size serialisation at the pacing rate later
        // (ns-3 `SendDataPacket`: `m_pacingRate.CalculateBytesTxTime(size)`).
        // ns-3 arms its pacing timer only when it has expired: a segment sent while it runs
        // (one that bypassed it, above) does not push the release time further.
        let timer_running = self.cfg.ns3_pacing_timer && self.pacing_release > now;
        if self.tcb.pacing && self.tcb.pacing_rate_bps > 0 && !timer_running {
            let bytes = seg.payload as u64;
            self.pacing_release = now + Time::tx_time(bytes, self.tcb.pacing_rate_bps);
        }
    }

    /// Delivery-rate bookkeeping of a (re)transmission (ns-3 `TcpRateOps::SkbSent`), and the
    /// TX_START event when sending resumes with nothing in flight.
    fn on_sent_rate(&mut self, now: Time, seq: u64, start_of_transmission: bool) {
        if start_of_transmission && self.full_control {
            self.cca.cwnd_event(&mut self.tcb, CaEvent::TxStart);
        }
        if let Some(r) = self.rate.as_mut() {
            let info = r.on_sent(now, start_of_transmission);
            if let Some(rec) = self.sb.record_mut(seq) {
                rec.rate = info;
            }
        }
    }

    fn emit_new(&mut self, now: Time, seq: u64, len: u32) -> TcpSegment {
        let seg = self.data_segment(now, seq, len);
        let idle = self.sb.bytes_in_flight() == 0;
        self.sb.on_new_segment(seq, len, now);
        self.rtt_history.push_back(RttRecord {
            seq,
            end: seq + len as u64,
            time: now,
            retx: false,
        });
        self.on_sent_rate(now, seq, idle);
        self.tcb.next_tx_seq = seq + len as u64;
        self.tcb.high_tx_mark = self.tcb.high_tx_mark.max(self.tcb.next_tx_seq);
        self.after_send(now, &seg);
        seg
    }

    /// Retransmits the segment at `seq`: `len` is its length, or with
    /// `ns3_recut_retransmissions` the length asked for (it is re-cut to that).
    fn emit_retransmission(&mut self, now: Time, seq: u64, len: u32) -> TcpSegment {
        let len = if self.cfg.ns3_recut_retransmissions {
            self.sb.recut(seq, len)
        } else {
            len
        };
        let mut seg = self.data_segment(now, seq, len);
        seg.retransmission = true;
        // ns-3 `SendDataPacket` asks `BytesInFlight() == 0` for every segment: after an RTO
        // (everything marked lost) the first retransmission restarts the rate sampler.
        let idle = self.cfg.ns3_recut_retransmissions && self.sb.bytes_in_flight() == 0;
        self.sb.on_retransmit(seq, now);
        // ns-3 `UpdateRttHistory`: the first record holding `seq` is marked and now ends
        // with this retransmission.
        if let Some(r) = self
            .rtt_history
            .iter_mut()
            .find(|r| r.seq <= seq && seq < r.end)
        {
            r.retx = true;
            r.end = seq + len as u64;
        }
        self.on_sent_rate(now, seq, idle);
        self.stats.retx_segments += 1;
        self.stats.retx_bytes += len as u64;
        self.after_send(now, &seg);
        seg
    }
}
