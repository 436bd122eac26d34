//! The radio access network the world drives: sites (mmWave and LTE cells), moving UEs,
//! obstacles, periodic channel updates, handover and dual connectivity, all sans-IO.
//!
//! Contract with the event loop (see the crate README):
//! - [`RadioNetwork::enqueue`] when a downlink packet reaches the RAN (the S1-U end): the packet
//!   goes to the UE's serving cell's RLC buffer or is dropped (full buffer).
//! - [`RadioNetwork::next_deadline`] after every call; schedule one event at that time (lazily,
//!   like the TCP timers in `ccsim-scenario`'s world).
//! - [`RadioNetwork::on_deadline`] at that time: it runs the channel update, measurements,
//!   handover execution and cell slots that are due and appends [`Delivery`]s (delivered at
//!   `at`, or lost) to `out`. Delivered packets reach the UE at `at` (≥ now).
//! - [`RadioNetwork::uplink`] for UE → network packets (TCP ACKs): arrival time at the cell.
//!
//! Channel: every `update_period` (100 ms, ns3-mmwave `UpdatePeriod` / `LongTermUpdatePeriod`,
//! ANCHORS §1.1) each UE's position is taken from its path, and towards every site: LOS from
//! the obstacles, path loss of the site's technology, optional shadowing, received power, and
//! `SINR = S / (N + Σ a_k·I_k·g)` over the other sites of the same technology, where `a_k` is the
//! interferer's activity (busy-slot fraction in the last period, or 1, or 0 per
//! [`InterferenceMode`]) and `g` the side-lobe suppression of beamformed interference.

use crate::cell::{
    Admission, Cell, CellConfig, CellCounters, CellUeProbe, Delivery, LossReason, Outcome,
};
use crate::geometry::{blockage_loss_db, is_los, Obstacle, Point3};
use crate::handover::{HandoverConfig, TttTracker};
use crate::mobility::{MobilityConfig, WaypointPath};
use crate::pathloss::{PathLossModel, Shadowing};
use crate::sinr::{db_to_linear, dbm_to_mw, linear_to_db, noise_dbm};
use ccsim_core::{RngStream, Time};
use serde::{Deserialize, Serialize};

/// Radio technology of a site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Technology {
    #[default]
    Mmwave,
    Lte,
}

/// Everything that is common to the sites of one technology.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TechnologyConfig {
    /// Carrier frequency (Hz): 28 GHz for mmWave (ANCHORS §1.1), 2.12 GHz for LTE (band 1 DL).
    pub carrier_hz: f64,
    pub pathloss: PathLossModel,
    /// Transmit power (dBm): 30 dBm (ns3-mmwave `MmWaveEnbPhy::TxPower`, ns-3 `LteEnbPhy`).
    pub tx_power_dbm: f64,
    /// Site antenna (beamforming) gain, dB. mmWave: 10·log10(64), an 8×8 array (assumption).
    pub ap_antenna_gain_db: f64,
    /// UE antenna gain, dB. mmWave: 10·log10(16), a 4×4 array (assumption).
    pub ue_antenna_gain_db: f64,
    /// UE noise figure (dB): 5 (ns3-mmwave `NoiseFigure`), 9 for LTE (ns-3 `LteUePhy`).
    pub ue_noise_figure_db: f64,
    /// MAC/RLC of each cell.
    pub cell: CellConfig,
}

impl TechnologyConfig {
    pub fn mmwave() -> Self {
        TechnologyConfig {
            carrier_hz: 28e9,
            pathloss: PathLossModel::UmiStreetCanyon,
            tx_power_dbm: 30.0,
            ap_antenna_gain_db: linear_to_db(64.0),
            ue_antenna_gain_db: linear_to_db(16.0),
            ue_noise_figure_db: 5.0,
            cell: CellConfig::mmwave(),
        }
    }
    pub fn lte() -> Self {
        TechnologyConfig {
            carrier_hz: 2.12e9,
            pathloss: PathLossModel::OkumuraHata {
                city: crate::pathloss::CitySize::Medium,
                environment: crate::pathloss::HataEnvironment::Urban,
            },
            tx_power_dbm: 30.0,
            ap_antenna_gain_db: 0.0,
            ue_antenna_gain_db: 0.0,
            ue_noise_figure_db: 9.0,
            cell: CellConfig::lte(),
        }
    }
}

fn default_mmwave() -> TechnologyConfig {
    TechnologyConfig::mmwave()
}
fn default_lte() -> TechnologyConfig {
    TechnologyConfig::lte()
}

/// One base station (mmWave AP or LTE eNB).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    #[serde(default)]
    pub name: String,
    pub position: Point3,
    #[serde(default)]
    pub technology: Technology,
    /// Overrides the technology's transmit power (dBm).
    #[serde(default)]
    pub tx_power_dbm: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UeConfig {
    #[serde(default)]
    pub name: String,
    pub mobility: MobilityConfig,
    /// Site to attach to at t = 0 (default: the best mmWave site, or LTE in outage with DC).
    #[serde(default)]
    pub initial_site: Option<usize>,
}

/// How interference from the other sites of the same technology is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InterferenceMode {
    /// No interference (noise-limited).
    None,
    /// Every other site transmits all the time.
    FullBuffer,
    /// Weighted by each site's busy-slot fraction over the last channel period.
    Load,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelConfig {
    /// Channel (position, LOS, path loss, SINR) update period (µs); 100 ms.
    #[serde(default = "default_update")]
    pub update_period_us: u64,
    /// Log-normal shadowing (TR 38.901 σ_SF, spatially correlated); off by default.
    #[serde(default)]
    pub shadowing: bool,
    /// Interference in the SINR that sets each UE's data rate.
    #[serde(default = "default_interference")]
    pub interference: InterferenceMode,
    /// Interference in the SINR that handover and dual-connectivity decisions compare
    /// (default: as `interference`). ns3-mmwave's estimate (`MmWaveEnbPhy::
    /// UpdateUeSinrEstimate`, reported every 1.6 ms to the coordinator) does not depend on the
    /// neighbours' downlink traffic, which `full_buffer` models: with load-weighted
    /// measurements a UE sees its busy serving cell interfered but an idle neighbour's link
    /// clean, and can ping-pong between loaded cells.
    #[serde(default)]
    pub measurement_interference: Option<InterferenceMode>,
    /// Attenuation (dB) of interference relative to the serving beam: the −13.3 dB first
    /// side lobe of a uniform array (assumption).
    #[serde(default = "default_suppression")]
    pub interference_suppression_db: f64,
}

fn default_update() -> u64 {
    100_000
}
fn default_interference() -> InterferenceMode {
    InterferenceMode::Load
}
fn default_suppression() -> f64 {
    13.3
}

impl Default for ChannelConfig {
    fn default() -> Self {
        ChannelConfig {
            update_period_us: default_update(),
            shadowing: false,
            interference: default_interference(),
            measurement_interference: None,
            interference_suppression_db: default_suppression(),
        }
    }
}

/// Standalone mmWave (hard handovers only) or LTE-anchored dual connectivity (seed 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Connectivity {
    #[default]
    Standalone,
    DualConnectivity,
}

/// The radio part of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadioConfig {
    #[serde(default = "default_mmwave")]
    pub mmwave: TechnologyConfig,
    #[serde(default = "default_lte")]
    pub lte: TechnologyConfig,
    pub sites: Vec<SiteConfig>,
    pub ues: Vec<UeConfig>,
    #[serde(default)]
    pub obstacles: Vec<Obstacle>,
    #[serde(default)]
    pub channel: ChannelConfig,
    #[serde(default)]
    pub handover: HandoverConfig,
    #[serde(default)]
    pub connectivity: Connectivity,
    /// Uplink scheduling delay in slots (`UlSchedDelay` 1).
    #[serde(default = "default_ul_delay")]
    pub uplink_sched_delay_slots: u32,
}

fn default_ul_delay() -> u32 {
    1
}

/// A handover that happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandoverRecord {
    pub at: Time,
    pub ue: u32,
    pub from: usize,
    pub to: usize,
    /// Packets moved over X2.
    pub forwarded: u32,
    /// Packets lost (flushed, or the target buffer was full).
    pub lost: u32,
}

/// A UE's radio state for probes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UeProbe {
    pub position: Point3,
    pub serving_site: usize,
    pub serving_technology: Technology,
    /// LOS towards the serving site.
    pub los: bool,
    pub sinr_db: f64,
    /// Best mmWave SINR over all mmWave sites.
    pub best_mmwave_sinr_db: f64,
    pub in_interruption: bool,
    pub handovers: u32,
    pub cell: CellUeProbe,
}

struct Site {
    position: Point3,
    technology: Technology,
    tx_power_dbm: f64,
}

struct UeState {
    path: WaypointPath,
    serving: usize,
    tracker: TttTracker,
    position: Point3,
    los: Vec<bool>,
    rx_mw: Vec<f64>,
    /// SINR of the data channel per site (sets the rate).
    sinr_db: Vec<f64>,
    /// SINR the handover logic measures per site (`measurement_interference`).
    meas_sinr_db: Vec<f64>,
    shadowing: Vec<Shadowing>,
    rng: RngStream,
    interrupted_until: Time,
    handovers: u32,
}

/// The sans-IO radio access network (see the module docs).
pub struct RadioNetwork {
    mmwave: TechnologyConfig,
    lte: TechnologyConfig,
    channel: ChannelConfig,
    handover: HandoverConfig,
    connectivity: Connectivity,
    ul_delay_slots: u32,
    obstacles: Vec<Obstacle>,
    sites: Vec<Site>,
    cells: Vec<Cell>,
    ues: Vec<UeState>,
    activity: Vec<f64>,
    busy_at_last_update: Vec<u64>,
    next_channel_update: Time,
    next_measurement: Time,
    scratch_packets: Vec<(u32, u32)>,
    scratch_sinr: Vec<f64>,
    log: Vec<HandoverRecord>,
}

impl RadioNetwork {
    /// Builds the RAN at t = 0 (channel computed, UEs attached). Random streams derive from
    /// `seed`: `radio.cell<i>.harq` per cell, `radio.ue<u>.shadowing` per UE.
    pub fn new(config: &RadioConfig, seed: u64) -> Result<Self, String> {
        if config.sites.is_empty() {
            return Err("sites: at least one site is needed".into());
        }
        if config.channel.update_period_us == 0 {
            return Err("channel.update_period_us must be > 0".into());
        }
        if config.handover.measurement_period_us == 0 {
            return Err("handover.measurement_period_us must be > 0".into());
        }
        for (i, o) in config.obstacles.iter().enumerate() {
            if !o.footprint.is_valid() || o.height.is_nan() || o.height <= 0.0 {
                return Err(format!(
                    "obstacles[{i}]: needs ≥ 3 finite vertices and a height > 0"
                ));
            }
        }
        config
            .mmwave
            .cell
            .validate()
            .map_err(|e| format!("radio.mmwave.cell.{e}"))?;
        config
            .lte
            .cell
            .validate()
            .map_err(|e| format!("radio.lte.cell.{e}"))?;
        let has_lte = config.sites.iter().any(|s| s.technology == Technology::Lte);
        if config.connectivity == Connectivity::DualConnectivity && !has_lte {
            return Err("connectivity = dual_connectivity needs an LTE site".into());
        }
        let n_ues = config.ues.len();
        let sites: Vec<Site> = config
            .sites
            .iter()
            .map(|s| {
                let tech = if s.technology == Technology::Mmwave {
                    &config.mmwave
                } else {
                    &config.lte
                };
                Site {
                    position: s.position,
                    technology: s.technology,
                    tx_power_dbm: s.tx_power_dbm.unwrap_or(tech.tx_power_dbm),
                }
            })
            .collect();
        let cells: Vec<Cell> = config
            .sites
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let tech = if s.technology == Technology::Mmwave {
                    &config.mmwave
                } else {
                    &config.lte
                };
                Cell::new(i as u32, tech.cell.clone(), n_ues, seed)
            })
            .collect();
        let n_sites = sites.len();
        let mut ues = Vec::with_capacity(n_ues);
        for (u, uc) in config.ues.iter().enumerate() {
            let path = uc
                .mobility
                .build()
                .map_err(|e| format!("ues[{u}].mobility: {e}"))?;
            if let Some(s) = uc.initial_site {
                if s >= n_sites {
                    return Err(format!("ues[{u}].initial_site: no site {s}"));
                }
            }
            ues.push(UeState {
                position: path.position(Time::ZERO),
                path,
                serving: uc.initial_site.unwrap_or(usize::MAX),
                tracker: TttTracker::default(),
                los: vec![true; n_sites],
                rx_mw: vec![0.0; n_sites],
                sinr_db: vec![f64::NEG_INFINITY; n_sites],
                meas_sinr_db: vec![f64::NEG_INFINITY; n_sites],
                shadowing: vec![Shadowing::default(); n_sites],
                rng: RngStream::new(seed, &format!("radio.ue{u}.shadowing")),
                interrupted_until: Time::ZERO,
                handovers: 0,
            });
        }
        let mut ran = RadioNetwork {
            mmwave: config.mmwave.clone(),
            lte: config.lte.clone(),
            channel: config.channel.clone(),
            handover: config.handover.clone(),
            connectivity: config.connectivity,
            ul_delay_slots: config.uplink_sched_delay_slots,
            obstacles: config.obstacles.clone(),
            sites,
            cells,
            ues,
            activity: vec![0.0; n_sites],
            busy_at_last_update: vec![0; n_sites],
            next_channel_update: Time::from_micros(config.channel.update_period_us),
            next_measurement: Time::from_micros(config.handover.measurement_period_us),
            scratch_packets: Vec::with_capacity(1024),
            scratch_sinr: vec![0.0; n_sites],
            log: Vec::new(),
        };
        ran.update_channels(Time::ZERO);
        for u in 0..n_ues {
            if ran.ues[u].serving == usize::MAX {
                ran.ues[u].serving = ran.initial_site(u);
            }
            let s = ran.ues[u].serving;
            ran.cells[s].attach(u, Time::ZERO, Time::ZERO);
            ran.cells[s].set_channel(u, ran.ues[u].sinr_db[s]);
            ran.set_link_state(Time::ZERO, u, s);
        }
        Ok(ran)
    }

    fn tech(&self, site: usize) -> &TechnologyConfig {
        match self.sites[site].technology {
            Technology::Mmwave => &self.mmwave,
            Technology::Lte => &self.lte,
        }
    }

    fn best_of(&self, u: usize, tech: Technology) -> Option<usize> {
        let ue = &self.ues[u];
        (0..self.sites.len())
            .filter(|&s| self.sites[s].technology == tech)
            .fold(None, |best: Option<usize>, s| match best {
                Some(b) if ue.meas_sinr_db[b] >= ue.meas_sinr_db[s] => Some(b),
                _ => Some(s),
            })
    }

    fn initial_site(&self, u: usize) -> usize {
        let mm = self.best_of(u, Technology::Mmwave);
        let lte = self.best_of(u, Technology::Lte);
        match (mm, lte) {
            (Some(m), Some(l))
                if self.connectivity == Connectivity::DualConnectivity
                    && self.ues[u].meas_sinr_db[m] < self.handover.outage_threshold_db =>
            {
                l
            }
            (Some(m), _) => m,
            (None, Some(l)) => l,
            (None, None) => 0,
        }
    }

    /// Recomputes positions, LOS, received powers and SINRs of every UE (at `now`), and the
    /// interference activity of every site over the last period.
    fn update_channels(&mut self, now: Time) {
        let period_slots_of =
            |c: &Cell| (self.channel.update_period_us * 1000 / c.slot().as_nanos().max(1)).max(1);
        for (i, c) in self.cells.iter().enumerate() {
            let busy = c.counters().busy_slots;
            self.activity[i] = match self.channel.interference {
                InterferenceMode::None => 0.0,
                InterferenceMode::FullBuffer => 1.0,
                InterferenceMode::Load => ((busy - self.busy_at_last_update[i]) as f64
                    / period_slots_of(c) as f64)
                    .min(1.0),
            };
            self.busy_at_last_update[i] = busy;
        }
        let suppression = db_to_linear(-self.channel.interference_suppression_db);
        for u in 0..self.ues.len() {
            let pos = self.ues[u].path.position(now);
            self.ues[u].position = pos;
            for s in 0..self.sites.len() {
                let site_pos = self.sites[s].position;
                let tech = self.tech(s).clone();
                let los = is_los(site_pos, pos, &self.obstacles);
                let mut loss = tech.pathloss.loss_db(site_pos, pos, tech.carrier_hz, los);
                if !los && tech.pathloss.uses_los() {
                    loss += blockage_loss_db(site_pos, pos, &self.obstacles);
                }
                if self.channel.shadowing {
                    let ue = &mut self.ues[u];
                    loss += ue.shadowing[s].update(&mut ue.rng, &tech.pathloss, pos, los);
                }
                let rx_dbm =
                    self.sites[s].tx_power_dbm + tech.ap_antenna_gain_db + tech.ue_antenna_gain_db
                        - loss;
                self.ues[u].los[s] = los;
                self.ues[u].rx_mw[s] = dbm_to_mw(rx_dbm);
            }
            for s in 0..self.sites.len() {
                let tech = self.tech(s);
                let noise = dbm_to_mw(noise_dbm(
                    tech.cell.frame.bandwidth_hz,
                    tech.ue_noise_figure_db,
                ));
                let t = self.sites[s].technology;
                let ue = &self.ues[u];
                let meas_activity = |k: usize| match self.channel.measurement_interference {
                    Some(InterferenceMode::None) => 0.0,
                    Some(InterferenceMode::FullBuffer) => 1.0,
                    Some(InterferenceMode::Load) | None => self.activity[k],
                };
                let (mut interference, mut meas_interference) = (0.0, 0.0);
                for k in (0..self.sites.len()).filter(|&k| k != s && self.sites[k].technology == t)
                {
                    interference += self.activity[k] * suppression * ue.rx_mw[k];
                    meas_interference += meas_activity(k) * suppression * ue.rx_mw[k];
                }
                let sinr = linear_to_db(ue.rx_mw[s] / (noise + interference));
                let meas = linear_to_db(ue.rx_mw[s] / (noise + meas_interference));
                self.ues[u].sinr_db[s] = sinr;
                self.ues[u].meas_sinr_db[s] = meas;
            }
            let serving = self.ues[u].serving;
            if serving != usize::MAX {
                let sinr = self.ues[u].sinr_db[serving];
                self.cells[serving].set_channel_at(now, u, sinr);
                self.set_link_state(now, u, serving);
            }
        }
    }

    /// Passes LOS and speed of UE `u` towards `site` to that cell's fading process.
    fn set_link_state(&mut self, now: Time, u: usize, site: usize) {
        let (los, speed) = (self.ues[u].los[site], self.ues[u].path.speed(now));
        let carrier = self.tech(site).carrier_hz;
        self.cells[site].set_link_state(now, u, los, speed, carrier);
    }

    /// Handover decisions for every UE at `now` (a measurement instant or a TTT expiry).
    fn measure(&mut self, now: Time, out: &mut Vec<Delivery>) {
        for u in 0..self.ues.len() {
            if now < self.ues[u].interrupted_until {
                continue;
            }
            let serving = self.ues[u].serving;
            let Some(best_mm) = self.best_of(u, Technology::Mmwave) else {
                continue;
            };
            let best_mm_sinr = self.ues[u].meas_sinr_db[best_mm];
            let outage = self.handover.outage_threshold_db;
            let dc = self.connectivity == Connectivity::DualConnectivity;
            let switch = Time::from_micros(self.handover.dc_switch_us);
            if self.sites[serving].technology == Technology::Lte {
                if dc && best_mm_sinr >= outage {
                    self.execute(now, u, best_mm, switch, out);
                }
                continue;
            }
            if dc && best_mm_sinr < outage {
                if let Some(l) = self.best_of(u, Technology::Lte) {
                    self.execute(now, u, l, switch, out);
                }
                continue;
            }
            if dc && self.ues[u].meas_sinr_db[serving] < outage && best_mm != serving {
                // The serving mmWave link is dead and the LTE anchor knows a good one: switch
                // at once (no TTT), with a hard-handover interruption.
                let hi = Time::from_micros(self.handover.interruption_us);
                self.execute(now, u, best_mm, hi, out);
                continue;
            }
            for s in 0..self.sites.len() {
                self.scratch_sinr[s] = if self.sites[s].technology == Technology::Mmwave {
                    self.ues[u].meas_sinr_db[s]
                } else {
                    f64::NEG_INFINITY
                };
            }
            let target =
                self.ues[u]
                    .tracker
                    .evaluate(now, serving, &self.scratch_sinr, &self.handover);
            if let Some(t) = target {
                let hi = Time::from_micros(self.handover.interruption_us);
                self.execute(now, u, t, hi, out);
            }
        }
    }

    /// Moves UE `u` to site `to` with a service interruption; forwards or flushes its buffer.
    fn execute(
        &mut self,
        now: Time,
        u: usize,
        to: usize,
        interruption: Time,
        out: &mut Vec<Delivery>,
    ) {
        let from = self.ues[u].serving;
        if from == to {
            return;
        }
        self.scratch_packets.clear();
        let scratch = &mut self.scratch_packets;
        let last = self.cells[from].detach(u, |p, b| scratch.push((p, b)));
        let forward = self.handover.x2_forwarding;
        let x2 = Time::from_micros(self.handover.x2_latency_us);
        let available = now
            + if forward {
                interruption.max(x2)
            } else {
                interruption
            };
        self.cells[to].attach(u, available, last);
        let sinr = self.ues[u].sinr_db[to];
        self.cells[to].set_channel(u, sinr);
        self.set_link_state(now, u, to);
        let (mut forwarded, mut lost) = (0u32, 0u32);
        for &(p, b) in &self.scratch_packets {
            let outcome = if !forward {
                Some(LossReason::HandoverFlush)
            } else if self.cells[to].enqueue(now, u, p, b) == Admission::Dropped {
                Some(LossReason::ForwardOverflow)
            } else {
                None
            };
            match outcome {
                Some(r) => {
                    lost += 1;
                    out.push(Delivery {
                        packet: p,
                        ue: u as u32,
                        at: now,
                        outcome: Outcome::Lost(r),
                    });
                }
                None => forwarded += 1,
            }
        }
        let ue = &mut self.ues[u];
        ue.serving = to;
        ue.tracker.cancel();
        ue.interrupted_until = now + interruption;
        ue.handovers += 1;
        self.log.push(HandoverRecord {
            at: now,
            ue: u as u32,
            from,
            to,
            forwarded,
            lost,
        });
    }

    /// Offers a downlink packet for `ue` to its serving cell.
    pub fn enqueue(&mut self, now: Time, ue: u32, packet: u32, bytes: u32) -> Admission {
        let u = ue as usize;
        let s = self.ues[u].serving;
        self.cells[s].enqueue(now, u, packet, bytes)
    }

    /// Arrival time at the serving cell of an uplink packet (a TCP ACK) sent by `ue` at `now`:
    /// held during a handover interruption, then the uplink scheduling delay
    /// (`UlSchedDelay`, slots), one slot of transmission and the decoding latency. Uplink
    /// capacity and uplink outage are not modelled.
    pub fn uplink(&self, now: Time, ue: u32) -> Time {
        let u = &self.ues[ue as usize];
        let cell = &self.cells[u.serving];
        let slot = cell.slot();
        let start = now.max(u.interrupted_until);
        start
            + Time(slot.as_nanos() * (self.ul_delay_slots as u64 + 1))
            + Time::from_micros(cell.config().harq.decode_latency_us)
    }

    /// The earliest time at which [`RadioNetwork::on_deadline`] has work.
    pub fn next_deadline(&self) -> Option<Time> {
        let mut t = self.next_channel_update.min(self.next_measurement);
        for ue in &self.ues {
            if let Some(d) = ue.tracker.deadline() {
                t = t.min(d);
            }
        }
        for c in &self.cells {
            if let Some(d) = c.next_deadline() {
                t = t.min(d);
            }
        }
        Some(t)
    }

    /// Runs everything due at or before `now`; deliveries and losses go to `out`.
    pub fn on_deadline(&mut self, now: Time, out: &mut Vec<Delivery>) {
        // Slots that started before a channel change still use the old channel.
        for c in &mut self.cells {
            if c.next_deadline().is_some_and(|d| d < now) {
                c.poll(Time(now.as_nanos() - 1), out);
            }
        }
        if now >= self.next_channel_update {
            self.update_channels(now);
            let p = Time::from_micros(self.channel.update_period_us);
            while self.next_channel_update <= now {
                self.next_channel_update += p;
            }
        }
        let ttt_due = self
            .ues
            .iter()
            .any(|u| u.tracker.deadline().is_some_and(|d| d <= now));
        if now >= self.next_measurement || ttt_due {
            self.measure(now, out);
            let p = Time::from_micros(self.handover.measurement_period_us);
            while self.next_measurement <= now {
                self.next_measurement += p;
            }
        }
        for c in &mut self.cells {
            c.poll(now, out);
        }
    }

    pub fn num_sites(&self) -> usize {
        self.sites.len()
    }
    pub fn num_ues(&self) -> usize {
        self.ues.len()
    }
    pub fn cell_counters(&self, site: usize) -> &CellCounters {
        self.cells[site].counters()
    }
    pub fn cell(&self, site: usize) -> &Cell {
        &self.cells[site]
    }
    pub fn handover_log(&self) -> &[HandoverRecord] {
        &self.log
    }
    pub fn serving_site(&self, ue: u32) -> usize {
        self.ues[ue as usize].serving
    }
    /// SINR (dB) of `ue` towards `site` at the last channel update.
    pub fn sinr_db(&self, ue: u32, site: usize) -> f64 {
        self.ues[ue as usize].sinr_db[site]
    }
    /// The SINR of `ue` towards `site` that handover decisions compare
    /// (`measurement_interference`), at the last channel update.
    pub fn measured_sinr_db(&self, ue: u32, site: usize) -> f64 {
        self.ues[ue as usize].meas_sinr_db[site]
    }
    /// LOS of `ue` towards `site` at the last channel update.
    pub fn los(&self, ue: u32, site: usize) -> bool {
        self.ues[ue as usize].los[site]
    }

    pub fn ue_probe(&self, ue: u32, now: Time) -> UeProbe {
        let u = &self.ues[ue as usize];
        let s = u.serving;
        let best = self
            .best_of(ue as usize, Technology::Mmwave)
            .map_or(f64::NEG_INFINITY, |b| u.meas_sinr_db[b]);
        UeProbe {
            position: u.position,
            serving_site: s,
            serving_technology: self.sites[s].technology,
            los: u.los[s],
            sinr_db: u.sinr_db[s],
            best_mmwave_sinr_db: best,
            in_interruption: now < u.interrupted_until,
            handovers: u.handovers,
            cell: self.cells[s].ue_probe(ue as usize),
        }
    }
}
