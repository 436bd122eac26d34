//! HighSpeed TCP, as ns-3.44 `TcpHighSpeed` (`src/internet/model/tcp-highspeed.cc`); RFC 3649.
//!
//! Slow start is NewReno's. In congestion avoidance each acknowledged segment counts `a(w)`
//! (RFC 3649 table, w = cwnd in segments) and cwnd grows by one segment per w counted; on loss
//! `ssthresh = max(2, flight·(1 − b(w)))` segments with w = flight in segments.

use crate::newreno;
use crate::ns3num::cast_u32;
use crate::{CongestionOps, TcpState};

/// RFC 3649 Appendix B table as ns-3 encodes it: (upper bound of w in segments, a(w), b(w)).
/// Windows above the last bound use the last row.
const HSTCP_TABLE: [(u32, u32, f64); 73] = [
    (38, 1, 0.50),
    (118, 2, 0.44),
    (221, 3, 0.41),
    (347, 4, 0.38),
    (495, 5, 0.37),
    (663, 6, 0.35),
    (851, 7, 0.34),
    (1058, 8, 0.33),
    (1284, 9, 0.32),
    (1529, 10, 0.31),
    (1793, 11, 0.30),
    (2076, 12, 0.29),
    (2378, 13, 0.28),
    (2699, 14, 0.28),
    (3039, 15, 0.27),
    (3399, 16, 0.27),
    (3778, 17, 0.26),
    (4177, 18, 0.26),
    (4596, 19, 0.25),
    (5036, 20, 0.25),
    (5497, 21, 0.24),
    (5979, 22, 0.24),
    (6483, 23, 0.23),
    (7009, 24, 0.23),
    (7558, 25, 0.22),
    (8130, 26, 0.22),
    (8726, 27, 0.22),
    (9346, 28, 0.21),
    (9991, 29, 0.21),
    (10661, 30, 0.21),
    (11358, 31, 0.20),
    (12082, 32, 0.20),
    (12834, 33, 0.20),
    (13614, 34, 0.19),
    (14424, 35, 0.19),
    (15265, 36, 0.19),
    (16137, 37, 0.19),
    (17042, 38, 0.18),
    (17981, 39, 0.18),
    (18955, 40, 0.18),
    (19965, 41, 0.17),
    (21013, 42, 0.17),
    (22101, 43, 0.17),
    (23230, 44, 0.17),
    (24402, 45, 0.16),
    (25618, 46, 0.16),
    (26881, 47, 0.16),
    (28193, 48, 0.16),
    (29557, 49, 0.15),
    (30975, 50, 0.15),
    (32450, 51, 0.15),
    (33986, 52, 0.15),
    (35586, 53, 0.14),
    (37253, 54, 0.14),
    (38992, 55, 0.14),
    (40808, 56, 0.14),
    (42707, 57, 0.13),
    (44694, 58, 0.13),
    (46776, 59, 0.13),
    (48961, 60, 0.13),
    (51258, 61, 0.13),
    (53667, 62, 0.12),
    (56230, 63, 0.12),
    (58932, 64, 0.12),
    (61799, 65, 0.12),
    (64851, 66, 0.11),
    (68113, 67, 0.11),
    (71617, 68, 0.11),
    (75401, 69, 0.10),
    (79517, 70, 0.10),
    (84035, 71, 0.10),
    (89053, 72, 0.10),
    (94717, 73, 0.09),
];

fn table_row(w: u32) -> &'static (u32, u32, f64) {
    HSTCP_TABLE
        .iter()
        .find(|(bound, _, _)| w <= *bound)
        .unwrap_or(&HSTCP_TABLE[HSTCP_TABLE.len() - 1])
}

/// `TcpHighSpeed::TableLookupA`.
pub fn table_a(w: u32) -> u32 {
    table_row(w).1
}

/// `TcpHighSpeed::TableLookupB`.
pub fn table_b(w: u32) -> f64 {
    table_row(w).2
}

crate::tunables! {
    /// HighSpeed has no tunables in ns-3.
    pub struct HighSpeedConfig for "highspeed" {}
}

/// ns-3 `TcpHighSpeed` state.
#[derive(Clone, Debug, Default)]
pub struct HighSpeed {
    pub config: HighSpeedConfig,
    /// Weighted count of acknowledged segments (`m_ackCnt`).
    ack_cnt: u32,
}

impl HighSpeed {
    pub fn new(config: HighSpeedConfig) -> Self {
        HighSpeed { config, ack_cnt: 0 }
    }

    /// `TcpHighSpeed::CongestionAvoidance`.
    fn congestion_avoidance(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        let mut seg_cwnd = tcb.cwnd_segs();
        let old_cwnd = seg_cwnd;
        if segments_acked > 0 {
            self.ack_cnt = self
                .ack_cnt
                .wrapping_add(segments_acked.wrapping_mul(table_a(seg_cwnd)));
        }
        // ns-3 loops forever on a zero-segment cwnd; cwnd never falls below one MSS there.
        if seg_cwnd > 0 {
            while self.ack_cnt >= seg_cwnd {
                self.ack_cnt -= seg_cwnd;
                seg_cwnd += 1;
            }
        }
        if seg_cwnd != old_cwnd {
            tcb.cwnd = seg_cwnd.wrapping_mul(tcb.mss);
        }
    }
}

impl CongestionOps for HighSpeed {
    fn name(&self) -> &'static str {
        "TcpHighSpeed"
    }

    /// `TcpHighSpeed::GetSsThresh`: `max(2, w·(1 − b(w)))` segments, w = flight in segments.
    fn ssthresh(&mut self, tcb: &TcpState, bytes_in_flight: u32) -> u32 {
        let seg_cwnd = bytes_in_flight / tcb.mss;
        let b = 1.0 - table_b(seg_cwnd);
        cast_u32(2f64.max(seg_cwnd as f64 * b)).wrapping_mul(tcb.mss)
    }

    /// `TcpNewReno::IncreaseWindow` with HighSpeed's congestion avoidance.
    fn increase_window(&mut self, tcb: &mut TcpState, segments_acked: u32) {
        newreno::increase_window_with(tcb, segments_acked, newreno::slow_start, |tcb, segs| {
            self.congestion_avoidance(tcb, segs)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_rfc3649_endpoints() {
        assert_eq!((table_a(1), table_b(1)), (1, 0.5));
        assert_eq!((table_a(38), table_a(39)), (1, 2));
        assert_eq!((table_a(100_000), table_b(100_000)), (73, 0.09));
    }
}
