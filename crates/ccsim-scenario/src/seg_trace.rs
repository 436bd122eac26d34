//! A per-segment text log of one flow, line for line in the format of the ns-3 reference
//! program's `--debugLog` (validation/ns3/dumbbell.cc), so the two can be diffed to find the
//! first event where ccsim and ns-3 part ways. A debugging aid: off unless asked for
//! (`ccsim-run` with `CCSIM_TRACE=FILE`), and one `Option` test per packet when off.

use ccsim_core::Time;
use ccsim_net::{Packet, TcpSegment};
use std::io::Write;

pub struct SegmentTrace {
    flow: u32,
    out: Box<dyn Write + Send>,
    /// Every delivery-rate sample of the flow, in the format of the reference program's
    /// `--rateTrace` (`CCSIM_RATE_TRACE=FILE`).
    rate_out: Option<Box<dyn Write + Send>>,
}

impl SegmentTrace {
    pub fn new(flow: u32, out: Box<dyn Write + Send>) -> Self {
        SegmentTrace {
            flow,
            out,
            rate_out: None,
        }
    }

    /// Also log the flow's delivery-rate samples to `out`.
    pub fn with_rate_samples(mut self, out: Box<dyn Write + Send>) -> Self {
        self.rate_out = Some(out);
        self
    }

    /// The flow's sender has taken the rate sample `rs` on an ACK.
    pub fn rate_sample(&mut self, now: Time, flow: u32, rs: &ccsim_cca::RateSample) {
        let Some(out) = self.rate_out.as_mut().filter(|_| flow == self.flow) else {
            return;
        };
        let _ = writeln!(
            out,
            "{:.9} rate={} applim={} delivered={} interval={} acked={} prior_delivered={}",
            now.as_secs_f64(),
            rs.delivery_rate_bps,
            rs.is_app_limited as u8,
            rs.delivered,
            rs.interval.as_nanos(),
            rs.acked_sacked,
            rs.prior_delivered
        );
    }

    /// A data segment leaves the sender (`RETX` marks a retransmission, as ns-3's
    /// "sequence below the highest sent" rule does).
    pub fn sent(&mut self, now: Time, flow: u32, seg: &TcpSegment) {
        if flow != self.flow || seg.payload == 0 {
            return;
        }
        let retx = if seg.retransmission { " RETX" } else { "" };
        // A failed write only loses debug output; the run goes on.
        let _ = writeln!(
            self.out,
            "{:.9} TX seq={} len={}{retx}",
            now.as_secs_f64(),
            seg.seq,
            seg.payload
        );
    }

    /// A queue dropped a data segment (any flow, as the ns-3 log does).
    pub fn dropped(&mut self, now: Time, packet: &Packet) {
        let seg = &packet.tcp;
        if packet.ip.is_fragment() {
            let _ = writeln!(
                self.out,
                "{:.9} DROP frag id={} off={} bytes={}",
                now.as_secs_f64(),
                { packet.ip.id },
                { packet.ip.frag_offset },
                packet.ip_bytes - ccsim_net::packet::IPV4_HEADER_BYTES
            );
            return;
        }
        if seg.payload == 0 {
            return;
        }
        let _ = writeln!(
            self.out,
            "{:.9} DROP seq={} len={}",
            now.as_secs_f64(),
            seg.seq,
            seg.payload
        );
    }

    /// An ACK reaches the sender.
    pub fn acked(&mut self, now: Time, flow: u32, seg: &TcpSegment) {
        if flow != self.flow || seg.flags.has(ccsim_net::TcpFlags::SYN) {
            return;
        }
        let _ = write!(
            self.out,
            "{:.9} RX ack={} tsval={} tsecr={} hdr={}",
            now.as_secs_f64(),
            seg.ack,
            seg.ts_val,
            seg.ts_ecr,
            seg.header_bytes()
        );
        if !seg.sack.is_empty() {
            let _ = write!(self.out, " sack=");
            for (from, to) in seg.sack.unpacked().iter() {
                let _ = write!(self.out, "[{from};{to})");
            }
        }
        let _ = writeln!(self.out);
    }
}
