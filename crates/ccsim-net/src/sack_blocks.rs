//! The SACK option's blocks (RFC 2018), stored compactly inside a packet.
//!
//! A SACK block always lies within the receive window near the cumulative ACK, so every
//! block is stored as two 32-bit offsets from one 64-bit base (the first block's start):
//! 41 bytes instead of 72 for four `(u64, u64)` pairs. The bytes have alignment 1, so that
//! the block count can sit in the same cache line as the rest of the header fields a
//! packet's hop reads (see the layout of [`crate::Packet`]).

use crate::packet::MAX_OPTION_BYTES;

/// Most blocks an ACK carries (RFC 2018 §3: 40 option bytes hold four).
const MAX_BLOCKS: usize = 4;

/// Up to four SACK blocks `[start, end)` in byte sequence space, most recent first (RFC 2018).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct SackBlocks {
    /// Number of blocks; first, so that `is_empty` reads the byte next to the TCP fields.
    len: u8,
    /// The base: the first block's start (`u64`, little-endian).
    base: [u8; 8],
    /// Per block its start and end, as 32-bit two's-complement offsets from the base
    /// (little-endian).
    edges: [[u8; 4]; 2 * MAX_BLOCKS],
}

impl SackBlocks {
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a block; ignored when already full. Panics if the block lies 2^31 bytes or
    /// more from the first block's start (no receive window is that large).
    pub fn push(&mut self, start: u64, end: u64) {
        let i = self.len as usize;
        if i >= MAX_BLOCKS {
            return;
        }
        if i == 0 {
            self.base = start.to_le_bytes();
        }
        let base = u64::from_le_bytes(self.base);
        self.edges[2 * i] = offset_from(base, start).to_le_bytes();
        self.edges[2 * i + 1] = offset_from(base, end).to_le_bytes();
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Block `i` (0 = most recent). Panics when `i >= len()`.
    pub fn get(&self, i: usize) -> (u64, u64) {
        assert!(i < self.len(), "SACK block {i} of {}", self.len);
        let base = u64::from_le_bytes(self.base);
        (
            add_offset(base, u32::from_le_bytes(self.edges[2 * i])),
            add_offset(base, u32::from_le_bytes(self.edges[2 * i + 1])),
        )
    }

    /// The blocks as full sequence numbers, in a value that derefs to a slice.
    pub fn unpacked(&self) -> SackList {
        let mut list = SackList::default();
        for i in 0..self.len() {
            list.blocks[i] = self.get(i);
        }
        list.len = self.len;
        list
    }

    /// Most blocks that fit in the option space next to the other options (ns-3
    /// `TcpSocketBase::AddOptionSack`: (space left − 2) / 8).
    pub fn max_blocks(other_option_bytes: u32) -> usize {
        ((MAX_OPTION_BYTES - other_option_bytes).saturating_sub(2) / 8).min(MAX_BLOCKS as u32)
            as usize
    }
}

/// [`SackBlocks`] unpacked to full sequence numbers (a copy on the stack, for reading).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackList {
    blocks: [(u64, u64); MAX_BLOCKS],
    len: u8,
}

impl SackList {
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.blocks[..self.len as usize]
    }
}

impl std::ops::Deref for SackList {
    type Target = [(u64, u64)];
    fn deref(&self) -> &[(u64, u64)] {
        self.as_slice()
    }
}

/// `value − base` as a 32-bit two's-complement offset; panics when it does not fit.
fn offset_from(base: u64, value: u64) -> u32 {
    let d = value.wrapping_sub(base) as i64;
    let off = i32::try_from(d).unwrap_or_else(|_| {
        panic!("SACK block edge {value} is 2^31 bytes or more from the first block's {base}")
    });
    off as u32
}

fn add_offset(base: u64, off: u32) -> u64 {
    base.wrapping_add(off as i32 as i64 as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_around_the_first_ones_start() {
        let mut s = SackBlocks::default();
        let base = (1u64 << 40) + 17;
        // Later blocks may lie below the first (most recent first), up to 2^31 − 1 away.
        let blocks = [
            (base, base + 1448),
            (base - 100_000, base - 50_000),
            (base + (1 << 31) - 2, base + (1 << 31) - 1),
            (base - (1 << 31), base - (1 << 31) + 8),
        ];
        for &(a, b) in &blocks {
            s.push(a, b);
        }
        s.push(1, 2); // full: ignored
        assert_eq!(s.len(), 4);
        assert_eq!(s.unpacked().as_slice(), &blocks);
        assert_eq!(s.get(1), blocks[1]);
        s.clear();
        assert!(s.is_empty());
        assert!(s.unpacked().is_empty());
        s.push(5, 9);
        assert_eq!(&*s.unpacked(), &[(5, 9)]);
    }

    #[test]
    #[should_panic(expected = "2^31 bytes or more")]
    fn a_block_too_far_from_the_first_panics() {
        let mut s = SackBlocks::default();
        s.push(1 << 40, (1 << 40) + 10);
        s.push(1 << 20, (1 << 20) + 10);
    }

    #[test]
    fn fits_next_to_the_tcp_fields() {
        assert_eq!(std::mem::size_of::<SackBlocks>(), 41);
        assert_eq!(std::mem::align_of::<SackBlocks>(), 1);
    }
}
