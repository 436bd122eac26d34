//! OLSR information repositories (RFC 3626 §4): link, neighbour, 2-hop neighbour, MPR selector,
//! topology, interface association, host/network association and duplicate sets.
//!
//! Sets are vectors kept in insertion order, as ns-3.44's `OlsrState` keeps them: the order
//! decides ties (which neighbour becomes MPR, which next hop a route takes), so it is part of
//! the behaviour. Times are signed nanoseconds because ns-3 sets a new link's `L_SYM_time` to
//! `now − 1 s`, which is negative during the first second.

use std::collections::BTreeMap;

/// Signed simulated time in nanoseconds (see the module doc).
pub(crate) type Nanos = i64;

/// Link Set tuple (RFC 3626 §4.2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkTuple {
    pub local_iface_addr: u32,
    pub neighbor_iface_addr: u32,
    /// The link is symmetric until this time.
    pub sym_time: Nanos,
    /// The link is heard (asymmetric) until this time.
    pub asym_time: Nanos,
    /// The tuple expires at this time.
    pub time: Nanos,
}

/// Neighbor Set tuple (RFC 3626 §4.3.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeighborTuple {
    pub main_addr: u32,
    /// True for `SYM`, false for `NOT_SYM`.
    pub symmetric: bool,
    pub willingness: u8,
}

/// 2-hop Neighbor Set tuple (RFC 3626 §4.3.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoHopTuple {
    pub neighbor_main_addr: u32,
    pub two_hop_addr: u32,
    pub expires: Nanos,
}

/// MPR Selector Set tuple (RFC 3626 §4.3.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MprSelectorTuple {
    pub main_addr: u32,
    pub expires: Nanos,
}

/// Topology Set tuple (RFC 3626 §4.4): `dest` is reachable in one hop from `last`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologyTuple {
    pub dest_addr: u32,
    pub last_addr: u32,
    pub seq: u16,
    pub expires: Nanos,
}

/// Interface Association Set tuple (RFC 3626 §4.1). `expires == None` for this router's own
/// interfaces, which ns-3 records at start-up so that its own addresses map to its main one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IfaceAssocTuple {
    pub iface_addr: u32,
    pub main_addr: u32,
    pub expires: Option<Nanos>,
}

/// Association Set tuple (RFC 3626 §12.4): `gateway` announced `network/netmask` by HNA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssociationTuple {
    pub gateway_addr: u32,
    pub network: u32,
    pub netmask: u32,
    pub expires: Nanos,
}

/// Duplicate Set tuple (RFC 3626 §3.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateTuple {
    pub expires: Nanos,
    pub retransmitted: bool,
    /// Local interface addresses the message was received on.
    pub iface_addrs: Vec<u32>,
}

/// All of one router's OLSR state.
#[derive(Clone, Debug, Default)]
pub struct OlsrState {
    pub links: Vec<LinkTuple>,
    pub neighbors: Vec<NeighborTuple>,
    pub two_hop: Vec<TwoHopTuple>,
    /// MPR set (RFC 3626 §4.3.3), sorted (ns-3 keeps a `std::set`).
    pub mprs: Vec<u32>,
    pub mpr_selectors: Vec<MprSelectorTuple>,
    pub topology: Vec<TopologyTuple>,
    pub iface_assoc: Vec<IfaceAssocTuple>,
    pub associations: Vec<AssociationTuple>,
    /// Keyed by (originator, message sequence number); order never matters for it.
    pub duplicates: BTreeMap<(u32, u16), DuplicateTuple>,
}

impl OlsrState {
    /// Main address of the router owning `iface_addr` (RFC 3626 §5.4's mapping; the address
    /// itself when no MID has told otherwise). ns-3 `GetMainAddress`.
    pub fn main_addr_of(&self, iface_addr: u32) -> u32 {
        self.iface_assoc
            .iter()
            .find(|t| t.iface_addr == iface_addr)
            .map_or(iface_addr, |t| t.main_addr)
    }

    pub fn link_index(&self, neighbor_iface_addr: u32) -> Option<usize> {
        self.links
            .iter()
            .position(|l| l.neighbor_iface_addr == neighbor_iface_addr)
    }

    /// The link tuple towards `neighbor_iface_addr` if it is symmetric at `now`. As ns-3's
    /// `FindSymLinkTuple`: only the first tuple for that address counts, and `L_SYM_time`
    /// must be strictly in the future.
    pub fn sym_link(&self, neighbor_iface_addr: u32, now: Nanos) -> Option<&LinkTuple> {
        self.links
            .iter()
            .find(|l| l.neighbor_iface_addr == neighbor_iface_addr)
            .filter(|l| l.sym_time > now)
    }

    pub fn neighbor_index(&self, main_addr: u32) -> Option<usize> {
        self.neighbors.iter().position(|n| n.main_addr == main_addr)
    }

    pub fn is_sym_neighbor(&self, main_addr: u32) -> bool {
        self.neighbors
            .iter()
            .any(|n| n.main_addr == main_addr && n.symmetric)
    }

    /// Inserts a neighbour tuple, replacing the one with the same main address (ns-3
    /// `InsertNeighborTuple`).
    pub fn insert_neighbor(&mut self, tuple: NeighborTuple) {
        match self.neighbor_index(tuple.main_addr) {
            Some(i) => self.neighbors[i] = tuple,
            None => self.neighbors.push(tuple),
        }
    }

    pub fn two_hop_index(&self, neighbor_main_addr: u32, two_hop_addr: u32) -> Option<usize> {
        self.two_hop.iter().position(|t| {
            t.neighbor_main_addr == neighbor_main_addr && t.two_hop_addr == two_hop_addr
        })
    }

    pub fn mpr_selector_index(&self, main_addr: u32) -> Option<usize> {
        self.mpr_selectors
            .iter()
            .position(|t| t.main_addr == main_addr)
    }

    pub fn is_mpr(&self, main_addr: u32) -> bool {
        self.mprs.binary_search(&main_addr).is_ok()
    }

    pub fn topology_index(&self, dest_addr: u32, last_addr: u32) -> Option<usize> {
        self.topology
            .iter()
            .position(|t| t.dest_addr == dest_addr && t.last_addr == last_addr)
    }

    pub fn iface_assoc_index(&self, iface_addr: u32) -> Option<usize> {
        self.iface_assoc
            .iter()
            .position(|t| t.iface_addr == iface_addr)
    }

    pub fn association_index(&self, gateway: u32, network: u32, netmask: u32) -> Option<usize> {
        self.associations
            .iter()
            .position(|t| t.gateway_addr == gateway && t.network == network && t.netmask == netmask)
    }
}
