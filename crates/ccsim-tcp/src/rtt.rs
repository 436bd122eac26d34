//! RTT estimation and the retransmission timeout (RFC 6298), as ns-3 `RttMeanDeviation`.

use ccsim_core::Time;

/// SRTT/RTTVAR with alpha = 1/8 and beta = 1/4, updated in integer nanoseconds with shifts
/// (ns-3 `RttMeanDeviation::IntegerUpdate`, used whenever alpha and beta are powers of two).
#[derive(Clone, Debug, Default)]
pub struct RttEstimator {
    srtt_ns: i64,
    rttvar_ns: i64,
    samples: u64,
}

const ALPHA_SHIFT: u32 = 3; // alpha = 1/8
const BETA_SHIFT: u32 = 2; // beta = 1/4

impl RttEstimator {
    /// Feeds one measurement (RFC 6298 §2.2 and §2.3).
    pub fn sample(&mut self, rtt: Time) {
        let m = rtt.as_nanos() as i64;
        if self.samples == 0 {
            self.srtt_ns = m;
            self.rttvar_ns = m / 2;
        } else {
            let delta = m - self.srtt_ns;
            self.srtt_ns += delta >> ALPHA_SHIFT;
            self.rttvar_ns += (delta.abs() - self.rttvar_ns) >> BETA_SHIFT;
        }
        self.samples += 1;
    }

    pub fn srtt(&self) -> Option<Time> {
        (self.samples > 0).then_some(Time(self.srtt_ns.max(0) as u64))
    }

    pub fn rttvar(&self) -> Time {
        Time(self.rttvar_ns.max(0) as u64)
    }

    /// RTO = max(min_rto, SRTT + max(G, 4·RTTVAR)) (RFC 6298 §2.3, ns-3 `TcpSocketBase`).
    pub fn rto(&self, min_rto: Time, granularity: Time, initial: Time) -> Time {
        match self.srtt() {
            None => initial.max(min_rto),
            Some(srtt) => {
                let var4 = Time(self.rttvar().as_nanos() * 4);
                (srtt + var4.max(granularity)).max(min_rto)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sample_sets_srtt_and_half_variance() {
        let mut e = RttEstimator::default();
        e.sample(Time::from_millis(100));
        assert_eq!(e.srtt(), Some(Time::from_millis(100)));
        assert_eq!(e.rttvar(), Time::from_millis(50));
        // RTO = 100 + 4*50 = 300 ms, floored at 1 s.
        let g = Time::from_millis(1);
        assert_eq!(
            e.rto(Time::from_secs(1), g, Time::from_secs(1)),
            Time::from_secs(1)
        );
        assert_eq!(
            e.rto(Time::from_millis(200), g, Time::from_secs(1)),
            Time::from_millis(300)
        );
    }

    #[test]
    fn converges_towards_constant_rtt() {
        let mut e = RttEstimator::default();
        e.sample(Time::from_millis(100));
        for _ in 0..200 {
            e.sample(Time::from_millis(40));
        }
        let srtt = e.srtt().unwrap().as_millis_f64();
        assert!((srtt - 40.0).abs() < 0.01, "{srtt}");
        assert!(e.rttvar() < Time::from_micros(10));
    }
}
