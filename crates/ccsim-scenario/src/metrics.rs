//! Probes and the run summary.
//!
//! Definitions (the same in `validation/ns3/dumbbell.cc`, so both simulators are measured
//! alike):
//! - goodput: application bytes delivered in order to the receiver over [flow start, end of
//!   run] (or over [start, finish] for a finite transfer), in Mb/s (10^6 bit/s);
//! - RTT samples: one per ACK that advances SND.UNA, computed from the timestamp echo as
//!   ns-3 does (whole milliseconds with ns-3's 1 ms timestamp clock); mean and percentiles
//!   (linear interpolation between closest ranks, numpy's default) over all samples;
//! - retransmissions: data segments sent again.

use crate::world::Flow;
use ccsim_core::Time;
use ccsim_net::Link;
use serde::Serialize;

pub use ccsim_engine::FlowMetrics;

/// Percentile with linear interpolation between closest ranks (numpy's default), of sorted data.
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let pos = p / 100.0 * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64))
}

/// Jain's fairness index of the given throughputs.
pub fn jain_index(x: &[f64]) -> Option<f64> {
    if x.is_empty() {
        return None;
    }
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    if sq == 0.0 {
        return None;
    }
    Some(sum * sum / (x.len() as f64 * sq))
}

/// Periodic samples, stored by column and drained by the caller (bounded memory).
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub flow: FlowSeries,
    pub queue: QueueSeries,
    last_delivered: Vec<u64>,
    last_time: Time,
}

ccsim_core::column_table! {
    /// Per sample and flow (`flow_timeseries.parquet`).
    #[derive(Clone, Debug, Default)]
    pub struct FlowSeries {
        /// Simulated time of the sample (s).
        pub t_s: Vec<f64>,
        /// Flow id (the summary's `flows[].id`).
        pub flow: Vec<u32>,
        /// Congestion window (bytes).
        pub cwnd_bytes: Vec<u64>,
        /// Slow-start threshold (bytes).
        pub ssthresh_bytes: Vec<u64>,
        /// Smoothed RTT (ms).
        pub srtt_ms: Vec<f64>,
        /// Bytes sent and not yet acknowledged.
        pub bytes_in_flight: Vec<u64>,
        /// Application bytes delivered in order to the receiver so far.
        pub delivered_bytes: Vec<u64>,
        /// Goodput since the previous sample (Mb/s).
        pub goodput_mbps: Vec<f64>,
        /// Data segments retransmitted so far.
        pub retx_segments: Vec<u64>,
        /// Congestion state (0 Open, 1 Disorder, 2 CWR, 3 Recovery, 4 Loss).
        pub cong_state: Vec<u8>,
    }
}

impl FlowSeries {
    /// Mean of the goodput samples of `flow` taken in (`from_s`, `to_s`], in Mb/s (NaN when
    /// there is none).
    pub fn mean_goodput_mbps(&self, flow: u32, from_s: f64, to_s: f64) -> f64 {
        let (mut sum, mut n) = (0.0, 0usize);
        for ((t, f), g) in self.t_s.iter().zip(&self.flow).zip(&self.goodput_mbps) {
            if *f == flow && *t > from_s && *t <= to_s {
                sum += g;
                n += 1;
            }
        }
        sum / n as f64
    }
}

ccsim_core::column_table! {
    /// Per sample and link (`queue_timeseries.parquet`, which adds `link_name`).
    #[derive(Clone, Debug, Default)]
    pub struct QueueSeries {
        /// Simulated time of the sample (s).
        pub t_s: Vec<f64>,
        /// Link index (the summary's `queues` order).
        pub link: Vec<u32>,
        /// Packets in the link's queue.
        pub packets: Vec<u64>,
        /// Bytes in the link's queue.
        pub bytes: Vec<u64>,
        /// Packets the queue dropped so far.
        pub drops: Vec<u64>,
        /// The link's rate at the sample (bit/s).
        pub rate_bps: Vec<u64>,
    }
}

impl Series {
    pub fn record(&mut self, now: Time, flows: &[Flow], links: &[Link]) {
        if self.last_delivered.len() != flows.len() {
            self.last_delivered = vec![0; flows.len()];
        }
        let dt = now.saturating_sub(self.last_time).as_secs_f64();
        let t = now.as_secs_f64();
        let fs = &mut self.flow;
        for (i, f) in flows.iter().enumerate() {
            let delivered = f.receiver.delivered_bytes();
            let tcb = &f.sender.tcb;
            fs.t_s.push(t);
            fs.flow.push(f.id);
            fs.cwnd_bytes.push(tcb.cwnd as u64);
            fs.ssthresh_bytes.push(tcb.ssthresh as u64);
            fs.srtt_ms
                .push(f.sender.srtt().map_or(f64::NAN, |s| s.as_millis_f64()));
            fs.bytes_in_flight.push(tcb.bytes_in_flight as u64);
            fs.delivered_bytes.push(delivered);
            let gp = if dt > 0.0 {
                (delivered - self.last_delivered[i]) as f64 * 8.0 / dt / 1e6
            } else {
                0.0
            };
            fs.goodput_mbps.push(gp);
            fs.retx_segments.push(f.sender.stats.retx_segments);
            fs.cong_state.push(tcb.cong_state.code());
            self.last_delivered[i] = delivered;
        }
        let qs = &mut self.queue;
        for (i, l) in links.iter().enumerate() {
            qs.t_s.push(t);
            qs.link.push(i as u32);
            qs.packets.push(l.queue.len_packets() as u64);
            qs.bytes.push(l.queue.len_bytes());
            qs.drops.push(l.queue.drops);
            qs.rate_bps.push(l.rate_bps);
        }
        self.last_time = now;
    }

    /// Takes the rows collected so far.
    pub fn drain(&mut self) -> (FlowSeries, QueueSeries) {
        (
            std::mem::take(&mut self.flow),
            std::mem::take(&mut self.queue),
        )
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct FlowSummary {
    pub id: u32,
    pub cca: String,
    pub src: String,
    pub dst: String,
    pub start_s: f64,
    pub goodput_mbps: f64,
    /// Data bytes sent including retransmissions, over the same interval as goodput.
    pub throughput_mbps: f64,
    pub bytes_delivered: u64,
    pub rtt_mean_ms: Option<f64>,
    pub rtt_p50_ms: Option<f64>,
    pub rtt_p95_ms: Option<f64>,
    pub rtt_samples: u64,
    pub retx_segments: u64,
    pub tx_segments: u64,
    pub timeouts: u64,
    pub fast_recoveries: u64,
    /// Flow completion time of a finite transfer (seconds from its start), null otherwise.
    pub fct_s: Option<f64>,
    /// Data segments that arrived above a hole (out of order) at the receiver.
    pub out_of_order_segments: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct QueueSummary {
    pub id: String,
    pub from: String,
    pub to: String,
    pub drops: u64,
    pub enqueued: u64,
    pub max_packets: u64,
    pub mean_packets: f64,
    pub tx_packets: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub simulator: String,
    pub scenario: Option<String>,
    pub seed: u64,
    pub duration_s: f64,
    pub flows: Vec<FlowSummary>,
    pub total_goodput_mbps: f64,
    pub jain_index: Option<f64>,
    pub queues: Vec<QueueSummary>,
    pub events: u64,
    /// Wall-clock seconds spent running the simulation (building excluded).
    pub wall_s: f64,
    /// Events processed per wall-clock second (`None` before any run).
    pub events_per_s: Option<f64>,
    /// Simulated seconds per wall-clock second (`None` before any run).
    pub sim_speed: Option<f64>,
    /// Goodput around scheduled link changes and the recovery time, per flow (scenarios whose
    /// bottleneck or links change; see [`crate::link_changes`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_changes: Option<Vec<crate::link_changes::LinkChangeMetrics>>,
    /// Radio counters, handovers and NLOS intervals (scenarios with radio or trace links).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub radio: Option<crate::radio_glue::RadioSummary>,
    /// Packets dropped for lack of a route or an expired TTL (a routing loop), per node;
    /// absent when there were none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing_drops: Option<Vec<RoutingDrops>>,
    /// Mesh metrics (scenarios with a `[mesh]` table): finish times, RTT, JFI, routing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<crate::mesh::summary::MeshSummary>,
    /// IPv4 reassembly counters, when some link fragmented packets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_reassembly: Option<ReassemblySummary>,
}

impl Summary {
    /// The summary without the wall-clock figures, which differ between identical runs: what
    /// determinism checks compare.
    pub fn without_wall_clock(mut self) -> Self {
        self.wall_s = 0.0;
        self.events_per_s = None;
        self.sim_speed = None;
        self
    }
}

/// Routing drops at one node.
#[derive(Clone, Debug, Serialize)]
pub struct RoutingDrops {
    pub node: String,
    pub no_route: u64,
    pub ttl_expired: u64,
}

/// IPv4 reassembly at the destinations ([`ccsim_net::fragment`]).
#[derive(Clone, Debug, Serialize)]
pub struct ReassemblySummary {
    /// Datagrams delivered whole.
    pub datagrams: u64,
    /// Of those, delivered with the TCP header of an older datagram that had the same
    /// identification (the newer segment is lost).
    pub stale: u64,
    /// Incomplete datagrams discarded after 30 s.
    pub expired: u64,
    /// Incomplete datagrams held at the end of the run.
    pub pending: u64,
}

pub fn flow_summary(f: &Flow, end: Time, nodes: &[String]) -> FlowSummary {
    let finish = f.metrics.finish;
    let stop = finish.unwrap_or(end);
    let span = stop.saturating_sub(f.start).as_secs_f64();
    let mbps = |bytes: u64| {
        if span > 0.0 {
            bytes as f64 * 8.0 / span / 1e6
        } else {
            0.0
        }
    };
    let rtt = &f.metrics.rtt;
    let delivered = f.receiver.delivered_bytes();
    FlowSummary {
        id: f.id,
        cca: f.sender.cca_name().to_string(),
        src: nodes[f.src.0 as usize].clone(),
        dst: nodes[f.dst.0 as usize].clone(),
        start_s: f.start.as_secs_f64(),
        goodput_mbps: mbps(delivered),
        throughput_mbps: mbps(f.sender.stats.tx_bytes),
        bytes_delivered: delivered,
        rtt_mean_ms: rtt.mean_ms(),
        rtt_p50_ms: rtt.percentile_ms(50.0),
        rtt_p95_ms: rtt.percentile_ms(95.0),
        rtt_samples: rtt.samples(),
        retx_segments: f.sender.stats.retx_segments,
        tx_segments: f.sender.stats.tx_segments,
        timeouts: f.sender.stats.rto_count,
        fast_recoveries: f.sender.stats.fast_recoveries,
        fct_s: finish.map(|t| t.saturating_sub(f.start).as_secs_f64()),
        out_of_order_segments: f.metrics.out_of_order,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_like_numpy() {
        let d = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&d, 50.0), Some(2.5));
        assert!((percentile(&d, 95.0).unwrap() - 3.85).abs() < 1e-12);
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn jain() {
        assert_eq!(jain_index(&[1.0, 1.0]), Some(1.0));
        assert_eq!(jain_index(&[1.0, 0.0]), Some(0.5));
    }
}
