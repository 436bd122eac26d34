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
    let mut space = cfg.rcv_buf;
    let mut shift = 0;
    while space > MAX_WINDOW_FIELD {
        space >>= 1;
        shift += 1;
    }
    shift.min(14)
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
