//! HyStart, hybrid slow start (Ha & Rhee, "Taming the elephants: New TCP slow start",
//! Computer Networks 55(9), 2011), as ns-3.44 `TcpCubic` runs it (`HystartReset`,
//! `HystartUpdate`, `HystartDelayThresh` in `src/internet/model/tcp-cubic.cc`; Linux
//! `tcp_cubic.c` `hystart_update`). Two detectors end slow start early: an ACK train longer
//! than the minimum delay, and a round whose minimum RTT exceeds the minimum delay plus a
//! clamped threshold. The algorithm that composes it (CUBIC) owns the minimum delay and decides
//! when to run it; HyStart only says when slow start should end.

use crate::TcpState;
use ccsim_core::Time;

/// Which HyStart detectors may end slow start (ns-3 `HybridSSDetectionMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HystartDetect {
    PacketTrain,
    Delay,
    Both,
}

crate::choice_param!(HystartDetect {
    "PACKET_TRAIN" => PacketTrain,
    "DELAY" => Delay,
    "BOTH" => Both,
});

impl HystartDetect {
    pub(crate) fn packet_train(self) -> bool {
        matches!(self, HystartDetect::PacketTrain | HystartDetect::Both)
    }
    pub(crate) fn delay(self) -> bool {
        matches!(self, HystartDetect::Delay | HystartDetect::Both)
    }
}

/// The detector settings (ns-3 `TcpCubic` attributes `HybridSSDetectionMode`, `CntClamp`…).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HystartParams {
    pub detect: HystartDetect,
    /// Delay samples per round before the delay detector may fire (`MinSamples`).
    pub min_samples: u8,
    /// Spacing between ACKs that still counts as one train (`HyStartAckDelta`).
    pub ack_delta: Time,
    /// Lower clamp of the delay threshold (`HyStartDelayMin`).
    pub delay_min: Time,
    /// Upper clamp of the delay threshold (`HyStartDelayMax`).
    pub delay_max: Time,
}

/// HyStart's per-round state. `None` stands for ns-3's `Time::Min()` "not set" sentinel.
#[derive(Clone, Debug, Default)]
pub struct Hystart {
    /// The exit point was found (`m_found`); stays set until [`Hystart::clear`].
    found: bool,
    /// Start of the current round (`m_roundStart`).
    round_start: Option<Time>,
    /// The round ends once this sequence number is acknowledged (`m_endSeq`).
    end_seq: u64,
    /// Last time an ACK was close enough to count as a train (`m_lastAck`).
    last_ack: Option<Time>,
    /// Minimum RTT of the current round (`m_currRtt`).
    pub(crate) curr_rtt: Option<Time>,
    /// Delay samples taken this round (`m_sampleCnt`).
    sample_cnt: u32,
}

impl Hystart {
    /// `HystartReset`: a new round starts now and lasts until what is sent so far is ACKed.
    pub fn start_round(&mut self, tcb: &TcpState) {
        self.round_start = Some(tcb.now);
        self.last_ack = Some(tcb.now);
        self.end_seq = tcb.high_tx_mark;
        self.curr_rtt = None;
        self.sample_cnt = 0;
    }

    /// The current round is over (SND.UNA passed its end).
    pub fn round_ended(&self, tcb: &TcpState) -> bool {
        tcb.last_acked_seq > self.end_seq
    }

    /// Forgets an exit point found earlier (ns-3 `CubicReset` on a timeout).
    pub fn clear(&mut self) {
        self.found = false;
    }

    /// `HystartUpdate` with one delay sample; `delay_min` is the owner's minimum delay. Returns
    /// true when this sample ends slow start (not when it had ended before).
    pub fn update(&mut self, p: &HystartParams, now: Time, delay: Time, delay_min: Time) -> bool {
        if self.found {
            return false;
        }
        // ACK-train detection. An unset m_lastAck/m_roundStart is Time::Min() in ns-3, so
        // `now - m_lastAck` wraps negative (<= delta) and `now - m_roundStart` is never > delayMin.
        let close = match self.last_ack {
            None => true,
            Some(last) => now.saturating_sub(last) <= p.ack_delta,
        };
        if close {
            self.last_ack = Some(now);
            let long_round = self
                .round_start
                .is_some_and(|start| now.saturating_sub(start) > delay_min);
            if long_round && p.detect.packet_train() {
                self.found = true;
            }
        }
        // Delay-increase detection over `min_samples` samples.
        if self.sample_cnt < p.min_samples as u32 {
            if !matches!(self.curr_rtt, Some(curr) if curr <= delay) {
                self.curr_rtt = Some(delay);
            }
            self.sample_cnt += 1;
        } else if self
            .curr_rtt
            .is_some_and(|curr| curr > delay_min + delay_thresh(p, delay_min))
            && p.detect.delay()
        {
            self.found = true;
        }
        self.found
    }
}

/// `HystartDelayThresh`: `t` clamped to [delay_min, delay_max].
fn delay_thresh(p: &HystartParams, t: Time) -> Time {
    if t > p.delay_max {
        p.delay_max
    } else if t < p.delay_min {
        p.delay_min
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> HystartParams {
        HystartParams {
            detect: HystartDetect::Both,
            min_samples: 8,
            ack_delta: Time::from_millis(2),
            delay_min: Time::from_millis(4),
            delay_max: Time::from_millis(1000),
        }
    }

    #[test]
    fn delay_detector_fires_once_the_round_minimum_exceeds_the_clamped_threshold() {
        let mut h = Hystart::default();
        let p = params();
        let ms = Time::from_millis;
        // Eight samples fill the round's minimum (spaced out so no ACK train forms).
        for i in 0..8u64 {
            assert!(!h.update(&p, ms(100 * i), ms(15), ms(10)));
        }
        // 15 ms is not above 10 + clamp(10) = 20 ms.
        assert!(!h.update(&p, ms(900), ms(15), ms(10)));
        h.curr_rtt = Some(ms(21));
        assert!(h.update(&p, ms(1000), ms(21), ms(10)));
        // Found once: later samples do not report it again.
        assert!(!h.update(&p, ms(1100), ms(21), ms(10)));
    }

    #[test]
    fn ack_train_longer_than_the_minimum_delay_ends_slow_start() {
        let mut h = Hystart::default();
        let mut tcb = TcpState::new(1000, 10, u32::MAX);
        tcb.now = Time::from_millis(100);
        h.start_round(&tcb);
        let p = HystartParams {
            detect: HystartDetect::PacketTrain,
            ..params()
        };
        // ACKs 1 ms apart: the train reaches 11 ms > delay_min 10 ms at the 12th.
        let found: Vec<bool> = (1..=12u64)
            .map(|i| {
                h.update(
                    &p,
                    Time::from_millis(100 + i),
                    Time::from_millis(10),
                    Time::from_millis(10),
                )
            })
            .collect();
        assert_eq!(found.iter().position(|&f| f), Some(10));
    }
}
