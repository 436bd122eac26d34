//! The application above the sender: how much it writes into the send buffer, and when.
//!
//! ns-3's `BulkSendApplication` (the papers' traffic source) writes only when the socket
//! calls `NotifySend` (from `TcpSocketBase::NewAck` and `SendPendingData`), in `SendSize`
//! chunks (`tcp.app_write_chunk`, 512 B), whenever a whole chunk fits in the send buffer. So
//! the buffered data ends on a chunk boundary and the room an ACK frees stays empty until the
//! socket asks. Without a chunk size the buffer is kept full to the byte (Linux, an
//! application that always has data). A flow may also be limited to a total byte count, or
//! fed by rate-limited writes (`write`).

/// The send-buffer side of the application (sequence numbers are the sender's).
#[derive(Clone, Debug)]
pub struct BulkSendApp {
    /// Sequence number of the first data byte (ISS + 1).
    data_start: u64,
    /// Bytes the application will ever write (`None`: unlimited bulk).
    total: Option<u64>,
    /// Write size (`tcp.app_write_chunk`); `None`: the buffer is kept full to the byte.
    chunk: Option<u32>,
    /// Send buffer (`tcp.snd_buf`).
    snd_buf: u64,
    /// End of what has been written into the send buffer (chunked writes only).
    end: u64,
}

impl BulkSendApp {
    pub fn new(data_start: u64, total: Option<u64>, chunk: Option<u32>, snd_buf: u64) -> Self {
        BulkSendApp {
            data_start,
            total,
            chunk,
            snd_buf,
            end: 0,
        }
    }

    /// Bytes the application will ever write (`None` for an unlimited bulk source).
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// The application writes `bytes` more; false for an unlimited source, which ignores it.
    pub fn write(&mut self, bytes: u64) -> bool {
        match self.total.as_mut() {
            Some(total) => {
                *total += bytes;
                true
            }
            None => false,
        }
    }

    /// One past the last byte the application will write.
    pub fn limit_seq(&self) -> u64 {
        match self.total {
            Some(n) => self.data_start + n,
            None => u64::MAX,
        }
    }

    /// The connection opens: BulkSend fills the send buffer.
    pub fn start(&mut self, mss: u32) {
        self.end = self.writable_end(self.data_start, mss);
    }

    /// Writes are chunked (ns-3 BulkSend).
    pub fn is_chunked(&self) -> bool {
        self.chunk.is_some()
    }

    /// The first chunk is smaller than a segment: BulkSend's first write leaves less than a
    /// segment to send, which ns-3 marks app-limited.
    pub fn chunk_below(&self, mss: u32) -> bool {
        self.chunk.is_some_and(|c| c < mss)
    }

    /// End of the data in the send buffer with SND.UNA at `una`: what the application has
    /// written, at most `snd_buf` past SND.UNA, in whole chunks.
    pub fn buffered_end(&self, una: u64, mss: u32) -> u64 {
        if self.chunk.is_some() {
            self.end.max(self.data_start)
        } else {
            self.writable_end(una, mss)
        }
    }

    /// How far the application would fill the send buffer with SND.UNA at `una`.
    fn writable_end(&self, una: u64, mss: u32) -> u64 {
        let mut end = una + self.snd_buf.max(mss as u64);
        if let Some(chunk) = self.chunk {
            let chunk = chunk.max(1) as u64;
            end = self.data_start + (end - self.data_start) / chunk * chunk;
        }
        self.limit_seq().min(end)
    }

    /// The socket tells the application it may write (`NotifySend`). With chunked writes and
    /// room for a whole chunk it fills the buffer and returns where its *first* chunk ends
    /// (each `TcpSocketBase::Send` checks app-limitedness; the first chunk is the one that can
    /// pass that test). `None`: nothing written.
    pub fn notify_send(&mut self, una: u64, mss: u32) -> Option<u64> {
        let chunk = self.chunk?;
        let new_end = self.writable_end(una, mss);
        if new_end <= self.end {
            return None; // no room for a whole chunk
        }
        let first_chunk_end = (self.end + chunk.max(1) as u64).min(new_end);
        self.end = new_end;
        Some(first_chunk_end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_writes_end_on_a_chunk_boundary_and_wait_for_room() {
        // 10 000-byte buffer, 512-byte chunks: 19 chunks fit (9 728 bytes).
        let mut app = BulkSendApp::new(1, None, Some(512), 10_000);
        app.start(1000);
        assert_eq!(app.buffered_end(1, 1000), 1 + 19 * 512);
        // 272 bytes free; 200 more ACKed are still less than a chunk.
        assert_eq!(app.notify_send(201, 1000), None);
        // 600 ACKed: one more chunk; the first chunk written ends 512 bytes after the old end.
        assert_eq!(app.notify_send(601, 1000), Some(1 + 20 * 512));
        assert_eq!(app.buffered_end(601, 1000), 1 + 20 * 512);
    }

    #[test]
    fn unchunked_buffer_is_full_to_the_byte_and_bounded_by_the_total() {
        let mut app = BulkSendApp::new(1, Some(5000), None, 4000);
        app.start(1000);
        assert_eq!(app.notify_send(1001, 1000), None);
        assert_eq!(app.buffered_end(1001, 1000), 5001);
        assert_eq!(app.buffered_end(1, 1000), 4001);
        assert!(app.write(100));
        assert_eq!(app.limit_seq(), 5101);
        assert!(!BulkSendApp::new(1, None, None, 4000).write(100));
    }
}
