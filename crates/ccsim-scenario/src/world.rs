//! The world of a scenario: `ccsim-engine`'s [`ccsim_engine::World`] with the scenario's
//! parts — the mesh routing protocols, the radio side and the [`Recorder`] probe.

use crate::mesh::MeshRouting;
use crate::probes::Recorder;
use crate::radio_glue::RadioGlue;
use ccsim_engine::Parts;

pub use ccsim_engine::{Event, Flow, LinkChange};

/// The parts a scenario's world is built with.
pub struct ScenarioParts;

impl Parts for ScenarioParts {
    type Routing = MeshRouting;
    type Radio = RadioGlue;
    type Probe = Recorder;
}

/// A scenario's world.
pub type World = ccsim_engine::World<ScenarioParts>;
