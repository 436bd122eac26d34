//! The socket state shared between the TCP sender and its congestion-control algorithm
//! (ns-3 `TcpSocketState`, `src/internet/model/tcp-socket-state.h`).

use ccsim_core::Time;

/// Congestion states (ns-3 `TcpCongState_t`, Linux `tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CongState {
    Open = 0,
    Disorder = 1,
    Cwr = 2,
    Recovery = 3,
    Loss = 4,
}

impl CongState {
    pub fn code(self) -> u8 {
        self as u8
    }
    pub fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => CongState::Open,
            1 => CongState::Disorder,
            2 => CongState::Cwr,
            3 => CongState::Recovery,
            4 => CongState::Loss,
            _ => return None,
        })
    }
}

/// Congestion-avoidance events (ns-3 `TcpCAEvent_t`, Linux `tcp_ca_event`): the ones the
/// sender emits. ccsim has no ECN and no delayed-ACK or idle-restart signal toward the
/// algorithm, so `CA_EVENT_ECN_*`, `CA_EVENT_[NON_]DELAYED_ACK` and `CA_EVENT_CWND_RESTART`
/// are not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaEvent {
    /// Sending resumes with nothing in flight (full-control algorithms: BBR, Wave).
    TxStart,
    /// Fast recovery ends (`ProcessAck` on the full ACK).
    CompleteCwr,
    /// A retransmission timeout, or Tahoe's early timeout.
    Loss,
}

/// Socket state read and written by the algorithm. Sizes in bytes, times in ns.
#[derive(Clone, Debug)]
pub struct TcpState {
    /// Current simulated time; set by the owner before every hook call.
    pub now: Time,
    /// Congestion window (bytes).
    pub cwnd: u32,
    /// Slow-start threshold (bytes).
    pub ssthresh: u32,
    /// Initial congestion window (segments).
    pub initial_cwnd_segs: u32,
    /// Initial slow-start threshold (bytes).
    pub initial_ssthresh: u32,
    /// Sender maximum segment size (bytes).
    pub mss: u32,
    /// Highest cumulatively acknowledged sequence number (bytes).
    pub last_acked_seq: u64,
    /// Highest sequence number sent so far (bytes).
    pub high_tx_mark: u64,
    /// Next sequence number to send (bytes).
    pub next_tx_seq: u64,
    /// Bytes in flight (RFC 6675 pipe when SACK is on).
    pub bytes_in_flight: u32,
    /// Whether the last transmission opportunity was limited by cwnd (not the app or rwnd).
    pub is_cwnd_limited: bool,
    /// Congestion state.
    pub cong_state: CongState,
    /// Smoothed RTT (RFC 6298), if any sample has been taken.
    pub srtt: Option<Time>,
    /// Latest RTT sample.
    pub last_rtt: Option<Time>,
    /// Minimum RTT sample seen.
    pub min_rtt: Option<Time>,
    /// Pacing enabled for this socket.
    pub pacing: bool,
    /// Current pacing rate (bits/s); 0 when pacing is off.
    pub pacing_rate_bps: u64,
    /// Maximum pacing rate (bits/s).
    pub max_pacing_rate_bps: u64,
    /// Bytes delivered so far (for rate sampling).
    pub delivered: u64,
    /// Bytes newly acknowledged, cumulatively or by SACK, by the ACK being processed (ns-3
    /// `TcpSocketState::m_lastAckedSackedBytes`). Set by the sender before any hook for that ACK;
    /// read by BBR when it enters recovery.
    pub last_acked_sacked_bytes: u32,
}

impl TcpState {
    /// A fresh state as ns-3 sets it before `Init`: cwnd = initial window, ssthresh = initial.
    pub fn new(mss: u32, initial_cwnd_segs: u32, initial_ssthresh: u32) -> Self {
        TcpState {
            now: Time::ZERO,
            cwnd: initial_cwnd_segs * mss,
            ssthresh: initial_ssthresh,
            initial_cwnd_segs,
            initial_ssthresh,
            mss,
            last_acked_seq: 0,
            high_tx_mark: 0,
            next_tx_seq: 0,
            bytes_in_flight: 0,
            is_cwnd_limited: true,
            cong_state: CongState::Open,
            srtt: None,
            last_rtt: None,
            min_rtt: None,
            pacing: false,
            pacing_rate_bps: 0,
            max_pacing_rate_bps: u64::MAX,
            delivered: 0,
            last_acked_sacked_bytes: 0,
        }
    }

    /// ns-3 `TcpSocketState::GetCwndInSegments`.
    pub fn cwnd_segs(&self) -> u32 {
        self.cwnd / self.mss
    }

    /// ns-3 `TcpSocketState::GetSsThreshInSegments`.
    pub fn ssthresh_segs(&self) -> u32 {
        self.ssthresh / self.mss
    }

    /// Slow start while cwnd < ssthresh (ns-3 `TcpNewReno::IncreaseWindow`).
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// Per-connection delivery-rate state (ns-3 `TcpRateOps::TcpRateConnection`, field for field;
/// byte counts). BBR reads `delivered`.
#[derive(Clone, Debug, Default)]
pub struct RateConnection {
    /// Bytes delivered so far, cumulatively or by SACK (`m_delivered`).
    pub delivered: u64,
    /// Time `delivered` last changed (`m_deliveredTime`).
    pub delivered_time: Time,
    /// Send time of the packet that started the current sampling interval (`m_firstSentTime`).
    pub first_sent_time: Time,
    /// End of the current app-limited phase, as a `delivered` value; 0 when not app-limited
    /// (`m_appLimited`).
    pub app_limited: u64,
    pub rate_delivered: u64,
    pub rate_interval: Time,
    pub rate_app_limited: bool,
    pub tx_item_delivered: u64,
}

/// One delivery-rate sample (ns-3 `TcpRateOps::TcpRateSample`, field for field, plus `rtt`;
/// draft-cheng-iccrg-delivery-rate-estimation). Byte counts, as ns-3 (Linux counts packets).
#[derive(Clone, Debug, Default)]
pub struct RateSample {
    /// Delivery rate in bits/s (`m_deliveryRate`); 0 when no valid sample.
    pub delivery_rate_bps: u64,
    /// The sample was taken while the sender was application-limited (`m_isAppLimited`).
    pub is_app_limited: bool,
    /// Sampling interval (`m_interval`): max(send_elapsed, ack_elapsed).
    pub interval: Time,
    /// Bytes delivered over the interval (`m_delivered`); negative when invalid.
    pub delivered: i64,
    /// `RateConnection::delivered` when the newest acknowledged packet was sent (`m_priorDelivered`).
    pub prior_delivered: u64,
    pub prior_time: Time,
    pub send_elapsed: Time,
    pub ack_elapsed: Time,
    /// Bytes newly marked lost by this ACK (`m_bytesLoss`).
    pub bytes_loss: u32,
    /// Bytes in flight before this ACK was processed (`m_priorInFlight`).
    pub prior_in_flight: u32,
    /// Bytes newly cumulatively ACKed or SACKed by this ACK (`m_ackedSacked`).
    pub acked_sacked: u32,
    /// RTT of this ACK as Linux gives it to congestion control (`rate_sample.rtt_us` =
    /// `ca_rtt_us`, −1 there when absent): since the newest segment the ACK newly delivers was
    /// sent, never-retransmitted segments only. Not in ns-3's `TcpRateSample` (ns-3 BBR reads
    /// `tcb.last_rtt` instead); TCP Wave's ACK-train measurement uses it.
    pub rtt: Option<Time>,
}
