//! The seed papers' NLOS durations from the fixture geometries (exact LOS timelines).

use ccsim_core::Time;
use ccsim_radio::mobility::{los_timeline, nlos_intervals, LosInterval};
use ccsim_radio::scenarios::*;

fn secs(t: Time) -> f64 {
    t.as_secs_f64()
}

fn nlos(g: &Geometry, ap: usize) -> Vec<LosInterval> {
    nlos_intervals(&g.ue_path, g.aps[ap], &g.obstacles, Time::ZERO, g.duration)
}

fn show(g: &Geometry, ap: usize, v: &[LosInterval]) {
    let s: Vec<String> = v
        .iter()
        .map(|i| {
            format!(
                "[{:.3}, {:.3}) = {:.3} s",
                secs(i.start),
                secs(i.end),
                secs(i.duration())
            )
        })
        .collect();
    println!("{} AP{}: {}", g.name, ap + 1, s.join(", "));
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn seed000_single_building_is_13_s() {
    let g = seed000_single_building();
    let v = nlos(&g, 0);
    show(&g, 0, &v);
    assert_eq!(v.len(), 1);
    // y_ue from 0 (t = 2 + 0.2/1.5) to 19.5 m (t = 2 + 19.7/1.5).
    assert!(close(secs(v[0].start), 2.0 + 0.2 / 1.5, 1e-6));
    assert!(close(secs(v[0].end), 2.0 + 19.7 / 1.5, 1e-6));
    assert!(close(secs(v[0].duration()), 13.0, 1e-6));
}

#[test]
fn ns3_example_building_gives_15_s() {
    let g = seed000_single_building_ns3();
    let v = nlos(&g, 0);
    show(&g, 0, &v);
    assert_eq!(v.len(), 1);
    assert!(close(secs(v[0].duration()), 15.0, 1e-6));
}

#[test]
fn seed000_two_buildings_are_4_s_each() {
    let g = seed000_two_buildings();
    let v = nlos(&g, 0);
    show(&g, 0, &v);
    // The 1.5 m wall never blocks: two blockages.
    assert_eq!(v.len(), 2);
    for i in &v {
        assert!(close(secs(i.duration()), 4.0, 0.05), "{i:?}");
    }
    // Building B: y_ue ∈ [6·150/64, 8·150/60] = [14.0625, 20].
    assert!(close(secs(v[0].start), 2.0 + (14.0625 + 0.2) / 1.5, 1e-6));
    assert!(close(secs(v[0].end), 2.0 + 20.2 / 1.5, 1e-6));
}

#[test]
fn seed000_six_obstacles_are_quarter_second_each() {
    let g = seed000_six_obstacles();
    let v = nlos(&g, 0);
    show(&g, 0, &v);
    assert_eq!(v.len(), 6);
    for i in &v {
        let d = secs(i.duration());
        assert!((0.24..=0.28).contains(&d), "{d}");
    }
    // Each shadow in closed form: y_ue ∈ [a·150/142.7, (a + 0.35)·150/142.5].
    for (i, a) in SEED000_SMALL_OBSTACLE_Y.iter().enumerate() {
        let lo = a * 150.0 / 142.7;
        let hi = (a + 0.35) * 150.0 / 142.5;
        assert!(close(secs(v[i].start), 2.0 + (lo + 0.2) / 1.5, 1e-6));
        assert!(close(secs(v[i].end), 2.0 + (hi + 0.2) / 1.5, 1e-6));
    }
}

#[test]
fn handover_street_truck_and_lampposts() {
    let g = seed000_handover_street();
    let end = secs(g.duration);
    let t_at = |x: f64| x / 1.5;
    let long: Vec<Vec<LosInterval>> = (0..3)
        .map(|ap| {
            let v = nlos(&g, ap);
            show(&g, ap, &v);
            v
        })
        .collect();
    // AP1 is never behind the truck: only short lamppost blockages.
    assert!(long[0].iter().all(|i| secs(i.duration()) < 1.5));
    assert!(long[0].len() >= 3);
    // AP2 (x = 40): the truck hides it once the UE passes x = 40 + 5/0.28125 = 57.78 m.
    let last = long[1].last().unwrap();
    assert!(
        close(secs(last.start), t_at(40.0 + 5.0 / 0.28125), 1e-3),
        "{last:?}"
    );
    assert!(close(secs(last.end), end, 1e-3));
    // AP3 (x = 60): hidden until x = 60 − 1.5/0.28125 = 54.67 m.
    let first = long[2][0];
    assert_eq!(first.start, Time::ZERO);
    assert!(
        close(secs(first.end), t_at(60.0 - 1.5 / 0.28125), 1e-3),
        "{first:?}"
    );
    // Besides the truck, every AP sees short lamppost blockages.
    for v in &long {
        let short = v.iter().filter(|i| secs(i.duration()) < 1.5).count();
        assert!(short >= 1);
    }
}

#[test]
fn seed002_building_blocks_from_5_to_10_s() {
    let g = seed002_building();
    let tl = los_timeline(&g.ue_path, g.aps[0], &g.obstacles, Time::ZERO, g.duration);
    let v: Vec<_> = tl.iter().filter(|i| !i.los).copied().collect();
    show(&g, 0, &v);
    assert_eq!(tl.len(), 3);
    assert_eq!(v[0].start, Time::from_secs(5));
    assert_eq!(v[0].end, Time::from_secs(10));
}

#[test]
fn seed001_outage_hides_both_mmwave_sites() {
    for speed in [1.0, 5.0, 10.0, 15.0, 20.0] {
        let g = seed001_dual_connectivity(speed);
        let a = nlos(&g, 1);
        let b = nlos(&g, 2);
        // Both mmWave sites blocked while x_ue ∈ [92.9, 107.1].
        let both_start = a[0].start.max(b[0].start);
        let both_end = a[0].end.min(b[0].end);
        let x = |t: Time| 60.0 + speed * secs(t);
        assert!(close(x(both_start), 50.0 + 40.0 * 75.0 / 70.0, 1e-3));
        assert!(close(x(both_end), 150.0 - 40.0 * 75.0 / 70.0, 1e-3));
    }
}
