//! A TCP flow in the world: its sender/receiver pair, timers, application source, metrics.

use crate::flow_metrics::FlowMetrics;
use ccsim_core::Time;
use ccsim_net::NodeId;
use ccsim_tcp::{TcpReceiver, TcpSender};

pub struct Flow {
    pub id: u32,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: Time,
    pub bytes: Option<u64>,
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub(crate) sender_timer: Option<Time>,
    pub(crate) receiver_timer: Option<Time>,
    /// Index in `World::ip_ids` of the identification counter of each direction
    /// ([sender → receiver, receiver → sender]).
    pub(crate) ip_id_slot: [u32; 2],
    pub metrics: FlowMetrics,
    /// Rate-limited / on-off source; None for bulk and fixed-size transfers.
    pub app: Option<crate::app::AppSource>,
}

impl Flow {
    pub fn new(
        id: u32,
        src: NodeId,
        dst: NodeId,
        start: Time,
        bytes: Option<u64>,
        sender: TcpSender,
        receiver: TcpReceiver,
    ) -> Self {
        Flow {
            id,
            src,
            dst,
            start,
            bytes,
            sender,
            receiver,
            sender_timer: None,
            receiver_timer: None,
            ip_id_slot: [0, 0],
            metrics: FlowMetrics::default(),
            app: None,
        }
    }

    /// Gives the flow an application source (its sender must start with nothing written).
    pub fn with_app(mut self, app: crate::app::AppSource) -> Self {
        self.app = Some(app);
        self
    }
}

/// Gives every flow direction its IPv4 identification counter, one per (source, destination)
/// pair of hosts, and returns the counters (all starting at 0, as ns-3's).
pub(crate) fn assign_ip_id_counters(flows: &mut [Flow]) -> Vec<u16> {
    let mut pairs: Vec<(NodeId, NodeId)> = Vec::new();
    let mut slot = |pair: (NodeId, NodeId)| -> u32 {
        let i = pairs.iter().position(|&p| p == pair).unwrap_or_else(|| {
            pairs.push(pair);
            pairs.len() - 1
        });
        i as u32
    };
    for f in flows.iter_mut() {
        f.ip_id_slot = [slot((f.src, f.dst)), slot((f.dst, f.src))];
    }
    vec![0; pairs.len()]
}
