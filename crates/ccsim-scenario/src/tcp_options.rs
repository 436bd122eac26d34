//! The `[tcp]` keys, declared once: the serde schema (unknown keys rejected), the merge of a
//! flow's keys over the scenario's, and the key table (name, type, doc comment) that
//! `docs/scenario-reference.md` and `ccsim schema tcp` are generated from
//! ([`crate::schema_doc`]). Each key's doc comment is its documentation: edit it here.

use crate::units::{Bytes, Duration, Rate};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// ns-3.44 defaults (the papers' simulator).
    #[default]
    Ns3,
    /// Linux-like defaults (min RTO 200 ms, 40 ms delayed ACK, MSS 1448, large buffers).
    Linux,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Recovery {
    Prr,
    Classic,
}

/// One documented key of a table: what the generated docs and `ccsim schema` print.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct KeyDoc {
    pub key: &'static str,
    /// The Rust type of the key's value (`u32`, `Duration`, ...); [`value_kind`] says it in
    /// words.
    pub ty: &'static str,
    /// The key's doc comment, lines joined.
    pub doc: &'static str,
}

/// What a value of the Rust type `ty` looks like in a scenario file.
pub fn value_kind(ty: &str) -> &'static str {
    match ty {
        "u32" | "u64" => "integer",
        "bool" => "boolean",
        "Bytes" => "size",
        "Duration" => "duration",
        "Rate" => "rate",
        "Profile" => "`\"ns3\"` or `\"linux\"`",
        "Recovery" => "`\"prr\"` or `\"classic\"`",
        _ => "value",
    }
}

/// Declares `TcpOptions` (every key optional: unset falls back to the profile) together
/// with `TcpOptions::KEYS`, so a key cannot be added without its documentation.
macro_rules! tcp_options {
    ($( $(#[doc = $doc:literal])+ $key:ident: $ty:ident, )*) => {
        /// TCP options; every key is optional and falls back to the profile's default.
        #[derive(Clone, Debug, Default, Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub struct TcpOptions {
            $( $(#[doc = $doc])+ pub $key: Option<$ty>, )*
        }

        impl TcpOptions {
            /// Every key, in declaration order, with its type and doc comment.
            pub const KEYS: &'static [KeyDoc] = &[
                $( KeyDoc {
                    key: stringify!($key),
                    ty: stringify!($ty),
                    doc: concat!($($doc, "\n"),+),
                }, )*
            ];

            /// `self` with every unset key taken from `base`.
            pub fn or(&self, base: &TcpOptions) -> TcpOptions {
                TcpOptions { $( $key: self.$key.or(base.$key), )* }
            }
        }
    };
}

tcp_options! {
    /// Preset defaults: `"ns3"` (ns-3.44 `TcpSocket`/`TcpSocketBase` attributes) or `"linux"`
    /// (a current Linux kernel).
    profile: Profile,
    /// Payload bytes per segment (ns-3 `SegmentSize`).
    mss: u32,
    /// Initial congestion window, in segments.
    initial_cwnd: u32,
    /// Initial slow-start threshold, in bytes.
    initial_ssthresh: Bytes,
    /// Lower bound of the retransmission timeout (RFC 6298).
    min_rto: Duration,
    /// Retransmission timeout before the first RTT sample.
    initial_rto: Duration,
    /// Segments per delayed ACK (1 = ACK every segment; ns-3 `DelAckCount`).
    delack_count: u32,
    /// Delayed-ACK timer (ns-3 `DelAckTimeout`).
    delack_timeout: Duration,
    /// Selective acknowledgements (RFC 2018/6675).
    sack: bool,
    /// Timestamps (RFC 7323); RTT samples are whole milliseconds (1 ms timestamp clock).
    timestamps: bool,
    /// RFC 3042: each duplicate ACK before fast retransmit lets one new segment out, cwnd
    /// unchanged. Without SACK this switch does it (ns-3.44 `LimitedTransmit`: the dupACK
    /// counts one segment as gone); with SACK it happens whatever the switch says, since
    /// SACKed segments leave the pipe (as in ns-3.44).
    limited_transmit: bool,
    /// Duplicate ACKs that trigger fast retransmit (ns-3 `ReTxThreshold`).
    dupack_threshold: u32,
    /// Loss recovery: `"prr"` (RFC 6937, the ns-3 default) or `"classic"` (cwnd = ssthresh on
    /// entry).
    recovery: Recovery,
    /// Send buffer (ns-3 `SndBufSize`): caps unacknowledged plus unsent bytes.
    snd_buf: Bytes,
    /// The application fills the send buffer in chunks of this size (ns-3 BulkSend
    /// `SendSize`), so buffered data ends on a chunk boundary; unset: kept full to the byte.
    app_write_chunk: Bytes,
    /// Receive buffer (ns-3 `RcvBufSize`): caps the advertised window.
    rcv_buf: Bytes,
    /// Cap on the pacing rate (ns-3 `TcpSocketState::MaxPacingRate`); unset: no cap.
    max_pacing_rate: Rate,
    /// Pace transmissions at the algorithm's pacing rate (ns-3 `EnablePacing`).
    pacing: bool,
    /// True: new data waits until a whole segment fits inside SND.UNA + RCV.WND and the send
    /// buffer (Linux); false: ns-3.44, pipe ≤ min(cwnd, rwnd), then the segment is cut at the
    /// window or buffer edge and the part is sent.
    strict_receive_window: bool,
    /// RFC 7323 window scale, derived from the receive buffer.
    window_scaling: bool,
    /// Reproduce ns-3.44's PRR bugs: the 32-bit overflow in `prr_delivered × ssthresh`, one
    /// extra MSS of DeliveredData per duplicate ACK, RecoverFS = pipe (see docs/tcp-model.md).
    ns3_prr_quirks: bool,
    /// Reproduce ns-3.44 keeping a SACKed retransmission in pipe until the cumulative ACK
    /// (see docs/tcp-model.md).
    ns3_sacked_retx_in_flight: bool,
    /// On a partial ACK, send what ns-3.44's `DoRetransmit` picks (first lost segment not yet
    /// retransmitted, else new data, else the head) outside cwnd, instead of retransmitting
    /// the head (see docs/tcp-model.md).
    ns3_partial_ack_retransmit: bool,
    /// RFC 6675 NextSeg (1.b) as ns-3.44 applies it: retransmit a lost segment (rule 1) or
    /// resend one by rule 3 only below the highest SACKed one (after a timeout, new data goes
    /// before lost segments above it; Linux retransmits them). Off is also ns-3.33's NextSeg
    /// (the ns3-mmwave tree): a send-buffer-limited flow in recovery resends segments still in
    /// flight above the highest SACK.
    nextseg_rule_1b: bool,
    /// Recompute ssthresh on every timeout (ns-3.44); off, a repeated timeout of an already
    /// retransmitted head keeps it (RFC 5681, Linux).
    ns3_rto_always_resets_ssthresh: bool,
    /// Keep the delivery-rate sample's prior across ACKs (ns-3.44 `TcpRateLinux`'s single
    /// `m_rateSample`); Linux starts each ACK afresh.
    ns3_rate_sample_persists: bool,
    /// ns-3.33's ACK interval of a rate sample: from the previous sample's prior time, which
    /// an invalid sample zeroes (the seed 002 authors' tree; off: ns-3.44 and Linux).
    ns3_33_rate_ack_elapsed: bool,
    /// Pace as ns-3.44: initial window unpaced, timer armed only when expired, recovery's
    /// forced retransmissions outside it.
    ns3_pacing_timer: bool,
    /// Send recovery's forced retransmission before the full-control hook runs, so BBR
    /// counts it in flight (ns-3.44 `ProcessAck` order); Linux sends it after
    /// `cong_control`.
    ns3_retransmit_before_cong_control: bool,
    /// Leaving fast recovery sets cwnd = ssthresh for full-control algorithms too (ns-3.44;
    /// BBR's cwnd becomes 2^32 − 1 until BBR changes it); Linux skips it for them.
    ns3_exit_recovery_for_cong_control: bool,
    /// An ACK that advances SND.UNA but leaves the flow in Disorder does not re-arm the
    /// retransmission timer (ns-3.44 `ProcessAck`); RFC 6298 and Linux re-arm it.
    ns3_disorder_ack_keeps_rto: bool,
    /// A retransmission is cut to a whole MSS, absorbing the start of the next segment when
    /// both are unSACKed and equally marked lost (ns-3.44 `GetTransmittedSegment`); one sent
    /// with nothing in flight restarts the delivery-rate sampler.
    ns3_recut_retransmissions: bool,
    /// RFC 6675 NextSeg rule 3 in fast recovery: with nothing lost to resend and no unsent
    /// data, resend the first unSACKed, unlost, unretransmitted segment below the highest
    /// SACK (ns-3.44; anywhere with `nextseg_rule_1b` off, as ns-3.33).
    nextseg_rule_3: bool,
    /// Without SACK, duplicate ACKs for exactly the recovery point may start a new fast
    /// recovery (ns-3.44 `DupAck`: `m_highRxAckMark >= m_recover`); Linux and RFC 6582 need
    /// an ACK above it first.
    ns3_dupacks_at_recover_restart: bool,
    /// F-RTO (RFC 5682) as Linux runs it by default: after a timeout outside recovery, the
    /// first ACK that advances SND.UNA sends new data instead of retransmitting, and an ACK
    /// of never-retransmitted data then undoes the timeout (ns-3.44 has none).
    frto: bool,
    /// Without SACK, a duplicate ACK that adds a guessed SACK delivers one segment and a
    /// cumulative ACK max(acked − guessed, 1), as Linux counts `tp->delivered`; ns-3.44 counts
    /// nothing on a duplicate ACK.
    reno_sack_delivered: bool,
}

impl TcpOptions {
    /// The keys that reproduce `c` under `profile`: what the docs list as each profile's
    /// defaults. Keys whose profile value cannot be written as a key (no pacing cap, no write
    /// chunk) stay unset.
    pub fn from_config(profile: Profile, c: &ccsim_tcp::TcpConfig) -> TcpOptions {
        TcpOptions {
            profile: Some(profile),
            mss: Some(c.mss),
            initial_cwnd: Some(c.initial_cwnd_segs),
            initial_ssthresh: Some(Bytes(c.initial_ssthresh as u64)),
            min_rto: Some(Duration(c.min_rto)),
            initial_rto: Some(Duration(c.initial_rto)),
            delack_count: Some(c.delack_count),
            delack_timeout: Some(Duration(c.delack_timeout)),
            sack: Some(c.sack),
            timestamps: Some(c.timestamps),
            limited_transmit: Some(c.limited_transmit),
            dupack_threshold: Some(c.dupack_threshold),
            recovery: Some(match c.recovery {
                ccsim_tcp::RecoveryAlgorithm::Prr => Recovery::Prr,
                ccsim_tcp::RecoveryAlgorithm::Classic => Recovery::Classic,
            }),
            snd_buf: Some(Bytes(c.snd_buf)),
            app_write_chunk: c.app_write_chunk.map(|b| Bytes(b as u64)),
            rcv_buf: Some(Bytes(c.rcv_buf)),
            max_pacing_rate: c.max_pacing_rate_bps.map(Rate),
            pacing: Some(c.pacing),
            strict_receive_window: Some(c.strict_receive_window),
            window_scaling: Some(c.window_scaling),
            ns3_prr_quirks: Some(c.ns3_prr_quirks),
            ns3_sacked_retx_in_flight: Some(c.ns3_sacked_retx_in_flight),
            ns3_partial_ack_retransmit: Some(c.ns3_partial_ack_retransmit),
            nextseg_rule_1b: Some(c.nextseg_rule_1b),
            ns3_rto_always_resets_ssthresh: Some(c.ns3_rto_always_resets_ssthresh),
            ns3_rate_sample_persists: Some(c.ns3_rate_sample_persists),
            ns3_33_rate_ack_elapsed: Some(c.ns3_33_rate_ack_elapsed),
            ns3_pacing_timer: Some(c.ns3_pacing_timer),
            ns3_retransmit_before_cong_control: Some(c.ns3_retransmit_before_cong_control),
            ns3_exit_recovery_for_cong_control: Some(c.ns3_exit_recovery_for_cong_control),
            ns3_disorder_ack_keeps_rto: Some(c.ns3_disorder_ack_keeps_rto),
            ns3_recut_retransmissions: Some(c.ns3_recut_retransmissions),
            nextseg_rule_3: Some(c.nextseg_rule_3),
            ns3_dupacks_at_recover_restart: Some(c.ns3_dupacks_at_recover_restart),
            frto: Some(c.frto),
            reno_sack_delivered: Some(c.reno_sack_delivered),
        }
    }

    /// The defaults of `profile`, as keys.
    pub fn profile_defaults(profile: Profile) -> TcpOptions {
        let tcp_profile = match profile {
            Profile::Ns3 => ccsim_tcp::TcpProfile::Ns3,
            Profile::Linux => ccsim_tcp::TcpProfile::Linux,
        };
        Self::from_config(profile, &ccsim_tcp::TcpConfig::profile(tcp_profile))
    }
}
