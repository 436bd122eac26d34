//! The receive window the ACK advertises (RFC 7323 §2, ns-3.44
//! `TcpSocketBase::AdvertisedWindowSize`, `CalculateWScale`).

use crate::config::TcpConfig;

/// Largest value of the 16-bit window field.
const MAX_WINDOW_FIELD: u64 = 65_535;

/// Window shift for the receive buffer (ns-3 `TcpSocketBase::CalculateWScale`).
fn window_shift(cfg: &TcpConfig) -> u32 {
    if !cfg.window_scaling {
        return 0;
    }
    // ns-3 halves the buffer size until it fits the 16-bit field: that is its bit length
    // beyond 16 (closed form; the loop ran on every ACK).
    let bits = u64::BITS - cfg.rcv_buf.leading_zeros();
    bits.saturating_sub(16).min(14)
}

/// The window the peer may use, as it decodes it from the 16-bit field: free buffer space
/// truncated to the scale unit (RFC 7323 §2.3); unscaled and capped on SYN segments.
pub(super) fn advertised_window(cfg: &TcpConfig, out_of_order_bytes: u64, syn: bool) -> u64 {
    // ns-3.44 advertises `MaxRxSequence − NextRxSequence`, the whole buffer once the
    // application has read the in-order data: out-of-order bytes held do not shrink it
    // (`TcpRxBuffer::MaxRxSequence`).
    let free = if cfg.rwnd_counts_out_of_order {
        cfg.rcv_buf.saturating_sub(out_of_order_bytes)
    } else {
        cfg.rcv_buf
    };
    if syn {
        return free.min(MAX_WINDOW_FIELD);
    }
    let shift = window_shift(cfg);
    (free >> shift).min(MAX_WINDOW_FIELD) << shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_shift_halves_until_the_field_holds_it() {
        let mut cfg = TcpConfig {
            window_scaling: true,
            ..TcpConfig::default()
        };
        for rcv_buf in (0..2_000_000u64).step_by(997).chain([
            65_535,
            65_536,
            131_071,
            131_072,
            4_000_000,
            u64::MAX,
        ]) {
            let (mut space, mut shift) = (rcv_buf, 0);
            while space > MAX_WINDOW_FIELD {
                space >>= 1;
                shift += 1;
            }
            cfg.rcv_buf = rcv_buf;
            assert_eq!(window_shift(&cfg), shift.min(14), "{rcv_buf}");
        }
        cfg.window_scaling = false;
        assert_eq!(window_shift(&cfg), 0);
    }
}
