//! Constant-bit-rate UDP sources: seed 004 §3.5's background load between random pairs of
//! small cells. The datagrams count as delivered when they reach the destination router.

use ccsim_core::Time;
use ccsim_net::NodeId;

#[derive(Clone, Debug)]
pub struct UdpSource {
    pub src: NodeId,
    pub dst: NodeId,
    /// IP bytes per datagram.
    pub ip_bytes: u32,
    pub start: Time,
    pub stop: Time,
    /// Time between datagrams (rate = ip_bytes·8 / interval).
    pub interval: Time,
    next: Time,
    pub injected_packets: u64,
    pub injected_bytes: u64,
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
}

impl UdpSource {
    pub fn new(
        src: NodeId,
        dst: NodeId,
        ip_bytes: u32,
        start: Time,
        stop: Time,
        interval: Time,
    ) -> Self {
        UdpSource {
            src,
            dst,
            ip_bytes,
            start,
            stop,
            interval,
            next: start,
            injected_packets: 0,
            injected_bytes: 0,
            delivered_packets: 0,
            delivered_bytes: 0,
        }
    }

    /// A datagram leaves now, if the source is still on; returns when the next one is due.
    pub fn next_send(&mut self, now: Time) -> Option<Option<Time>> {
        if now >= self.stop {
            return None;
        }
        self.injected_packets += 1;
        self.injected_bytes += self.ip_bytes as u64;
        self.next = now + self.interval;
        Some((self.next < self.stop).then_some(self.next))
    }

    pub fn delivered(&mut self, ip_bytes: u32) {
        self.delivered_packets += 1;
        self.delivered_bytes += ip_bytes as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_at_its_rate_until_stop() {
        let mut s = UdpSource::new(
            NodeId(0),
            NodeId(1),
            1500,
            Time::from_secs(1),
            Time::from_secs(2),
            Time::from_micros(120),
        );
        let mut t = Some(s.start);
        while let Some(now) = t {
            t = s.next_send(now).flatten();
        }
        // 1 s at 100 Mb/s of 1500 B datagrams: 8334 datagrams (one every 120 µs from t = 1 s).
        assert_eq!(s.injected_packets, 8334);
        assert_eq!(s.injected_bytes, 8334 * 1500);
    }
}
