//! What the world measures of every flow as it runs (the summary is computed from it).

use ccsim_core::Time;

#[derive(Clone, Debug, Default)]
pub struct FlowMetrics {
    /// RTT samples (microseconds), counted per value: exact, bounded memory.
    pub rtt: crate::rtt_stats::RttStats,
    /// Time the last byte of a finite transfer reached the receiver.
    pub finish: Option<Time>,
    /// Data segments that arrived above a hole (held out of order by the receiver).
    pub out_of_order: u64,
}

impl FlowMetrics {
    pub fn record_rtt(&mut self, sample: Time) {
        self.rtt.record(sample);
    }
}
