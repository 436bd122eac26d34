//! The radio part of the run summary: per-cell and per-UE counters, handovers, NLOS
//! intervals, trace links and the vertical handover.

use super::RadioGlue;
use ccsim_core::Time;
use ccsim_radio::Technology;
use serde::Serialize;

/// An exact NLOS interval of a UE towards a cell (from the geometry, not sampled).
#[derive(Clone, Debug, Serialize)]
pub struct NlosInterval {
    pub ue: u32,
    pub cell: u32,
    pub start_s: f64,
    pub end_s: f64,
    pub duration_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct CellSummary {
    pub id: u32,
    pub name: String,
    pub technology: String,
    pub position: [f64; 3],
    pub busy_slots: u64,
    pub tbs: u64,
    pub tb_retransmissions: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
    pub retx_packets: u64,
    /// `tx_packets + retx_packets`: the packets the cell put on the air (seed 000 Fig. 5).
    pub transmissions: u64,
    pub delivered_packets: u64,
    pub lost_packets: u64,
    pub dropped_packets: u64,
    /// RLC AM PDUs retransmitted by ARQ (`rlc.model = "entity"` only; absent when 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub arq_retransmissions: u64,
    /// Whole AM PDUs the UEs ignored for an incomplete segment set (`rlc.resegment_retx`).
    #[serde(skip_serializing_if = "is_zero")]
    pub ignored_whole_pdus: u64,
    /// `harq.model = "processes"`: new TBs whose first transmission failed, those never
    /// resent by HARQ, and TBs whose data HARQ left undecoded (RLC's to repair).
    #[serde(skip_serializing_if = "is_zero")]
    pub harq_failed_first: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub harq_never_resent: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub harq_lost_tbs: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[derive(Clone, Debug, Serialize)]
pub struct UeSummary {
    pub id: u32,
    pub name: String,
    pub serving_cell: u32,
    pub handovers: u32,
    pub rlc_drops: u64,
    pub lost_radio: u64,
    pub lost_handover_flush: u64,
    pub lost_forward_overflow: u64,
    /// Copies sent again at handovers (RLC AM, sent but not yet acknowledged at the source).
    pub resent_packets: u64,
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct HandoverSummary {
    pub t_s: f64,
    pub ue: u32,
    pub from: u32,
    pub to: u32,
    pub forwarded: u32,
    pub lost: u32,
    /// Sent at the source but not yet acknowledged there, so forwarded again (RLC AM).
    pub resent: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct TraceLinkSummary {
    pub name: String,
    pub delivered_packets: u64,
    pub drops: u64,
    pub queue_bytes: u64,
    pub max_queue_bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerticalHandoverSummary {
    pub links: [String; 2],
    /// Packets offered to the pair during an outage (lost).
    pub lost_packets: u64,
    /// Packets waiting in the old link's queue when it went down (lost).
    pub flushed_packets: u64,
    pub first_loss_s: Option<f64>,
    pub last_loss_s: Option<f64>,
    /// Per handover: the recovery time (docs/radio.md, `ccsim_radio::vertical_recovery`).
    pub events: Vec<VerticalHandoverEventSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct VerticalHandoverEventSummary {
    pub at_s: f64,
    pub outage_s: f64,
    pub to: String,
    /// Goodput the flows must reach on the new link (80 % of its rate), Mb/s.
    pub target_mbps: f64,
    /// From the end of the outage to the end of the first 1 s window whose in-order goodput
    /// reaches `target_mbps`; `None` if it never does before the next handover or the end.
    pub recovery_s: Option<f64>,
}

/// The radio part of the run summary (`summary.json` key `radio`).
#[derive(Clone, Debug, Serialize)]
pub struct RadioSummary {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ues: Vec<UeSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handovers: Option<Vec<HandoverSummary>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nlos: Option<Vec<NlosInterval>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trace_links: Vec<TraceLinkSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_handover: Option<VerticalHandoverSummary>,
}

impl RadioGlue {
    pub fn summary(&self) -> RadioSummary {
        let mut out = RadioSummary {
            cells: Vec::new(),
            ues: Vec::new(),
            handovers: None,
            nlos: None,
            trace_links: self
                .traces
                .iter()
                .map(|t| TraceLinkSummary {
                    name: t.name.clone(),
                    delivered_packets: t.link.delivered,
                    drops: t.link.drops,
                    queue_bytes: t.link.queue_bytes(),
                    max_queue_bytes: t.max_queue_bytes,
                })
                .collect(),
            vertical_handover: self.vho.as_ref().map(|v| VerticalHandoverSummary {
                links: v.names.clone(),
                lost_packets: v.lost_packets,
                flushed_packets: v.flushed_packets,
                first_loss_s: v.first_loss.map(Time::as_secs_f64),
                last_loss_s: v.last_loss.map(Time::as_secs_f64),
                events: v
                    .vh
                    .events
                    .iter()
                    .enumerate()
                    .map(|(k, e)| VerticalHandoverEventSummary {
                        at_s: e.at_us as f64 / 1e6,
                        outage_s: e.outage_us as f64 / 1e6,
                        to: v.names[e.to_link].clone(),
                        target_mbps: v.recovery.target_bps(k) / 1e6,
                        recovery_s: v.recovery.recovery(k).map(Time::as_secs_f64),
                    })
                    .collect(),
            }),
        };
        if let Some(r) = &self.ran {
            out.cells = (0..r.ran.num_sites())
                .map(|c| {
                    let k = r.ran.cell_counters(c);
                    CellSummary {
                        id: c as u32,
                        name: r.cell_names[c].clone(),
                        technology: match r.cell_tech[c] {
                            Technology::Mmwave => "mmwave".into(),
                            Technology::Lte => "lte".into(),
                        },
                        position: r.cell_pos[c],
                        busy_slots: k.busy_slots,
                        tbs: k.tbs,
                        tb_retransmissions: k.tb_retransmissions,
                        tx_bytes: k.tx_bytes,
                        tx_packets: k.tx_packets,
                        retx_packets: k.retx_packets,
                        transmissions: k.tx_packets + k.retx_packets,
                        delivered_packets: k.delivered_packets,
                        lost_packets: k.lost_packets,
                        dropped_packets: k.dropped_packets,
                        arq_retransmissions: k.arq_retransmissions,
                        ignored_whole_pdus: k.ignored_whole_pdus,
                        harq_failed_first: k.harq_failed_first,
                        harq_never_resent: k.harq_never_resent,
                        harq_lost_tbs: k.harq_lost_tbs,
                    }
                })
                .collect();
            out.ues = r
                .counters
                .iter()
                .enumerate()
                .map(|(u, c)| UeSummary {
                    id: u as u32,
                    name: r.ue_names[u].clone(),
                    serving_cell: r.ran.serving_site(u as u32) as u32,
                    handovers: r.ran.ue_probe(u as u32, Time::ZERO).handovers,
                    rlc_drops: c.rlc_drops,
                    lost_radio: c.lost_radio,
                    lost_handover_flush: c.lost_handover_flush,
                    lost_forward_overflow: c.lost_forward_overflow,
                    resent_packets: c.resent,
                    delivered_packets: c.delivered_packets,
                    delivered_bytes: c.delivered_bytes,
                })
                .collect();
            out.handovers = Some(
                r.ran
                    .handover_log()
                    .iter()
                    .map(|h| HandoverSummary {
                        t_s: h.at.as_secs_f64(),
                        ue: h.ue,
                        from: h.from as u32,
                        to: h.to as u32,
                        forwarded: h.forwarded,
                        lost: h.lost,
                        resent: h.resent,
                    })
                    .collect(),
            );
            out.nlos = Some(r.nlos.clone());
        }
        out
    }
}
