//! How far ccsim's replay agrees with the reference, vector by vector.

use super::{ReplayFile, Step};
use std::collections::BTreeMap;
use std::fmt;

/// The first step where ccsim and the reference disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    pub index: usize,
    pub reference: Step,
    pub ours: Step,
}

/// Agreement of one vector.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorReport {
    pub algorithm: String,
    pub scenario: String,
    /// Steps in the reference vector.
    pub steps_total: usize,
    /// Steps whose cwnd, ssthresh and state all equal the reference.
    pub steps_equal: usize,
    /// `None` when every step agrees.
    pub first_mismatch: Option<Mismatch>,
    /// True when `ours` has no vector for this (algorithm, scenario).
    pub missing: bool,
}

/// Result of [`compare`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub vectors: Vec<VectorReport>,
}

impl Report {
    /// Every step of every vector agrees.
    pub fn all_equal(&self) -> bool {
        self.vectors
            .iter()
            .all(|v| v.first_mismatch.is_none() && !v.missing)
    }

    /// (steps equal, steps total) per algorithm, summed over scenarios.
    pub fn by_algorithm(&self) -> BTreeMap<String, (usize, usize)> {
        let mut m = BTreeMap::new();
        for v in &self.vectors {
            let e = m.entry(v.algorithm.clone()).or_insert((0, 0));
            e.0 += v.steps_equal;
            e.1 += v.steps_total;
        }
        m
    }
}

fn same_outcome(a: &Step, b: &Step) -> bool {
    a.cwnd_bytes == b.cwnd_bytes
        && a.ssthresh_bytes == b.ssthresh_bytes
        && a.state_after == b.state_after
}

/// Count, per vector, the steps where `ours` matches `reference` (cwnd, ssthresh and state),
/// and locate the first mismatch. Vectors are matched by (algorithm, scenario).
pub fn compare(reference: &ReplayFile, ours: &ReplayFile) -> Report {
    let mut report = Report::default();
    for r in &reference.vectors {
        let o = ours
            .vectors
            .iter()
            .find(|o| o.algorithm == r.algorithm && o.scenario == r.scenario);
        let mut vr = VectorReport {
            algorithm: r.algorithm.clone(),
            scenario: r.scenario.clone(),
            steps_total: r.steps.len(),
            steps_equal: 0,
            first_mismatch: None,
            missing: o.is_none(),
        };
        if let Some(o) = o {
            for (i, rs) in r.steps.iter().enumerate() {
                match o.steps.get(i) {
                    Some(os) if same_outcome(rs, os) => vr.steps_equal += 1,
                    Some(os) => {
                        if vr.first_mismatch.is_none() {
                            vr.first_mismatch = Some(Mismatch {
                                index: i,
                                reference: rs.clone(),
                                ours: os.clone(),
                            });
                        }
                    }
                    None => {
                        if vr.first_mismatch.is_none() {
                            vr.missing = true;
                        }
                    }
                }
            }
        }
        report.vectors.push(vr);
    }
    report
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (alg, (eq, total)) in self.by_algorithm() {
            writeln!(f, "{alg:<16} {eq:>7} / {total:<7} steps equal")?;
        }
        for v in &self.vectors {
            if v.missing {
                writeln!(f, "  {} {}: missing or truncated", v.algorithm, v.scenario)?;
            }
            if let Some(m) = &v.first_mismatch {
                writeln!(
                    f,
                    "  {} {}: first mismatch at step {} (t={}, {} segs={} rtt={}ms): \
                     ns-3 cwnd={} ssthresh={} state={}, ccsim cwnd={} ssthresh={} state={}",
                    v.algorithm,
                    v.scenario,
                    m.index,
                    m.reference.t_s,
                    m.reference.event,
                    m.reference.segs_acked,
                    m.reference.rtt_ms,
                    m.reference.cwnd_bytes,
                    m.reference.ssthresh_bytes,
                    m.reference.state_after,
                    m.ours.cwnd_bytes,
                    m.ours.ssthresh_bytes,
                    m.ours.state_after
                )?;
            }
        }
        Ok(())
    }
}
