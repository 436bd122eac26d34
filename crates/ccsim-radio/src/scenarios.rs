//! Geometries of the seed papers' radio scenarios, as reusable fixtures.
//!
//! Each function returns the AP positions, the obstacles and the UE path. Where the paper gives
//! only a duration (seed 000 states NLOS periods, not coordinates), coordinates were chosen so
//! that the exact LOS computation of [`crate::mobility::los_timeline`] reproduces the stated
//! durations; where the public ns-3 program is known (ANCHORS §1.1, §1.4) it is reproduced as
//! well, and the difference is documented. The crate README lists every coordinate.

use crate::geometry::{Obstacle, Point3, Polygon};
use crate::mobility::{MobilityConfig, WaypointPath};
use crate::ran::{RadioConfig, SiteConfig, Technology, TechnologyConfig, UeConfig};
use ccsim_core::Time;

/// A radio scenario's geometry.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub name: &'static str,
    /// Access points (antenna positions), in the order AP1, AP2, ...
    pub aps: Vec<Point3>,
    pub obstacles: Vec<Obstacle>,
    pub ue_path: WaypointPath,
    /// Scenario length.
    pub duration: Time,
}

impl Geometry {
    /// A [`RadioConfig`] with one site per AP (technologies in AP order; missing entries are
    /// mmWave) and one UE on [`Geometry::ue_path`]; every other setting at its default.
    pub fn radio_config(&self, technologies: &[Technology]) -> RadioConfig {
        let points = self
            .ue_path
            .waypoints()
            .iter()
            .map(|w| (w.at.as_secs_f64(), w.pos))
            .collect();
        RadioConfig {
            mmwave: TechnologyConfig::mmwave(),
            lte: TechnologyConfig::lte(),
            sites: self
                .aps
                .iter()
                .enumerate()
                .map(|(i, &position)| SiteConfig {
                    name: format!("AP{}", i + 1),
                    position,
                    technology: technologies.get(i).copied().unwrap_or_default(),
                    tx_power_dbm: None,
                })
                .collect(),
            ues: vec![UeConfig {
                name: "UE".into(),
                mobility: MobilityConfig::Waypoints { points },
                initial_site: None,
            }],
            obstacles: self.obstacles.clone(),
            channel: Default::default(),
            handover: Default::default(),
            connectivity: Default::default(),
            uplink_sched_delay_slots: 1,
            uplink_grant_period_us: 0,
        }
    }
}

/// Seed 000 §III-B: the UE, 150 m from the AP, is static for 2 s, walks parallel to the AP at
/// 1.5 m/s for 21 s, and is static for 2 s (25 s). Start as in `mmwave-tcp-building-example.cc`
/// (master): AP (0,0,3), UE (150,−0.2,1).
pub fn seed000_walk() -> WaypointPath {
    WaypointPath::starting_at(Point3::new(150.0, -0.2, 1.0))
        .wait(Time::from_secs(2))
        .move_to(Point3::new(150.0, -0.2 + 1.5 * 21.0, 1.0), 1.5)
        .wait(Time::from_secs(2))
        .build()
}

/// The ns-3 example's walk: speed (0,1.5,0) from t = 2 s to t = 22 s (20 s, ANCHORS §1.1).
pub fn seed000_ns3_walk() -> WaypointPath {
    WaypointPath::starting_at(Point3::new(150.0, -0.2, 1.0))
        .wait(Time::from_secs(2))
        .move_to(Point3::new(150.0, -0.2 + 1.5 * 20.0, 1.0), 1.5)
        .wait(Time::from_secs(3))
        .build()
}

const SEED000_AP: Point3 = Point3::new(0.0, 0.0, 3.0);

/// Seed 000 scenario i), "a building creating an extensive blockage of 13 s": one 15 m tall
/// building `Box(40,60, 0,5.2)`. (The ns-3 example's `Box(40,60, 0,6)` gives 15.0 s; see
/// [`seed000_single_building_ns3`].)
pub fn seed000_single_building() -> Geometry {
    Geometry {
        name: "seed000-single-building",
        aps: vec![SEED000_AP],
        obstacles: vec![Obstacle::boxed("building", 40.0, 60.0, 0.0, 5.2, 15.0)],
        ue_path: seed000_walk(),
        duration: Time::from_secs(25),
    }
}

/// `mmwave-tcp-building-example.cc` (master) case 1 verbatim: `Box(40,60, 0,6, 0,15)`, 20 s walk.
pub fn seed000_single_building_ns3() -> Geometry {
    Geometry {
        name: "seed000-single-building-ns3",
        aps: vec![SEED000_AP],
        obstacles: vec![Obstacle::boxed("building", 40.0, 60.0, 0.0, 6.0, 15.0)],
        ue_path: seed000_ns3_walk(),
        duration: Time::from_secs(25),
    }
}

/// Seed 000 scenario ii), "two small buildings creating blockages of 4 s each". The ns-3
/// example's case 2 has three boxes at x = 60–64; the 1.5 m one (y 0–2) is below the AP–UE ray
/// (≈2.2 m there), which is why the paper counts two. The third box is widened to y 9.4–11.2
/// (ns-3: 10–11, which gives 2.7 s) so that both blockages last ≈4 s.
pub fn seed000_two_buildings() -> Geometry {
    Geometry {
        name: "seed000-two-buildings",
        aps: vec![SEED000_AP],
        obstacles: vec![
            Obstacle::boxed("low wall", 60.0, 64.0, 0.0, 2.0, 1.5),
            Obstacle::boxed("building B", 60.0, 64.0, 6.0, 8.0, 15.0),
            Obstacle::boxed("building C", 60.0, 64.0, 9.4, 11.2, 15.0),
        ],
        ue_path: seed000_walk(),
        duration: Time::from_secs(25),
    }
}

/// The y offsets of the six small obstacles of [`seed000_six_obstacles`].
pub const SEED000_SMALL_OBSTACLE_Y: [f64; 6] = [2.0, 6.5, 11.0, 15.5, 20.0, 24.5];

/// Seed 000 scenario iii), "6 small obstacles creating multiple short blockages of 0.25 s
/// each" (trees, people). The ns-3 example puts 0.5×0.5×1.5 m boxes at x ≈ 50–70, where the
/// ray is above 2 m, so in 3-D they would never block; here they stand 7.5 m in front of the UE
/// path (x 142.5–142.7, 0.2 m deep, 0.35 m wide, 1.5 m tall), giving 0.25–0.27 s each.
pub fn seed000_six_obstacles() -> Geometry {
    let obstacles = SEED000_SMALL_OBSTACLE_Y
        .iter()
        .enumerate()
        .map(|(i, &y)| Obstacle {
            name: format!("small obstacle {}", i + 1),
            footprint: Polygon::rect(142.5, 142.7, y, y + 0.35),
            height: 1.5,
            extra_loss_db: 0.0,
        })
        .collect();
    Geometry {
        name: "seed000-six-obstacles",
        aps: vec![SEED000_AP],
        obstacles,
        ue_path: seed000_walk(),
        duration: Time::from_secs(25),
    }
}

/// Lamppost x positions of [`seed000_handover_street`] (every 20 m).
pub const STREET_LAMPPOSTS_X: [f64; 4] = [10.0, 30.0, 50.0, 70.0];

/// Seed 000 §III-C, Fig. 3(a): a street with 2 m pedestrian lanes on both sides of two double
/// car lanes (4 × 3.5 m, y 2–16). Three APs 20 m apart on the far sidewalk (y = 17, 3 m high),
/// lampposts (0.3 × 0.3 m, 6 m) every 20 m on the UE's curb (y 1.7–2.0), and a 13.5 m truck
/// (2.5 m wide, 4 m tall) parked in the far lane (x 45–58.5, y 12.5–15). The UE walks on the
/// bottom lane (y = 1, 1.5 m) from x = 0 to x = 80 at 1.5 m/s. The truck hides AP2 once the UE
/// passes x ≈ 57.8 and AP3 until x ≈ 54.7; the lampposts cause short blockages for every AP.
pub fn seed000_handover_street() -> Geometry {
    let mut obstacles: Vec<Obstacle> = STREET_LAMPPOSTS_X
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            Obstacle::boxed(
                &format!("lamppost {}", i + 1),
                x - 0.15,
                x + 0.15,
                1.7,
                2.0,
                6.0,
            )
        })
        .collect();
    obstacles.push(Obstacle::boxed("truck", 45.0, 58.5, 12.5, 15.0, 4.0));
    Geometry {
        name: "seed000-handover-street",
        aps: vec![
            Point3::new(20.0, 17.0, 3.0),
            Point3::new(40.0, 17.0, 3.0),
            Point3::new(60.0, 17.0, 3.0),
        ],
        obstacles,
        ue_path: WaypointPath::starting_at(Point3::new(0.0, 1.0, 1.5))
            .move_to(Point3::new(80.0, 1.0, 1.5), 1.5)
            .build(),
        duration: Time::from_secs_f64(80.0 / 1.5),
    }
}

/// Seed 002 (`scratch/test-mmw.cc`, ANCHORS §1.4): eNB at (0,0,30), one building
/// `Box(40,45, −4,4, 0,30)`, UE walking (50,15,1.5) → (50,−15,1.5) in 15 s. NLOS from 5 s to
/// 10 s, as the paper says.
pub fn seed002_building() -> Geometry {
    Geometry {
        name: "seed002-building",
        aps: vec![Point3::new(0.0, 0.0, 30.0)],
        obstacles: vec![Obstacle::boxed("building", 40.0, 45.0, -4.0, 4.0, 30.0)],
        ue_path: WaypointPath::starting_at(Point3::new(50.0, 15.0, 1.5))
            .move_to(Point3::new(50.0, -15.0, 1.5), 2.0)
            .build(),
        duration: Time::from_secs(15),
    }
}

/// Seed 001-style dual connectivity (after `mc-twoenbs.cc`, ANCHORS §1.3): mmWave eNBs at
/// (50,70,3) and (150,70,3), the LTE anchor (an assumption: the paper gives no position) at
/// (100,70,30), a 20 m tall building just in front of the UE path (x 90–110, y 0–10) that hides
/// both mmWave eNBs while the UE is at x ≈ 92.9–107.1, and the UE walking at `speed_mps` from
/// x = 60 to x = 140 along y = −5. The building adds 35 dB to the TR 38.901 NLOS loss, so that
/// the mmWave SINR falls below the −5 dB outage threshold behind it (with the UMi NLOS formula
/// alone the link at ~90 m keeps ≈ 24 dB of SINR and never goes into outage).
pub fn seed001_dual_connectivity(speed_mps: f64) -> Geometry {
    let path = WaypointPath::starting_at(Point3::new(60.0, -5.0, 1.5))
        .move_to(Point3::new(140.0, -5.0, 1.5), speed_mps)
        .build();
    Geometry {
        name: "seed001-dual-connectivity",
        aps: vec![
            Point3::new(100.0, 70.0, 30.0),
            Point3::new(50.0, 70.0, 3.0),
            Point3::new(150.0, 70.0, 3.0),
        ],
        obstacles: vec![Obstacle {
            extra_loss_db: 35.0,
            ..Obstacle::boxed("building", 90.0, 110.0, 0.0, 10.0, 20.0)
        }],
        duration: path.end(),
        ue_path: path,
    }
}
