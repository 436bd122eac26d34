//! Mahimahi packet-delivery traces (Netravali et al., "Mahimahi: accurate record-and-replay for
//! HTTP", USENIX ATC 2015; traces of Winstein et al., NSDI 2013; ANCHORS §7).
//!
//! Format: one integer per line, a millisecond timestamp; each line is one delivery opportunity
//! for one MTU-sized packet (1500 bytes per the traces' README; `mm-link`'s `LinkQueue` uses
//! `PACKET_SIZE = 1504`), repeated lines give several opportunities in the same millisecond,
//! timestamps are non-decreasing, and the trace loops with a period equal to its last
//! timestamp (`LinkQueue`: `base_timestamp_ += schedule_.back()` when it wraps).
//!
//! Besides parsing and iterating, this module generates a small synthetic trace (shipped in
//! `traces/`) and converts per-second throughput logs (Lumos5G / 5Gophers CSV, ANCHORS §7) to
//! Mahimahi format, spreading each second's opportunities evenly over its 1000 ms.

use ccsim_core::{RngStream, Time};
use std::fmt;

/// Bytes per delivery opportunity (the traces' README).
pub const OPPORTUNITY_BYTES: u32 = 1500;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// 1-based line of the input, 0 when not tied to a line.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            write!(f, "{}", self.message)
        }
    }
}

impl std::error::Error for TraceError {}

fn err(line: usize, message: impl Into<String>) -> TraceError {
    TraceError {
        line,
        message: message.into(),
    }
}

/// A parsed trace: non-decreasing millisecond timestamps, last one > 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MahimahiTrace {
    ms: Vec<u64>,
}

impl MahimahiTrace {
    /// Builds a trace from timestamps (validated like [`MahimahiTrace::parse`]).
    pub fn from_timestamps(ms: Vec<u64>) -> Result<Self, TraceError> {
        if ms.is_empty() {
            return Err(err(0, "empty trace"));
        }
        if let Some(i) = ms.windows(2).position(|w| w[1] < w[0]) {
            return Err(err(i + 2, "timestamps must be non-decreasing"));
        }
        if *ms.last().expect("non-empty") == 0 {
            return Err(err(
                ms.len(),
                "the trace must last a nonzero time (last timestamp > 0)",
            ));
        }
        Ok(MahimahiTrace { ms })
    }

    /// Parses Mahimahi text (blank lines ignored, as `mm-link` skips them).
    pub fn parse(text: &str) -> Result<Self, TraceError> {
        let mut ms = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let s = line.trim();
            if s.is_empty() {
                continue;
            }
            let v: u64 = s
                .parse()
                .map_err(|_| err(i + 1, format!("not a millisecond timestamp: {s:?}")))?;
            if let Some(&prev) = ms.last() {
                if v < prev {
                    return Err(err(
                        i + 1,
                        format!("timestamp {v} after {prev}: must be non-decreasing"),
                    ));
                }
            }
            ms.push(v);
        }
        Self::from_timestamps(ms)
    }

    pub fn timestamps(&self) -> &[u64] {
        &self.ms
    }
    pub fn len(&self) -> usize {
        self.ms.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ms.is_empty()
    }
    /// Loop period (the last timestamp), ms.
    pub fn period_ms(&self) -> u64 {
        *self.ms.last().expect("validated non-empty")
    }
    /// Mean capacity (bit/s) with `OPPORTUNITY_BYTES` per opportunity.
    pub fn mean_rate_bps(&self) -> f64 {
        self.ms.len() as f64 * OPPORTUNITY_BYTES as f64 * 8.0 / (self.period_ms() as f64 * 1e-3)
    }

    /// Mahimahi text, one timestamp per line.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.ms.len() * 6);
        for v in &self.ms {
            s.push_str(&v.to_string());
            s.push('\n');
        }
        s
    }

    /// Endless, looping iterator of delivery-opportunity times, the trace starting at `start`.
    pub fn opportunities(&self, start: Time) -> Opportunities<'_> {
        Opportunities {
            trace: self,
            start,
            index: 0,
            base_ms: 0,
        }
    }
}

/// Cursor over a looping trace; also usable without the `Iterator` trait (`peek`/`advance`).
#[derive(Clone, Debug)]
pub struct Opportunities<'a> {
    trace: &'a MahimahiTrace,
    start: Time,
    index: usize,
    base_ms: u64,
}

impl Opportunities<'_> {
    /// Time of the next opportunity.
    pub fn peek(&self) -> Time {
        self.start + Time::from_millis(self.base_ms + self.trace.ms[self.index])
    }
    /// Moves to the following opportunity.
    pub fn advance(&mut self) {
        self.index += 1;
        if self.index == self.trace.ms.len() {
            self.index = 0;
            self.base_ms += self.trace.period_ms();
        }
    }
}

impl Iterator for Opportunities<'_> {
    type Item = Time;
    fn next(&mut self) -> Option<Time> {
        let t = self.peek();
        self.advance();
        Some(t)
    }
}

/// Spreads per-second rates (Mb/s) into a Mahimahi schedule: second `i` gets
/// `rate·10^6 / (8·1500)` opportunities, placed evenly over its milliseconds with the fraction
/// carried to the next millisecond (deterministic). The last timestamp is pinned to the trace
/// length so the loop period is the whole duration (an opportunity is added there if needed).
pub fn mahimahi_from_mbps(per_second_mbps: &[f64]) -> Result<MahimahiTrace, TraceError> {
    if per_second_mbps.is_empty() {
        return Err(err(0, "no throughput samples"));
    }
    let mut ms = Vec::new();
    let mut credit = 0.0f64;
    for (sec, &mbps) in per_second_mbps.iter().enumerate() {
        if !(mbps >= 0.0 && mbps.is_finite()) {
            return Err(err(
                0,
                format!("second {sec}: throughput {mbps} is not a finite value >= 0"),
            ));
        }
        let per_ms = mbps * 1e6 / (8.0 * OPPORTUNITY_BYTES as f64) / 1000.0;
        for m in 1..=1000u64 {
            credit += per_ms;
            while credit >= 1.0 - 1e-9 {
                ms.push(sec as u64 * 1000 + m);
                credit -= 1.0;
            }
        }
    }
    let end = per_second_mbps.len() as u64 * 1000;
    if ms.last() != Some(&end) {
        ms.push(end);
    }
    MahimahiTrace::from_timestamps(ms)
}

/// Converts a per-second throughput CSV (header row, comma separated, one row per second, e.g.
/// Lumos5G's `Throughput` column in Mb/s) to a Mahimahi trace. Rows with an empty value count as
/// 0 Mb/s.
pub fn throughput_csv_to_mahimahi(csv: &str, column: &str) -> Result<MahimahiTrace, TraceError> {
    let mut lines = csv
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().ok_or_else(|| err(0, "empty CSV"))?;
    let unquote = |s: &str| s.trim().trim_matches('"').to_string();
    let col = header
        .split(',')
        .map(unquote)
        .position(|h| h == column)
        .ok_or_else(|| err(1, format!("no column named {column:?}")))?;
    let mut rates = Vec::new();
    for (i, line) in lines {
        let field = line
            .split(',')
            .nth(col)
            .map(unquote)
            .ok_or_else(|| err(i + 1, format!("row has no column {col}")))?;
        let v = if field.is_empty() {
            0.0
        } else {
            field
                .parse::<f64>()
                .map_err(|_| err(i + 1, format!("not a number: {field:?}")))?
        };
        rates.push(v);
    }
    mahimahi_from_mbps(&rates)
}

/// Parameters of the synthetic mmWave-like trace.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticTrace {
    pub duration_s: u32,
    /// Capacity in line of sight (Mb/s).
    pub los_mbps: f64,
    /// Capacity during a blockage (Mb/s).
    pub nlos_mbps: f64,
    /// Blockages as (start s, length s).
    pub blockages: Vec<(f64, f64)>,
    /// Relative per-100 ms variation (uniform ±`jitter`).
    pub jitter: f64,
    pub seed: u64,
}

impl SyntheticTrace {
    /// The trace shipped as `traces/synthetic-blockage.down`: 10 s, 24 Mb/s in LOS with ±20 %
    /// variation every 100 ms, two blockages (3.0–4.5 s and 7.0–7.3 s) at 3 Mb/s.
    pub fn shipped() -> Self {
        SyntheticTrace {
            duration_s: 10,
            los_mbps: 24.0,
            nlos_mbps: 3.0,
            blockages: vec![(3.0, 1.5), (7.0, 0.3)],
            jitter: 0.2,
            seed: 1,
        }
    }

    /// Generates the trace (deterministic: stream `"synthetic-trace"` of `seed`).
    pub fn generate(&self) -> MahimahiTrace {
        let mut rng = RngStream::new(self.seed, "synthetic-trace");
        let mut ms = Vec::new();
        let mut credit = 0.0f64;
        let mut factor = 1.0;
        let total_ms = self.duration_s as u64 * 1000;
        for m in 1..=total_ms {
            if (m - 1) % 100 == 0 {
                factor = 1.0 + self.jitter * (2.0 * rng.next_f64() - 1.0);
            }
            let t = m as f64 / 1000.0;
            let blocked = self.blockages.iter().any(|&(s, l)| t > s && t <= s + l);
            let mbps = if blocked {
                self.nlos_mbps
            } else {
                self.los_mbps * factor
            };
            credit += mbps * 1e6 / (8.0 * OPPORTUNITY_BYTES as f64) / 1000.0;
            while credit >= 1.0 {
                ms.push(m);
                credit -= 1.0;
            }
        }
        if ms.last() != Some(&total_ms) {
            ms.push(total_ms);
        }
        MahimahiTrace::from_timestamps(ms).expect("generated trace is valid")
    }
}

/// Result of offering a packet to a [`TraceLink`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkAdmission {
    Accepted,
    Dropped,
}

/// A sans-IO trace-driven link (`mm-link` semantics): a drop-tail byte queue served at the
/// trace's delivery opportunities. An opportunity carries up to [`OPPORTUNITY_BYTES`]; a packet
/// larger than what is left is sent partly and finishes at a later opportunity; opportunities
/// that find the queue empty are lost (`LinkQueue::use_a_delivery_opportunity`).
#[derive(Clone, Debug)]
pub struct TraceLink {
    trace: MahimahiTrace,
    index: usize,
    base_ms: u64,
    start: Time,
    queue: std::collections::VecDeque<(u32, u32)>,
    head_sent: u32,
    queue_bytes: u64,
    limit_bytes: u64,
    pub drops: u64,
    pub delivered: u64,
}

impl TraceLink {
    pub fn new(trace: MahimahiTrace, start: Time, limit_bytes: u64) -> Self {
        TraceLink {
            trace,
            index: 0,
            base_ms: 0,
            start,
            queue: std::collections::VecDeque::with_capacity(1024),
            head_sent: 0,
            queue_bytes: 0,
            limit_bytes,
            drops: 0,
            delivered: 0,
        }
    }

    fn peek(&self) -> Time {
        self.start + Time::from_millis(self.base_ms + self.trace.ms[self.index])
    }

    fn advance(&mut self) {
        self.index += 1;
        if self.index == self.trace.ms.len() {
            self.index = 0;
            self.base_ms += self.trace.period_ms();
        }
    }

    /// Skips opportunities strictly before `now` (they found the queue empty).
    fn skip_before(&mut self, now: Time) {
        while self.peek() < now {
            self.advance();
        }
    }

    pub fn queue_bytes(&self) -> u64 {
        self.queue_bytes
    }

    pub fn enqueue(&mut self, now: Time, packet: u32, bytes: u32) -> LinkAdmission {
        if self.queue.is_empty() {
            self.skip_before(now);
        }
        if self.queue_bytes + bytes as u64 > self.limit_bytes {
            self.drops += 1;
            return LinkAdmission::Dropped;
        }
        self.queue.push_back((packet, bytes));
        self.queue_bytes += bytes as u64;
        LinkAdmission::Accepted
    }

    /// The next opportunity that has data to carry.
    pub fn next_deadline(&self) -> Option<Time> {
        (!self.queue.is_empty()).then(|| self.peek())
    }

    /// Uses every opportunity up to `now`; `out` receives `(packet, delivered_at)`.
    pub fn on_deadline(&mut self, now: Time, out: &mut Vec<(u32, Time)>) {
        while !self.queue.is_empty() && self.peek() <= now {
            let at = self.peek();
            let mut budget = OPPORTUNITY_BYTES;
            while budget > 0 {
                let Some(&(p, b)) = self.queue.front() else {
                    break;
                };
                let left = b - self.head_sent;
                if left <= budget {
                    budget -= left;
                    self.queue.pop_front();
                    self.head_sent = 0;
                    self.queue_bytes -= b as u64;
                    self.delivered += 1;
                    out.push((p, at));
                } else {
                    self.head_sent += budget;
                    budget = 0;
                }
            }
            self.advance();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_loop() {
        let t = MahimahiTrace::parse("1\n1\n3\n\n5\n").unwrap();
        assert_eq!(t.len(), 4);
        assert_eq!(t.period_ms(), 5);
        let v: Vec<u64> = t
            .opportunities(Time::ZERO)
            .take(9)
            .map(|x| x.as_millis())
            .collect();
        assert_eq!(v, vec![1, 1, 3, 5, 6, 6, 8, 10, 11]);
        let start = Time::from_millis(100);
        assert_eq!(t.opportunities(start).next(), Some(Time::from_millis(101)));
        assert!((t.mean_rate_bps() - 4.0 * 1500.0 * 8.0 / 0.005).abs() < 1e-6);
        assert_eq!(MahimahiTrace::parse(&t.to_text()).unwrap(), t);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = MahimahiTrace::parse("1\n2\nx\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = MahimahiTrace::parse("5\n4\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(MahimahiTrace::parse("0\n0\n").is_err());
        assert!(MahimahiTrace::parse("").is_err());
    }

    #[test]
    fn per_second_conversion_preserves_volume() {
        // 12 Mb/s = 1000 opportunities per second = one per ms.
        let t = mahimahi_from_mbps(&[12.0, 24.0, 0.0, 6.0]).unwrap();
        let ts = t.timestamps();
        assert_eq!(ts.iter().filter(|&&m| m <= 1000).count(), 1000);
        assert_eq!(ts.iter().filter(|&&m| m > 1000 && m <= 2000).count(), 2000);
        assert_eq!(ts.iter().filter(|&&m| m > 2000 && m <= 3000).count(), 0);
        assert_eq!(ts.iter().filter(|&&m| m > 3000).count(), 500);
        assert_eq!(t.period_ms(), 4000);
        assert!((t.mean_rate_bps() / 1e6 - 10.5).abs() < 0.01);
    }

    #[test]
    fn csv_conversion() {
        let csv = "run_num,seq_num,\"Throughput\",nrStatus\n1,1,12,CONNECTED\n1,2,,NOT\n1,3,6.0,CONNECTED\n";
        let t = throughput_csv_to_mahimahi(csv, "Throughput").unwrap();
        assert_eq!(t.len(), 1000 + 500);
        assert_eq!(t.period_ms(), 3000);
        assert_eq!(throughput_csv_to_mahimahi(csv, "nope").unwrap_err().line, 1);
        assert_eq!(
            throughput_csv_to_mahimahi("a\n1\nz\n", "a")
                .unwrap_err()
                .line,
            3
        );
    }

    #[test]
    fn shipped_synthetic_trace_is_reproducible() {
        let t = SyntheticTrace::shipped().generate();
        let shipped = include_str!("../traces/synthetic-blockage.down");
        assert_eq!(
            MahimahiTrace::parse(shipped).unwrap(),
            t,
            "regenerate traces/synthetic-blockage.down"
        );
        assert_eq!(t.period_ms(), 10_000);
        // During the 3.0–4.5 s blockage: 3 Mb/s = 250 opportunities/s.
        let blocked = t
            .timestamps()
            .iter()
            .filter(|&&m| m > 3000 && m <= 4500)
            .count();
        assert!((blocked as i64 - 375).abs() <= 1, "{blocked}");
        // Overall ≈ 24·0.82 + 3·0.18 ≈ 20.2 Mb/s.
        let r = t.mean_rate_bps() / 1e6;
        assert!(r > 18.0 && r < 22.5, "{r}");
    }

    #[test]
    fn trace_link_mm_link_semantics() {
        // Opportunities at 1, 2, 2, 4 ms, period 4.
        let trace = MahimahiTrace::parse("1\n2\n2\n4\n").unwrap();
        let mut link = TraceLink::new(trace, Time::ZERO, 10_000);
        let mut out = Vec::new();
        // Packets arriving at 1.5 ms: the 1 ms opportunity is gone.
        let t = Time::from_micros(1500);
        assert_eq!(link.enqueue(t, 7, 1000), LinkAdmission::Accepted);
        assert_eq!(link.enqueue(t, 8, 1000), LinkAdmission::Accepted);
        assert_eq!(link.enqueue(t, 9, 9000), LinkAdmission::Dropped);
        assert_eq!(link.next_deadline(), Some(Time::from_millis(2)));
        link.on_deadline(Time::from_millis(2), &mut out);
        // First 2 ms opportunity: packet 7 (1000 B) + 500 B of packet 8; second: rest of 8.
        assert_eq!(
            out,
            vec![(7, Time::from_millis(2)), (8, Time::from_millis(2))]
        );
        assert_eq!(link.next_deadline(), None);
        // Next packet at 3 ms goes at 4 ms, then one at 4.5 ms waits for the loop (5 ms).
        link.enqueue(Time::from_millis(3), 10, 1500);
        link.on_deadline(Time::from_millis(4), &mut out);
        link.enqueue(Time::from_micros(4500), 11, 1500);
        assert_eq!(link.next_deadline(), Some(Time::from_millis(5)));
        link.on_deadline(Time::from_millis(5), &mut out);
        assert_eq!(
            out[2..],
            [(10, Time::from_millis(4)), (11, Time::from_millis(5))]
        );
        assert_eq!((link.delivered, link.drops, link.queue_bytes()), (4, 1, 0));
    }
}
