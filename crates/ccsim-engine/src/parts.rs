//! What a world is made of beyond nodes, links and flows: its routing protocol, its radio
//! side and its probe, chosen once by the builder as types (so the world calls them
//! directly, without dynamic dispatch).

use crate::probe::{NoProbe, Probe};
use crate::radio::{NoRadio, RadioPort};
use crate::routing::{NoRouting, RoutingProtocol};

pub trait Parts {
    /// The routing protocol routers may run (`World::routing.mesh`, optional at run time).
    type Routing: RoutingProtocol;
    /// The radio side (`World::radio`, optional at run time).
    type Radio: RadioPort;
    /// What records the run (`World::probe`, always present).
    type Probe: Probe + Default;
}

/// A world of static routes, no radio, recording nothing: links, flows and the event loop.
pub struct Plain;

impl Parts for Plain {
    type Routing = NoRouting;
    type Radio = NoRadio;
    type Probe = NoProbe;
}
