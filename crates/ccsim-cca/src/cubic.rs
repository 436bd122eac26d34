//! CUBIC, as ns-3.44 `TcpCubic` (`src/internet/model/tcp-cubic.cc`): RFC 8312 CUBIC with the
//! Linux `tcp_cubic.c` structure (`bictcp_update` counting ACKs against `cnt`), TCP friendliness
//! (RFC 8312 §4.2, Linux `tcp_friendliness`), fast convergence (RFC 8312 §4.6) and ns-3's
//! HyStart ([`crate::hystart`]: ACK train and delay increase; Ha & Rhee 2011).
//!
//! Arithmetic follows ns-3 exactly: cwnd in whole segments (`GetCwndInSegments`), `K` and the
//! cubic offset in `double` seconds from ns-3 `Time::GetSeconds()` (see [`crate::ns3num`]),
//! `delta` and the targets truncated to `uint32_t`, and unsigned wrap-around where ns-3 wraps.
//! Two ns-3 details differ from Linux and are kept: slow start adds `segmentsAcked · MSS` with
//! no cap at ssthresh, and the HyStart delay threshold is `delayMin + clamp(delayMin)` (Linux
//! uses `delayMin/8` for the clamp argument).

pub use crate::hystart::HystartDetect;
use crate::hystart::{Hystart, HystartParams};
use crate::hystart_linux::{LinuxHystart, LinuxHystartParams};
use crate::ns3num::{cast_u32, seconds_i64};
use crate::params::Accepts;
use crate::{CongState, CongestionOps, TcpState};
use ccsim_core::Time;

/// Linux ignores delay samples for this long after a window reduction (`HZ` jiffies).
const LINUX_SAMPLE_HOLDOFF: Time = Time::from_secs(1);

/// ns-3's `static_cast<uint32_t>(C * std::pow(offs, 3))`, without calling `pow` when the
/// answer is certain. `offs * offs * offs` rounds twice, glibc's `pow` once (documented worst
/// case 0.52 ULP), so both lie within 2^-50 of the exact cube relative to it, and `c · x` within
/// ~2^-49 of `c · pow(..)`. When no integer lies within a relative 2^-40 of `c · x`, both products
/// truncate to the same integer; otherwise (or outside `[0, 2^31)`) `pow` decides. `pow` was
/// ~35 % of CUBIC's per-ACK cost (benches/README.md, issue 13 part 8).
#[inline]
fn cubic_delta(c: f64, offs: f64) -> u32 {
    const MARGIN: f64 = 1.0 / (1u64 << 40) as f64;
    let approx = c * (offs * offs * offs);
    if (0.0..2_147_483_648.0).contains(&approx) {
        if approx < 1.0 - MARGIN {
            return 0;
        }
        // Truncation through the integer conversion (exact below 2^31), not `f64::trunc`: that
        // is a libm call on baseline x86-64 (no SSE4.1 `roundsd`).
        let whole_int = approx as i64;
        let whole = whole_int as f64;
        // Both differences are exact (Sterbenz: approx >= 1 - 2^-40, whole + 1 <= 2 approx + 1).
        let margin = approx * MARGIN;
        if approx >= 1.0 && approx - whole > margin && whole + 1.0 - approx > margin {
            return whole_int as u32;
        }
    }
    cast_u32(c * offs.powf(3.0))
}

/// Which HyStart [`Cubic`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HystartVariant {
    /// ns-3.44 `TcpCubic::HystartUpdate` (the `ns3` profile).
    Ns3,
    /// Linux `tcp_cubic.c` `hystart_update` (crate::hystart_linux; the `linux` profile).
    Linux,
}

crate::choice_param!(HystartVariant {
    "NS3" => Ns3,
    "LINUX" => Linux,
});

crate::tunables! {
    /// Tunables of [`Cubic`] (ns-3 attributes of `ns3::TcpCubic`, ns-3.44 defaults).
    pub struct CubicConfig for "cubic" {
        /// Enable (true) or disable (false) fast convergence.
        fast_convergence: bool = true, Accepts::Bool;
        /// Enable (true) or disable (false) TCP friendliness.
        tcp_friendliness: bool = true, Accepts::Bool;
        /// Beta for multiplicative decrease (ns-3 allows 1, which would make the friendliness
        /// scale divide by zero).
        beta: f64 = 0.7, Accepts::Number { min: 0.0, max: 0.999_999 };
        /// Enable (true) or disable (false) hybrid slow start.
        hystart: bool = true, Accepts::Bool;
        /// Lower bound cwnd for hybrid slow start (segments).
        hystart_low_window: u32 = 16, Accepts::U32;
        /// HyStart detectors: packet train, delay, or both.
        hystart_detect: HystartDetect = HystartDetect::Both,
            Accepts::OneOf(HystartDetect::CHOICES);
        /// Number of delay samples for detecting the increase of delay.
        hystart_min_samples: u8 = 8, Accepts::Integer { min: 0, max: 255 };
        /// Spacing between ACKs indicating a train.
        hystart_ack_delta: Time = Time::from_millis(2), Accepts::DURATION;
        /// Minimum delay threshold for HyStart.
        hystart_delay_min: Time = Time::from_millis(4), Accepts::DURATION;
        /// Maximum delay threshold for HyStart.
        hystart_delay_max: Time = Time::from_millis(1000), Accepts::DURATION;
        /// Whose HyStart runs: `NS3` (ns-3.44 `TcpCubic`) or `LINUX` (the kernel's
        /// `tcp_cubic.c`; the `linux` TCP profile's default).
        hystart_variant: HystartVariant = HystartVariant::Ns3,
            Accepts::OneOf(HystartVariant::CHOICES);
        /// Time to wait after fast recovery before taking delay samples.
        cubic_delta: Time = Time::from_millis(10), Accepts::DURATION;
        /// ACK count per cwnd increment before the first loss (cnt clamp).
        cnt_clamp: u8 = 20, Accepts::Integer { min: 0, max: 255 };
        /// Cubic scaling factor.
        c: f64 = 0.4, Accepts::Number { min: f64::MIN_POSITIVE, max: 1e6 };
    }
}

/// ns-3 `TcpCubic` state. `None` stands for ns-3's `Time::Min()` "not set" sentinel.
#[derive(Clone, Debug)]
pub struct Cubic {
    config: CubicConfig,
    /// Segments acknowledged since the last cwnd increment (`m_cWndCnt`).
    cwnd_cnt: u32,
    /// W_max in segments (`m_lastMaxCwnd`).
    last_max_cwnd: u32,
    /// Origin point of the cubic function, segments (`m_bicOriginPoint`).
    bic_origin_point: u32,
    /// K, seconds (`m_bicK`).
    bic_k: f64,
    /// Minimum delay seen (`m_delayMin`).
    delay_min: Option<Time>,
    /// Start of the current epoch (`m_epochStart`).
    epoch_start: Option<Time>,
    /// HyStart's round state ([`crate::hystart`]).
    hystart: Hystart,
    /// The kernel's HyStart, when `hystart_variant` is LINUX (then `hystart` is unused).
    linux_hystart: Option<LinuxHystart>,
    /// ACKed segments for the Reno estimate (`m_ackCnt`).
    ack_cnt: u32,
    /// Reno-equivalent cwnd in segments (`m_tcpCwnd`).
    tcp_cwnd: u32,
    /// The friendliness scale `8·(1024 + 1024β)/3/(1024 − 1024β)` as ns-3 casts it, computed per
    /// ACK by ns-3; β is fixed at construction, so once here (two dependent `divsd` per ACK).
    friendliness_scale: u32,
    /// `Update`'s three integer divisions, each remembered with its operands: cwnd in segments
    /// changes once per `cnt` ACKs, the cubic target a few times per second, the Reno estimate
    /// rarely, while a `div` sat on the ACK path's dependency chain every ACK.
    cwnd_segs: MemoDiv,
    cnt_div: MemoDiv,
    friendly_div: MemoDiv,
}

/// `num / den` (u32) remembered with its operands: recomputed only when one changed.
#[derive(Clone, Copy, Debug)]
struct MemoDiv {
    num: u32,
    den: u32,
    quot: u32,
}

impl Default for MemoDiv {
    fn default() -> Self {
        // 0 / 1: a consistent entry, so a first division by zero still panics as `/` does.
        MemoDiv {
            num: 0,
            den: 1,
            quot: 0,
        }
    }
}

impl MemoDiv {
    #[inline]
    fn div(&mut self, num: u32, den: u32) -> u32 {
        if num != self.num || den != self.den {
            *self = MemoDiv {
                num,
                den,
                quot: num / den,
            };
        }
        self.quot
    }
}

/// ns-3's friendliness scale (`TcpCubic::Update`), cast as ns-3 casts it.
fn friendliness_scale(beta: f64) -> u32 {
    cast_u32(8.0 * (1024.0 + beta * 1024.0) / 3.0 / (1024.0 - beta * 1024.0))
}

impl Default for Cubic {
    fn default() -> Self {
        Cubic::new(CubicConfig::default())
    }
}

impl Cubic {
    pub fn new(config: CubicConfig) -> Self {
        let linux = config.hystart_variant == HystartVariant::Linux;
        Cubic {
            friendliness_scale: friendliness_scale(config.beta),
            cwnd_segs: MemoDiv::default(),
            cnt_div: MemoDiv::default(),
            friendly_div: MemoDiv::default(),
            config,
            cwnd_cnt: 0,
            last_max_cwnd: 0,
            bic_origin_point: 0,
            bic_k: 0.0,
            delay_min: None,
            epoch_start: None,
            hystart: Hystart::default(),
            linux_hystart: linux.then(LinuxHystart::default),
            ack_cnt: 0,
            tcp_cwnd: 0,
        }
    }

    /// `TcpCubic::CubicReset` (on entering CA_LOSS). ns-3.44 keeps `m_lastMaxCwnd` (W_max) and
    /// `m_cWndCnt` across the reset; the ns-3.44 vectors confirm it.
    fn cubic_reset(&mut self) {
        self.bic_origin_point = 0;
        self.bic_k = 0.0;
        self.ack_cnt = 0;
        self.tcp_cwnd = 0;
        self.delay_min = None;
        self.hystart.clear();
    }

    /// `TcpCubic::Update`: the ACK count `cnt` after which cwnd grows by one segment.
    fn update(&mut self, tcb: &TcpState, segments_acked: u32) -> u32 {
        let seg_cwnd = self.cwnd_segs.div(tcb.cwnd, tcb.mss);
        let c = self.config.c;
        self.ack_cnt = self.ack_cnt.wrapping_add(segments_acked);

        let epoch_start = match self.epoch_start {
            Some(t) => t,
            None => {
                // Beginning of an epoch.
                self.epoch_start = Some(tcb.now);
                self.ack_cnt = segments_acked;
                self.tcp_cwnd = seg_cwnd;
                if self.last_max_cwnd <= seg_cwnd {
                    self.bic_k = 0.0;
                    self.bic_origin_point = seg_cwnd;
                } else {
                    self.bic_k = ((self.last_max_cwnd - seg_cwnd) as f64 / c).powf(1.0 / 3.0);
                    self.bic_origin_point = self.last_max_cwnd;
                }
                tcb.now
            }
        };

        // t = Now + delayMin - epochStart, in ns-3 Time (signed 64-bit ns). PktsAcked always
        // runs before IncreaseWindow, so delayMin is set here; ns-3 would add Time::Min() if it
        // were not (a meaningless huge negative t), ccsim adds zero.
        let delay_min = self.delay_min.map_or(0, |d| d.as_nanos() as i64);
        let t = seconds_i64(tcb.now.as_nanos() as i64 + delay_min - epoch_start.as_nanos() as i64);
        let offs = if t < self.bic_k {
            self.bic_k - t
        } else {
            t - self.bic_k
        };
        let delta = cubic_delta(c, offs);
        let bic_target = if t < self.bic_k {
            self.bic_origin_point.wrapping_sub(delta)
        } else {
            self.bic_origin_point.wrapping_add(delta)
        };

        let mut cnt = if bic_target > seg_cwnd {
            self.cnt_div.div(seg_cwnd, bic_target - seg_cwnd)
        } else {
            seg_cwnd.wrapping_mul(100)
        };
        if self.last_max_cwnd == 0 && cnt > self.config.cnt_clamp as u32 {
            cnt = self.config.cnt_clamp as u32;
        }

        if self.config.tcp_friendliness {
            let delta = seg_cwnd.wrapping_mul(self.friendliness_scale) >> 3;
            // ns-3 loops `while (m_ackCnt > delta)`; with delta == 0 (cwnd below one segment)
            // that loop never ends, so ccsim skips the Reno estimate update instead.
            if delta > 0 {
                while self.ack_cnt > delta {
                    self.ack_cnt -= delta;
                    self.tcp_cwnd = self.tcp_cwnd.wrapping_add(1);
                }
            }
            if self.tcp_cwnd > seg_cwnd {
                let delta = self.tcp_cwnd - seg_cwnd;
                let max_cnt = self.friendly_div.div(seg_cwnd, delta);
                if cnt > max_cnt {
                    cnt = max_cnt;
                }
            }
        }

        // At most one segment per two ACKed (cwnd grows at most 1.5x per RTT).
        cnt.max(2)
    }

    /// The HyStart settings from the tunables.
    fn hystart_params(&self) -> HystartParams {
        let c = &self.config;
        HystartParams {
            detect: c.hystart_detect,
            min_samples: c.hystart_min_samples,
            ack_delta: c.hystart_ack_delta,
            delay_min: c.hystart_delay_min,
            delay_max: c.hystart_delay_max,
        }
    }

    /// The kernel HyStart's settings from the same tunables.
    fn linux_hystart_params(&self) -> LinuxHystartParams {
        let d = self.config.hystart_detect;
        LinuxHystartParams {
            ack_train: d.packet_train(),
            delay: d.delay(),
            low_window: self.config.hystart_low_window,
            min_samples: self.config.hystart_min_samples as u32,
            ack_delta: self.config.hystart_ack_delta,
        }
    }

    /// Linux `bictcp_acked` (crate::hystart_linux): the ACK's own RTT sample (the sender's
    /// latest; `srtt` only before the first), samples ignored for a second after a window
    /// reduction (`HZ` jiffies), HyStart while cwnd < ssthresh.
    fn linux_pkts_acked(&mut self, tcb: &mut TcpState, srtt: Time) {
        if let Some(epoch) = self.epoch_start {
            if tcb.now.saturating_sub(epoch) < LINUX_SAMPLE_HOLDOFF {
                return;
            }
        }
        let delay = tcb.last_rtt.unwrap_or(srtt).max(Time::from_micros(1));
        if !matches!(self.delay_min, Some(d) if d <= delay) {
            self.delay_min = Some(delay);
        }
        if !self.config.hystart || !tcb.in_slow_start() {
            return;
        }
        let p = self.linux_hystart_params();
        let delay_min = self.delay_min.unwrap_or(delay);
        if let Some(h) = self.linux_hystart.as_mut() {
            if h.update(&p, tcb, delay, delay_min) {
                tcb.ssthresh = tcb.cwnd;
            }
        }
    }
}

impl CongestionOps for Cubic {
    fn name(&self) -> &'static str {
        "TcpCubic"
    }

    /// `TcpCubic::Init`: starts the first HyStart round (`HystartReset`). The ns-3.44 vectors do
    /// not depend on it: the first slow-start ACK resets the round anyway (`m_endSeq` is 0).
    fn init(&mut self, tcb: &mut TcpState) {
        self.hystart.start_round(tcb);
        if let Some(h) = self.linux_hystart.as_mut() {
            h.start_round(tcb);
        }
    }

    /// `TcpCubic::GetSsThresh`: W_max with fast convergence, `ssthresh = max(cwnd·beta, 2)` segments.
    fn ssthresh(&mut self, tcb: &TcpState, _bytes_in_flight: u32) -> u32 {
        let seg_cwnd = tcb.cwnd_segs();
        let beta = self.config.beta;
        if seg_cwnd < self.last_max_cwnd && self.config.fast_convergence {
            self.last_max_cwnd = cast_u32(seg_cwnd as f64 * (1.0 + beta) / 2.0);
        } else {
            self.last_max_cwnd = seg_cwnd;
        }
        self.epoch_start = None;
        cast_u32(seg_cwnd as f64 * beta)
            .max(2)
            .wrapping_mul(tcb.mss)
    }

    /// `TcpCubic::IncreaseWindow`.
    fn increase_window(&mut self, tcb: &mut TcpState, mut segments_acked: u32) {
        if !tcb.is_cwnd_limited {
            return;
        }
        if tcb.cwnd < tcb.ssthresh {
            if self.config.hystart && self.linux_hystart.is_none() && self.hystart.round_ended(tcb)
            {
                self.hystart.start_round(tcb);
            }
            // ns-3 approximates Linux QUICKACK with byte counting in slow start (RFC 3465).
            tcb.cwnd = tcb.cwnd.wrapping_add(segments_acked.wrapping_mul(tcb.mss));
            segments_acked = 0;
        }
        if tcb.cwnd >= tcb.ssthresh && segments_acked > 0 {
            self.cwnd_cnt = self.cwnd_cnt.wrapping_add(segments_acked);
            let cnt = self.update(tcb, segments_acked);
            // RFC 6356-style ACK counting: grow by one segment once cnt segments are ACKed.
            if self.cwnd_cnt >= cnt {
                tcb.cwnd = tcb.cwnd.wrapping_add(tcb.mss);
                self.cwnd_cnt -= cnt;
            }
        }
    }

    /// `TcpCubic::PktsAcked`: delay samples for K's `t` offset and HyStart.
    fn pkts_acked(&mut self, tcb: &mut TcpState, _segments_acked: u32, rtt: Time) {
        if self.linux_hystart.is_some() {
            self.linux_pkts_acked(tcb, rtt);
            return;
        }
        // Discard delay samples right after fast recovery.
        if let Some(epoch) = self.epoch_start {
            if tcb.now.saturating_sub(epoch) < self.config.cubic_delta {
                return;
            }
        }
        if !matches!(self.delay_min, Some(d) if d <= rtt) {
            self.delay_min = Some(rtt);
        }
        if self.config.hystart
            && tcb.cwnd <= tcb.ssthresh
            && tcb.cwnd >= self.config.hystart_low_window.wrapping_mul(tcb.mss)
        {
            let params = self.hystart_params();
            let delay_min = self.delay_min.unwrap_or(Time::ZERO);
            if self.hystart.update(&params, tcb.now, rtt, delay_min) {
                tcb.ssthresh = tcb.cwnd;
            }
        }
    }

    /// `TcpCubic::CongestionStateSet`: a timeout (CA_LOSS) resets CUBIC and HyStart.
    fn congestion_state_set(&mut self, tcb: &mut TcpState, new_state: CongState) {
        if new_state == CongState::Loss {
            self.cubic_reset();
            self.hystart.start_round(tcb);
            if let Some(h) = self.linux_hystart.as_mut() {
                h.reset(tcb);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_delta_truncates_as_pow_does() {
        // Offsets of a CUBIC epoch (0 .. 30 s, fine steps and ns-3's Time grid), C from the
        // default and a few tunings; includes exact integers (offs = 5 with C = 0.4 -> 50).
        let mut pow_calls_avoided = 0;
        for &c in &[0.4, 0.1, 1.0, 3.7] {
            for i in 0..200_000u64 {
                let offs = seconds_i64((i * 149_999) as i64);
                let want = cast_u32(c * offs.powf(3.0));
                assert_eq!(cubic_delta(c, offs), want, "c={c} offs={offs}");
                let x = c * (offs * offs * offs);
                pow_calls_avoided += usize::from(x >= 1.0 && x.fract() > 1e-9);
            }
            for k in 0..2000u32 {
                // The cube roots of whole targets: the truncation sits right at the boundary.
                let offs = (k as f64 / c).cbrt();
                assert_eq!(
                    cubic_delta(c, offs),
                    cast_u32(c * offs.powf(3.0)),
                    "{c} {k}"
                );
            }
        }
        assert!(pow_calls_avoided > 700_000);
        // Beyond 2^31 and at huge offsets it is ns-3's cast of pow, wrap-around included.
        for offs in [2_000.0, 1e7, 1e30] {
            assert_eq!(cubic_delta(0.4, offs), cast_u32(0.4 * f64::powf(offs, 3.0)));
        }
    }

    #[test]
    fn remembered_divisions_and_scale_match_the_arithmetic() {
        let mut memo = MemoDiv::default();
        for (n, d) in [
            (100, 1),
            (100, 1),
            (100, 3),
            (101, 3),
            (7, 3),
            (100, 3),
            (0, 5),
        ] {
            assert_eq!(memo.div(n, d), n / d, "{n} / {d}");
        }
        // ns-3's 8·(1024 + 1024β)/3/(1024 − 1024β), truncated: 15 for β = 0.7, 8 for β = 0.5.
        for beta in [0.7, 0.5, 0.2, 0.9] {
            let scale = 8.0 * (1024.0 + beta * 1024.0) / 3.0 / (1024.0 - beta * 1024.0);
            assert_eq!(friendliness_scale(beta), scale as u32);
        }
        assert_eq!(friendliness_scale(0.7), 15);
        assert_eq!(Cubic::default().friendliness_scale, 15);
    }

    #[test]
    fn ssthresh_is_beta_times_cwnd_with_fast_convergence() {
        let mut cubic = Cubic::default();
        let mut tcb = TcpState::new(1000, 100, u32::MAX);
        assert_eq!(cubic.ssthresh(&tcb, tcb.cwnd), 70_000);
        assert_eq!(cubic.last_max_cwnd, 100);
        // A second loss below W_max: W_max = cwnd·(1+beta)/2 (RFC 8312 §4.6).
        tcb.cwnd = 80_000;
        assert_eq!(cubic.ssthresh(&tcb, tcb.cwnd), 56_000);
        assert_eq!(cubic.last_max_cwnd, 68);
        // Never below two segments.
        tcb.cwnd = 2_000;
        assert_eq!(cubic.ssthresh(&tcb, tcb.cwnd), 2_000);
    }

    #[test]
    fn slow_start_counts_bytes_and_hystart_exits_on_delay() {
        let mut cubic = Cubic::default();
        let mut tcb = TcpState::new(1000, 20, u32::MAX);
        cubic.init(&mut tcb);
        cubic.increase_window(&mut tcb, 3);
        assert_eq!(tcb.cwnd, 23_000);
        // Delay samples: 8 at 10 ms, then one at 30 ms (> 10 + clamp(10) ms) ends slow start.
        for i in 0..9u64 {
            tcb.now = Time::from_millis(100 * i);
            let rtt = if i < 8 {
                Time::from_millis(10)
            } else {
                Time::from_millis(30)
            };
            cubic.pkts_acked(&mut tcb, 1, rtt);
        }
        cubic.hystart.curr_rtt = Some(Time::from_millis(30));
        tcb.now = Time::from_millis(1000);
        cubic.pkts_acked(&mut tcb, 1, Time::from_millis(30));
        assert_eq!(tcb.ssthresh, tcb.cwnd);
    }
}
