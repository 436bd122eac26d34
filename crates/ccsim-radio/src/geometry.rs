//! Plane geometry for line-of-sight decisions: points, obstacle footprints (simple polygons)
//! extruded to a height, and the test "does the AP–UE ray pass through an obstacle".
//!
//! The model is the one of ns-3's `BuildingsChannelConditionModel` / the ns3-mmwave
//! `BuildingsObstaclePropagationLossModel` (ANCHORS §1.1): a link is LOS unless the straight
//! 3-D segment between the two antennas crosses an obstacle. Obstacles here are vertical
//! prisms (a polygon footprint from the ground up to `height`), which covers ns-3's axis-aligned
//! `Box` buildings and also rotated or L-shaped ones.
//!
//! Height handling (exact): along the segment the ray height is linear, so the part of the
//! segment below an obstacle of height `h` is a prefix of the segment measured from its lower
//! endpoint, of horizontal fraction `(h − z_low) / (z_high − z_low)`. The ray is blocked iff that
//! 2-D prefix meets the footprint. See [`Obstacle::blocking_segment`].

use serde::{Deserialize, Serialize};

/// Geometric tolerance (metres) for collinearity and on-edge tests.
pub const EPS: f64 = 1e-9;

/// A point on the ground plane, metres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point2 {
    pub x: f64,
    pub y: f64,
}

impl Point2 {
    pub const fn new(x: f64, y: f64) -> Self {
        Point2 { x, y }
    }
    pub fn minus(self, o: Point2) -> Point2 {
        Point2::new(self.x - o.x, self.y - o.y)
    }
    pub fn plus(self, o: Point2) -> Point2 {
        Point2::new(self.x + o.x, self.y + o.y)
    }
    pub fn scale(self, k: f64) -> Point2 {
        Point2::new(self.x * k, self.y * k)
    }
    /// `self + k·(to − self)`.
    pub fn lerp(self, to: Point2, k: f64) -> Point2 {
        self.plus(to.minus(self).scale(k))
    }
    /// z-component of the 2-D cross product `self × o`.
    pub fn cross(self, o: Point2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn dot(self, o: Point2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn distance(self, o: Point2) -> f64 {
        let d = self.minus(o);
        d.x.hypot(d.y)
    }
}

/// A position in space: ground coordinates plus antenna height above ground, metres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point3 {
    pub x: f64,
    pub y: f64,
    /// Height above ground (m).
    pub z: f64,
}

impl Point3 {
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Point3 { x, y, z }
    }
    pub fn ground(self) -> Point2 {
        Point2::new(self.x, self.y)
    }
    /// Horizontal (2-D) distance, the `d2D` of TR 38.901 §7.4.1.
    pub fn distance_2d(self, o: Point3) -> f64 {
        self.ground().distance(o.ground())
    }
    /// Straight-line distance, the `d3D` of TR 38.901 §7.4.1.
    pub fn distance_3d(self, o: Point3) -> f64 {
        let dz = self.z - o.z;
        self.distance_2d(o).hypot(dz)
    }
    pub fn lerp(self, to: Point3, k: f64) -> Point3 {
        Point3::new(
            self.x + k * (to.x - self.x),
            self.y + k * (to.y - self.y),
            self.z + k * (to.z - self.z),
        )
    }
}

/// A simple polygon (no self-intersections), vertices in order (either orientation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Polygon {
    pub vertices: Vec<Point2>,
}

impl Polygon {
    pub fn new(vertices: Vec<Point2>) -> Self {
        Polygon { vertices }
    }

    /// Axis-aligned rectangle `[x0,x1] × [y0,y1]` (the footprint of an ns-3 `Box`).
    pub fn rect(x0: f64, x1: f64, y0: f64, y1: f64) -> Self {
        let (x0, x1) = (x0.min(x1), x0.max(x1));
        let (y0, y1) = (y0.min(y1), y0.max(y1));
        Polygon::new(vec![
            Point2::new(x0, y0),
            Point2::new(x1, y0),
            Point2::new(x1, y1),
            Point2::new(x0, y1),
        ])
    }

    /// Edges as (start, end) pairs, closing the ring.
    pub fn edges(&self) -> impl Iterator<Item = (Point2, Point2)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (self.vertices[i], self.vertices[(i + 1) % n]))
    }

    /// Point in the closed polygon (boundary counts as inside). Crossing-number test
    /// (Shimrat 1962 / Haines 1994) plus an explicit on-edge check.
    pub fn contains(&self, p: Point2) -> bool {
        if self.edges().any(|(a, b)| on_segment(p, a, b)) {
            return true;
        }
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.y > p.y) != (b.y > p.y) {
                let x_at = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if p.x < x_at {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Whether the closed segment `a–b` has a point in the closed polygon.
    pub fn intersects_segment(&self, a: Point2, b: Point2) -> bool {
        if self.vertices.len() < 3 {
            return false;
        }
        self.contains(a)
            || self.contains(b)
            || self.edges().any(|(p, q)| segments_intersect(a, b, p, q))
    }

    pub fn is_valid(&self) -> bool {
        self.vertices.len() >= 3
            && self
                .vertices
                .iter()
                .all(|v| v.x.is_finite() && v.y.is_finite())
    }
}

/// `p` lies on the closed segment `a–b` (within [`EPS`]).
pub fn on_segment(p: Point2, a: Point2, b: Point2) -> bool {
    let ab = b.minus(a);
    let ap = p.minus(a);
    let len = ab.dot(ab).sqrt();
    if len < EPS {
        return p.distance(a) < EPS;
    }
    (ab.cross(ap) / len).abs() < EPS
        && ap.dot(ab) >= -EPS * len
        && ap.dot(ab) <= ab.dot(ab) + EPS * len
}

/// Closed segments `a–b` and `c–d` share a point (orientation test, Cormen et al.,
/// *Introduction to Algorithms*, §33.1, including the collinear cases).
pub fn segments_intersect(a: Point2, b: Point2, c: Point2, d: Point2) -> bool {
    let d1 = c.minus(a).cross(b.minus(a));
    let d2 = d.minus(a).cross(b.minus(a));
    let d3 = a.minus(c).cross(d.minus(c));
    let d4 = b.minus(c).cross(d.minus(c));
    if ((d1 > EPS && d2 < -EPS) || (d1 < -EPS && d2 > EPS))
        && ((d3 > EPS && d4 < -EPS) || (d3 < -EPS && d4 > EPS))
    {
        return true;
    }
    on_segment(c, a, b) || on_segment(d, a, b) || on_segment(a, c, d) || on_segment(b, c, d)
}

/// An obstacle: a footprint polygon extruded from the ground to `height` (building, lamppost,
/// parked truck, tree, person).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// Free-form label for probes and error messages.
    #[serde(default)]
    pub name: String,
    pub footprint: Polygon,
    /// Top of the obstacle above ground (m).
    pub height: f64,
    /// Extra attenuation (dB) added to the NLOS path loss while this obstacle blocks the ray
    /// (e.g. TR 38.901 §7.6.4 blockage of a person or vehicle). 0 = the NLOS formula only.
    #[serde(default)]
    pub extra_loss_db: f64,
}

impl Obstacle {
    /// An ns-3 `Box(x0,x1, y0,y1, 0,h)` building.
    pub fn boxed(name: &str, x0: f64, x1: f64, y0: f64, y1: f64, height: f64) -> Self {
        Obstacle {
            name: name.to_string(),
            footprint: Polygon::rect(x0, x1, y0, y1),
            height,
            extra_loss_db: 0.0,
        }
    }

    /// The 2-D part of the ray `a–b` that passes below the obstacle's top, or `None` when the
    /// whole ray passes above it. Exact: the ray height is linear along the segment, so the
    /// part below `height` is the prefix from the lower endpoint of horizontal fraction
    /// `(height − z_low)/(z_high − z_low)` (clamped to 0–1).
    pub fn blocking_segment(&self, a: Point3, b: Point3) -> Option<(Point2, Point2)> {
        let (low, high) = if a.z <= b.z { (a, b) } else { (b, a) };
        if self.height <= low.z {
            return None;
        }
        let frac = if self.height >= high.z {
            1.0
        } else {
            (self.height - low.z) / (high.z - low.z)
        };
        Some((low.ground(), low.ground().lerp(high.ground(), frac)))
    }

    /// Whether this obstacle blocks the straight ray between `a` and `b`.
    pub fn blocks(&self, a: Point3, b: Point3) -> bool {
        match self.blocking_segment(a, b) {
            Some((p, q)) => self.footprint.intersects_segment(p, q),
            None => false,
        }
    }
}

/// Line-of-sight between two antennas: no obstacle blocks the 3-D segment between them.
pub fn is_los(a: Point3, b: Point3, obstacles: &[Obstacle]) -> bool {
    !obstacles.iter().any(|o| o.blocks(a, b))
}

/// Sum of [`Obstacle::extra_loss_db`] over the obstacles blocking `a–b` (0 when LOS).
pub fn blockage_loss_db(a: Point3, b: Point3, obstacles: &[Obstacle]) -> f64 {
    obstacles
        .iter()
        .filter(|o| o.blocks(a, b))
        .map(|o| o.extra_loss_db)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_in_rect_and_l_shape() {
        let r = Polygon::rect(0.0, 2.0, 0.0, 1.0);
        assert!(r.contains(Point2::new(1.0, 0.5)));
        assert!(r.contains(Point2::new(2.0, 0.5)), "boundary counts");
        assert!(!r.contains(Point2::new(2.1, 0.5)));
        // L shape: the notch (1.5, 1.5) is outside.
        let l = Polygon::new(vec![
            Point2::new(0.0, 0.0),
            Point2::new(2.0, 0.0),
            Point2::new(2.0, 1.0),
            Point2::new(1.0, 1.0),
            Point2::new(1.0, 2.0),
            Point2::new(0.0, 2.0),
        ]);
        assert!(l.contains(Point2::new(0.5, 1.5)));
        assert!(!l.contains(Point2::new(1.5, 1.5)));
    }

    #[test]
    fn segment_polygon_cases() {
        let r = Polygon::rect(0.0, 1.0, 0.0, 1.0);
        // Crosses through.
        assert!(r.intersects_segment(Point2::new(-1.0, 0.5), Point2::new(2.0, 0.5)));
        // Misses.
        assert!(!r.intersects_segment(Point2::new(-1.0, 1.5), Point2::new(2.0, 1.5)));
        // Ends inside.
        assert!(r.intersects_segment(Point2::new(-1.0, 0.5), Point2::new(0.5, 0.5)));
        // Touches a corner only.
        assert!(r.intersects_segment(Point2::new(-1.0, 0.0), Point2::new(1.0, 2.0)));
        // Passes the notch of an L without touching it.
        let l = Polygon::new(vec![
            Point2::new(0.0, 0.0),
            Point2::new(2.0, 0.0),
            Point2::new(2.0, 1.0),
            Point2::new(1.0, 1.0),
            Point2::new(1.0, 2.0),
            Point2::new(0.0, 2.0),
        ]);
        assert!(!l.intersects_segment(Point2::new(1.5, 1.2), Point2::new(3.0, 3.0)));
        assert!(l.intersects_segment(Point2::new(1.5, 1.2), Point2::new(0.5, 1.5)));
    }

    #[test]
    fn height_decides_blocking() {
        // AP at 3 m, UE at 1 m, 150 m apart (seed 000 / ANCHORS §1.1).
        let ap = Point3::new(0.0, 0.0, 3.0);
        let ue = Point3::new(150.0, 0.0, 1.0);
        // A 1.5 m box at x = 60..64: the ray is at ~2.2 m there, so it passes above.
        let low = Obstacle::boxed("low", 60.0, 64.0, -1.0, 1.0, 1.5);
        assert!(!low.blocks(ap, ue));
        // The same box near the UE (ray at ~1.1 m) blocks.
        let near = Obstacle::boxed("near", 140.0, 141.0, -1.0, 1.0, 1.5);
        assert!(near.blocks(ap, ue));
        // Symmetric in the endpoints.
        assert!(near.blocks(ue, ap));
        // A 15 m building blocks anywhere along the path.
        let tall = Obstacle::boxed("tall", 40.0, 60.0, -1.0, 1.0, 15.0);
        assert!(tall.blocks(ap, ue));
        assert!(!is_los(ap, ue, &[low.clone(), tall]));
        assert!(is_los(ap, ue, &[low]));
    }

    #[test]
    fn blockage_loss_sums_blockers() {
        let ap = Point3::new(0.0, 0.0, 10.0);
        let ue = Point3::new(100.0, 0.0, 1.5);
        let mut a = Obstacle::boxed("a", 50.0, 51.0, -1.0, 1.0, 20.0);
        a.extra_loss_db = 10.0;
        let mut b = Obstacle::boxed("b", 70.0, 71.0, 5.0, 6.0, 20.0);
        b.extra_loss_db = 7.0;
        assert_eq!(blockage_loss_db(ap, ue, &[a, b]), 10.0);
    }
}
