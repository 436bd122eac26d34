//! MPR selection: the heuristic of RFC 3626 §8.3.1 as ns-3.44's `MprComputation` runs it.
//!
//! Differences from a literal reading of the RFC, all ns-3's:
//! - neighbours with willingness ALWAYS are MPRs, and the 2-hop nodes they reach are removed
//!   from N2 right away;
//! - step 3 ("the only neighbour that reaches some node of N2") looks at N2 after the
//!   exclusions, so a 2-hop node also reached through a WILL_NEVER neighbour still counts as
//!   reached by one neighbour only;
//! - in step 4 the tie-break D(y) never separates candidates: ns-3's `Degree` counts 2-hop
//!   tuples whose *neighbour* is not in the neighbour set, which never happens, so it is 0 for
//!   everyone. Ties on (willingness, reachability) therefore go to the first neighbour in the
//!   neighbour set's order. We model that by not computing D(y) at all.

use super::state::{NeighborTuple, TwoHopTuple};
use super::Willingness;

/// The MPR set of router `self_main` (sorted), from its neighbour and 2-hop neighbour sets.
pub fn compute_mprs(
    self_main: u32,
    neighbors: &[NeighborTuple],
    two_hop: &[TwoHopTuple],
) -> Vec<u32> {
    // N: the symmetric neighbours.
    let n: Vec<&NeighborTuple> = neighbors.iter().filter(|t| t.symmetric).collect();
    let in_n = |addr: u32| n.iter().find(|t| t.main_addr == addr);

    // N2: 2-hop tuples, excluding (i) those reached only through WILL_NEVER (or non-symmetric)
    // neighbours, (ii) this router, (iii) symmetric neighbours.
    let mut n2: Vec<(u32, u32)> = two_hop
        .iter()
        .filter(|t| t.two_hop_addr != self_main)
        .filter(|t| {
            in_n(t.neighbor_main_addr).is_some_and(|nb| nb.willingness != Willingness::Never as u8)
        })
        .filter(|t| in_n(t.two_hop_addr).is_none())
        .map(|t| (t.neighbor_main_addr, t.two_hop_addr))
        .collect();

    let mut mprs: Vec<u32> = Vec::new();
    let cover = |by: u32, n2: &mut Vec<(u32, u32)>| {
        let reached: Vec<u32> = n2
            .iter()
            .filter(|&&(nb, _)| nb == by)
            .map(|&(_, two)| two)
            .collect();
        n2.retain(|&(_, two)| !reached.contains(&two));
    };

    // 1. Neighbours with willingness ALWAYS.
    for nb in &n {
        if nb.willingness == Willingness::Always as u8 {
            mprs.push(nb.main_addr);
            cover(nb.main_addr, &mut n2);
        }
    }

    // 3. Neighbours that are the only ones reaching some node of N2.
    let mut covered: Vec<u32> = Vec::new();
    for &(nb, two) in &n2 {
        let only_one = !n2
            .iter()
            .any(|&(other_nb, other_two)| other_two == two && other_nb != nb);
        if only_one {
            mprs.push(nb);
            covered.extend(n2.iter().filter(|&&(o, _)| o == nb).map(|&(_, t)| t));
        }
    }
    n2.retain(|&(_, two)| !covered.contains(&two));

    // 4. While N2 is not covered: take the neighbour with the highest willingness, then the
    // highest reachability (number of uncovered N2 nodes it reaches); ties to the first in N.
    while !n2.is_empty() {
        let mut best: Option<(u8, usize, u32)> = None;
        for nb in &n {
            let reach = n2.iter().filter(|&&(o, _)| o == nb.main_addr).count();
            if reach == 0 {
                continue;
            }
            let better = match best {
                None => true,
                Some((w, r, _)) => (nb.willingness, reach) > (w, r),
            };
            if better {
                best = Some((nb.willingness, reach, nb.main_addr));
            }
        }
        let Some((_, _, chosen)) = best else {
            // Unreachable: every N2 tuple's neighbour is in N with reach ≥ 1.
            break;
        };
        mprs.push(chosen);
        cover(chosen, &mut n2);
    }

    mprs.sort_unstable();
    mprs.dedup();
    mprs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nb(addr: u32, will: Willingness) -> NeighborTuple {
        NeighborTuple {
            main_addr: addr,
            symmetric: true,
            willingness: will as u8,
        }
    }
    fn th(via: u32, to: u32) -> TwoHopTuple {
        TwoHopTuple {
            neighbor_main_addr: via,
            two_hop_addr: to,
            expires: 0,
        }
    }

    #[test]
    fn line_middle_node_is_the_only_mpr() {
        // 1 - 2 - 3 seen from 1: 2 is the only way to 3.
        let mprs = compute_mprs(1, &[nb(2, Willingness::Default)], &[th(2, 3), th(2, 1)]);
        assert_eq!(mprs, vec![2]);
    }

    #[test]
    fn star_centre_needs_no_mpr() {
        // Seen from the centre 0 of a star 0-{1,2,3}: every leaf is a neighbour; the leaves
        // report only 0 itself as their neighbour, so N2 is empty.
        let n = [
            nb(1, Willingness::Default),
            nb(2, Willingness::Default),
            nb(3, Willingness::Default),
        ];
        assert!(compute_mprs(0, &n, &[th(1, 0), th(2, 0), th(3, 0)]).is_empty());
    }

    #[test]
    fn isolated_two_hop_node_forces_its_only_neighbour() {
        // From 0: neighbours 1, 2, 3. 1 reaches {10, 11, 12}, 2 reaches {10, 11}, 3 reaches {12, 13}.
        // 13 is reachable only through 3 (step 3), which also covers 12; then 10 and 11 are left,
        // and 1 (first in N) and 2 tie on reachability 2: 1 wins. Greedy on reachability alone
        // would have taken 1 first (reach 3), then 3 for 13: the same set here.
        let n = [
            nb(1, Willingness::Default),
            nb(2, Willingness::Default),
            nb(3, Willingness::Default),
        ];
        let t = [
            th(1, 10),
            th(1, 11),
            th(1, 12),
            th(2, 10),
            th(2, 11),
            th(3, 12),
            th(3, 13),
        ];
        assert_eq!(compute_mprs(0, &n, &t), vec![1, 3]);

        // Now 2 comes first in N: it wins the tie for {10, 11}.
        let n = [
            nb(2, Willingness::Default),
            nb(1, Willingness::Default),
            nb(3, Willingness::Default),
        ];
        assert_eq!(compute_mprs(0, &n, &t), vec![2, 3]);
    }

    #[test]
    fn step3_picks_the_sole_provider_even_if_greedy_would_not() {
        // 1 reaches {10, 11, 12}; 2 reaches {10, 13}; 3 reaches {11, 12, 13}... and 4 alone reaches 14.
        // Sole providers: 4 (for 14). Then greedy: 1 and 3 both reach 3 → 1 (first); then 13 left:
        // 2 and 3 reach 1 each → 2 (first in N).
        let n = [
            nb(1, Willingness::Default),
            nb(2, Willingness::Default),
            nb(3, Willingness::Default),
            nb(4, Willingness::Default),
        ];
        let t = [
            th(1, 10),
            th(1, 11),
            th(1, 12),
            th(2, 10),
            th(2, 13),
            th(3, 11),
            th(3, 12),
            th(3, 13),
            th(4, 14),
        ];
        assert_eq!(compute_mprs(0, &n, &t), vec![1, 2, 4]);
    }

    #[test]
    fn willingness_always_and_never() {
        // 1 (NEVER) is the only way to 10: 10 is dropped from N2 and 1 is never chosen.
        // 2 (ALWAYS) is an MPR although it reaches nothing another neighbour doesn't.
        // 3 (HIGH) beats 4 (DEFAULT) for 11 even though 4 reaches more.
        let n = [
            nb(1, Willingness::Never),
            nb(2, Willingness::Always),
            nb(3, Willingness::High),
            nb(4, Willingness::Default),
            nb(5, Willingness::Default),
        ];
        let t = [
            th(1, 10),
            th(2, 12),
            th(5, 12),
            th(3, 11),
            th(4, 11),
            th(4, 13),
            th(5, 13),
        ];
        // After ALWAYS: 2 covers 12. Left: 11 (3, 4), 13 (4, 5). No sole provider.
        // Greedy: 3 (HIGH, reach 1) beats 4 (DEFAULT, reach 2). Then 13: 4 and 5 reach 1 → 4.
        assert_eq!(compute_mprs(0, &n, &t), vec![2, 3, 4]);
    }

    #[test]
    fn asymmetric_neighbours_and_own_address_are_ignored() {
        let mut asym = nb(1, Willingness::Default);
        asym.symmetric = false;
        let n = [asym, nb(2, Willingness::Default)];
        // 1 is not symmetric: 10 (only through 1) is not in N2; 0 is this router itself;
        // 2 is a symmetric neighbour, not a 2-hop node, even if 1 reports it.
        let t = [th(1, 10), th(2, 0), th(1, 2)];
        assert!(compute_mprs(0, &n, &t).is_empty());
    }
}
