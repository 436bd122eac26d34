//! A debug sink for the entity RLC AM (`CCSIM_RLC_TRACE=FILE`): one CSV row per data PDU sent
//! and received, per status report sent and received, and per timer expiry, with the state
//! variables of both ends, for tracing RLC stalls PDU by PDU (validation/report.md, "Over
//! seeds 2–7"). `None` in every normal run, so the link pays one branch per event.
//! Read when the cell is built: each new simulation rewrites the file (`FILE` for cell 0, else
//! `FILE.cell<id>`).

use std::io::Write;
use std::sync::{Arc, Mutex};

/// The CSV header. `event`: `tx_new`, `tx_retx` (a whole PDU again), `tx_seg` (a PDU segment
/// of a retransmission), `tx_window_full` (a TB for new data while VT(S) = VT(A) + 512: nothing
/// sent; `detail` the TB size); `rx_<how>` at the UE (`whole`, `old` below VR(R),
/// `outside_window` at or above VR(R) + 512, `dup`,
/// `ignored_whole` (the SN holds an incomplete segment set), `seg_first`, `seg_next`,
/// `seg_complete`, `seg_discards_set`, `seg_ignored`, `whole_as_seg`); `status_tx` (UE) and
/// `status_rx` (gNB, state after it): `sn` is ACK_SN, `detail` the NACKs (`n:first..`);
/// `poll_expiry`, `reorder_expiry`. `offset`/`bytes`/`last`: the PDU part (-1: whole PDU).
/// VT(A) is the lowest unacknowledged SN (VT(S) if none), `retx_q` the retransmission queue.
pub const RLC_TRACE_HEADER: &str =
    "t_us,ue,event,sn,offset,bytes,last,vt_a,vt_s,retx_q,vr_r,vr_ms,vr_h,held,detail";

#[derive(Clone)]
pub struct RlcTrace {
    out: Arc<Mutex<dyn Write + Send>>,
    ue: u32,
}

impl std::fmt::Debug for RlcTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RlcTrace")
    }
}

/// One row's values besides the time, UE and event.
pub struct RlcRow<'a> {
    pub sn: i64,
    /// (offset, bytes, last) of a PDU segment, `None` for a whole PDU.
    pub part: Option<(u32, u32, bool)>,
    pub vt: (u32, u32, usize),
    pub vr: (u32, u32, u32, usize),
    pub detail: &'a str,
}

impl RlcTrace {
    /// The sink of cell `id` if `CCSIM_RLC_TRACE` is set.
    pub fn from_env(id: u32) -> Option<RlcTrace> {
        let mut path = std::env::var_os("CCSIM_RLC_TRACE")?;
        if id > 0 {
            path.push(format!(".cell{id}"));
        }
        let file = std::fs::File::create(&path).expect("cannot create CCSIM_RLC_TRACE file");
        let mut w = std::io::BufWriter::new(file);
        writeln!(w, "{RLC_TRACE_HEADER}").expect("cannot write CCSIM_RLC_TRACE file");
        Some(RlcTrace {
            out: Arc::new(Mutex::new(w)),
            ue: 0,
        })
    }

    /// A sink writing to `w` (tests).
    pub fn to_writer(w: impl Write + Send + 'static) -> RlcTrace {
        RlcTrace {
            out: Arc::new(Mutex::new(w)),
            ue: 0,
        }
    }

    /// The same sink, writing `ue` in its rows.
    pub fn for_ue(&self, ue: u32) -> RlcTrace {
        RlcTrace {
            out: Arc::clone(&self.out),
            ue,
        }
    }

    pub fn row(&self, t_us: u64, event: &str, r: RlcRow) {
        let (off, bytes, last) = match r.part {
            Some((o, b, l)) => (i64::from(o), i64::from(b), i8::from(l)),
            None => (-1, -1, -1),
        };
        let (vt_a, vt_s, retx_q) = r.vt;
        let (vr_r, vr_ms, vr_h, held) = r.vr;
        let mut w = self.out.lock().expect("trace sink");
        // A debug aid: a failed write only loses trace rows.
        let _ = writeln!(
            w,
            "{t_us},{},{event},{},{off},{bytes},{last},{vt_a},{vt_s},{retx_q},{vr_r},{vr_ms},{vr_h},{held},{}",
            self.ue, r.sn, r.detail
        );
    }
}
