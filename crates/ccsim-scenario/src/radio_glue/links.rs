//! The radio's other links: Mahimahi trace-driven links and the seed-003 vertical handover
//! between two parallel links.

use crate::config::Scenario;
use crate::error::ScenarioError;
use crate::world::Event;
use ccsim_core::{EventQueue, Time};
use ccsim_net::{Link, LinkId, NodeId, PacketArena, PacketId};
use ccsim_radio::handover::{LinkState, VerticalHandover, VerticalHandoverEvent};
use ccsim_radio::trace::{MahimahiTrace, TraceLink};
use ccsim_radio::vertical_recovery::RecoveryMeter;

pub(super) struct Trace {
    pub(super) name: String,
    pub(super) link: TraceLink,
    pub(super) to: NodeId,
    pub(super) delay: Time,
    pub(super) scheduled: Option<Time>,
    pub(super) scratch: Vec<(u32, Time)>,
    pub(super) max_queue_bytes: u64,
}

impl Trace {
    pub(super) fn arm(&mut self, now: Time, k: u32, queue: &mut EventQueue<Event>) {
        if let Some(t) = self.link.next_deadline() {
            let t = t.max(now);
            if self.scheduled.is_none_or(|cur| t < cur) {
                self.scheduled = Some(t);
                queue.schedule_timer(t, Event::Radio(k));
            }
        }
    }

    pub(super) fn on_event(&mut self, now: Time, k: u32, queue: &mut EventQueue<Event>) {
        if self.scheduled != Some(now) {
            return;
        }
        self.scheduled = None;
        self.link.on_deadline(now, &mut self.scratch);
        for (p, at) in self.scratch.drain(..) {
            queue.schedule(at + self.delay, Event::ArriveAt(self.to, PacketId(p)));
        }
        self.arm(now, k, queue);
    }
}

pub(super) fn read_trace(
    s: &Scenario,
    i: usize,
    file: &str,
) -> Result<MahimahiTrace, ScenarioError> {
    let path = format!("trace_links[{i}].trace");
    let p = std::path::Path::new(file);
    let full = match &s.base_dir {
        Some(dir) if p.is_relative() => dir.join(p),
        _ => p.to_path_buf(),
    };
    let text = std::fs::read_to_string(&full)
        .map_err(|e| ScenarioError::new(&path, format!("cannot read `{}`: {e}", full.display())))?;
    MahimahiTrace::parse(&text).map_err(|e| {
        ScenarioError::new(
            &path,
            format!("`{}` line {}: {}", full.display(), e.line, e.message),
        )
    })
}

pub(super) struct Vho {
    pub(super) vh: VerticalHandover,
    /// `[L1, L2]` per direction.
    pub(super) pairs: Vec<[LinkId; 2]>,
    pub(super) names: [String; 2],
    pub(super) lost_packets: u64,
    pub(super) flushed_packets: u64,
    pub(super) first_loss: Option<Time>,
    pub(super) last_loss: Option<Time>,
    pub(super) recovery: RecoveryMeter,
}

impl Vho {
    #[inline]
    pub(super) fn steer(
        &mut self,
        now: Time,
        l: LinkId,
        id: PacketId,
        packets: &mut PacketArena,
    ) -> Option<LinkId> {
        for pair in &self.pairs {
            if l == pair[0] || l == pair[1] {
                return match self.vh.state(now) {
                    LinkState::Active(i) => Some(pair[i]),
                    LinkState::Outage { .. } => {
                        packets.remove(id);
                        self.lost_packets += 1;
                        self.first_loss.get_or_insert(now);
                        self.last_loss = Some(now);
                        None
                    }
                };
            }
        }
        Some(l)
    }
}

pub(super) fn build_vho(
    v: &crate::radio_spec::VerticalHandoverSpec,
    links: &[Link],
) -> Result<Vho, ScenarioError> {
    let p = "vertical_handover";
    if v.links.len() != 2 {
        return Err(ScenarioError::new(
            format!("{p}.links"),
            format!(
                "needs exactly two link names [L1, L2], got {}",
                v.links.len()
            ),
        ));
    }
    let find = |name: &str, i: usize| -> Result<LinkId, ScenarioError> {
        let mut hits = links.iter().enumerate().filter(|(_, l)| l.name == name);
        match (hits.next(), hits.next()) {
            (Some((k, _)), None) => Ok(LinkId(k as u32)),
            (Some(_), Some(_)) => Err(ScenarioError::new(
                format!("{p}.links[{i}]"),
                format!("more than one link is named `{name}`; give the links distinct names"),
            )),
            (None, _) => Err(ScenarioError::new(
                format!("{p}.links[{i}]"),
                format!(
                    "unknown link `{name}`; links: {}",
                    links
                        .iter()
                        .map(|l| l.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    };
    let a = find(&v.links[0], 0)?;
    let b = find(&v.links[1], 1)?;
    let (la, lb) = (&links[a.0 as usize], &links[b.0 as usize]);
    if a == b || la.from != lb.from || la.to != lb.to {
        return Err(ScenarioError::new(
            format!("{p}.links"),
            "the two links must be different and join the same two nodes in the same direction",
        ));
    }
    let mut pairs = vec![[a, b]];
    // The reverse directions of bidirectional links switch too.
    let rev = |l: &Link| {
        links
            .iter()
            .position(|r| r.from == l.to && r.to == l.from && r.name == format!("{}:rev", l.name))
            .map(|k| LinkId(k as u32))
    };
    if let (Some(ra), Some(rb)) = (rev(la), rev(lb)) {
        pairs.push([ra, rb]);
    }
    if v.initial > 1 {
        return Err(ScenarioError::new(
            format!("{p}.initial"),
            format!("must be 0 or 1, got {}", v.initial),
        ));
    }
    let mut events = Vec::new();
    for (i, e) in v.events.iter().enumerate() {
        if e.to > 1 {
            return Err(ScenarioError::new(
                format!("{p}.events[{i}].to"),
                format!("must be 0 or 1, got {}", e.to),
            ));
        }
        events.push(VerticalHandoverEvent {
            at_us: e.at.time().as_nanos() / 1000,
            outage_us: e.outage.time().as_nanos() / 1000,
            to_link: e.to,
        });
    }
    let vh = VerticalHandover {
        initial_link: v.initial,
        events,
    };
    vh.validate()
        .map_err(|m| ScenarioError::new(format!("{p}.events"), m))?;
    let recovery = RecoveryMeter::new(&vh, [la.rate_bps, lb.rate_bps]);
    Ok(Vho {
        recovery,
        vh,
        pairs,
        names: [v.links[0].clone(), v.links[1].clone()],
        lost_packets: 0,
        flushed_packets: 0,
        first_loss: None,
        last_loss: None,
    })
}
