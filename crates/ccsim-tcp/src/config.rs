//! TCP parameters and their defaults.

use ccsim_core::Time;

/// Preset defaults. `Ns3` follows ns-3.44 `TcpSocket`/`TcpSocketBase` attribute defaults so that
/// results compare with the papers; `Linux` follows a current Linux kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpProfile {
    Ns3,
    Linux,
}

/// Loss recovery once three duplicate ACKs (or SACK loss detection) trigger fast retransmit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryAlgorithm {
    /// Proportional Rate Reduction, RFC 6937 (ns-3.44 default `TcpPrrRecovery`).
    Prr,
    /// Classic recovery (ns-3 `TcpClassicRecovery`): cwnd = ssthresh on entry, RFC 6582 / 6675.
    Classic,
}

/// Every TCP knob of a flow. Sizes in bytes.
#[derive(Clone, Debug)]
pub struct TcpConfig {
    /// Sender maximum segment size (payload bytes per segment).
    pub mss: u32,
    /// Initial congestion window, in segments.
    pub initial_cwnd_segs: u32,
    /// Initial slow-start threshold in bytes.
    pub initial_ssthresh: u32,
    /// Lower bound of the retransmission timeout (RFC 6298 (2.4) says 1 s; Linux uses 200 ms).
    pub min_rto: Time,
    /// RTO before any RTT sample (RFC 6298 (2.1)).
    pub initial_rto: Time,
    /// Upper bound of the backed-off RTO.
    pub max_rto: Time,
    /// Clock granularity G of RFC 6298 (2.3).
    pub clock_granularity: Time,
    /// Timestamp clock tick (RFC 7323): ns-3 uses 1 ms, so RTT samples are whole milliseconds.
    pub ts_tick: Time,
    /// Segments received before an ACK is sent (RFC 5681 §4.2 / ns-3 `DelAckCount`).
    pub delack_count: u32,
    /// Delayed-ACK timeout (ns-3 `DelAckTimeout`).
    pub delack_timeout: Time,
    pub sack: bool,
    pub timestamps: bool,
    /// RFC 3042 limited transmit without SACK: each duplicate ACK before fast retransmit
    /// counts one segment as gone, so one new segment may leave (ns-3.44 `LimitedTransmit`,
    /// `AddRenoSack`). With SACK it is always on: SACKed segments leave the pipe.
    pub limited_transmit: bool,
    /// Duplicate-ACK threshold (ns-3 `ReTxThreshold`).
    pub dupack_threshold: u32,
    pub recovery: RecoveryAlgorithm,
    /// Send buffer (ns-3 `SndBufSize`): caps unacknowledged plus unsent bytes.
    pub snd_buf: u64,
    /// Receive buffer (ns-3 `RcvBufSize`): caps the advertised window.
    pub rcv_buf: u64,
    /// Pace transmissions at `tcb.pacing_rate_bps` (ns-3 `EnablePacing`).
    pub pacing: bool,
    /// New data waits until a whole segment fits inside [SND.UNA, SND.UNA + RCV.WND) (RFC 793)
    /// and the send buffer, as Linux does. Off (`ns3` profile): ns-3.44 checks pipe against
    /// min(cwnd, rwnd) for a whole segment, then `NextSeg` cuts the segment at the window or
    /// buffer edge and sends the part.
    pub strict_receive_window: bool,
    /// Window scaling (RFC 7323 §2): the advertised window is sent in units of 2^shift bytes,
    /// with the shift derived from the receive buffer as ns-3 `CalculateWScale` does; SYN and
    /// SYN-ACK windows are never scaled (so at most 65535 bytes).
    pub window_scaling: bool,
    /// Reproduce ns-3.44's two PRR bugs: `prr_delivered × ssthresh` is a 32-bit unsigned
    /// product that wraps modulo 2^32 (ns-3 issue #1282), and every duplicate ACK adds one MSS
    /// to DeliveredData on top of the SACKed bytes (#1350), and RecoverFS is the pipe rather
    /// than FlightSize (#1351); all fixed after 3.44. On by
    /// default in the `ns3` profile; see [`crate::recovery`].
    pub ns3_prr_quirks: bool,
    /// Put an MSS option on SYN and SYN-ACK. ns-3.44's `TcpSocketBase` never adds one (its
    /// SYN-ACK header is 36 bytes: timestamps, window scale, SACK-permitted); Linux does.
    pub syn_mss_option: bool,
    /// Reproduce ns-3.44's pipe accounting of a retransmission that gets SACKed: it stays
    /// counted in flight until cumulatively ACKed (ns-3 issue #1190, fixed after 3.44).
    pub ns3_sacked_retx_in_flight: bool,
    /// The advertised window is the receive buffer minus the out-of-order bytes held (Linux
    /// accounts them against the buffer). ns-3.44 advertises the whole buffer regardless.
    pub rwnd_counts_out_of_order: bool,
    /// On a partial ACK in recovery, do what ns-3.44 `TcpSocketBase::ProcessAck` does (without
    /// SACK it first marks the head lost), then send NextSeg's choice at once, outside cwnd — the first lost segment not yet retransmitted,
    /// else new data, else the head (`DoRetransmit`). Off: RFC 6582/6675, retransmit the head
    /// if it has not been retransmitted yet.
    pub ns3_partial_ack_retransmit: bool,
    /// RFC 6675 NextSeg rule (1.b), as ns-3.44 `TcpTxBuffer::NextSeg` applies it: a lost
    /// segment is retransmitted only if it lies below the highest SACKed segment; lost
    /// segments above it (marked by a timeout) wait while new data goes first. Linux retransmits
    /// every segment marked lost after a timeout, so the `linux` profile turns this off.
    /// The bound applies to rule 3's candidate too ([`Self::nextseg_rule_3`]). Off is also
    /// ns-3.33's `NextSeg` (tcp-tx-buffer.cc l. 968-1071 of the ns3-mmwave tree), which checks
    /// (1.b) in neither rule: in recovery with no new data its rule 3 resends segments still in
    /// flight above the highest SACK, one per SACKed segment (`tests/ns3_33_nextseg.rs`).
    pub nextseg_rule_1b: bool,
    /// Recompute ssthresh on every timeout, as ns-3.44 `ReTxTimeout` does in effect (its
    /// `IsHeadRetransmitted()` test runs after `SetSentListLost()` cleared the marks). Off
    /// (Linux `tcp_enter_loss`): only a new reduction recomputes it; a timeout inside fast
    /// recovery, or one repeating with SND.UNA unmoved, keeps ssthresh.
    pub ns3_rto_always_resets_ssthresh: bool,
    /// Keep the delivery-rate sample's prior across ACKs, as ns-3.44 `TcpRateLinux` does with
    /// its single `m_rateSample`; Linux builds each ACK's sample afresh.
    pub ns3_rate_sample_persists: bool,
    /// Pace as ns-3.44 does: the initial window leaves unpaced (`PaceInitialWindow` defaults
    /// to false), the pacing timer is armed only when it has expired, and retransmissions
    /// forced by recovery are sent outside it. Off: every segment waits for the pacing release.
    pub ns3_pacing_timer: bool,
    /// Send the retransmission that recovery forces (fast retransmit on entering recovery, or
    /// `DoRetransmit` on a partial ACK) inside ACK processing, before the full-control hook
    /// (`CongControl`) runs, as ns-3.44 `ProcessAck` does; BBR then counts it in bytes in
    /// flight. Linux sends it after `cong_control` (`tcp_xmit_recovery` ends `tcp_ack`).
    pub ns3_retransmit_before_cong_control: bool,
    /// Leaving fast recovery sets cwnd = ssthresh (`TcpPrrRecovery::ExitRecovery`) for
    /// full-control algorithms too, as ns-3.44 `ProcessAck` does. BBR never lowers ssthresh,
    /// so its cwnd becomes 2^32 − 1 until its own `SetCwnd` changes it (in STARTUP it may not,
    /// and the flow is paced only). Linux's `tcp_end_cwnd_reduction` skips `cong_control`
    /// algorithms.
    pub ns3_exit_recovery_for_cong_control: bool,
    /// An ACK that advances SND.UNA but leaves the flow in Disorder (it also SACKs new data)
    /// does not re-arm the retransmission timer, as in ns-3.44 `ProcessAck` (no `NewAck` on
    /// that branch). RFC 6298 (5.3) and Linux re-arm it on any ACK of new data.
    pub ns3_disorder_ack_keeps_rto: bool,
    /// The application fills the send buffer in chunks of this many bytes, whenever that
    /// much room is free (ns-3 `BulkSendApplication` `SendSize`, 512 B), so the buffer ends on
    /// a chunk boundary. `None`: it is kept full to the byte.
    pub app_write_chunk: Option<u32>,
    /// Upper bound of the pacing rate (bit/s): ns-3's `TcpSocketState::MaxPacingRate`, 4 Gb/s
    /// by default, caps BBR's pacing too. `None`: no cap (Linux `sk_max_pacing_rate`
    /// unlimited).
    pub max_pacing_rate_bps: Option<u64>,
    /// A retransmission is cut to a whole segment from where it starts: a segment shorter
    /// than the MSS (the send buffer's edge) absorbs the start of the next one when both are
    /// unSACKed and equally marked lost, as ns-3.44's `TcpTxBuffer::GetTransmittedSegment`
    /// does. Also as ns-3's `SendDataPacket`: a retransmission sent with nothing in flight
    /// (the first after a timeout) restarts the delivery-rate sampler. Off: the original
    /// segment is resent as it was, and only new data restarts the sampler.
    pub ns3_recut_retransmissions: bool,
    /// RFC 6675 NextSeg rule 3 in fast recovery with SACK (ns-3.44 `TcpTxBuffer::NextSeg`):
    /// with nothing lost left to resend and no unsent data, resend the first segment that is
    /// neither SACKed, lost nor retransmitted, below the highest SACK unless
    /// [`Self::nextseg_rule_1b`] is off. Linux has no such rule.
    pub nextseg_rule_3: bool,
    /// Without SACK, duplicate ACKs for exactly the recovery point (SND.UNA = `recover`) may
    /// start a new fast recovery, as ns-3.44 `DupAck` allows (`m_highRxAckMark >= m_recover`).
    /// Off: Linux holds the old state until something *above* `high_seq` is ACKed
    /// (`tcp_try_undo_recovery`: "For Reno it is MUST to prevent false fast retransmits"),
    /// RFC 6582 §3.2 step 2 ("more than recover"): the duplicates a go-back-N resent produce
    /// are not a new loss.
    pub ns3_dupacks_at_recover_restart: bool,
    /// F-RTO (RFC 5682) as Linux 4.14 runs it by default (`net.ipv4.tcp_frto = 2`, SACK or
    /// not; `tcp_enter_loss`, `tcp_process_loss`, `tcp_xmit_recovery`), armed by a timeout
    /// outside recovery or one that repeats with SND.UNA unmoved: the first ACK that advances
    /// SND.UNA sends new data instead of retransmitting (step 2.b); an ACK of a
    /// never-retransmitted segment below the recovery point then undoes the timeout (step
    /// 3.b: loss marks cleared, cwnd and ssthresh restored, Open); a duplicate ACK proves the
    /// loss real (3.a). Off: every timeout is a plain go-back-N (ns-3.44).
    pub frto: bool,
    /// Without SACK, count the segments a duplicate ACK or a cumulative ACK delivers as Linux
    /// does (`tcp_add_reno_sack`: one per duplicate ACK that adds a guessed SACK;
    /// `tcp_remove_reno_sacks`: `max(acked − guessed, 1)` per cumulative ACK, the rest were
    /// counted by the duplicates): what `rs.acked_sacked` (full-control algorithms, TCP Wave)
    /// and PRR's DeliveredData see. Off: a duplicate ACK delivers nothing and a cumulative ACK
    /// everything it covers (ns-3.44, whose `AddRenoSack` tells no rate sample).
    pub reno_sack_delivered: bool,
    /// ns-3.33's ACK interval of a delivery-rate sample (with `ns3_rate_sample_persists`):
    /// measured from the *previous* sample's prior time, before it is replaced
    /// (`TcpRateLinux::SkbDelivered`, tcp-rate-ops.cc l. 181 of the seed 002 authors' tree).
    /// A sample invalidated for an interval below the minimum RTT zeroes that prior time
    /// (l. 116), so the next sample's interval is the whole time since the start of the run:
    /// a rate of a few kb/s that BBR takes as its bandwidth. Off: from the delivered segment's
    /// own time, as ns-3.44 and Linux (`tcp_rate_gen`).
    pub ns3_33_rate_ack_elapsed: bool,
}

impl TcpConfig {
    pub fn profile(profile: TcpProfile) -> Self {
        match profile {
            TcpProfile::Ns3 => TcpConfig {
                mss: 536,
                initial_cwnd_segs: 10,
                initial_ssthresh: u32::MAX,
                min_rto: Time::from_secs(1),
                initial_rto: Time::from_secs(1),
                max_rto: Time::from_secs(60),
                clock_granularity: Time::from_millis(1),
                ts_tick: Time::from_millis(1),
                delack_count: 2,
                delack_timeout: Time::from_millis(200),
                sack: true,
                timestamps: true,
                limited_transmit: true,
                dupack_threshold: 3,
                recovery: RecoveryAlgorithm::Prr,
                snd_buf: 131_072,
                rcv_buf: 131_072,
                pacing: false,
                strict_receive_window: false,
                window_scaling: true,
                ns3_prr_quirks: true,
                syn_mss_option: false,
                ns3_sacked_retx_in_flight: true,
                rwnd_counts_out_of_order: false,
                ns3_partial_ack_retransmit: true,
                nextseg_rule_1b: true,
                ns3_rto_always_resets_ssthresh: true,
                ns3_rate_sample_persists: true,
                ns3_pacing_timer: true,
                ns3_retransmit_before_cong_control: true,
                ns3_exit_recovery_for_cong_control: true,
                ns3_disorder_ack_keeps_rto: true,
                app_write_chunk: Some(512),
                max_pacing_rate_bps: Some(4_000_000_000),
                ns3_recut_retransmissions: true,
                nextseg_rule_3: true,
                ns3_dupacks_at_recover_restart: true,
                frto: false,
                reno_sack_delivered: false,
                ns3_33_rate_ack_elapsed: false,
            },
            TcpProfile::Linux => TcpConfig {
                mss: 1448,
                initial_cwnd_segs: 10,
                initial_ssthresh: u32::MAX,
                min_rto: Time::from_millis(200),
                initial_rto: Time::from_secs(1),
                max_rto: Time::from_secs(120),
                clock_granularity: Time::from_millis(1),
                ts_tick: Time::from_millis(1),
                delack_count: 2,
                delack_timeout: Time::from_millis(40),
                sack: true,
                timestamps: true,
                limited_transmit: true,
                dupack_threshold: 3,
                recovery: RecoveryAlgorithm::Prr,
                snd_buf: 4 << 20,
                rcv_buf: 6 << 20,
                pacing: false,
                strict_receive_window: true,
                window_scaling: true,
                ns3_prr_quirks: false,
                syn_mss_option: true,
                ns3_sacked_retx_in_flight: false,
                rwnd_counts_out_of_order: true,
                ns3_partial_ack_retransmit: false,
                nextseg_rule_1b: false,
                ns3_rto_always_resets_ssthresh: false,
                ns3_rate_sample_persists: false,
                ns3_pacing_timer: false,
                ns3_retransmit_before_cong_control: false,
                ns3_exit_recovery_for_cong_control: false,
                ns3_disorder_ack_keeps_rto: false,
                app_write_chunk: None,
                max_pacing_rate_bps: None,
                ns3_recut_retransmissions: false,
                nextseg_rule_3: false,
                ns3_dupacks_at_recover_restart: false,
                frto: true,
                reno_sack_delivered: true,
                ns3_33_rate_ack_elapsed: false,
            },
        }
    }
}

impl Default for TcpConfig {
    fn default() -> Self {
        Self::profile(TcpProfile::Ns3)
    }
}
