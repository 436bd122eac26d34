//! LTE access per eNodeB (`mesh.access = "lte"`): every small cell of the mesh is a cell of
//! ccsim's radio layer (`ccsim-radio`: PF or RR scheduler, RLC, HARQ) serving its UEs, with its
//! own router as the gateway: downlink packets enter the radio at the cell's router, uplink
//! ACKs leave it there (`RadioGlue::for_cells`).
//!
//! The cell's peak rate is `mesh.links.cell_capacity`, realised as a carrier and a cap on the
//! spectral efficiency (an MCS cap) that every UE reaches (docs/mesh.md, "LTE access"):
//! - `lena` (37 Mb/s): an LTE 20 MHz carrier (100 RB, 1 ms TTI, 3 control symbols) capped at
//!   37 Mb/s / (12.57 M resource elements per second · 0.9) = 3.27 bit/RE — ns-3 LENA's
//!   ~37 Mb/s per 20 MHz cell with 5–10 UEs comes from its UEs' SINR spread, which the cap
//!   stands for;
//! - `paper` (350 Mb/s) or a rate: an NR FR1 100 MHz carrier (30 kHz, 273 RB, 0.5 ms slots)
//!   capped at 350 Mb/s / (78.9 M RE/s · 0.9) = 4.93 bit/RE.
//!
//! (0.9: HARQ's 10 % BLER spends a tenth of the resources on retransmissions.)
//!
//! The cells do not interfere (each small cell on its own carrier, as the paper's per-cell
//! peak assumes) and the UEs stand still, each at `mesh.lte.ue_distance_m` from its eNodeB,
//! where the SINR is far above what the cap needs (checked: a
//! UE too far for it is an error naming the key).

use super::config::MeshConfig;
use super::topology::MeshTopology;
use crate::error::ScenarioError;
use crate::radio_glue::RadioGlue;
use ccsim_core::Time;
use ccsim_net::{DropTailQueue, Link, NodeId, QueueLimit};
use ccsim_radio::amc::{AmcModel, FrameConfig};
use ccsim_radio::ran::{ChannelConfig, InterferenceMode, SiteConfig, UeConfig};
use ccsim_radio::scheduler::SchedulerConfig;
use ccsim_radio::{MobilityConfig, Point3, RadioConfig, Technology};

/// eNodeB and UE antenna heights (m): a street-level small cell and a handheld UE.
const SITE_HEIGHT_M: f64 = 10.0;
const UE_HEIGHT_M: f64 = 1.5;

/// The carrier of a capacity: LTE 20 MHz for `lena`, NR FR1 100 MHz (µ = 1) otherwise.
pub fn carrier(capacity: &str) -> FrameConfig {
    if capacity == "lena" {
        FrameConfig::lte(20e6)
    } else {
        FrameConfig::nr(1, 100e6)
    }
}

/// The spectral-efficiency cap (bit/RE) that gives `rate_bps` of delivered packets on
/// `frame` when a share `bler` of the first transmissions fails (HARQ sends them again).
pub fn efficiency_cap(frame: &FrameConfig, bler: f64, rate_bps: u64) -> Result<f64, ScenarioError> {
    let re_per_s = frame.units_per_slot() as f64 / (frame.slot_ns as f64 * 1e-9) * (1.0 - bler);
    let se = rate_bps as f64 / re_per_s;
    // The top of CQI table 2 (256QAM, 0.93 code rate): no MCS carries more.
    let top = AmcModel::shannon_default().spectral_efficiency(200.0);
    if se > top {
        return Err(ScenarioError::new(
            "mesh.links.cell_capacity",
            format!(
                "{:.0} Mb/s needs {se:.2} bit/RE on the {:.0} MHz carrier, above the {top:.2} of \
                 256QAM; with access = \"lte\" use at most {:.0} Mb/s",
                rate_bps as f64 / 1e6,
                frame.bandwidth_hz / 1e6,
                top * re_per_s / 1e6
            ),
        ));
    }
    Ok(se)
}

/// The radio network of the mesh's cells and UEs.
pub fn radio_config(m: &MeshConfig, topo: &MeshTopology) -> Result<RadioConfig, ScenarioError> {
    let k = &m.lte;
    if !(k.ue_distance_m >= 1.0 && k.ue_distance_m <= 1000.0) {
        return Err(ScenarioError::new(
            "mesh.lte.ue_distance_m",
            format!("must be between 1 and 1000 metres, got {}", k.ue_distance_m),
        ));
    }
    let scheduler = match k.scheduler.as_str() {
        "pf" => SchedulerConfig::ProportionalFair {
            time_constant_us: 100_000,
        },
        "rr" => SchedulerConfig::RoundRobin,
        other => {
            return Err(ScenarioError::new(
                "mesh.lte.scheduler",
                format!("unknown scheduler `{other}`; allowed: pf, rr"),
            ))
        }
    };
    if k.rlc_buffer.0 < 1500 {
        return Err(ScenarioError::new(
            "mesh.lte.rlc_buffer",
            format!(
                "must hold at least one 1500 B packet, got {} B",
                k.rlc_buffer.0
            ),
        ));
    }
    let rate = super::topology::cell_rate(&m.links.cell_capacity)?;
    let frame = carrier(&m.links.cell_capacity);
    let mut lte = ccsim_radio::ran::TechnologyConfig::lte();
    let max_se = efficiency_cap(&frame, lte.cell.harq.bler, rate)?;
    lte.cell.frame = frame;
    lte.cell.amc = AmcModel::Shannon {
        ber: 1e-5,
        max_se,
        min_se: 0.1523,
    };
    lte.cell.scheduler = scheduler;
    lte.cell.rlc.buffer_bytes = k.rlc_buffer.0;
    let sites = (0..topo.cells)
        .map(|c| {
            let (x, y) = topo.routers[c + 1].pos;
            SiteConfig {
                name: topo.routers[c + 1].name.clone(),
                position: Point3 {
                    x,
                    y,
                    z: SITE_HEIGHT_M,
                },
                technology: Technology::Lte,
                tx_power_dbm: None,
            }
        })
        .collect();
    // Evenly around the eNodeB, in the order the UEs were dealt to it.
    let mut per_cell = vec![0usize; topo.cells];
    for &c in &topo.ue_cells {
        per_cell[c] += 1;
    }
    let mut seen = vec![0usize; topo.cells];
    let ues = topo
        .ue_cells
        .iter()
        .enumerate()
        .map(|(u, &c)| {
            let angle = std::f64::consts::TAU * seen[c] as f64 / per_cell[c] as f64;
            seen[c] += 1;
            let (x, y) = topo.routers[c + 1].pos;
            UeConfig {
                name: format!("U{u}"),
                mobility: MobilityConfig::Static {
                    position: Point3 {
                        x: x + k.ue_distance_m * angle.cos(),
                        y: y + k.ue_distance_m * angle.sin(),
                        z: UE_HEIGHT_M,
                    },
                },
                initial_site: Some(c),
            }
        })
        .collect();
    Ok(RadioConfig {
        mmwave: ccsim_radio::ran::TechnologyConfig::mmwave(),
        lte,
        sites,
        ues,
        obstacles: Vec::new(),
        channel: ChannelConfig {
            interference: InterferenceMode::None,
            ..ChannelConfig::default()
        },
        handover: Default::default(),
        connectivity: Default::default(),
        uplink_sched_delay_slots: 1,
        uplink_grant_period_us: 0,
    })
}

/// The radio hops as routing-only links (ids from `links.len()`): for UE u, `2u` from its
/// cell's router down to it and `2u + 1` back up (`RadioGlue`'s numbering).
pub fn pseudo_links(topo: &MeshTopology) -> Vec<Link> {
    let mk = |name: String, a: NodeId, z: NodeId| {
        Link::new(
            name,
            a,
            z,
            1,
            Time::ZERO,
            DropTailQueue::new(QueueLimit::Packets(1)),
        )
    };
    let mut out = Vec::with_capacity(2 * topo.ues.len());
    for (u, (&ue, &c)) in topo.ues.iter().zip(&topo.ue_cells).enumerate() {
        let router = topo.routers[c + 1].node;
        out.push(mk(format!("radio:U{u}"), router, ue));
        out.push(mk(format!("radio:U{u}:up"), ue, router));
    }
    out
}

/// The radio side of the mesh world: one RAN, each cell's gateway its router.
pub fn glue(
    cfg: &RadioConfig,
    topo: &MeshTopology,
    seed: u64,
    first_pseudo: u32,
) -> Result<RadioGlue, ScenarioError> {
    let gateways = (0..topo.cells).map(|c| topo.routers[c + 1].node).collect();
    let glue = RadioGlue::for_cells(cfg, seed, gateways, topo.ues.clone(), first_pseudo)
        .map_err(|e| ScenarioError::new("mesh.lte", e))?;
    // The preset holds only if every UE's SINR carries the capped efficiency.
    let AmcModel::Shannon { max_se, .. } = cfg.lte.cell.amc else {
        unreachable!("radio_config sets a capped Shannon AMC")
    };
    let net = glue.network().expect("for_cells builds a RAN");
    for (u, &c) in topo.ue_cells.iter().enumerate() {
        let se = net.cell(c).ue_probe(u).spectral_efficiency;
        if se < max_se * 0.999 {
            return Err(ScenarioError::new(
                "mesh.lte.ue_distance_m",
                format!(
                    "UE {u} gets {se:.2} bit/RE at {:.1} dB SINR, below the {max_se:.2} the cell \
                     capacity needs: place the UEs closer to their eNodeB",
                    net.sinr_db(u as u32, c)
                ),
            ));
        }
    }
    Ok(glue)
}
