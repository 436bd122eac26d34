//! Probes: what the world reports while it runs, for whoever records it (the scenario's
//! series and segment trace, a test's own counter). Every hook has an empty default, so a
//! probe implements only what it needs and the others cost nothing.
//!
//! Hooks see the world's state by shared reference and cannot change the run: a run with a
//! probe is bit-identical to one without.

use crate::flow::Flow;
use ccsim_core::Time;
use ccsim_net::{Link, LinkId, Packet, TcpSegment};
use ccsim_tcp::TcpSender;

pub trait Probe {
    /// A sampling instant (every `output.sample_interval`, from time 0).
    fn on_sample(&mut self, _now: Time, _flows: &[Flow], _links: &[Link]) {}

    /// A TCP endpoint of `flow` sends `seg` (`to_receiver`: a data segment from the sender;
    /// else an ACK from the receiver), before it is routed.
    fn on_tcp_sent(&mut self, _now: Time, _flow: u32, _to_receiver: bool, _seg: &TcpSegment) {}

    /// Link `link`'s queue is full: `packet` is dropped (after this call).
    fn on_queue_drop(&mut self, _now: Time, _link: LinkId, _packet: &Packet) {}

    /// A segment reaches the sender of `flow`, before the sender processes it.
    fn on_ack_arrival(&mut self, _now: Time, _flow: u32, _seg: &TcpSegment) {}

    /// The sender of `flow` has processed an ACK (its rate sample, RTT, window are updated).
    fn on_ack_processed(&mut self, _now: Time, _flow: u32, _sender: &TcpSender) {}
}

/// The probe that records nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbe;

impl Probe for NoProbe {}
