//! How a radio side attaches to the world (`ccsim-scenario`'s `RadioGlue`: the RAN, trace
//! links, vertical handover). The world hands it the packets whose next hop is one of its
//! links, its own events, and the sampling instants; it hands packets back as
//! [`Event::ArriveAt`] events, or through delivery lines ([`Event::RadioArrive`]).

use crate::event::Event;
use ccsim_core::{EventQueue, Time};
use ccsim_net::{Link, LinkId, NodeId, PacketArena, PacketId};

pub trait RadioPort {
    /// Schedules the first events (before the run starts).
    fn start(&mut self, queue: &mut EventQueue<Event>);

    /// A packet at some node has next hop `l`: returns the link to use, or `None` when the
    /// radio took the packet (queued, sent uplink, or lost and freed).
    fn steer(
        &mut self,
        now: Time,
        l: LinkId,
        id: PacketId,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    ) -> Option<LinkId>;

    /// One of its own [`Event::Radio`] events.
    fn on_event(
        &mut self,
        now: Time,
        k: u32,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    );

    /// [`Event::VerticalHandover`] `i` starts its outage.
    fn on_vertical_handover(
        &mut self,
        now: Time,
        i: u32,
        links: &mut [Link],
        packets: &mut PacketArena,
    );

    /// [`Event::RadioArrive`] `k`: the head of delivery line `k` is due; returns the node it
    /// reaches, the packet, and whether the line's next packet is due now right behind it
    /// (then the world takes it at once: [`ccsim_core::DelayLine::pop_run`]).
    fn arrive(
        &mut self,
        now: Time,
        k: u32,
        queue: &mut EventQueue<Event>,
    ) -> (NodeId, PacketId, bool);

    /// A sampling instant (`output.sample_interval`): record its series rows.
    /// `delivered_bytes`: what all flows' receiving applications got in order so far (the
    /// vertical handover's recovery time is measured from it).
    fn on_sample(&mut self, now: Time, delivered_bytes: u64);
}

/// No radio (it has no values).
pub enum NoRadio {}

impl RadioPort for NoRadio {
    fn start(&mut self, _: &mut EventQueue<Event>) {
        match *self {}
    }
    fn steer(
        &mut self,
        _: Time,
        _: LinkId,
        _: PacketId,
        _: &mut PacketArena,
        _: &mut EventQueue<Event>,
    ) -> Option<LinkId> {
        match *self {}
    }
    fn on_event(&mut self, _: Time, _: u32, _: &mut PacketArena, _: &mut EventQueue<Event>) {
        match *self {}
    }
    fn on_vertical_handover(&mut self, _: Time, _: u32, _: &mut [Link], _: &mut PacketArena) {
        match *self {}
    }
    fn arrive(&mut self, _: Time, _: u32, _: &mut EventQueue<Event>) -> (NodeId, PacketId, bool) {
        match *self {}
    }
    fn on_sample(&mut self, _: Time, _: u64) {
        match *self {}
    }
}
