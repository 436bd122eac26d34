//! Delivery-rate estimation (draft-cheng-iccrg-delivery-rate-estimation; ns-3 `TcpRateLinux`,
//! Linux `tcp_rate.c`), for algorithms that take full control (BBR) or read per-ACK samples.
//!
//! On every transmission the segment remembers the connection's `delivered` count and times;
//! when the segment is delivered (cumulatively ACKed or SACKed) the most recently sent delivered
//! segment of the ACK defines the sample: rate = delivered since then / max(send interval,
//! ACK interval). A sample whose interval is shorter than the minimum RTT is discarded (§3.3).

use crate::scoreboard::{SegmentRateInfo, SegmentRecord};
use ccsim_cca::{RateConnection, RateSample};
use ccsim_core::Time;

#[derive(Clone, Debug, Default)]
pub struct RateEstimator {
    pub conn: RateConnection,
    pub sample: RateSample,
    /// Whether any segment delivered by the current ACK gave a prior (`prior_time` set).
    has_prior: bool,
    /// ns-3.44 keeps one `m_rateSample` for the connection: the prior (delivered count, times,
    /// elapsed intervals) carries over to later ACKs until a segment sent after it is
    /// delivered, and a sample is valid while `prior_time` is set. Linux starts every ACK
    /// from an empty sample.
    ns3_persistent_sample: bool,
    /// ns-3.33: the ACK interval runs from the previous sample's prior time
    /// (`TcpConfig::ns3_33_rate_ack_elapsed`).
    ns3_33_ack_elapsed: bool,
}

impl RateEstimator {
    /// `ns3_persistent_sample`: keep the sample's prior across ACKs; `ns3_33_ack_elapsed`:
    /// ns-3.33's ACK interval (see the fields).
    pub fn new(ns3_persistent_sample: bool, ns3_33_ack_elapsed: bool) -> Self {
        RateEstimator {
            ns3_persistent_sample,
            ns3_33_ack_elapsed,
            ..Self::default()
        }
    }

    /// A segment is sent (ns-3 `SkbSent`); `start_of_transmission` when nothing was in flight.
    pub fn on_sent(&mut self, now: Time, start_of_transmission: bool) -> SegmentRateInfo {
        if start_of_transmission {
            self.conn.first_sent_time = now;
            self.conn.delivered_time = now;
        }
        SegmentRateInfo {
            delivered: self.conn.delivered,
            delivered_time: self.conn.delivered_time,
            first_sent_time: self.conn.first_sent_time,
            is_app_limited: self.conn.app_limited != 0,
        }
    }

    /// Starts the sample of a new ACK.
    pub fn begin_ack(&mut self) {
        if self.ns3_persistent_sample {
            let prev = std::mem::take(&mut self.sample);
            self.sample.prior_delivered = prev.prior_delivered;
            self.sample.prior_time = prev.prior_time;
            self.sample.send_elapsed = prev.send_elapsed;
            self.sample.ack_elapsed = prev.ack_elapsed;
            self.sample.is_app_limited = prev.is_app_limited;
            self.sample.delivery_rate_bps = prev.delivery_rate_bps;
        } else {
            self.sample = RateSample::default();
        }
        self.has_prior = false;
    }

    /// A segment is newly delivered (ns-3 `SkbDelivered`).
    pub fn on_delivered(&mut self, seg: &SegmentRecord, now: Time) {
        let info = seg.rate;
        self.conn.delivered += seg.len as u64;
        self.conn.delivered_time = now;
        let first = if self.ns3_persistent_sample {
            self.sample.prior_delivered == 0
        } else {
            !self.has_prior
        };
        if first || info.delivered > self.sample.prior_delivered {
            // ns-3.33 takes the interval before replacing the prior: from the previous
            // sample's prior time, zero after an invalid sample.
            let since = if self.ns3_33_ack_elapsed {
                self.sample.prior_time
            } else {
                info.delivered_time
            };
            self.has_prior = true;
            self.sample.prior_delivered = info.delivered;
            self.sample.prior_time = info.delivered_time;
            self.sample.is_app_limited = info.is_app_limited;
            self.sample.send_elapsed = seg.last_sent.saturating_sub(info.first_sent_time);
            self.sample.ack_elapsed = self.conn.delivered_time.saturating_sub(since);
            self.conn.first_sent_time = seg.last_sent;
        }
        self.conn.tx_item_delivered = info.delivered;
    }

    /// Completes the ACK's sample (ns-3 `GenerateSample`), left in `self.sample`.
    pub fn generate(
        &mut self,
        acked_sacked: u32,
        bytes_loss: u32,
        prior_in_flight: u32,
        min_rtt: Option<Time>,
        rtt: Option<Time>,
    ) {
        if self.conn.app_limited != 0 && self.conn.delivered > self.conn.app_limited {
            self.conn.app_limited = 0;
        }
        let rs = &mut self.sample;
        rs.acked_sacked = acked_sacked;
        rs.bytes_loss = bytes_loss;
        rs.prior_in_flight = prior_in_flight;
        rs.rtt = rtt;
        let valid = if self.ns3_persistent_sample {
            rs.prior_time > Time::ZERO
        } else {
            self.has_prior
        };
        if !valid {
            rs.delivered = -1;
            rs.interval = Time::ZERO;
            return;
        }
        rs.interval = rs.send_elapsed.max(rs.ack_elapsed);
        rs.delivered = (self.conn.delivered - rs.prior_delivered) as i64;
        if min_rtt.is_some_and(|m| rs.interval < m) {
            rs.interval = Time::ZERO;
            rs.prior_time = Time::ZERO;
            return;
        }
        // Record the last non-app-limited sample or the highest app-limited one (Linux
        // `tcp_rate_gen`, ns-3 `GenerateSample`).
        let record = !rs.is_app_limited
            || rs.delivered as i128 * self.conn.rate_interval.as_nanos() as i128
                >= self.conn.rate_delivered as i128 * rs.interval.as_nanos() as i128;
        // ns-3 stores the rate in its persistent sample and recomputes it only when it records
        // the sample: a lower app-limited sample keeps reporting the previous rate.
        if rs.interval > Time::ZERO && (record || !self.ns3_persistent_sample) {
            rs.delivery_rate_bps = (rs.delivered as f64 * 8.0 / rs.interval.as_secs_f64()) as u64;
        }
        if record {
            self.conn.rate_delivered = rs.delivered.max(0) as u64;
            self.conn.rate_interval = rs.interval;
            self.conn.rate_app_limited = rs.is_app_limited;
        }
    }

    /// The application has nothing to send while the window has room (ns-3
    /// `CalculateAppLimited`): samples until this data is delivered are app-limited.
    pub fn on_app_limited(&mut self, bytes_in_flight: u64) {
        self.conn.app_limited = (self.conn.delivered + bytes_in_flight).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(len: u32, sent: Time, info: SegmentRateInfo) -> SegmentRecord {
        SegmentRecord {
            seq: 0,
            len,
            sacked: false,
            lost: false,
            retransmitted: false,
            ever_retransmitted: false,
            last_sent: sent,
            rate: info,
        }
    }

    #[test]
    fn steady_stream_measures_its_rate() {
        // 1000-byte segments sent every 1 ms, each ACKed 10 ms later: 8 Mb/s.
        let mut est = RateEstimator::default();
        let ms = Time::from_millis;
        let mut sent = Vec::new();
        for i in 0..60u64 {
            let info = est.on_sent(ms(i), i == 0);
            sent.push(seg(1000, ms(i), info));
            if i >= 10 {
                let acked = &sent[(i - 10) as usize];
                est.begin_ack();
                est.on_delivered(acked, ms(i));
                est.generate(1000, 0, 10_000, None, None);
                let rs = est.sample.clone();
                // Samples straddling the start (no delivery yet) are low; steady state is exact.
                if i >= 30 {
                    assert!(rs.delivered > 0);
                    let rate = rs.delivery_rate_bps as f64;
                    assert!((rate - 8e6).abs() / 8e6 < 0.15, "rate {rate} at {i}");
                }
            }
        }
    }

    #[test]
    fn ack_without_delivery_is_invalid() {
        let mut est = RateEstimator::default();
        est.begin_ack();
        est.generate(0, 0, 0, None, None);
        assert_eq!(est.sample.delivered, -1);
    }

    #[test]
    fn interval_below_min_rtt_is_discarded() {
        let mut est = RateEstimator::default();
        let info = est.on_sent(Time::ZERO, true);
        est.begin_ack();
        est.on_delivered(&seg(1000, Time::ZERO, info), Time::from_millis(1));
        est.generate(1000, 0, 1000, Some(Time::from_millis(5)), None);
        let rs = &est.sample;
        assert_eq!(rs.interval, Time::ZERO);
        assert_eq!(rs.delivery_rate_bps, 0);
    }

    /// ns-3.33 (the seed 002 authors' tree) measures a sample's ACK interval from the previous
    /// sample's prior time. Traced there (BBR 4 MB seed 4, 11.215 s): ACKs of segments resent
    /// a millisecond earlier give samples below the minimum RTT, which zero the prior time, and
    /// the next sample's interval is then the whole run (11.2 s): 10 kB over it is a few kb/s.
    /// ns-3.44 measures from the delivered segment's own time: the sample stays invalid.
    #[test]
    fn ns3_33_ack_interval_after_an_invalid_sample_spans_the_run() {
        let us = |x: u64| Time::from_micros(11_000_000 + x);
        let min_rtt = Some(Time::from_millis(25));
        // Three segments, each sent (resent) just after the previous delivery.
        let info = |delivered: u64, at: u64| SegmentRateInfo {
            delivered,
            delivered_time: us(at),
            first_sent_time: us(at),
            is_app_limited: false,
        };
        for ns3_33 in [true, false] {
            let mut est = RateEstimator::new(true, ns3_33);
            for (i, (at, sent_at, delivered_at)) in
                [(0, 0, 500), (500, 600, 1500), (1500, 1600, 2500)]
                    .into_iter()
                    .enumerate()
            {
                let s = seg(10_000, us(sent_at), info(i as u64 * 10_000, at));
                est.begin_ack();
                est.on_delivered(&s, us(delivered_at));
                est.generate(10_000, 0, 10_000, min_rtt, None);
            }
            let rs = &est.sample;
            if ns3_33 {
                // From time zero: 10 kB in 11.0025 s.
                assert_eq!(rs.interval, us(2500), "the interval runs from t = 0");
                assert_eq!(rs.delivery_rate_bps, 7_271);
            } else {
                assert_eq!(rs.interval, Time::ZERO, "invalid: 1 ms < min RTT");
                assert_eq!(rs.delivery_rate_bps, 0);
            }
        }
    }

    /// One ACK that delivers `seg` alone at `at`.
    fn deliver_alone(est: &mut RateEstimator, seg: &SegmentRecord, at: Time) {
        est.begin_ack();
        est.on_delivered(seg, at);
        est.generate(seg.len, 0, seg.len, None, None);
    }

    /// An app-limited sample slower than the recorded one is not recorded (Linux
    /// `tcp_rate_gen`); ns-3.44 also leaves its sample's delivery rate at the previous value,
    /// so BBR still sees the faster rate. Linux-style samples report the slower rate.
    #[test]
    fn a_slower_app_limited_sample_keeps_the_recorded_rate() {
        let ms = |x: u64| Time::from_millis(1000 + x);
        for ns3 in [true, false] {
            let mut est = RateEstimator::new(ns3, false);
            // 10 000 bytes in 10 ms: 8 Mb/s, not app-limited.
            let a = seg(10_000, ms(0), est.on_sent(ms(0), true));
            deliver_alone(&mut est, &a, ms(10));
            assert_eq!(est.sample.delivery_rate_bps, 8_000_000);
            // Then 1000 bytes sent app-limited, delivered 10 ms later: 0.8 Mb/s.
            est.on_app_limited(0);
            let b = seg(1000, ms(10), est.on_sent(ms(10), false));
            deliver_alone(&mut est, &b, ms(20));
            assert!(est.sample.is_app_limited);
            let want = if ns3 { 8_000_000 } else { 800_000 };
            assert_eq!(est.sample.delivery_rate_bps, want, "ns3 {ns3}");
            assert_eq!(
                est.conn.rate_delivered, 10_000,
                "the faster sample stays recorded"
            );
        }
    }

    /// ns-3.44 keeps the prior across ACKs: an ACK whose segments were all sent with the same
    /// `delivered` count as the prior leaves the interval as it was, where a fresh sample
    /// measures from those segments.
    #[test]
    fn persistent_sample_keeps_the_prior_across_acks() {
        // From t = 1 s: ns-3 treats a prior time of zero as "no sample".
        let ms = |x: u64| Time::from_millis(1000 + x);
        for ns3 in [true, false] {
            let mut est = RateEstimator::new(ns3, false);
            let a = seg(1000, ms(0), est.on_sent(ms(0), true));
            deliver_alone(&mut est, &a, ms(10));
            // b and c both leave after a's delivery, with the same `delivered` count.
            let b = seg(1000, ms(11), est.on_sent(ms(11), false));
            let c = seg(1000, ms(12), est.on_sent(ms(12), false));
            est.begin_ack();
            est.on_delivered(&b, ms(20));
            est.generate(1000, 0, 2000, None, None);
            assert_eq!(est.sample.interval, Time::from_millis(11), "ns3 {ns3}");
            est.begin_ack();
            est.on_delivered(&c, ms(22));
            est.generate(1000, 0, 1000, None, None);
            let want = Time::from_millis(if ns3 { 11 } else { 12 });
            assert_eq!(est.sample.interval, want, "ns3 {ns3}");
            assert_eq!(est.sample.delivered, 2000);
        }
    }
}
