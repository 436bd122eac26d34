//! Two defects of ns3-mmwave's secondary-cell handover that a handover's forwarding can
//! reproduce (issue 15; docs/radio.md, "The loss at ns3-mmwave's secondary-cell handover"):
//! the UE's old RLC reception buffer discarded (`ue_rlc_reset_loses_received`,
//! [`crate::rlc_held`]) and the rebuilt SDUs forwarded in 12-bit PDCP SN order
//! (`forward_in_pdcp_sn_order`).

use super::RadioNetwork;
use crate::cell::{Admission, Delivery, LossReason, Outcome};
use ccsim_core::Time;

/// PDCP SNs are 12 bits in the tree's LTE PDCP (`LtePdcp`, `m_maxPdcpSn` 4095).
pub const PDCP_SN_MODULUS: u64 = 4096;

/// Reorders `sdus`, consecutive PDCP SDUs of which the first has PDCP count `first`, as a map
/// keyed by their 12-bit SN iterates them: across the wrap from 4095 to 0 the part from SN 0
/// on (the newer one) goes first. ns3-mmwave's `LteRlcAm::CreateRlcSduBuffer` keys the SDUs it
/// rebuilds by SN in a `std::map` (lte-rlc-am.cc l. 1720), iterated by `ForwardRlcBuffers`
/// (lte-enb-rrc.cc l. 967-975). More than 4096 SDUs would share SNs: left in order.
pub fn pdcp_sn_order<T>(sdus: &mut [T], first: u64) {
    let (start, n) = (first % PDCP_SN_MODULUS, sdus.len() as u64);
    if n <= PDCP_SN_MODULUS && start + n > PDCP_SN_MODULUS {
        sdus.rotate_left((PDCP_SN_MODULUS - start) as usize);
    }
}

impl RadioNetwork {
    /// `ue_rlc_reset_loses_received`: the UE's RLC entity of cell `from` is discarded at `now`.
    /// What it held above a hole is lost if acknowledged (or if nothing is forwarded), else kept
    /// in `scratch_held` to be forwarded ahead of the backlog. Returns the number lost.
    pub(super) fn reset_ue_rlc(
        &mut self,
        now: Time,
        u: usize,
        from: usize,
        forward: bool,
        out: &mut Vec<Delivery>,
    ) -> u32 {
        self.scratch_held.clear();
        if !self.handover.ue_rlc_reset_loses_received {
            return 0;
        }
        let mut lost = 0u32;
        let held = &mut self.scratch_held;
        self.cells[from].drain_held(u, now, |packet, bytes, acked| {
            if acked || !forward {
                lost += 1;
                let reason = if acked {
                    LossReason::UeRlcReset
                } else {
                    LossReason::HandoverFlush
                };
                out.push(Delivery {
                    packet,
                    ue: u as u32,
                    at: now,
                    outcome: Outcome::Lost(reason),
                });
            } else {
                held.push((packet, bytes));
            }
        });
        lost
    }

    /// Forwards the held packets the source had not seen acknowledged (`scratch_held`) to cell
    /// `to`, ahead of the backlog. Returns how many were forwarded and how many the target's
    /// buffer dropped.
    pub(super) fn forward_held(
        &mut self,
        now: Time,
        u: usize,
        to: usize,
        out: &mut Vec<Delivery>,
    ) -> (u32, u32) {
        let (mut forwarded, mut lost) = (0u32, 0u32);
        for &(packet, bytes) in &self.scratch_held {
            if self.cells[to].enqueue(now, u, packet, bytes) == Admission::Dropped {
                lost += 1;
                out.push(Delivery {
                    packet,
                    ue: u as u32,
                    at: now,
                    outcome: Outcome::Lost(LossReason::ForwardOverflow),
                });
            } else {
                forwarded += 1;
            }
        }
        (forwarded, lost)
    }

    /// Reports the SDUs sent but not acknowledged (`scratch_resend`, oldest first) as
    /// [`Outcome::Resend`], in the order the target gets them: with
    /// `forward_in_pdcp_sn_order`, in 12-bit PDCP SN order. Their PDCP counts are those of the
    /// newest SDUs of UE `u` below everything else the source still had (the held ones,
    /// `reset_lost` of them lost, and the untransmitted backlog in `scratch_packets`): exact
    /// while no copy forwarded at an earlier handover is still queued.
    pub(super) fn push_resends(
        &mut self,
        u: usize,
        reset_lost: u32,
        now: Time,
        out: &mut Vec<Delivery>,
    ) {
        if self.handover.forward_in_pdcp_sn_order {
            let newer = self.scratch_packets.len() + self.scratch_held.len() + reset_lost as usize;
            let first = self.ues[u]
                .pdcp_sdus
                .saturating_sub((newer + self.scratch_resend.len()) as u64);
            pdcp_sn_order(&mut self.scratch_resend, first);
        }
        out.extend(self.scratch_resend.iter().map(|&packet| Delivery {
            packet,
            ue: u as u32,
            at: now,
            outcome: Outcome::Resend,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sn_order_puts_the_part_after_the_wrap_first() {
        let mut v: Vec<u64> = (4090..4100).collect();
        pdcp_sn_order(&mut v, 4090);
        assert_eq!(
            v,
            vec![4096, 4097, 4098, 4099, 4090, 4091, 4092, 4093, 4094, 4095]
        );
        let mut w: Vec<u64> = (10..20).collect();
        pdcp_sn_order(&mut w, 10);
        assert_eq!(w, (10..20).collect::<Vec<_>>());
        // ending exactly at SN 4095: no wrap
        let mut x: Vec<u64> = (4086..4096).collect();
        pdcp_sn_order(&mut x, 4086);
        assert_eq!(x, (4086..4096).collect::<Vec<_>>());
    }
}
