//! The radio side as the engine drives it: [`RadioGlue`] behind [`RadioPort`].

use crate::radio_glue::RadioGlue;
use crate::world::Event;
use ccsim_core::{EventQueue, Time};
use ccsim_engine::RadioPort;
use ccsim_net::{Link, LinkId, NodeId, PacketArena, PacketId};

impl RadioPort for RadioGlue {
    fn start(&mut self, queue: &mut EventQueue<Event>) {
        RadioGlue::start(self, queue);
    }

    #[inline]
    fn steer(
        &mut self,
        now: Time,
        l: LinkId,
        id: PacketId,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    ) -> Option<LinkId> {
        RadioGlue::steer(self, now, l, id, packets, queue)
    }

    fn on_event(
        &mut self,
        now: Time,
        k: u32,
        packets: &mut PacketArena,
        queue: &mut EventQueue<Event>,
    ) {
        RadioGlue::on_event(self, now, k, packets, queue);
    }

    fn on_vertical_handover(
        &mut self,
        now: Time,
        i: u32,
        links: &mut [Link],
        packets: &mut PacketArena,
    ) {
        RadioGlue::on_vertical_handover(self, now, i, links, packets);
    }

    #[inline]
    fn arrive(
        &mut self,
        now: Time,
        k: u32,
        queue: &mut EventQueue<Event>,
    ) -> (NodeId, PacketId, bool) {
        RadioGlue::arrive(self, now, k, queue)
    }

    fn on_sample(&mut self, now: Time, delivered_bytes: u64) {
        self.record(now);
        self.on_delivered_sample(now, delivered_bytes);
    }
}
