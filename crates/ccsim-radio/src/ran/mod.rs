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

mod association;
mod channel;
mod config;
pub mod forwarding;
mod schedule;
mod sinr_trace;

pub use config::*;

use crate::cell::{Admission, Cell, CellCounters, CellUeProbe, Delivery};
use crate::geometry::{Obstacle, Point3};
use crate::handover::{HandoverConfig, TttTracker};
use crate::mobility::WaypointPath;
use crate::pathloss::Shadowing;
use ccsim_core::{RngStream, Time};

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
    /// Packets sent but not yet acknowledged at the source, forwarded again (RLC AM).
    pub resent: u32,
}

/// A UE's radio state for probes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UeProbe {
    pub position: Point3,
    pub serving_site: usize,
    pub serving_technology: Technology,
    /// LOS towards the serving site.
    pub los: bool,
    /// SINR towards the serving site at the last channel update (large-scale).
    pub sinr_db: f64,
    /// The serving link's SINR at the probe instant: `sinr_db` plus the fading gain (equal to
    /// `sinr_db` without fading).
    pub faded_sinr_db: f64,
    /// The MCS a TB would use at the probe instant (link adaptation only).
    pub mcs: Option<u8>,
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
    /// SDUs the UE's PDCP has sent down (every [`RadioNetwork::enqueue`]): the next PDCP count.
    pdcp_sdus: u64,
}

/// The sans-IO radio access network (see the module docs).
pub struct RadioNetwork {
    mmwave: TechnologyConfig,
    lte: TechnologyConfig,
    channel: ChannelConfig,
    handover: HandoverConfig,
    connectivity: Connectivity,
    ul_delay_slots: u32,
    ul_grant_period: Time,
    obstacles: Vec<Obstacle>,
    sites: Vec<Site>,
    cells: Vec<Cell>,
    ues: Vec<UeState>,
    activity: Vec<f64>,
    busy_at_last_update: Vec<u64>,
    next_channel_update: Time,
    next_measurement: Time,
    /// The next entry of `handover.schedule` to execute.
    next_scheduled: usize,
    scratch_packets: Vec<(u32, u32)>,
    /// A handover's packets held above a hole that the source forwards (`(packet, bytes)`).
    scratch_held: Vec<(u32, u32)>,
    /// A handover's SDUs sent but not acknowledged, to be sent again.
    scratch_resend: Vec<u32>,
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
        if config.connectivity.uses_lte() && !has_lte {
            return Err(format!(
                "connectivity = {:?} needs an LTE site (technology = \"lte\"); allowed without \
                 one: standalone",
                config.connectivity
            )
            .to_lowercase());
        }
        let n_ues = config.ues.len();
        crate::handover::schedule::validate(&config.handover.schedule, config.sites.len(), n_ues)?;
        if let Some(t) = &config.channel.sinr_trace {
            t.validate(config.sites.len())?;
        }
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
        let mut cells: Vec<Cell> = config
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
        if cells.len() == 1 || !config.handover.x2_forwarding {
            cells.iter_mut().for_each(Cell::no_forwarding);
        }
        if cells.len() > 1 && config.handover.ue_rlc_reset_loses_received {
            cells.iter_mut().for_each(Cell::hold_received);
        }
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
                pdcp_sdus: 0,
            });
        }
        let mut ran = RadioNetwork {
            mmwave: config.mmwave.clone(),
            lte: config.lte.clone(),
            channel: config.channel.clone(),
            handover: config.handover.clone(),
            connectivity: config.connectivity,
            ul_delay_slots: config.uplink_sched_delay_slots,
            ul_grant_period: Time::from_micros(config.uplink_grant_period_us),
            obstacles: config.obstacles.clone(),
            sites,
            cells,
            ues,
            activity: vec![0.0; n_sites],
            busy_at_last_update: vec![0; n_sites],
            next_channel_update: Time::from_micros(config.channel.update_period_us),
            next_measurement: Time::from_micros(config.handover.measurement_period_us),
            next_scheduled: 0,
            scratch_packets: Vec::with_capacity(1024),
            scratch_held: Vec::new(),
            scratch_resend: Vec::new(),
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

    /// Passes LOS and speed of UE `u` towards `site` to that cell's fading process.
    pub(super) fn set_link_state(&mut self, now: Time, u: usize, site: usize) {
        let (los, speed) = (self.ues[u].los[site], self.ues[u].path.speed(now));
        let carrier = self.tech(site).carrier_hz;
        self.cells[site].set_link_state(now, u, los, speed, carrier);
    }

    fn tech(&self, site: usize) -> &TechnologyConfig {
        match self.sites[site].technology {
            Technology::Mmwave => &self.mmwave,
            Technology::Lte => &self.lte,
        }
    }

    /// Offers a downlink packet for `ue` to its serving cell.
    pub fn enqueue(&mut self, now: Time, ue: u32, packet: u32, bytes: u32) -> Admission {
        self.enqueue_waking(now, ue, packet, bytes).0
    }

    /// [`RadioNetwork::enqueue`], also telling whether `ue` had no data waiting before: only
    /// then can [`RadioNetwork::next_deadline`] have moved (one call instead of
    /// [`RadioNetwork::has_queued`] and then `enqueue`, per packet).
    #[inline]
    pub fn enqueue_waking(
        &mut self,
        now: Time,
        ue: u32,
        packet: u32,
        bytes: u32,
    ) -> (Admission, bool) {
        let u = ue as usize;
        self.ues[u].pdcp_sdus += 1;
        let s = self.ues[u].serving;
        self.cells[s].enqueue_waking(now, u, packet, bytes)
    }

    /// `ue` has data waiting at its serving cell: an [`RadioNetwork::enqueue`] then leaves
    /// [`RadioNetwork::next_deadline`] unchanged, and the caller need not ask for it again.
    pub fn has_queued(&self, ue: u32) -> bool {
        self.cells[self.ues[ue as usize].serving].has_queued(ue as usize)
    }

    /// Sends again, through the UE's serving cell and ahead of its buffered packets, a copy
    /// (`packet`, a new id) of a packet the RAN reported as [`crate::Outcome::Resend`] at a
    /// handover. Call it for those reports in reverse order so the oldest goes first.
    pub fn resend(&mut self, now: Time, ue: u32, packet: u32, bytes: u32) -> Admission {
        let u = ue as usize;
        let s = self.ues[u].serving;
        self.cells[s].push_front(now, u, packet, bytes)
    }

    /// Arrival time at the serving cell of an uplink packet (a TCP ACK) sent by `ue` at `now`:
    /// held during a handover interruption, then the uplink scheduling delay
    /// (`UlSchedDelay`, slots), one slot of transmission and the decoding latency. Uplink
    /// capacity and uplink outage are not modelled; the slot it is sent in loses
    /// `frame.uplink_data_symbols` of downlink ([`Cell::note_uplink`]).
    pub fn uplink(&mut self, now: Time, ue: u32) -> Time {
        let u = &self.ues[ue as usize];
        let cell = &mut self.cells[u.serving];
        let slot = cell.slot();
        let mut start = now.max(u.interrupted_until);
        let period = self.ul_grant_period.as_nanos();
        if period > 0 {
            // The ACK waits for the next grant: ACKs queued in between leave together.
            start = Time(start.as_nanos().div_ceil(period) * period);
        }
        let on_air = start + Time(slot.as_nanos() * self.ul_delay_slots as u64);
        cell.note_uplink(ue as usize, on_air);
        on_air + slot + Time::from_micros(cell.config().harq.decode_latency_us)
    }

    /// The earliest time at which [`RadioNetwork::on_deadline`] has work.
    pub fn next_deadline(&self) -> Option<Time> {
        let mut t = self.next_channel_update.min(self.next_measurement);
        if let Some(h) = self.next_scheduled_handover() {
            t = t.min(h);
        }
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
        // Packets held above a hole whose hole is filled now reach the UE before a handover.
        for c in &mut self.cells {
            c.release_held(now, out);
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
        self.run_scheduled_handovers(now, out);
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
    /// The SINR (dB) of `ue` towards mmWave `site` that a measurement at `now` reports: the
    /// measured SINR plus, with `channel.measurement_fading`, the link's fading gain at `now`.
    pub fn report_sinr_db(&self, ue: u32, site: usize, now: Time) -> f64 {
        let u = ue as usize;
        let fading = if self.channel.measurement_fading {
            self.cells[site].fading_gain_db(u, now)
        } else {
            0.0
        };
        self.ues[u].meas_sinr_db[site] + fading
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
            faded_sinr_db: self.cells[s].sinr_at(ue as usize, now),
            mcs: self.cells[s].mcs_at(ue as usize, now),
            best_mmwave_sinr_db: best,
            in_interruption: now < u.interrupted_until,
            handovers: u.handovers,
            cell: self.cells[s].ue_probe(ue as usize),
        }
    }
}
