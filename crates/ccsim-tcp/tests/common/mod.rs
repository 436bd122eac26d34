//! Shared by the tests that drive a sender with hand-built ACKs: a connected sender of
//! 1000-byte segments, the segments it sends, and cumulative ACKs.
#![allow(dead_code)]

use ccsim_core::Time;
use ccsim_net::{TcpFlags, TcpSegment};
use ccsim_tcp::{TcpConfig, TcpSender};

pub const MSS: u32 = 1000;

pub fn ms(x: u64) -> Time {
    Time::from_millis(x)
}

/// A connected sender of `cca` with `cfg` (its MSS and buffers set here), unlimited data.
pub fn connected(cfg: TcpConfig, cca: &str) -> TcpSender {
    connected_with_snd_buf(cfg, cca, 1 << 20)
}

/// [`connected`] with a send buffer of `snd_buf` bytes, which the application keeps full.
pub fn connected_with_snd_buf(mut cfg: TcpConfig, cca: &str, snd_buf: u64) -> TcpSender {
    cfg.mss = MSS;
    cfg.snd_buf = snd_buf;
    cfg.rcv_buf = 1 << 20;
    let cca = ccsim_cca::build(cca, &serde_json::Map::new()).unwrap();
    let mut s = TcpSender::new(cfg, cca, None);
    s.start(Time::ZERO);
    let syn = s.poll_transmit(Time::ZERO).unwrap();
    let synack = TcpSegment {
        flags: TcpFlags(TcpFlags::SYN | TcpFlags::ACK),
        ack: 1,
        window: 1 << 20,
        timestamps: true,
        ts_ecr: syn.ts_val,
        ..Default::default()
    };
    s.on_segment(ms(100), &synack);
    let hs = s.poll_transmit(ms(100)).unwrap();
    assert_eq!(hs.payload, 0, "the handshake's ACK goes first");
    s
}

/// The segments sent now, as (segment index, retransmission).
pub fn drain(s: &mut TcpSender, now: Time) -> Vec<(u64, bool)> {
    std::iter::from_fn(|| s.poll_transmit(now))
        .map(|x| ((x.seq - 1) / MSS as u64, x.retransmission))
        .collect()
}

/// A cumulative ACK of the first `n` segments (a duplicate ACK when it repeats the last one).
pub fn ack(n: u64) -> TcpSegment {
    TcpSegment {
        flags: TcpFlags(TcpFlags::ACK),
        ack: 1 + n * MSS as u64,
        window: 1 << 20,
        timestamps: true,
        ts_ecr: 100,
        ..Default::default()
    }
}
