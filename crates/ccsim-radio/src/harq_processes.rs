//! Downlink HARQ processes as the seed 002 authors' ns3-mmwave tree runs them
//! (`harq.model = "processes"`): per UE, `harq.processes` stop-and-wait processes, feedback
//! `harq.rtt_slots` after each transmission, and optionally every feedback sent twice.
//!
//! Rules, each read in the tree (`/work/ns3mmwave/tree/src/mmwave/model/`; not copied):
//! - a new TB takes the **lowest free** process id and marks it busy
//!   (`UpdateDlHarqProcessId`, mmwave-flex-tti-mac-scheduler.cc l. 513-547); the process'
//!   timer restarts (l. 1352-1357). The default of 20 processes is `NumHarqProcess`
//!   (mmwave-phy-mac-common.cc l. 66-70);
//! - every slot the timers advance and a process whose timer reached `HarqDlTimeout` (20) is
//!   freed (`RefreshHarqProcesses`, l. 459-484): 21 slots after its last new TB;
//! - the UE's feedback (ACK/NACK) reaches the scheduler's list; the list is worked through in
//!   order at the start of each slot, before new data (l. 698-873):
//!   - with no data symbols left the loop stops and **the rest of the list is discarded**
//!     (l. 722-725 and 870-871: only entries deferred for lack of room are kept);
//!   - an ACK, or any feedback for a process already free, frees the process (l. 744-752);
//!   - a NACK at rv 3 frees it: HARQ gives up (l. 766-776);
//!   - a NACK resends the process' **current** DCI and MAC buffer with rv + 1 if the slot has
//!     room for it (l. 834-858), else it waits in the list for the next slot (l. 864-867);
//! - the MAC empties the process' buffer when an ACK arrives (`DoDlHarqFeedback`,
//!   mmwave-enb-mac.cc l. 811-816), before the scheduler sees it, and a new TB replaces the
//!   buffer (l. 939-943). A retransmission from an emptied buffer still goes on the air: the
//!   PHY sends an empty MAC PDU in a DCI's symbols that have no packet (mmwave-enb-phy.cc
//!   l. 1020-1044), which the UE decodes and acknowledges like any TB, so the process keeps
//!   its feedback (the cell's side, `cell_harq.rs`);
//! - the UE sends each feedback twice when `feedback_copies = 2`: `MmWaveSpectrumPhy::EndRxData`
//!   calls the feedback callback inside its packet loop (mmwave-spectrum-phy.cc l. 754) and
//!   again for every entry of its feedback map after the loop (l. 786). Acted on twice, a NACK
//!   gives two retransmissions, and the ACK copy of an older transmission can free a process
//!   that already carries a newer TB: that TB's buffer is emptied, and a failed TB on it is
//!   never resent by HARQ (RLC must repair it).
//!
//! Sans-IO and allocation-free once warm: the cell drives it per slot and decodes the
//! transmissions it reports (the UE's side: [`Process::history`]).

use std::collections::VecDeque;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A debug sink for the per-process sequence (`CCSIM_HARQ_TRACE`, see `cell_harq.rs`): one CSV
/// row per transmission and per process freed, for `harq_trigger.py --ccsim`. `None` in every
/// normal run, so the model pays one branch per event.
#[derive(Clone)]
pub struct HarqTrace(pub Arc<Mutex<dyn Write + Send>>);

impl std::fmt::Debug for HarqTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HarqTrace")
    }
}

/// The CSV header of [`HarqTrace`]: `event` is `tx` (a TB on the air, `corrupt` 0/1), `empty`
/// (a retransmission from an emptied MAC buffer: an empty PDU, decoded and acknowledged as a
/// TB, `corrupt` 0/1), `ack_empties` (an ACK arrived
/// and emptied the buffer of an undecoded TB), or what freed a busy process: `free_ack`,
/// `free_stale` (feedback for an already free process), `free_timeout`, `free_giveup` (a NACK
/// at rv 3); `slot` is the scheduling slot.
pub const HARQ_TRACE_HEADER: &str = "slot,ue,harq_id,event,ndi,rv,tb_bytes,corrupt";

/// One HARQ feedback on its way to (or waiting in) the scheduler's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feedback {
    pub ue: u32,
    pub process: u8,
    pub ack: bool,
}

/// A retransmission the scheduler granted: `ue`'s `process` resends its TB at `rv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retransmission {
    pub ue: u32,
    pub process: u8,
    pub rv: u8,
}

/// One process: the scheduler's status and DCI, the MAC's buffer, the UE's combining history.
#[derive(Clone, Debug)]
pub struct Process<T> {
    /// 0: free; else 1 + the redundancy version last sent (`m_dlHarqProcessesStatus`).
    pub status: u8,
    /// Slot of the last new TB (the timer's start).
    pub assigned_slot: u64,
    /// The TB's resource units (its DCI's symbols) and bytes.
    pub units: u64,
    pub bytes: u64,
    pub mcs: u8,
    /// The MAC buffer holds the TB (a retransmission puts it on the air again).
    pub buffered: bool,
    /// The TB's data while the UE has not decoded it (then it moves to the UE's RLC).
    pub data: Option<T>,
    /// The TB's first transmission failed / HARQ resent it (for the statistics).
    pub first_failed: bool,
    pub resent: bool,
    /// UE side: the combined linear SINR of the failed transmissions received on this process,
    /// 0 for none. The tree's UE keeps it per process id whatever the NDI, and clears it on a
    /// decoded TB or at rv 3 only (mmwave-spectrum-phy.cc l. 575-577 and 758-766).
    pub history: f64,
}

impl<T> Default for Process<T> {
    fn default() -> Self {
        Process {
            status: 0,
            assigned_slot: 0,
            units: 0,
            bytes: 0,
            mcs: 0,
            buffered: false,
            data: None,
            first_failed: false,
            resent: false,
            history: 0.0,
        }
    }
}

/// What happened to TBs that left their process (for the cell's counters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HarqStats {
    /// New TBs whose first transmission failed.
    pub failed_first: u64,
    /// Of those, TBs that left their process without a single HARQ retransmission.
    pub never_resent: u64,
    /// TBs whose data left the MAC undecoded (buffer emptied, replaced or given up): RLC's.
    pub lost: u64,
    /// Retransmissions from an emptied MAC buffer (the tree's PHY sends an empty PDU).
    pub empty_retransmissions: u64,
    /// Busy processes freed by their timer rather than by feedback.
    pub timeouts: u64,
}

/// The HARQ processes of every UE of a cell and the scheduler's feedback list.
#[derive(Clone, Debug)]
pub struct HarqProcesses<T> {
    per_ue: usize,
    timeout_slots: u64,
    copies: u8,
    rtt_slots: u64,
    procs: Vec<Process<T>>,
    /// Feedback on its way, with the slot whose scheduling sees it (FIFO: constant delay).
    due: VecDeque<(u64, Feedback)>,
    /// The scheduler's list (`m_dlHarqInfoList`), deferred entries first.
    list: Vec<Feedback>,
    deferred: Vec<Feedback>,
    pub stats: HarqStats,
    /// The debug sink of the per-process sequence, off (`None`) unless asked for.
    pub trace: Option<HarqTrace>,
    /// The slot [`HarqProcesses::begin_slot`] last started (for the trace rows).
    now: u64,
}

impl<T> HarqProcesses<T> {
    /// `n_ues` UEs with `per_ue` processes each (at most 255), freed `timeout_slots` after
    /// their last new TB; feedback seen `rtt_slots` after a transmission, `copies` times.
    pub fn new(
        n_ues: usize,
        per_ue: usize,
        timeout_slots: u32,
        rtt_slots: u32,
        copies: u8,
    ) -> Self {
        let per_ue = per_ue.clamp(1, 255);
        HarqProcesses {
            per_ue,
            timeout_slots: timeout_slots as u64,
            copies: copies.max(1),
            rtt_slots: rtt_slots.max(1) as u64,
            procs: (0..n_ues * per_ue).map(|_| Process::default()).collect(),
            due: VecDeque::with_capacity(64),
            list: Vec::with_capacity(16),
            deferred: Vec::with_capacity(16),
            stats: HarqStats::default(),
            trace: None,
            now: 0,
        }
    }

    /// Writes one row to the debug sink, if any (see [`HARQ_TRACE_HEADER`]).
    pub fn log(&self, slot: u64, ue: usize, p: u8, event: &str, rv: u8, corrupt: i8) {
        if let Some(HarqTrace(out)) = &self.trace {
            let bytes = self.process(ue, p).bytes;
            let ndi = u8::from(rv == 0 && event == "tx");
            let mut w = out.lock().expect("trace sink");
            // A debug aid: a failed write only loses trace rows.
            let _ = writeln!(w, "{slot},{ue},{p},{event},{ndi},{rv},{bytes},{corrupt}");
        }
    }

    pub fn process(&self, ue: usize, p: u8) -> &Process<T> {
        &self.procs[ue * self.per_ue + p as usize]
    }
    pub fn process_mut(&mut self, ue: usize, p: u8) -> &mut Process<T> {
        &mut self.procs[ue * self.per_ue + p as usize]
    }

    /// The earliest slot at or after `min_slot` with feedback to act on.
    pub fn next_slot(&self, min_slot: u64) -> Option<u64> {
        if !self.list.is_empty() {
            return Some(min_slot);
        }
        self.due.front().map(|&(k, _)| k.max(min_slot))
    }

    /// The start of slot `k`'s scheduling: expired timers free their processes, and the
    /// feedback due by `k` joins the list (an ACK empties the MAC buffer on arrival).
    pub fn begin_slot(&mut self, k: u64) {
        self.now = k;
        let expiry = self.timeout_slots + 1;
        for i in 0..self.procs.len() {
            let p = &mut self.procs[i];
            if p.status != 0 && k >= p.assigned_slot + expiry {
                p.status = 0;
                self.stats.timeouts += 1;
                self.log(
                    k,
                    i / self.per_ue,
                    (i % self.per_ue) as u8,
                    "free_timeout",
                    0,
                    -1,
                );
            }
        }
        while self.due.front().is_some_and(|&(d, _)| d <= k) {
            let (_, f) = self.due.pop_front().expect("front checked");
            if f.ack {
                let p = &mut self.procs[f.ue as usize * self.per_ue + f.process as usize];
                p.buffered = false;
                if p.data.take().is_some() {
                    self.stats.lost += 1;
                    self.log(k, f.ue as usize, f.process, "ack_empties", 0, -1);
                }
            }
            self.list.push(f);
        }
    }

    /// Works through the list with `units` of the slot free. Each retransmission the slot has
    /// room for goes to `resend` (which puts it on the air, decodes it and calls
    /// [`HarqProcesses::feedback`]; false: the UE cannot be served now, the entry waits).
    /// Returns the units left for new data.
    pub fn schedule_retransmissions(
        &mut self,
        mut units: u64,
        mut resend: impl FnMut(&mut Self, Retransmission) -> bool,
    ) -> u64 {
        self.deferred.clear();
        let mut list = std::mem::take(&mut self.list);
        for &f in list.iter() {
            if units == 0 {
                break; // the rest of the list is dropped, as the tree's loop does
            }
            let i = f.ue as usize * self.per_ue + f.process as usize;
            let p = &mut self.procs[i];
            if f.ack || p.status == 0 {
                let was = std::mem::take(&mut p.status);
                if was != 0 {
                    self.log(self.now, f.ue as usize, f.process, "free_ack", was - 1, -1);
                } else {
                    self.log(self.now, f.ue as usize, f.process, "free_stale", 0, -1);
                }
                continue;
            }
            let rv = p.status - 1;
            if rv == 3 {
                p.status = 0; // HARQ gives up; RLC repairs the data
                if p.data.take().is_some() {
                    self.stats.lost += 1;
                }
                self.log(self.now, f.ue as usize, f.process, "free_giveup", 3, -1);
                continue;
            }
            let need = p.units;
            let r = Retransmission {
                ue: f.ue,
                process: f.process,
                rv: rv + 1,
            };
            if units >= need && resend(self, r) {
                units -= need;
                let p = &mut self.procs[i];
                p.status += 1;
                p.resent |= p.buffered;
            } else {
                self.deferred.push(f);
            }
        }
        list.clear();
        std::mem::swap(&mut list, &mut self.deferred);
        self.list = list;
        units
    }

    /// The lowest free process of `ue`, if any.
    pub fn free_process(&self, ue: usize) -> Option<u8> {
        let base = ue * self.per_ue;
        self.procs[base..base + self.per_ue]
            .iter()
            .position(|p| p.status == 0)
            .map(|i| i as u8)
    }

    /// Puts a new TB on `ue`'s lowest free process in slot `k` (the caller checked there is
    /// one) and returns its id. The TB it replaces leaves the MAC buffer.
    pub fn new_tb(&mut self, k: u64, ue: usize, units: u64, bytes: u64, mcs: u8, data: T) -> u8 {
        let id = self.free_process(ue).expect("a free process");
        let p = &mut self.procs[ue * self.per_ue + id as usize];
        let s = &mut self.stats;
        s.never_resent += u64::from(p.first_failed && !p.resent);
        s.lost += u64::from(p.data.is_some());
        p.status = 1;
        p.assigned_slot = k;
        p.units = units;
        p.bytes = bytes;
        p.mcs = mcs;
        p.buffered = true;
        p.data = Some(data);
        p.first_failed = false;
        p.resent = false;
        id
    }

    /// The UE's feedback for a transmission of `process` in slot `k`: seen at slot
    /// `k + rtt_slots`, `copies` times.
    pub fn feedback(&mut self, k: u64, ue: usize, process: u8, ack: bool) {
        let f = Feedback {
            ue: ue as u32,
            process,
            ack,
        };
        for _ in 0..self.copies {
            self.due.push_back((k + self.rtt_slots, f));
        }
    }

    /// The UE left the cell: its processes and feedback are dropped (the target starts afresh).
    pub fn reset_ue(&mut self, ue: usize) {
        let base = ue * self.per_ue;
        for p in &mut self.procs[base..base + self.per_ue] {
            *p = Process::default();
        }
        self.due.retain(|(_, f)| f.ue as usize != ue);
        self.list.retain(|f| f.ue as usize != ue);
    }
}

#[cfg(test)]
#[path = "harq_processes_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "harq_replay_tests.rs"]
mod replay_tests;
