//! `ccsim._ccsim`: the native module behind the `ccsim` Python package. It only converts
//! types and maps errors; everything a user touches lives in `python/ccsim`.
//! Runs release the GIL; a Rust panic surfaces as a Python exception, never an abort.

use ccsim_core::Time;
use ccsim_scenario::{scenario_from_json, scenario_from_toml, Scenario, ScenarioError, Simulation};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::cmp::Ordering;
use std::sync::{Mutex, MutexGuard};

create_exception!(
    _ccsim,
    ScenarioErrorPy,
    PyValueError,
    "A scenario is invalid: the message names the key path, the value and what is allowed."
);

fn scenario_err(e: ScenarioError) -> PyErr {
    ScenarioErrorPy::new_err((e.to_string(), e.path.clone(), e.message.clone()))
}

/// A scenario built and ready to run; advance it with `run_until`.
#[pyclass(name = "Simulation", module = "ccsim._ccsim")]
struct PySimulation {
    // A Mutex makes the class Sync (PyO3 requires it); runs hold it without the GIL.
    inner: Mutex<Simulation>,
}

/// Builds the simulation of a parsed scenario whose relative paths resolve from `base_dir`.
fn make(
    parsed: Result<Scenario, ScenarioError>,
    base_dir: Option<String>,
) -> PyResult<PySimulation> {
    let mut scenario = parsed.map_err(scenario_err)?;
    scenario.base_dir = base_dir.map(Into::into);
    Simulation::new(scenario)
        .map(|s| PySimulation {
            inner: Mutex::new(s),
        })
        .map_err(scenario_err)
}

impl PySimulation {
    fn sim(&self) -> MutexGuard<'_, Simulation> {
        // A panic inside a run poisons the lock; the state is still readable.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[pymethods]
impl PySimulation {
    /// Builds a simulation from TOML text and `key.path=value` overrides. `base_dir` is the
    /// directory relative file paths in the scenario (traces) are read from.
    #[staticmethod]
    #[pyo3(signature = (text, overrides=Vec::new(), base_dir=None))]
    fn from_toml(text: &str, overrides: Vec<String>, base_dir: Option<String>) -> PyResult<Self> {
        make(scenario_from_toml(text, &overrides), base_dir)
    }

    /// Builds a simulation from JSON text (same schema as TOML).
    #[staticmethod]
    #[pyo3(signature = (text, overrides=Vec::new(), base_dir=None))]
    fn from_json(text: &str, overrides: Vec<String>, base_dir: Option<String>) -> PyResult<Self> {
        make(scenario_from_json(text, &overrides), base_dir)
    }

    #[getter]
    fn duration_s(&self) -> f64 {
        self.sim().duration().as_secs_f64()
    }

    #[getter]
    fn now_s(&self) -> f64 {
        self.sim().now().as_secs_f64()
    }

    #[getter]
    fn events(&self) -> u64 {
        self.sim().events()
    }

    #[getter]
    fn finished(&self) -> bool {
        self.sim().is_finished()
    }

    /// Runs until simulated time `t_s` (seconds), without holding the GIL. With
    /// `wall_budget_s`, returns after about that much wall time even if `t_s` is not reached
    /// (so Ctrl-C is seen within it); returns whether `t_s` was reached.
    #[pyo3(signature = (t_s, wall_budget_s=None))]
    fn run_until(&self, py: Python<'_>, t_s: f64, wall_budget_s: Option<f64>) -> PyResult<bool> {
        if !t_s.is_finite() {
            return Err(PyValueError::new_err(format!(
                "t_s must be a finite number of seconds, got {t_s}"
            )));
        }
        let t = Time::from_secs_f64(t_s);
        let deadline = wall_budget_s
            .filter(|b| b.is_finite() && *b >= 0.0)
            .map(|b| std::time::Instant::now() + std::time::Duration::from_secs_f64(b.min(1e6)));
        let inner = &self.inner;
        without_gil_catching_panics(py, move || {
            let mut sim = inner.lock().unwrap_or_else(|p| p.into_inner());
            match deadline {
                Some(d) => sim.run_until_deadline(t, d),
                None => {
                    sim.run_until(t);
                    true
                }
            }
        })
    }

    /// The summary at the current time, as JSON text.
    fn summary_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.sim().summary())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// The scenario after defaults and overrides, as JSON text.
    fn scenario_json(&self) -> PyResult<String> {
        serde_json::to_string(self.sim().scenario())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    fn link_names(&self) -> Vec<String> {
        self.sim().link_names()
    }

    /// (UE names, cell names) of the radio, indexed as in the radio series.
    fn radio_names(&self) -> (Vec<String>, Vec<String>) {
        self.sim().radio_names()
    }

    /// Takes the time-series rows collected since the last call: three dicts (flows, queues,
    /// radio) mapping column name to (numpy dtype string, little-endian bytes). The radio
    /// dict has no rows without a `[radio]` section.
    #[allow(clippy::type_complexity)]
    fn drain_series<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        let (f, q, r) = {
            let mut sim = self.sim();
            let (f, q) = sim.drain_series();
            (f, q, sim.drain_radio_series())
        };
        Ok((
            columns_dict(py, f.to_le_columns())?,
            columns_dict(py, q.to_le_columns())?,
            columns_dict(py, r.to_le_columns())?,
        ))
    }
}

/// {column name: (numpy dtype string, little-endian bytes)} of one drained table.
fn columns_dict<'py>(
    py: Python<'py>,
    cols: Vec<(&'static str, &'static str, Vec<u8>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, dtype, bytes) in cols {
        d.set_item(name, (dtype, PyBytes::new(py, &bytes)))?;
    }
    Ok(d)
}

/// One column of a series table: (name, numpy dtype, doc).
type ColumnSpec = (String, String, String);

/// The time-series tables' columns, declared once in Rust: {table: [(name, numpy dtype,
/// doc)]} for `flows`, `queues` and `radio`.
#[pyfunction]
fn series_columns() -> Vec<(String, Vec<ColumnSpec>)> {
    use ccsim_core::columns::ColumnDoc;
    use ccsim_scenario::metrics::{FlowSeries, QueueSeries};
    use ccsim_scenario::radio_glue::RadioSeries;
    let list = |c: &[ColumnDoc]| {
        c.iter()
            .map(|c| (c.name.into(), c.dtype.into(), c.doc.trim().into()))
            .collect()
    };
    vec![
        ("flows".into(), list(FlowSeries::COLUMNS)),
        ("queues".into(), list(QueueSeries::COLUMNS)),
        ("radio".into(), list(RadioSeries::COLUMNS)),
    ]
}

/// The link-change metrics of one flow's cumulative delivered bytes `delivered` sampled at
/// times `t` (the summary's `link_changes` definition, for data from elsewhere such as
/// ns-3's bins), as JSON text.
#[pyfunction]
fn link_change_phases(
    t: Vec<f64>,
    delivered: Vec<f64>,
    start_s: f64,
    t_on: f64,
    t_off: f64,
    end_s: f64,
) -> PyResult<String> {
    // `partial_cmp` also rejects NaN, which is neither ordered nor increasing.
    let increasing = t.windows(2).all(|w| {
        matches!(
            w[0].partial_cmp(&w[1]),
            Some(Ordering::Less | Ordering::Equal)
        )
    });
    if t.len() != delivered.len() || !increasing {
        return Err(PyValueError::new_err(
            "t and delivered must have the same length, with t in increasing order",
        ));
    }
    let samples: Vec<(f64, f64)> = t.into_iter().zip(delivered).collect();
    let m = ccsim_scenario::link_changes::phase_metrics(0, &samples, start_s, t_on, t_off, end_s);
    serde_json::to_string(&m).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Every `[tcp]` key: (key, value kind, doc comment), from the schema.
#[pyfunction]
fn tcp_keys() -> Vec<(String, String, String)> {
    use ccsim_scenario::tcp_options::{value_kind, TcpOptions};
    TcpOptions::KEYS
        .iter()
        .map(|k| (k.key.into(), value_kind(k.ty).into(), k.doc.trim().into()))
        .collect()
}

/// The Markdown of a generated docs section (`"tcp"`, `"cca"` or `"series"`).
#[pyfunction]
fn schema_markdown(section: &str) -> PyResult<String> {
    ccsim_scenario::schema_doc::section(section).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown schema section `{section}`; allowed: {}",
            ccsim_scenario::schema_doc::section_names().join(", ")
        ))
    })
}

/// Replays a vector file and compares it with the file's own (reference) values, with
/// `replay::compare`: returns (every step equal, steps equal, steps total, report text).
#[pyfunction]
fn replay_compare(text: &str) -> PyResult<(bool, usize, usize, String)> {
    use ccsim_cca::replay;
    let err = |e: replay::ReplayError| PyValueError::new_err(e.to_string());
    let reference = replay::parse(text).map_err(err)?;
    let ours = replay::replay_file(&reference).map_err(err)?;
    let report = replay::compare(&reference, &ours);
    let equal = report.vectors.iter().map(|v| v.steps_equal).sum();
    let total = report.vectors.iter().map(|v| v.steps_total).sum();
    Ok((report.all_equal(), equal, total, report.to_string()))
}

/// Runs `f` without the GIL; a panic becomes a RuntimeError instead of unwinding into Python.
fn without_gil_catching_panics<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.allow_threads(move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)))
        .map_err(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            PyRuntimeError::new_err(format!(
                "ccsim internal error (please report it with the scenario): {msg}"
            ))
        })
}

/// Test hook: panics inside the core's calling convention, to prove a panic surfaces as a
/// Python exception.
#[pyfunction]
fn _debug_panic(py: Python<'_>) -> PyResult<()> {
    without_gil_catching_panics(py, || panic!("deliberate panic from _debug_panic"))
}

/// Replays a unit-level CCA vector file (JSON text) through ccsim's algorithms and returns
/// the same format with ccsim's values.
#[pyfunction]
fn replay_cca(text: &str) -> PyResult<String> {
    ccsim_cca::replay::replay_str(text).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// (short name, ns-3 TypeId) of every congestion-control algorithm.
#[pyfunction]
fn cca_algorithms() -> Vec<(String, String)> {
    ccsim_cca::algorithm_names()
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[pymodule]
fn _ccsim(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySimulation>()?;
    m.add("ScenarioError", m.py().get_type::<ScenarioErrorPy>())?;
    m.add_function(wrap_pyfunction!(replay_cca, m)?)?;
    m.add_function(wrap_pyfunction!(cca_algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(replay_compare, m)?)?;
    m.add_function(wrap_pyfunction!(series_columns, m)?)?;
    m.add_function(wrap_pyfunction!(tcp_keys, m)?)?;
    m.add_function(wrap_pyfunction!(link_change_phases, m)?)?;
    m.add_function(wrap_pyfunction!(schema_markdown, m)?)?;
    m.add_function(wrap_pyfunction!(_debug_panic, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
