//! The scenario's probe: the flow and queue series ([`Series`]), the optional per-segment
//! trace of one flow ([`SegmentTrace`]), and any probes a caller adds.

use crate::metrics::Series;
use crate::seg_trace::SegmentTrace;
use ccsim_core::Time;
use ccsim_engine::{Flow, Probe};
use ccsim_net::{Link, LinkId, Packet, TcpSegment};
use ccsim_tcp::TcpSender;

#[derive(Default)]
pub struct Recorder {
    /// Flow and queue samples every `output.sample_interval`.
    pub series: Series,
    /// Per-segment log of one flow (debugging; see [`crate::seg_trace`]).
    pub seg_trace: Option<SegmentTrace>,
    /// Further probes, called after the built-in ones in the order added.
    pub extra: Vec<Box<dyn Probe + Send>>,
}

impl Probe for Recorder {
    fn on_sample(&mut self, now: Time, flows: &[Flow], links: &[Link]) {
        self.series.record(now, flows, links);
        for p in &mut self.extra {
            p.on_sample(now, flows, links);
        }
    }

    #[inline]
    fn on_tcp_sent(&mut self, now: Time, flow: u32, to_receiver: bool, seg: &TcpSegment) {
        if to_receiver {
            if let Some(t) = self.seg_trace.as_mut() {
                t.sent(now, flow, seg);
            }
        }
        for p in &mut self.extra {
            p.on_tcp_sent(now, flow, to_receiver, seg);
        }
    }

    fn on_queue_drop(&mut self, now: Time, link: LinkId, packet: &Packet) {
        if let Some(t) = self.seg_trace.as_mut() {
            t.dropped(now, packet);
        }
        for p in &mut self.extra {
            p.on_queue_drop(now, link, packet);
        }
    }

    #[inline]
    fn on_ack_arrival(&mut self, now: Time, flow: u32, seg: &TcpSegment) {
        if let Some(t) = self.seg_trace.as_mut() {
            t.acked(now, flow, seg);
        }
        for p in &mut self.extra {
            p.on_ack_arrival(now, flow, seg);
        }
    }

    #[inline]
    fn on_ack_processed(&mut self, now: Time, flow: u32, sender: &TcpSender) {
        if let Some(t) = self.seg_trace.as_mut() {
            if let Some(rs) = sender.rate_sample_of_last_ack() {
                t.rate_sample(now, flow, rs);
            }
        }
        for p in &mut self.extra {
            p.on_ack_processed(now, flow, sender);
        }
    }
}
