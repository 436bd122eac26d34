//! BP-MR in the world: the neighbourhood a router sees for one packet (backlogs read from
//! the neighbours directly — the centralized variant, see `ccsim_routing::backpressure`), the
//! packets a router holds while no neighbour has a positive weight, and the per-flow table.

use super::routing::MeshRouting;
use ccsim_core::{RngStream, Time};
use ccsim_engine::Route;
use ccsim_net::{Link, NodeId, PacketId};
use ccsim_routing::backpressure::{next_hop, Choice, FlowTable, Granularity, Here, Neighbour};
use std::collections::VecDeque;

pub struct BpState {
    table: FlowTable,
    /// Packets each router keeps (FIFO), with the node each came from.
    hold: Vec<VecDeque<(PacketId, Option<NodeId>)>>,
    /// Q_th per router: the sum of its mesh queues' capacities (packets), which is also the
    /// most it holds.
    qth: Vec<u32>,
    rng: RngStream,
    scratch: Vec<Neighbour>,
    /// Decisions taken (fresh weight computations) and packets held at least once.
    pub decisions: u64,
    pub holds: u64,
}

impl BpState {
    pub fn new(granularity: Granularity, qth: Vec<u32>, flow_keys: usize, seed: u64) -> Self {
        let routers = qth.len();
        BpState {
            table: FlowTable::new(granularity, routers, flow_keys),
            hold: qth
                .iter()
                .map(|&q| VecDeque::with_capacity(q as usize))
                .collect(),
            qth,
            rng: RngStream::new(seed, "bp-mr ties"),
            scratch: Vec::with_capacity(16),
            decisions: 0,
            holds: 0,
        }
    }

    pub fn held(&self, r: u32) -> usize {
        self.hold[r as usize].len()
    }

    /// Keeps a packet at router `r`; false (drop it) when the router's queue is full.
    pub fn hold(&mut self, r: u32, id: PacketId, from: Option<NodeId>) -> bool {
        let h = &mut self.hold[r as usize];
        if h.len() >= self.qth[r as usize] as usize {
            return false;
        }
        h.push_back((id, from));
        self.holds += 1;
        true
    }

    pub fn front(&self, r: u32) -> Option<(PacketId, Option<NodeId>)> {
        self.hold[r as usize].front().copied()
    }

    pub fn pop_front(&mut self, r: u32) {
        self.hold[r as usize].pop_front();
    }

    /// Every packet still held (end-of-run accounting).
    pub fn total_held(&self) -> usize {
        self.hold.iter().map(|h| h.len()).sum()
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// BP-MR's next hop at router `r` for a packet towards router `dst` (flow key `key`).
#[allow(clippy::too_many_arguments)]
pub fn route(
    m: &mut MeshRouting,
    now: Time,
    r: u32,
    dst: u32,
    key: usize,
    ttl: u8,
    from: Option<NodeId>,
    links: &[Link],
) -> Route {
    let router_pos = m.routers[r as usize].pos;
    {
        let bp = bp_of(m);
        if let Some(port) = bp.table.lookup(r as usize, key, now, ttl) {
            let router = &m.routers[r as usize];
            return Route::Link(router.ports[port as usize].link);
        }
    }
    let dst_pos = m.routers[dst as usize].pos;
    let mut scratch = std::mem::take(&mut bp_of(m).scratch);
    scratch.clear();
    let router = &m.routers[r as usize];
    for p in &router.ports {
        let peer = &m.routers[p.peer as usize];
        scratch.push(Neighbour {
            queue: m.backlog(p.peer, links),
            rate_mbps: links[p.link.0 as usize].rate_bps as f64 / 1e6,
            distance_to_dst: distance(peer.pos, dst_pos),
            is_destination: p.peer == dst,
            is_previous_hop: from == Some(peer.node),
            live: true,
        });
    }
    let here = Here {
        queue: m.backlog(r, links),
        distance_to_dst: distance(router_pos, dst_pos),
        queue_threshold: bp_of(m).qth[r as usize],
        ttl,
    };
    let bp = bp_of(m);
    bp.decisions += 1;
    let rng = &mut bp.rng;
    let choice = next_hop(&here, &scratch, |k| rng.below(k as u64) as usize);
    bp.scratch = scratch;
    match choice {
        Choice::Hold => Route::Hold,
        Choice::Forward(j) => {
            bp.table.insert(r as usize, key, now, ttl, j as u32);
            Route::Link(m.routers[r as usize].ports[j].link)
        }
    }
}

fn bp_of(m: &mut MeshRouting) -> &mut BpState {
    m.bp_mut().expect("BP-MR routing")
}
