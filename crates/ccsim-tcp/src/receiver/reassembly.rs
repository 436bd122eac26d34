//! The out-of-order store: data held above RCV.NXT until the hole below it is filled
//! (ns-3.44 `TcpRxBuffer::Add`, `TcpRxBuffer::Extract`).

/// Out-of-order data held, as sorted disjoint [start, end) ranges above RCV.NXT.
#[derive(Debug)]
pub(super) struct Reassembly {
    ranges: Vec<(u64, u64)>,
    bytes: u64,
}

impl Reassembly {
    pub(super) fn new() -> Self {
        Reassembly {
            ranges: Vec::with_capacity(16),
            bytes: 0,
        }
    }

    /// Bytes held out of order.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// True while a hole lies below held data.
    pub(super) fn has_gap(&self) -> bool {
        !self.ranges.is_empty()
    }

    /// [start, end) is held already in full.
    pub(super) fn holds(&self, start: u64, end: u64) -> bool {
        self.ranges.iter().any(|&(s, e)| s <= start && end <= e)
    }

    /// Moves ranges that became contiguous with `rcv_nxt` into the in-order stream; returns
    /// the new RCV.NXT.
    pub(super) fn pull_contiguous(&mut self, mut rcv_nxt: u64) -> u64 {
        let mut drained = 0;
        for &(s, e) in self.ranges.iter() {
            if s > rcv_nxt {
                break;
            }
            if e > rcv_nxt {
                rcv_nxt = e;
            }
            self.bytes -= e - s;
            drained += 1;
        }
        self.ranges.drain(..drained);
        rcv_nxt
    }

    /// Inserts [start, end), merging neighbours, and returns the piece of it not held before
    /// (empty when `head >= tail`), the piece the SACK block reports: ns-3.44
    /// `TcpRxBuffer::Add` ("remove overlapped bytes from packet") cuts the head at the end of
    /// a range holding it and the tail at the start of a range holding it (a range strictly
    /// inside the segment does not trim it).
    pub(super) fn insert(&mut self, start: u64, end: u64) -> (u64, u64) {
        let (mut head, mut tail) = (start, end);
        // Ranges ending at or before `start` cannot overlap (they are sorted and disjoint).
        let first = self.ranges.partition_point(|&(_, e)| e <= start);
        for &(s, e) in &self.ranges[first..] {
            if s > tail {
                break;
            }
            if e > head && !(s > head && e < tail) {
                if s <= head {
                    head = e;
                }
                if e >= tail {
                    tail = s;
                }
            }
        }
        let pos = self.ranges.partition_point(|&(_, e)| e < start);
        let mut s = start;
        let mut e = end;
        let mut last = pos;
        while last < self.ranges.len() && self.ranges[last].0 <= e {
            s = s.min(self.ranges[last].0);
            e = e.max(self.ranges[last].1);
            self.bytes -= self.ranges[last].1 - self.ranges[last].0;
            last += 1;
        }
        self.ranges.splice(pos..last, std::iter::once((s, e)));
        self.bytes += e - s;
        (head, tail)
    }
}
