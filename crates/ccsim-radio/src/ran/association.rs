//! Which cell serves each UE: the initial choice, handover decisions at each measurement
//! (ns3-mmwave `LteEnbRrc`, ANCHORS §1.3) and their execution (interruption, X2 forwarding).

use super::{Connectivity, HandoverRecord, RadioNetwork, Technology};
use crate::cell::{Admission, Delivery, LossReason, Outcome};
use crate::rlc::RlcMode;
use ccsim_core::Time;

impl RadioNetwork {
    pub(super) fn best_of(&self, u: usize, tech: Technology) -> Option<usize> {
        let ue = &self.ues[u];
        (0..self.sites.len())
            .filter(|&s| self.sites[s].technology == tech)
            .fold(None, |best: Option<usize>, s| match best {
                Some(b) if ue.meas_sinr_db[b] >= ue.meas_sinr_db[s] => Some(b),
                _ => Some(s),
            })
    }

    pub(super) fn initial_site(&self, u: usize) -> usize {
        let mm = self.best_of(u, Technology::Mmwave);
        let lte = self.best_of(u, Technology::Lte);
        match (mm, lte) {
            (Some(m), Some(l))
                if self.connectivity.uses_lte()
                    && self.ues[u].meas_sinr_db[m] < self.handover.outage_threshold_db =>
            {
                l
            }
            (Some(m), _) => m,
            (None, Some(l)) => l,
            (None, None) => 0,
        }
    }

    /// The SINRs handover compares for UE `u` at `now` into `scratch_sinr` (mmWave sites;
    /// −∞ for LTE): the measured large-scale SINR, plus the link's fading gain with
    /// `channel.measurement_fading`. Returns the best mmWave site (the first on ties).
    fn fill_report_table(&mut self, now: Time, u: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        for s in 0..self.sites.len() {
            self.scratch_sinr[s] = if self.sites[s].technology == Technology::Mmwave {
                self.report_sinr_db(u as u32, s, now)
            } else {
                f64::NEG_INFINITY
            };
            if self.sites[s].technology != Technology::Mmwave {
                continue;
            }
            // As `best_of`: the earlier site wins ties.
            match best {
                Some(b) if self.scratch_sinr[b] >= self.scratch_sinr[s] => {}
                _ => best = Some(s),
            }
        }
        best
    }

    /// Service interruption of a hard handover decided at once because the serving mmWave
    /// link is in outage: the source cannot serve during the X2 preparation either, so the
    /// UE waits for the coordinator's request to the source, the handover request and its
    /// acknowledgement (three X2 messages: `SendMcHandoverRequest`, `HandoverRequest`,
    /// `HandoverRequestAck` in ns3-mmwave `lte-enb-rrc.cc`), the RRC reconfiguration (one RRC
    /// message) and then the RACH on the target (`interruption_us`).
    fn outage_handover_stall(&self) -> Time {
        let h = &self.handover;
        Time::from_micros(3 * h.x2_latency_us + h.rrc_message_us + h.interruption_us)
    }

    /// Handover decisions for every UE at `now` (a measurement instant or a TTT expiry),
    /// following ns3-mmwave `LteEnbRrc::TriggerUeAssociationUpdate` /
    /// `UpdateUeHandoverAssociation`:
    /// - every mmWave link in outage: dual connectivity switches to LTE at once
    ///   (`dc_switch_us`); single connectivity hands over to LTE (a hard handover, the source
    ///   silent during the preparation); standalone waits;
    /// - on LTE, back to the best mmWave cell once it is `lte_return_margin_db` above the
    ///   outage threshold (ns3-mmwave's `m_outageThreshold + 2`);
    /// - the serving mmWave cell alone in outage: hard handover to the best one at once, no
    ///   TTT ("Current Cell is in outage, handover immediately");
    /// - otherwise the TTT tracker (`HoSinrDifference`, fixed or dynamic TTT).
    ///
    /// With a `handover.schedule` no decision is taken here ([`RadioNetwork::scheduled`]).
    pub(super) fn measure(&mut self, now: Time, out: &mut Vec<Delivery>) {
        if self.scheduled() {
            return;
        }
        for u in 0..self.ues.len() {
            if now < self.ues[u].interrupted_until {
                continue;
            }
            let serving = self.ues[u].serving;
            let Some(best_mm) = self.fill_report_table(now, u) else {
                continue;
            };
            let best_mm_sinr = self.scratch_sinr[best_mm];
            let outage = self.handover.outage_threshold_db;
            let switch = Time::from_micros(self.handover.dc_switch_us);
            let hard = Time::from_micros(self.handover.interruption_us);
            if self.sites[serving].technology == Technology::Lte {
                if best_mm_sinr >= outage + self.handover.lte_return_margin_db {
                    match self.connectivity {
                        Connectivity::DualConnectivity => {
                            self.execute(now, u, best_mm, switch, out)
                        }
                        // LTE keeps serving while the handover is prepared.
                        Connectivity::SingleConnectivity => {
                            self.execute(now, u, best_mm, hard, out)
                        }
                        Connectivity::Standalone => {}
                    }
                }
                continue;
            }
            if best_mm_sinr < outage {
                let lte = self.best_of(u, Technology::Lte);
                match (self.connectivity, lte) {
                    (Connectivity::DualConnectivity, Some(l)) => {
                        self.execute(now, u, l, switch, out)
                    }
                    (Connectivity::SingleConnectivity, Some(l)) => {
                        let stall = self.outage_handover_stall();
                        self.execute(now, u, l, stall, out)
                    }
                    _ => {}
                }
                continue;
            }
            if self.scratch_sinr[serving] < outage && best_mm != serving {
                let stall = self.outage_handover_stall();
                self.execute(now, u, best_mm, stall, out);
                continue;
            }
            let target =
                self.ues[u]
                    .tracker
                    .evaluate(now, serving, &self.scratch_sinr, &self.handover);
            if let Some(t) = target {
                self.execute(now, u, t, hard, out);
            }
        }
    }

    /// The bytes over `forward_limit_bytes` of the backlog a handover moves: the untransmitted
    /// SDUs now in `scratch_packets` plus `resent` SDUs sent but unacknowledged (their sizes are
    /// not kept: counted at the untransmitted SDUs' mean). The oldest untransmitted SDUs lose
    /// them.
    fn forward_excess(&self, resent: u32) -> u64 {
        let limit = self.handover.forward_limit_bytes;
        let n = self.scratch_packets.len() as u64;
        if limit == 0 || n == 0 {
            return 0;
        }
        let backlog: u64 = self
            .scratch_packets
            .iter()
            .map(|&(_, b)| u64::from(b))
            .sum();
        (backlog + backlog * u64::from(resent) / n).saturating_sub(limit)
    }

    /// Moves UE `u` to site `to` with a service interruption; forwards or flushes its buffer.
    pub(super) fn execute(
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
        // RLC UM forwards its transmission buffer only (ns3-mmwave `ForwardRlcBuffers`): the
        // rest of an SDU whose first segments were sent is a fragment the target cannot use.
        // RLC AM rebuilds whole SDUs from its transmitted and retransmission buffers.
        let um_fragment = self.cells[from].config().rlc.mode == RlcMode::Um
            && self.cells[from].head_partly_sent(u);
        let forward = self.handover.x2_forwarding;
        // Sent but not yet acknowledged (RLC AM): forwarded again, ahead of the rest. The
        // caller makes the copies (`Outcome::Resend`, then `RadioNetwork::resend`).
        self.scratch_resend.clear();
        if forward {
            let resend = &mut self.scratch_resend;
            self.cells[from].drain_unacked(u, now, |p| resend.push(p));
        }
        let resent = self.scratch_resend.len() as u32;
        let reset_lost = self.reset_ue_rlc(now, u, from, forward, out);
        let scratch = &mut self.scratch_packets;
        let mut entity_lost = 0u32;
        let last = self.cells[from].detach(
            u,
            |p, b| scratch.push((p, b)),
            |packet| {
                entity_lost += 1;
                out.push(Delivery {
                    packet,
                    ue: u as u32,
                    at: now,
                    outcome: Outcome::Lost(LossReason::UeRlcReset),
                });
            },
        );
        self.push_resends(u, reset_lost, now, out);
        // The new RLC entity does not wait for the old one's hole.
        let last = if self.handover.ue_rlc_reset_loses_received {
            now
        } else {
            last
        };
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
        let (mut forwarded, mut lost) = self.forward_held(now, u, to, out);
        lost += reset_lost + entity_lost;
        // The lost head of the backlog (`forward_loss_bytes`): the oldest SDUs, which TCP
        // then sees as a hole below the forwarded rest (a SACK loss episode, not an RTO).
        let mut loss_left = if forward {
            self.handover.forward_loss_bytes + self.forward_excess(resent)
        } else {
            0
        };
        // `forward_loses_first_sdu`: the SDU RlcPdusToRlcSdus drops. ccsim delivers the SDUs it
        // sent, so the oldest one the UE lacks is the head of the untransmitted backlog.
        let first_lost = forward
            && resent > 0
            && self.handover.forward_loses_first_sdu
            && self.cells[from].config().rlc.mode == RlcMode::Am;
        for (i, &(p, b)) in self.scratch_packets.iter().enumerate() {
            let outcome = if !forward || (i == 0 && (um_fragment || first_lost)) {
                Some(LossReason::HandoverFlush)
            } else if loss_left > 0 {
                loss_left = loss_left.saturating_sub(u64::from(b));
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
            resent,
        });
    }
}
