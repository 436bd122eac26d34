//! The cell's side of the HARQ process model (`harq.model = "processes"`,
//! [`crate::harq_processes`]): each slot the scheduler first acts on the feedback that reached
//! it and resends on the NACKed processes, then new TBs take the lowest free process. Each
//! transmission is decoded by the UE when it is sent (the same BLER as the per-TB draw:
//! first attempt, or the combined SINR of the process' history), and a decoded TB's AM PDU
//! reaches the UE's RLC. A TB whose data leaves its process undecoded is left to RLC AM.

use super::Cell;
use crate::harq_processes::{HarqProcesses, HarqTrace, Retransmission, HARQ_TRACE_HEADER};
use crate::mcs_choice::scale_bler;
use crate::rlc::HarqModel;
use crate::rlc_am::AmPdu;
use crate::sinr::db_to_linear;
use ccsim_core::Time;
use std::io::Write;
use std::sync::{Arc, Mutex};

pub(super) type CellHarq = HarqProcesses<AmPdu>;

/// The cell's HARQ processes when `harq.model = "processes"`.
pub(super) fn harq_processes(
    config: &super::CellConfig,
    n_ues: usize,
    id: u32,
) -> Option<Box<CellHarq>> {
    let h = &config.harq;
    (h.model == HarqModel::Processes).then(|| {
        let mut p = HarqProcesses::new(
            n_ues,
            h.processes as usize,
            h.timeout_slots,
            h.rtt_slots,
            h.feedback_copies.min(u8::MAX as u32) as u8,
        );
        p.trace = trace_sink(id);
        Box::new(p)
    })
}

/// `CCSIM_HARQ_TRACE=FILE`: the per-process sequence of cell `id` (`FILE` for cell 0, else
/// `FILE.cell<id>`), as CSV (`harq_processes::HARQ_TRACE_HEADER`), for
/// `validation/ns3-mmwave/harq_trigger.py --ccsim`. A debug aid, read when the cell is built:
/// each new simulation rewrites the file.
fn trace_sink(id: u32) -> Option<HarqTrace> {
    let mut path = std::env::var_os("CCSIM_HARQ_TRACE")?;
    if id > 0 {
        path.push(format!(".cell{id}"));
    }
    let file = std::fs::File::create(&path).expect("cannot create CCSIM_HARQ_TRACE file");
    let mut w = std::io::BufWriter::new(file);
    writeln!(w, "{HARQ_TRACE_HEADER}").expect("cannot write CCSIM_HARQ_TRACE file");
    Some(HarqTrace(Arc::new(Mutex::new(w))))
}

impl Cell {
    /// Slot `k`'s HARQ part: timers, feedback, retransmissions (ahead of new data, on the
    /// TB's own units). Returns the units of the `units` left for new data.
    pub(super) fn harq_retransmissions(&mut self, k: u64, units: u64, base_delay: Time) -> u64 {
        let Some(mut h) = self.harq.take() else {
            return units;
        };
        h.begin_slot(k);
        let left =
            h.schedule_retransmissions(units, |h, r| self.transmit_on_process(h, k, r, base_delay));
        self.harq = Some(h);
        left
    }

    /// Whether `ue` has a free HARQ process for new data (always, without the model).
    pub(super) fn has_free_process(&self, ue: usize) -> bool {
        self.harq
            .as_ref()
            .is_none_or(|h| h.free_process(ue).is_some())
    }

    /// Sends the AM PDU `pdu` as a new TB of `ue` on its lowest free process in slot `k`.
    pub(super) fn send_on_process(
        &mut self,
        k: u64,
        ue: usize,
        units: u64,
        mcs: u8,
        pdu: AmPdu,
        base_delay: Time,
    ) {
        let Some(mut h) = self.harq.take() else {
            return;
        };
        let process = h.new_tb(k, ue, units, pdu.bytes() as u64, mcs, pdu);
        let r = Retransmission {
            ue: ue as u32,
            process,
            rv: 0,
        };
        self.transmit_on_process(&mut h, k, r, base_delay);
        self.harq = Some(h);
    }

    /// Puts `r`'s process on the air in slot `k` and decodes it at the UE; returns false
    /// (changing nothing) if the UE cannot be served now.
    fn transmit_on_process(
        &mut self,
        h: &mut CellHarq,
        k: u64,
        r: Retransmission,
        base_delay: Time,
    ) -> bool {
        let ue = r.ue as usize;
        let slot_start = Time(k * self.slot_ns);
        let u = &self.ues[ue];
        if !u.attached || u.available_from > slot_start {
            return false;
        }
        self.counters.tb_retransmissions += u64::from(r.rv > 0);
        // An emptied MAC buffer sends no data (mmwave-enb-mac.cc l. 994-1012), but the PHY
        // fills the DCI's symbols with an empty MAC PDU (mmwave-enb-phy.cc l. 1020-1044): the
        // UE decodes it and sends its feedback as for any TB, which keeps the process in step
        // (replayed against the tree's trace: `harq_replay_tests.rs`).
        let empty = !h.process(ue, r.process).buffered;
        h.stats.empty_retransmissions += u64::from(empty);
        let p = h.process_mut(ue, r.process);
        if r.rv > 0 && !empty {
            self.counters.tx_bytes += p.bytes;
        }
        let sinr =
            u.sinr_db + u.fading.as_ref().map_or(0.0, |f| f.gain_db(slot_start)) + u.la_offset_db; // the link adaptation's SINR: the per-RB loss offset, 0 by default
        let (combined, bler) = match &self.mcs_table {
            Some(la) => {
                let e = la.exponent(p.mcs, p.units);
                if p.history == 0.0 {
                    la.first_attempt(sinr, p.mcs, e)
                } else {
                    let c = p.history + db_to_linear(sinr);
                    (c, scale_bler(la.bler(10.0 * c.log10(), p.mcs), e))
                }
            }
            None => {
                let harq = &self.config.harq;
                let bler = if p.history == 0.0 {
                    harq.bler
                } else {
                    harq.retx_bler
                };
                (p.history + 1.0, bler)
            }
        };
        let ok = !self.rng.bernoulli(bler);
        if ok {
            p.history = 0.0;
            if let Some(pdu) = p.data.take() {
                if let Some(am) = self.ues[ue].am.as_mut() {
                    am.send(slot_start + base_delay, pdu);
                }
            }
        } else {
            // The UE keeps the failed version to combine, except at the last rv.
            p.history = if r.rv == 3 { 0.0 } else { combined };
            if r.rv == 0 {
                p.first_failed = true;
                h.stats.failed_first += 1;
            }
        }
        let event = if empty { "empty" } else { "tx" };
        h.log(k, ue, r.process, event, r.rv, i8::from(!ok));
        h.feedback(k, ue, r.process, ok);
        let c = &mut self.counters;
        c.harq_failed_first = h.stats.failed_first;
        c.harq_never_resent = h.stats.never_resent;
        c.harq_lost_tbs = h.stats.lost;
        true
    }
}
