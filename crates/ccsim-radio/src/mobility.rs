//! Waypoint mobility and the LOS/NLOS timeline of a moving UE.
//!
//! A path is a list of timed waypoints; between two waypoints the UE moves in a straight line at
//! constant speed, and two equal consecutive positions are a static period. This is ns-3's
//! `WaypointMobilityModel` (`src/mobility/model/waypoint-mobility-model.cc`): before the first
//! waypoint the UE is at the first position, after the last at the last.
//!
//! [`los_timeline`] computes when the AP–UE ray is blocked, **exactly** (no sampling): on each
//! constant-velocity leg the part of the ray below an obstacle's top is a 2-D segment whose two
//! endpoints move affinely with the leg parameter `s` from 0 to 1 (see
//! [`Obstacle::blocking_segment`]). Whether such a moving segment meets a fixed polygon can
//! only change when an endpoint crosses an edge line (a linear equation in `s`) or when a
//! polygon vertex crosses the segment's line (a quadratic in `s`). All roots in (0,1) are
//! collected, the LOS state is evaluated at the midpoint of each sub-interval, and adjacent
//! equal states are merged. Times are rounded to the nanosecond. The one restriction: the UE
//! height must be constant on a leg (it is in every seed scenario); on a leg whose height
//! changes, the state is sampled every [`SAMPLE_STEP`] and transitions are refined by bisection
//! to 1 ns, so blockages shorter than the step may be missed.

use crate::geometry::{Obstacle, Point2, Point3};
use ccsim_core::Time;
use serde::{Deserialize, Serialize};

/// Sampling step used only on legs where the UE height changes.
pub const SAMPLE_STEP: Time = Time::from_millis(1);

/// A timed position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Waypoint {
    pub at: Time,
    pub pos: Point3,
}

/// A piecewise-linear trajectory (ns-3 `WaypointMobilityModel`).
#[derive(Clone, Debug, PartialEq)]
pub struct WaypointPath {
    points: Vec<Waypoint>,
}

/// One step of a path description: stay put, or walk to a point at a given speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum Leg {
    /// Stay at the current position for `seconds`.
    Wait { seconds: f64 },
    /// Move in a straight line to `to` at `speed_mps` metres per second.
    MoveTo { to: Point3, speed_mps: f64 },
}

/// Mobility as written in a scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "kind")]
pub enum MobilityConfig {
    /// Never moves.
    Static { position: Point3 },
    /// Starts at `start` (at t = 0) and follows `legs` in order.
    Legs { start: Point3, legs: Vec<Leg> },
    /// Explicit waypoints `(t_s, position)`, strictly increasing in time.
    Waypoints { points: Vec<(f64, Point3)> },
}

impl MobilityConfig {
    pub fn build(&self) -> Result<WaypointPath, String> {
        match self {
            MobilityConfig::Static { position } => Ok(WaypointPath::fixed(*position)),
            MobilityConfig::Legs { start, legs } => {
                let mut b = WaypointPath::starting_at(*start);
                for (i, leg) in legs.iter().enumerate() {
                    match *leg {
                        Leg::Wait { seconds } => {
                            if !(seconds >= 0.0 && seconds.is_finite()) {
                                return Err(format!("legs[{i}].seconds must be >= 0"));
                            }
                            b = b.wait(Time::from_secs_f64(seconds));
                        }
                        Leg::MoveTo { to, speed_mps } => {
                            if !(speed_mps > 0.0 && speed_mps.is_finite()) {
                                return Err(format!("legs[{i}].speed_mps must be > 0"));
                            }
                            b = b.move_to(to, speed_mps);
                        }
                    }
                }
                Ok(b.build())
            }
            MobilityConfig::Waypoints { points } => {
                let pts: Vec<Waypoint> = points
                    .iter()
                    .map(|&(t, pos)| Waypoint {
                        at: Time::from_secs_f64(t),
                        pos,
                    })
                    .collect();
                WaypointPath::new(pts)
            }
        }
    }
}

/// Incremental construction of a path: `starting_at(p).wait(2 s).move_to(q, 1.5).build()`.
#[derive(Clone, Debug)]
pub struct PathBuilder {
    points: Vec<Waypoint>,
}

impl PathBuilder {
    fn last(&self) -> Waypoint {
        *self.points.last().expect("builder always has a start")
    }
    /// Stay at the current position for `d`.
    pub fn wait(mut self, d: Time) -> Self {
        let w = self.last();
        if d > Time::ZERO {
            self.points.push(Waypoint {
                at: w.at + d,
                pos: w.pos,
            });
        }
        self
    }
    /// Walk in a straight line to `to` at `speed_mps` (travel time rounded to 1 ns).
    pub fn move_to(mut self, to: Point3, speed_mps: f64) -> Self {
        let w = self.last();
        let dist = w.pos.distance_3d(to);
        let dt = Time::from_secs_f64(dist / speed_mps);
        if dt > Time::ZERO {
            self.points.push(Waypoint {
                at: w.at + dt,
                pos: to,
            });
        }
        self
    }
    pub fn build(self) -> WaypointPath {
        WaypointPath {
            points: self.points,
        }
    }
}

impl WaypointPath {
    /// Waypoints must be strictly increasing in time and non-empty.
    pub fn new(points: Vec<Waypoint>) -> Result<Self, String> {
        if points.is_empty() {
            return Err("a waypoint path needs at least one waypoint".into());
        }
        if points.windows(2).any(|w| w[1].at <= w[0].at) {
            return Err("waypoint times must be strictly increasing".into());
        }
        Ok(WaypointPath { points })
    }
    pub fn fixed(pos: Point3) -> Self {
        WaypointPath {
            points: vec![Waypoint {
                at: Time::ZERO,
                pos,
            }],
        }
    }
    pub fn starting_at(pos: Point3) -> PathBuilder {
        PathBuilder {
            points: vec![Waypoint {
                at: Time::ZERO,
                pos,
            }],
        }
    }
    pub fn waypoints(&self) -> &[Waypoint] {
        &self.points
    }
    /// Time of the last waypoint (the UE is static afterwards).
    pub fn end(&self) -> Time {
        self.points.last().map_or(Time::ZERO, |w| w.at)
    }

    /// Position at time `t` (linear interpolation between waypoints).
    pub fn position(&self, t: Time) -> Point3 {
        let i = self.points.partition_point(|w| w.at <= t);
        if i == 0 {
            return self.points[0].pos;
        }
        if i == self.points.len() {
            return self.points[i - 1].pos;
        }
        let (a, b) = (self.points[i - 1], self.points[i]);
        let k = (t - a.at).as_nanos() as f64 / (b.at - a.at).as_nanos() as f64;
        a.pos.lerp(b.pos, k)
    }

    /// Speed (m/s) at time `t` (0 in static periods and outside the path).
    pub fn speed(&self, t: Time) -> f64 {
        let i = self.points.partition_point(|w| w.at <= t);
        if i == 0 || i == self.points.len() {
            return 0.0;
        }
        let (a, b) = (self.points[i - 1], self.points[i]);
        a.pos.distance_3d(b.pos) / (b.at - a.at).as_secs_f64()
    }
}

/// A maximal time interval `[start, end)` with a constant LOS state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LosInterval {
    pub start: Time,
    pub end: Time,
    pub los: bool,
}

impl LosInterval {
    pub fn duration(&self) -> Time {
        self.end - self.start
    }
}

/// LOS/NLOS timeline of the ray AP–UE over `[from, to)`, exact (see the module docs).
pub fn los_timeline(
    path: &WaypointPath,
    ap: Point3,
    obstacles: &[Obstacle],
    from: Time,
    to: Time,
) -> Vec<LosInterval> {
    let mut out: Vec<LosInterval> = Vec::new();
    if to <= from {
        return out;
    }
    let los_at = |p: Point3| crate::geometry::is_los(ap, p, obstacles);
    let mut push = |start: Time, end: Time, los: bool| {
        if end <= start {
            return;
        }
        if let Some(last) = out.last_mut() {
            if last.los == los && last.end == start {
                last.end = end;
                return;
            }
        }
        out.push(LosInterval { start, end, los });
    };
    let pts = path.waypoints();
    // Before the first waypoint and after the last one the UE is static.
    let first = pts[0].at;
    if from < first {
        push(from, first.min(to), los_at(pts[0].pos));
    }
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (lo, hi) = (a.at.max(from), b.at.min(to));
        if hi <= lo {
            continue;
        }
        if a.pos == b.pos {
            push(lo, hi, los_at(a.pos));
            continue;
        }
        let span = (b.at - a.at).as_nanos() as f64;
        let time_of = |s: f64| Time(a.at.as_nanos() + (s * span).round() as u64);
        let mut cuts: Vec<f64> = Vec::new();
        if a.pos.z == b.pos.z {
            for o in obstacles {
                critical_params(ap, a.pos, b.pos, o, &mut cuts);
            }
        } else {
            sampled_cuts(ap, a, b, obstacles, &mut cuts);
        }
        cuts.retain(|s| *s > 0.0 && *s < 1.0);
        cuts.push(0.0);
        cuts.push(1.0);
        cuts.sort_by(f64::total_cmp);
        cuts.dedup();
        for c in cuts.windows(2) {
            let (s0, s1) = (c[0], c[1]);
            let los = los_at(a.pos.lerp(b.pos, 0.5 * (s0 + s1)));
            let (t0, t1) = (time_of(s0).max(lo), time_of(s1).min(hi));
            push(t0, t1, los);
        }
    }
    let last = *pts.last().expect("non-empty");
    if to > last.at {
        push(last.at.max(from), to, los_at(last.pos));
    }
    out
}

/// The NLOS intervals of [`los_timeline`].
pub fn nlos_intervals(
    path: &WaypointPath,
    ap: Point3,
    obstacles: &[Obstacle],
    from: Time,
    to: Time,
) -> Vec<LosInterval> {
    los_timeline(path, ap, obstacles, from, to)
        .into_iter()
        .filter(|i| !i.los)
        .collect()
}

/// Leg parameters `s` where obstacle `o` may start or stop blocking the ray from `ap` to the UE
/// moving from `u0` to `u1` at constant height.
fn critical_params(ap: Point3, u0: Point3, u1: Point3, o: &Obstacle, cuts: &mut Vec<f64>) {
    // Blocking segment endpoints at s = 0 and s = 1; both are affine in s because the height
    // fraction is constant when the UE height is.
    let (Some((p0, r0)), Some((p1, r1))) = (o.blocking_segment(ap, u0), o.blocking_segment(ap, u1))
    else {
        return; // the obstacle is below the ray for the whole leg
    };
    let dp = p1.minus(p0);
    let dr = r1.minus(r0);
    // (a)/(b): an endpoint crosses an edge's line.
    for (c, d) in o.footprint.edges() {
        let e = d.minus(c);
        for (x0, dx) in [(p0, dp), (r0, dr)] {
            let k0 = e.cross(x0.minus(c));
            let k1 = e.cross(dx);
            if k1.abs() > 1e-15 {
                cuts.push(-k0 / k1);
            }
        }
    }
    // (c): a vertex crosses the segment's line: cross(R(s) − P(s), v − P(s)) = 0.
    let d0 = r0.minus(p0);
    let dd = dr.minus(dp);
    for &v in &o.footprint.vertices {
        let w0: Point2 = v.minus(p0);
        let qa = -dd.cross(dp);
        let qb = dd.cross(w0) - d0.cross(dp);
        let qc = d0.cross(w0);
        solve_quadratic(qa, qb, qc, cuts);
    }
}

fn solve_quadratic(a: f64, b: f64, c: f64, out: &mut Vec<f64>) {
    let scale = a.abs().max(b.abs()).max(c.abs());
    if scale == 0.0 {
        return;
    }
    if a.abs() <= 1e-12 * scale {
        if b.abs() > 1e-15 {
            out.push(-c / b);
        }
        return;
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return;
    }
    // Numerically stable form (Press et al., Numerical Recipes §5.6).
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    out.push(q / a);
    if q != 0.0 {
        out.push(c / q);
    }
}

/// Fallback for legs with a changing UE height: sample, then bisect each change to 1 ns.
fn sampled_cuts(ap: Point3, a: Waypoint, b: Waypoint, obstacles: &[Obstacle], cuts: &mut Vec<f64>) {
    let span = (b.at - a.at).as_nanos();
    let los = |ns: u64| {
        let s = ns as f64 / span as f64;
        crate::geometry::is_los(ap, a.pos.lerp(b.pos, s), obstacles)
    };
    let step = SAMPLE_STEP.as_nanos().max(1);
    let mut prev_t = 0u64;
    let mut prev = los(0);
    while prev_t < span {
        let t = (prev_t + step).min(span);
        let cur = los(t);
        if cur != prev {
            let (mut lo, mut hi) = (prev_t, t);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if los(mid) == prev {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            cuts.push(hi as f64 / span as f64);
        }
        prev_t = t;
        prev = cur;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk() -> WaypointPath {
        WaypointPath::starting_at(Point3::new(0.0, 0.0, 1.5))
            .wait(Time::from_secs(2))
            .move_to(Point3::new(0.0, 30.0, 1.5), 1.5)
            .wait(Time::from_secs(2))
            .build()
    }

    #[test]
    fn position_static_moving_static() {
        let p = walk();
        assert_eq!(p.end(), Time::from_secs(24));
        assert_eq!(p.position(Time::from_secs(1)).y, 0.0);
        assert!((p.position(Time::from_secs(12)).y - 15.0).abs() < 1e-9);
        assert_eq!(p.position(Time::from_secs(23)).y, 30.0);
        assert_eq!(p.position(Time::from_secs(99)).y, 30.0);
        assert!((p.speed(Time::from_secs(5)) - 1.5).abs() < 1e-12);
        assert_eq!(p.speed(Time::from_secs(1)), 0.0);
    }

    #[test]
    fn config_builds_the_same_path() {
        let cfg = MobilityConfig::Legs {
            start: Point3::new(0.0, 0.0, 1.5),
            legs: vec![
                Leg::Wait { seconds: 2.0 },
                Leg::MoveTo {
                    to: Point3::new(0.0, 30.0, 1.5),
                    speed_mps: 1.5,
                },
                Leg::Wait { seconds: 2.0 },
            ],
        };
        assert_eq!(cfg.build().unwrap(), walk());
        let bad = MobilityConfig::Waypoints {
            points: vec![(1.0, Point3::default()), (1.0, Point3::default())],
        };
        assert!(bad.build().is_err());
    }

    #[test]
    fn exact_crossing_of_a_wall() {
        // AP at the origin, UE walking along x = 10 from y = -10 to y = 10 in 20 s; a tall
        // wall at x ∈ [4,5], y ∈ [-1,1] shadows y_ue ∈ [-2.5, 2.5] -> NLOS for exactly 5 s.
        let ap = Point3::new(0.0, 0.0, 2.0);
        let path = WaypointPath::starting_at(Point3::new(10.0, -10.0, 2.0))
            .move_to(Point3::new(10.0, 10.0, 2.0), 1.0)
            .build();
        let wall = Obstacle::boxed("wall", 4.0, 5.0, -1.0, 1.0, 10.0);
        let tl = los_timeline(&path, ap, &[wall], Time::ZERO, Time::from_secs(20));
        assert_eq!(tl.len(), 3);
        assert!(tl[0].los && !tl[1].los && tl[2].los);
        assert_eq!(tl[1].start, Time::from_millis(7500));
        assert_eq!(tl[1].end, Time::from_millis(12500));
    }

    #[test]
    fn sampled_fallback_agrees_with_exact() {
        // Same wall, UE height changing slightly: the sampled+bisected answer matches to 1 µs.
        let ap = Point3::new(0.0, 0.0, 2.0);
        let path = WaypointPath::starting_at(Point3::new(10.0, -10.0, 2.0))
            .move_to(Point3::new(10.0, 10.0, 2.1), 1.0)
            .build();
        let wall = Obstacle::boxed("wall", 4.0, 5.0, -1.0, 1.0, 10.0);
        let n = nlos_intervals(&path, ap, &[wall], Time::ZERO, Time::from_secs(21));
        assert_eq!(n.len(), 1);
        let d = n[0].start.as_nanos() as i64 - 7_500_000_000;
        assert!(d.abs() < 1_000_000, "start off by {d} ns");
    }
}
