//! The per-packet next-hop choice of BP-MR (see the module docs for the source).

/// One neighbour of the deciding router, as the decision sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbour {
    /// Backlog Q_j in packets.
    pub queue: u32,
    /// Link rate r_ij in Mb/s (the centralized code's `GetRate`).
    pub rate_mbps: f64,
    /// Euclidean distance from the neighbour to the destination, in metres.
    pub distance_to_dst: f64,
    /// The neighbour is the destination router.
    pub is_destination: bool,
    /// The packet came from this neighbour.
    pub is_previous_hop: bool,
    /// Heard from recently (the centralized code: within 3 s). Only live neighbours count.
    pub live: bool,
}

/// The deciding router's own state for one packet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Here {
    /// Backlog Q_i in packets.
    pub queue: u32,
    /// Distance from this router to the destination, in metres.
    pub distance_to_dst: f64,
    /// Queue threshold Q_th (the queue's maximum size, packets): sets V.
    pub queue_threshold: u32,
    /// The packet's IPv4 TTL (old packets get a larger V, i.e. more greed for distance).
    pub ttl: u8,
}

/// Outcome of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Send to the neighbour at this index.
    Forward(usize),
    /// No neighbour has a positive weight: the router keeps the packet.
    Hold,
}

/// Geographic penalty p_ij (`CalculatePenaltyNeigh`, the strategy BP-MR uses): −1 rewards a
/// step towards the destination, +1 penalises a step away while a better one exists, and the
/// previous hop is never rewarded (that would invite a ping-pong loop).
pub fn penalty(here: &Here, neighbours: &[Neighbour], j: usize) -> f64 {
    let closer = |n: &Neighbour| n.live && n.distance_to_dst < here.distance_to_dst;
    let n = &neighbours[j];
    if closer(n) {
        return if n.is_previous_hop { 0.0 } else { -1.0 };
    }
    let closer_count = neighbours.iter().filter(|m| closer(m)).count();
    if closer_count == 0 {
        // A local minimum of distance: every way out is as good as any other.
        return if n.is_previous_hop { 0.0 } else { -1.0 };
    }
    let only_closer_is_previous =
        closer_count == 1 && neighbours.iter().any(|m| closer(m) && m.is_previous_hop);
    if only_closer_is_previous {
        -1.0
    } else {
        1.0
    }
}

/// Variable V (`VcalcTimerExpire`): large when queues are short (distance dominates, the
/// packet goes greedily towards the destination), zero near saturation (backlog
/// differentials dominate). Packets that have travelled long get a boost towards greed.
pub fn variable_v(here: &Here, neighbours: &[Neighbour]) -> f64 {
    let max_neigh = neighbours
        .iter()
        .filter(|n| n.live)
        .map(|n| n.queue)
        .max()
        .unwrap_or(0);
    let qth = here.queue_threshold as f64;
    let mut v = (qth - here.queue.max(max_neigh) as f64).max(0.0);
    if here.ttl < 40 {
        v += (63.0 - here.ttl as f64) / 63.0 * (qth - v);
    }
    v
}

/// V used against the previous hop in the centralized code: a fixed, strong deterrent.
const V_PREVIOUS_HOP: f64 = 200.0;

/// The next hop for one packet: the destination if it is a neighbour, else the live neighbour
/// of largest positive weight `(Q_i − Q_j − V·p_ij)·r_ij`, ties broken by `pick(n)` (a uniform
/// draw in `0..n` from the caller's seeded stream).
pub fn next_hop(
    here: &Here,
    neighbours: &[Neighbour],
    mut pick: impl FnMut(usize) -> usize,
) -> Choice {
    if let Some(j) = neighbours.iter().position(|n| n.live && n.is_destination) {
        return Choice::Forward(j);
    }
    let v = variable_v(here, neighbours);
    let mut best = 0.0f64;
    // Indices of the neighbours of weight `best` (at most a handful: a fixed array, no heap).
    let mut ties = [0usize; 16];
    let mut n_ties = 0usize;
    for (j, n) in neighbours.iter().enumerate() {
        if !n.live {
            continue;
        }
        let vj = if n.is_previous_hop { V_PREVIOUS_HOP } else { v };
        let w =
            (here.queue as f64 - n.queue as f64 - vj * penalty(here, neighbours, j)) * n.rate_mbps;
        if w <= 0.0 {
            continue;
        }
        if w > best {
            best = w;
            n_ties = 0;
        }
        if w == best && n_ties < ties.len() {
            ties[n_ties] = j;
            n_ties += 1;
        }
    }
    match n_ties {
        0 => Choice::Hold,
        1 => Choice::Forward(ties[0]),
        k => Choice::Forward(ties[pick(k).min(k - 1)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here(queue: u32, dist: f64) -> Here {
        Here {
            queue,
            distance_to_dst: dist,
            queue_threshold: 100,
            ttl: 64,
        }
    }

    fn nb(queue: u32, dist: f64) -> Neighbour {
        Neighbour {
            queue,
            rate_mbps: 500.0,
            distance_to_dst: dist,
            is_destination: false,
            is_previous_hop: false,
            live: true,
        }
    }

    fn never(_: usize) -> usize {
        panic!("no tie expected")
    }

    #[test]
    fn empty_queues_go_towards_the_destination() {
        // Four grid neighbours; only the east one (index 1) is closer.
        let ns = [nb(0, 500.0), nb(0, 200.0), nb(0, 447.0), nb(0, 447.0)];
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Forward(1));
        // V = Q_th: the closer neighbour's weight is V·r > 0, the others' −V·r < 0.
        assert_eq!(variable_v(&here(0, 400.0), &ns), 100.0);
        assert_eq!(penalty(&here(0, 400.0), &ns, 0), 1.0);
        assert_eq!(penalty(&here(0, 400.0), &ns, 1), -1.0);
    }

    #[test]
    fn two_equally_good_neighbours_are_drawn_at_random() {
        let ns = [nb(0, 200.0), nb(0, 200.0), nb(0, 600.0)];
        assert_eq!(
            next_hop(&here(0, 400.0), &ns, |k| {
                assert_eq!(k, 2);
                1
            }),
            Choice::Forward(1)
        );
        assert_eq!(next_hop(&here(0, 400.0), &ns, |_| 0), Choice::Forward(0));
    }

    #[test]
    fn backlog_breaks_the_tie_between_closer_neighbours() {
        let ns = [nb(30, 200.0), nb(10, 200.0)];
        // V = 100 − 30 = 70; w0 = (5 − 30 + 70)·500 > 0, w1 = (5 − 10 + 70)·500 larger.
        assert_eq!(next_hop(&here(5, 400.0), &ns, never), Choice::Forward(1));
    }

    #[test]
    fn a_congested_closer_neighbour_makes_the_router_hold() {
        // Q_j = 90: V = 10, w = (0 − 90 + 10)·r < 0; the farther one: (0 − 0 − 10)·r < 0.
        let ns = [nb(90, 200.0), nb(0, 600.0)];
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Hold);
        // Once the router's own backlog is high enough, it pushes again (backpressure):
        // V = 100 − 95 = 5, w = (95 − 90 + 5)·r > 0 …
        assert_eq!(
            next_hop(&here(95, 400.0), &ns[..1], never),
            Choice::Forward(0)
        );
        // … though with the empty farther neighbour beside it, the detour weighs more:
        // (95 − 0 − 5)·r > (95 − 90 + 5)·r.
        assert_eq!(next_hop(&here(95, 400.0), &ns, never), Choice::Forward(1));
    }

    #[test]
    fn detour_when_the_closer_neighbour_is_full() {
        // Every queue at or above Q_th: V = 0, the weight is the backlog differential alone,
        // and the farther but empty neighbour wins.
        let ns = [nb(100, 200.0), nb(0, 600.0)];
        assert_eq!(variable_v(&here(100, 400.0), &ns), 0.0);
        assert_eq!(next_hop(&here(100, 400.0), &ns, never), Choice::Forward(1));
    }

    #[test]
    fn v_shrinks_with_the_largest_backlog() {
        let ns = [nb(40, 200.0), nb(70, 600.0)];
        assert_eq!(variable_v(&here(10, 400.0), &ns), 30.0);
        assert_eq!(variable_v(&here(80, 400.0), &ns), 20.0);
        // An old packet (TTL 31): V += (63 − 31)/63 · (100 − 20).
        let old = Here {
            ttl: 31,
            ..here(80, 400.0)
        };
        assert!((variable_v(&old, &ns) - (20.0 + 32.0 / 63.0 * 80.0)).abs() < 1e-9);
    }

    #[test]
    fn destination_neighbour_is_chosen_at_once() {
        let mut ns = [nb(0, 200.0), nb(99, 0.0)];
        ns[1].is_destination = true;
        assert_eq!(next_hop(&here(0, 200.0), &ns, never), Choice::Forward(1));
    }

    #[test]
    fn previous_hop_is_not_rewarded() {
        // The only closer neighbour is where the packet came from: no reward for going back
        // (p = 0), and the farther ones get −1 instead of +1 (the way back is a loop).
        let mut ns = [nb(0, 200.0), nb(0, 600.0)];
        ns[0].is_previous_hop = true;
        assert_eq!(penalty(&here(0, 400.0), &ns, 0), 0.0);
        assert_eq!(penalty(&here(0, 400.0), &ns, 1), -1.0);
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Forward(1));
    }

    #[test]
    fn local_minimum_rewards_every_way_out() {
        let ns = [nb(0, 500.0), nb(3, 450.0)];
        assert_eq!(penalty(&here(0, 400.0), &ns, 0), -1.0);
        assert_eq!(penalty(&here(0, 400.0), &ns, 1), -1.0);
        // Both positive; the emptier one wins.
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Forward(0));
    }

    #[test]
    fn dead_neighbours_are_ignored() {
        let mut ns = [nb(0, 200.0), nb(0, 300.0)];
        ns[0].live = false;
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Forward(1));
        ns[1].live = false;
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Hold);
    }

    #[test]
    fn link_rate_scales_the_weight() {
        let mut ns = [nb(0, 200.0), nb(0, 200.0)];
        ns[0].rate_mbps = 1000.0;
        assert_eq!(next_hop(&here(0, 400.0), &ns, never), Choice::Forward(0));
    }
}
