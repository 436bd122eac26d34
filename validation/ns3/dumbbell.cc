// ccsim validation: ns-3.44 reference dumbbell.
//
// Topology (see README.md in this directory for the full definition):
//
//   S_0 --access--+                      +--access-- D_0
//   S_1 --access--+-- R1 ==bottleneck== R2 --+--access-- D_1
//   ...           |                      |   ...
//   S_{N-1} ------+                      +------ D_{N-1}
//
// Flow i: BulkSendApplication on S_i (unlimited) -> PacketSink on D_i.
// All links are PointToPoint. Every traffic-control queue disc is removed,
// so the only buffers are the PointToPointNetDevice transmit queues
// (DropTail FIFO). The R1->R2 device queue holds --queuePackets packets; all
// other device queues are large enough never to drop.
//
// Output: a JSON metrics file (--out) with the schema shared with the ccsim
// side, and optionally a cwnd CSV (--cwndTrace).
//
// Written for the ccsim project; uses only the public ns-3.44 API.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

// ----------------------------------------------------------------------------
// Per-flow measurement state
// ----------------------------------------------------------------------------

// Mirror of TcpSocketBase::m_history (ns-3.44): one record per first
// transmission (the SYN with length 0, then each new data segment).
struct HistEntry
{
    SequenceNumber32 seq;
    uint32_t count;
};

struct FlowStats
{
    uint32_t id{0};
    std::string cca;
    double startTime{0.0};
    Ptr<BulkSendApplication> sender;
    Ptr<PacketSink> sink;
    Ptr<TcpSocketBase> socket;

    // Tx side
    bool anyTx{false};
    SequenceNumber32 highTx{0}; // highest sequence number + 1 transmitted
    uint64_t txSegments{0};
    uint64_t retxSegments{0};
    uint64_t retxTrace{0}; // ns-3's own "Retransmission" trace
    uint64_t txBytes{0};
    double firstDataTxTime{-1};

    // Rx side (ACKs arriving at the sender)
    std::deque<HistEntry> history;
    uint64_t rtoEvents{0};
    uint64_t advancesWithoutSample{0};
    bool anyAck{false};
    SequenceNumber32 highAck{0};
    uint64_t ackSegments{0};
    uint64_t dupAckLike{0};
    std::map<uint32_t, uint64_t> ackHdrHist; // TCP header size -> count
    std::vector<double> rttMs;               // see OnRx
    std::vector<double> rttTimes;            // sample times, s (only with --rttOut)
    double firstRttTime{-1};

    // Congestion state machine
    uint64_t recoveryEpisodes{0};
    uint64_t lossEpisodes{0};

    // Verification of the RTT mirror against TcpSocketState::m_lastRtt
    bool verify{false};
    double lastSampleTime{-1};
    double lastSampleMs{-1};
    uint64_t verifyChanges{0};
    uint64_t verifyMismatch{0};
    double nsLastRttMs{-1};    // value carried by the LastRTT trace
    bool pendingCheck{false};  // our last sample still to be compared
    uint64_t verifyReverse{0}; // our samples that ns-3 did not take

    std::ofstream* cwndOut{nullptr};
    // PacketSink bytes at every 100 ms boundary (goodput before/during/after a rate change
    // and the recovery time are computed from these, as on the ccsim side).
    std::vector<uint64_t> rxBins;
};

std::vector<FlowStats> g_flows;

// Records every flow's received bytes each 100 ms (t = 0.1, 0.2, ... s).
void
SampleRxBins(double duration)
{
    for (auto& f : g_flows)
    {
        f.rxBins.push_back(f.sink ? f.sink->GetTotalRx() : 0);
    }
    // The bin at t = duration is taken after Run() (the Stop event precedes this one).
    if (Simulator::Now().GetSeconds() + 0.1 < duration - 1e-9)
    {
        Simulator::Schedule(MilliSeconds(100), &SampleRxBins, duration);
    }
}
bool g_keepRttTimes = false;
std::ofstream* g_dbg = nullptr; // --debugLog: per-segment log of flow g_dbgFlow
uint32_t g_dbgFlow = 0;           // --debugFlow
uint64_t g_bottleneckQueueDrops = 0;
uint64_t g_bottleneckTcDrops = 0;
uint64_t g_otherQueueDrops = 0;
uint64_t g_otherTcDrops = 0;

void
OnTx(FlowStats* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    uint32_t sz = p->GetSize();
    if (sz == 0)
    {
        return; // pure ACK / SYN / FIN without payload
    }
    SequenceNumber32 seq = h.GetSequenceNumber();
    double now = Simulator::Now().GetSeconds();
    if (g_dbg && f->id == g_dbgFlow)
    {
        *g_dbg << std::fixed << std::setprecision(9) << now << " TX seq=" << seq << " len=" << sz
               << (f->anyTx && seq < f->highTx ? " RETX" : "") << "\n";
    }
    f->txSegments++;
    f->txBytes += sz;
    if (f->firstDataTxTime < 0)
    {
        f->firstDataTxTime = now;
    }
    bool isRetx = f->anyTx && seq < f->highTx;
    if (isRetx)
    {
        f->retxSegments++;
        for (auto& e : f->history)
        {
            if (seq >= e.seq && seq < e.seq + SequenceNumber32(e.count))
            {
                e.count = (seq + SequenceNumber32(sz)) - e.seq;
                break;
            }
        }
    }
    else
    {
        f->history.push_back(HistEntry{seq, sz});
    }
    SequenceNumber32 end = seq + SequenceNumber32(sz);
    if (!f->anyTx || end > f->highTx)
    {
        f->highTx = end;
    }
    f->anyTx = true;
}

void
OnRetx(FlowStats* f,
       Ptr<const Packet>,
       const TcpHeader&,
       const Address&,
       const Address&,
       Ptr<const TcpSocketBase>)
{
    f->retxTrace++;
}

void
OnRx(FlowStats* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (!(h.GetFlags() & TcpHeader::ACK))
    {
        return;
    }
    if (p->GetSize() != 0)
    {
        return; // the receiver never sends data in these scenarios
    }
    if (f->verify && f->pendingCheck)
    {
        // The previous ACK has been fully processed by now.
        if (std::fabs(f->nsLastRttMs - f->lastSampleMs) > 1e-9)
        {
            f->verifyReverse++;
            if (f->verifyReverse <= 10)
            {
                std::fprintf(stderr,
                             "verifyRtt flow %u: our sample %.6f ms at t=%.9f, ns-3 lastRtt %.6f\n",
                             f->id,
                             f->lastSampleMs,
                             f->lastSampleTime,
                             f->nsLastRttMs);
            }
        }
        f->pendingCheck = false;
    }
    const bool isSyn = h.GetFlags() & TcpHeader::SYN;
    SequenceNumber32 ack = h.GetAckNumber();
    double now = Simulator::Now().GetSeconds();
    if (g_dbg && f->id == g_dbgFlow)
    {
        Ptr<const TcpOptionTS> ts = h.HasOption(TcpOption::TS)
                                        ? DynamicCast<const TcpOptionTS>(h.GetOption(TcpOption::TS))
                                        : nullptr;
        *g_dbg << std::fixed << std::setprecision(9) << now << " RX ack=" << ack
               << " tsval=" << (ts ? ts->GetTimestamp() : 0) << " tsecr=" << (ts ? ts->GetEcho() : 0)
               << " hdr=" << h.GetSerializedSize() << (isSyn ? " SYNACK" : "");
        if (h.HasOption(TcpOption::SACK))
        {
            auto sack = DynamicCast<const TcpOptionSack>(h.GetOption(TcpOption::SACK));
            *g_dbg << " sack=";
            for (const auto& [from, to] : sack->GetSackList())
            {
                *g_dbg << "[" << from << ";" << to << ")";
            }
        }
        *g_dbg << "\n";
    }
    if (!isSyn)
    {
        f->ackSegments++;
        f->ackHdrHist[h.GetSerializedSize()]++;
    }

    // RTT sample exactly as TcpSocketBase::EstimateRtt (ns-3.44) takes one:
    // only if the oldest recorded first transmission is fully covered by this
    // ACK; with timestamps the value is floor(now_ms) - TSecr (0 -> 1 us),
    // whether or not that segment was retransmitted.
    bool advances = !f->anyAck || ack > f->highAck;
    bool sampled = false;
    if (!f->history.empty())
    {
        const HistEntry& front = f->history.front();
        if (ack >= front.seq + SequenceNumber32(front.count) && h.HasOption(TcpOption::TS))
        {
            Ptr<const TcpOptionTS> ts = DynamicCast<const TcpOptionTS>(h.GetOption(TcpOption::TS));
            Time m = TcpOptionTS::ElapsedTimeFromTsValue(ts->GetEcho());
            if (m.IsZero())
            {
                m = MicroSeconds(1);
            }
            double ms = m.GetSeconds() * 1e3;
            f->rttMs.push_back(ms);
            if (g_keepRttTimes)
            {
                f->rttTimes.push_back(now);
            }
            if (f->firstRttTime < 0)
            {
                f->firstRttTime = now;
            }
            f->lastSampleTime = now;
            f->lastSampleMs = ms;
            f->pendingCheck = true;
            sampled = true;
        }
        while (!f->history.empty() &&
               f->history.front().seq + SequenceNumber32(f->history.front().count) <= ack)
        {
            f->history.pop_front();
        }
    }
    if (advances && !sampled)
    {
        f->advancesWithoutSample++;
    }
    if (!advances)
    {
        f->dupAckLike++;
    }
    else
    {
        f->highAck = ack;
    }
    f->anyAck = true;
}

void
OnLastRtt(FlowStats* f, Time /*oldV*/, Time newV)
{
    // TracedValue fires only when the value changes. Every change must be
    // matched by a sample of ours taken at the same instant with the same value.
    f->verifyChanges++;
    double now = Simulator::Now().GetSeconds();
    double v = newV.GetSeconds() * 1e3;
    f->nsLastRttMs = v;
    if (g_dbg && f->id == g_dbgFlow)
    {
        *g_dbg << std::fixed << std::setprecision(9) << now << " LASTRTT " << v << "\n";
    }
    if (!(f->lastSampleTime == now && std::fabs(f->lastSampleMs - v) < 1e-9))
    {
        f->verifyMismatch++;
        if (f->verifyMismatch <= 10)
        {
            std::fprintf(stderr,
                         "verifyRtt flow %u: ns-3 lastRtt=%.6f ms at t=%.9f, ours=%.6f ms at %.9f\n",
                         f->id,
                         v,
                         now,
                         f->lastSampleMs,
                         f->lastSampleTime);
        }
    }
}

void
OnRto(FlowStats* f, Time oldV, Time newV)
{
    // TcpSocketBase::ReTxTimeout doubles m_rto (capped at 60 s) and then
    // empties its RTT history; no other assignment doubles it exactly.
    if (oldV.IsStrictlyPositive() && newV > oldV && newV == Min(oldV + oldV, Seconds(60)))
    {
        f->rtoEvents++;
        f->history.clear();
    }
}

void
OnCwnd(FlowStats* f, uint32_t /*oldV*/, uint32_t newV)
{
    if (f->cwndOut)
    {
        *f->cwndOut << std::fixed << std::setprecision(9) << Simulator::Now().GetSeconds() << ","
                    << f->id << "," << newV << "\n";
    }
}

void
OnCongState(FlowStats* f, TcpSocketState::TcpCongState_t oldV, TcpSocketState::TcpCongState_t newV)
{
    if (newV == TcpSocketState::CA_RECOVERY && oldV != TcpSocketState::CA_RECOVERY)
    {
        f->recoveryEpisodes++;
    }
    if (newV == TcpSocketState::CA_LOSS && oldV != TcpSocketState::CA_LOSS)
    {
        f->lossEpisodes++;
    }
}

std::ofstream* g_rateOut = nullptr; // --rateTrace: every rate sample of flow g_dbgFlow

/// Reads the socket's protected `m_rateOps` (the delivery-rate estimator) to hook its trace.
struct RateOpsPeek : public TcpSocketBase
{
    static Ptr<TcpRateOps> Of(TcpSocketBase* s)
    {
        return static_cast<RateOpsPeek*>(s)->m_rateOps;
    }
};

void
OnRateSample(const TcpRateOps::TcpRateSample& rs)
{
    *g_rateOut << std::fixed << std::setprecision(9) << Simulator::Now().GetSeconds() << " rate="
               << rs.m_deliveryRate.GetBitRate() << " applim=" << rs.m_isAppLimited
               << " delivered=" << rs.m_delivered << " interval=" << rs.m_interval.GetNanoSeconds()
               << " acked=" << rs.m_ackedSacked << " prior_delivered=" << rs.m_priorDelivered
               << "\n";
}

void
HookSocket(FlowStats* f)
{
    Ptr<Socket> s = f->sender->GetSocket();
    NS_ABORT_MSG_IF(!s, "BulkSendApplication socket not created yet");
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(s);
    NS_ABORT_MSG_IF(!tcp, "sender socket is not a TcpSocketBase");
    f->socket = tcp;
    bool ok = true;
    ok &= tcp->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, f));
    ok &= tcp->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, f));
    ok &= tcp->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, f));
    ok &= tcp->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&OnRetx, f));
    ok &= tcp->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, f));
    // The SYN (sent before this hook, ISN 0) is the first history record.
    f->history.push_back(HistEntry{SequenceNumber32(0), 0});
    if (f->cwndOut)
    {
        ok &= tcp->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, f));
    }
    if (f->verify)
    {
        ok &= tcp->TraceConnectWithoutContext("LastRTT", MakeBoundCallback(&OnLastRtt, f));
    }
    if (g_rateOut && f->id == g_dbgFlow)
    {
        ok &= RateOpsPeek::Of(PeekPointer(tcp))
                  ->TraceConnectWithoutContext("TcpRateSampleUpdated", MakeCallback(&OnRateSample));
    }
    NS_ABORT_MSG_IF(!ok, "failed to connect a socket trace source");
}

void
CountDrop(uint64_t* counter, Ptr<const Packet> p)
{
    (*counter)++;
    if (g_dbg && (counter == &g_bottleneckQueueDrops || counter == &g_bottleneckTcDrops))
    {
        // --debugLog: which segment the bottleneck dropped (any flow; the log is for diffing).
        // The device queue holds PPP + IPv4 + TCP; the TC layer drops before the PPP header.
        Ptr<Packet> c = p->Copy();
        if (counter == &g_bottleneckQueueDrops)
        {
            PppHeader ppp;
            c->RemoveHeader(ppp);
        }
        Ipv4Header ip;
        c->RemoveHeader(ip);
        if (!ip.IsLastFragment() || ip.GetFragmentOffset() != 0)
        {
            // An IPv4 fragment (--allowFragments): only the first one holds the TCP header.
            *g_dbg << std::fixed << std::setprecision(9) << Simulator::Now().GetSeconds()
                   << " DROP frag id=" << ip.GetIdentification()
                   << " off=" << ip.GetFragmentOffset() << " bytes=" << c->GetSize() << "\n";
            return;
        }
        TcpHeader tcp;
        c->RemoveHeader(tcp);
        *g_dbg << std::fixed << std::setprecision(9) << Simulator::Now().GetSeconds()
               << " DROP seq=" << tcp.GetSequenceNumber() << " len=" << c->GetSize() << "\n";
    }
}

// ----------------------------------------------------------------------------
// Helpers
// ----------------------------------------------------------------------------

double
Percentile(std::vector<double> v, double p)
{
    // numpy.percentile default ("linear"): rank = p/100 * (n-1), interpolate.
    if (v.empty())
    {
        return std::nan("");
    }
    std::sort(v.begin(), v.end());
    double rank = p / 100.0 * (v.size() - 1);
    size_t lo = static_cast<size_t>(std::floor(rank));
    size_t hi = static_cast<size_t>(std::ceil(rank));
    double frac = rank - lo;
    return v[lo] + (v[hi] - v[lo]) * frac;
}

double
Mean(const std::vector<double>& v)
{
    if (v.empty())
    {
        return std::nan("");
    }
    long double s = 0;
    for (double x : v)
    {
        s += x;
    }
    return static_cast<double>(s / v.size());
}

std::string
Num(double x)
{
    if (std::isnan(x) || std::isinf(x))
    {
        return "null";
    }
    std::ostringstream os;
    os << std::setprecision(10) << x;
    return os.str();
}

std::string
Quote(const std::string& s)
{
    std::string r = "\"";
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            r += '\\';
        }
        r += c;
    }
    return r + "\"";
}

uint64_t
ParseRate(const std::string& s)
{
    // Plain number = bit/s; otherwise an ns-3 DataRate string ("50Mbps").
    bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E';
    });
    if (digits)
    {
        return static_cast<uint64_t>(std::llround(std::stod(s)));
    }
    return DataRate(s).GetBitRate();
}

std::string
FullTypeName(const std::string& n)
{
    return n.rfind("ns3::", 0) == 0 ? n : "ns3::" + n;
}

std::string
ShortTypeName(const std::string& n)
{
    return n.rfind("ns3::", 0) == 0 ? n.substr(5) : n;
}

std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    std::istringstream is(s);
    while (std::getline(is, cur, sep))
    {
        if (!cur.empty())
        {
            out.push_back(cur);
        }
    }
    return out;
}

void
SetBottleneckRate(std::vector<Ptr<PointToPointNetDevice>> devs, uint64_t bps)
{
    for (auto& d : devs)
    {
        d->SetDataRate(DataRate(bps));
    }
}

double
PeakRssMb()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0; // Linux: kilobytes
}

} // namespace

int
main(int argc, char* argv[])
{
    auto wallStart = std::chrono::steady_clock::now();

    uint32_t flows = 1;
    std::string cca = "TcpCubic";
    std::string ccaList = "";
    std::string bottleneckRateS = "100000000";
    double bottleneckDelayMs = 20.0;
    std::string accessRateS = "";
    double accessDelayMs = 0.0;
    int64_t queuePackets = -1;
    uint32_t mss = 1448;
    uint32_t mtu = 0;
    bool allowFragments = false;
    double duration = 60.0;
    double minRtoS = -1.0;
    std::string rateChange = "";
    uint32_t seed = 1;
    double startJitter = 0.0;
    double startTime = 0.0;
    uint32_t sendSize = 0;
    std::string out = "";
    std::string cwndTrace = "";
    bool verifyRtt = false;
    std::string debugLog = "";
    std::string rttOut = "";
    uint64_t bufSizeArg = 0;
    uint64_t minBufArg = 4000000;
    std::string caseName = "";
    bool sack = true;

    CommandLine cmd(__FILE__);
    cmd.AddValue("flows", "number of flows N (sender/receiver pairs)", flows);
    cmd.AddValue("cca", "ns-3 congestion-control TypeId name for all flows (e.g. TcpCubic)", cca);
    cmd.AddValue("ccaList", "optional comma-separated per-flow CCA list (overrides --cca)", ccaList);
    cmd.AddValue("bottleneckRate", "bottleneck rate, bit/s (or ns-3 DataRate string)", bottleneckRateS);
    cmd.AddValue("bottleneckDelay", "bottleneck one-way propagation delay, ms", bottleneckDelayMs);
    cmd.AddValue("accessRate", "access link rate, bit/s (default 10x bottleneck)", accessRateS);
    cmd.AddValue("accessDelay", "access link one-way propagation delay, ms (default 0)", accessDelayMs);
    cmd.AddValue("queuePackets",
                 "bottleneck drop-tail size in packets (default 1 BDP = "
                 "floor(rate*2*(bottleneckDelay+2*accessDelay)/8/(mss+52)))",
                 queuePackets);
    cmd.AddValue("mss", "TcpSocket::SegmentSize, bytes", mss);
    cmd.AddValue("mtu", "PointToPoint device MTU, bytes (default max(1500, mss+52))", mtu);
    cmd.AddValue("allowFragments",
                 "allow an MTU below MSS + 52: IPv4 fragments segments at the sender",
                 allowFragments);
    cmd.AddValue("duration", "simulated time, s", duration);
    cmd.AddValue("minRto", "TcpSocketBase::MinRto, s (default: ns-3 default, 1 s)", minRtoS);
    cmd.AddValue("rateChange",
                 "bottleneck rate changes 't1:rate1,t2:rate2' (s : bit/s or DataRate string)",
                 rateChange);
    cmd.AddValue("seed", "RngRun (ns-3 default 1)", seed);
    cmd.AddValue("startTime", "start time of every BulkSend application, s", startTime);
    cmd.AddValue("startJitter",
                 "if > 0, flow i>0 starts at startTime + U(0, startJitter) s",
                 startJitter);
    cmd.AddValue("sendSize", "BulkSendApplication::SendSize (default: ns-3 default, 512)", sendSize);
    cmd.AddValue("out", "metrics JSON output file", out);
    cmd.AddValue("cwndTrace", "cwnd CSV output file (time_s,flow,cwnd_bytes)", cwndTrace);
    cmd.AddValue("verifyRtt", "cross-check the RTT mirror against the socket's RTT trace", verifyRtt);
    cmd.AddValue("bufSize", "Snd/RcvBufSize, bytes (default max(minBuf, 4*(BDP+queue)))", bufSizeArg);
    cmd.AddValue("minBuf", "lower bound of the default Snd/RcvBufSize, bytes", minBufArg);
    cmd.AddValue("rttOut", "CSV of every RTT sample (time_s,flow,rtt_ms)", rttOut);
    cmd.AddValue("debugLog", "per-segment text log of one flow (large)", debugLog);
    cmd.AddValue("debugFlow", "the flow --debugLog follows (default 0)", g_dbgFlow);
    std::string rateTrace = "";
    cmd.AddValue("rateTrace", "every delivery-rate sample of flow --debugFlow (text)", rateTrace);
    cmd.AddValue("caseName", "free-form case label copied into the JSON", caseName);
    cmd.AddValue("sack", "TcpSocketBase::Sack (SACK option; ns-3 default true)", sack);
    cmd.Parse(argc, argv);

    RngSeedManager::SetRun(seed);
    g_keepRttTimes = !rttOut.empty();

    const uint64_t bottleneckRate = ParseRate(bottleneckRateS);
    const uint64_t accessRate =
        accessRateS.empty() ? 10 * bottleneckRate : ParseRate(accessRateS);
    const uint32_t wireIp = mss + 52; // IP 20 + TCP 20 + TS option 12
    if (mtu == 0)
    {
        mtu = std::max<uint32_t>(1500, wireIp);
    }
    NS_ABORT_MSG_IF(mtu < wireIp && !allowFragments,
                    "MTU too small for MSS + 52: segments would fragment (--allowFragments=1)");
    const double baseRttS = 2.0 * (bottleneckDelayMs + 2.0 * accessDelayMs) / 1e3;
    const double bdpBytes = bottleneckRate * baseRttS / 8.0;
    if (queuePackets < 0)
    {
        queuePackets = static_cast<int64_t>(std::floor(bdpBytes / wireIp));
    }
    const uint64_t queueBytes = static_cast<uint64_t>(queuePackets) * wireIp;
    uint64_t bufSize = bufSizeArg;
    if (bufSize == 0)
    {
        bufSize = std::max<uint64_t>(minBufArg, static_cast<uint64_t>(4.0 * (bdpBytes + queueBytes)));
    }
    const uint32_t bigQueue = 1000000;

    std::vector<std::string> ccas;
    if (!ccaList.empty())
    {
        ccas = Split(ccaList, ',');
        NS_ABORT_MSG_IF(ccas.size() != flows, "--ccaList must have --flows entries");
    }
    else
    {
        ccas.assign(flows, cca);
    }
    for (auto& c : ccas)
    {
        c = ShortTypeName(c);
        TypeId probe;
        NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(FullTypeName(c), &probe),
                        "unknown congestion control " << c);
    }

    std::vector<std::pair<double, uint64_t>> rateChanges;
    for (const auto& item : Split(rateChange, ','))
    {
        auto pos = item.find(':');
        NS_ABORT_MSG_IF(pos == std::string::npos, "bad --rateChange item " << item);
        rateChanges.emplace_back(std::stod(item.substr(0, pos)), ParseRate(item.substr(pos + 1)));
    }

    // --- TCP attributes: ns-3.44 defaults except segment size and buffers.
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(bufSize));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(bufSize));
    if (minRtoS > 0)
    {
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRtoS)));
    }
    // Both ends: with SACK off neither side offers the option (TcpSocketBase::Sack).
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                       TypeIdValue(TypeId::LookupByName(FullTypeName(ccas[0]))));
    if (sendSize > 0)
    {
        Config::SetDefault("ns3::BulkSendApplication::SendSize", UintegerValue(sendSize));
    }

    // --- Nodes
    NodeContainer senders;
    senders.Create(flows);
    NodeContainer receivers;
    receivers.Create(flows);
    NodeContainer routers;
    routers.Create(2);
    Ptr<Node> r1 = routers.Get(0);
    Ptr<Node> r2 = routers.Get(1);

    InternetStackHelper stack;
    stack.InstallAll();
    for (uint32_t i = 0; i < flows; ++i)
    {
        senders.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(TypeId::LookupByName(FullTypeName(ccas[i]))));
    }

    // --- Links
    PointToPointHelper accessLink;
    accessLink.SetDeviceAttribute("DataRate", DataRateValue(DataRate(accessRate)));
    accessLink.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    accessLink.SetChannelAttribute("Delay", TimeValue(MicroSeconds(std::llround(accessDelayMs * 1e3))));
    accessLink.SetQueue("ns3::DropTailQueue",
                        "MaxSize",
                        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bigQueue)));

    PointToPointHelper bottleneckLink;
    bottleneckLink.SetDeviceAttribute("DataRate", DataRateValue(DataRate(bottleneckRate)));
    bottleneckLink.SetDeviceAttribute("Mtu", UintegerValue(mtu));
    bottleneckLink.SetChannelAttribute("Delay",
                                       TimeValue(MicroSeconds(std::llround(bottleneckDelayMs * 1e3))));
    bottleneckLink.SetQueue("ns3::DropTailQueue",
                            "MaxSize",
                            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bigQueue)));

    NetDeviceContainer bnDevs = bottleneckLink.Install(r1, r2);
    std::vector<NetDeviceContainer> leftDevs;
    std::vector<NetDeviceContainer> rightDevs;
    for (uint32_t i = 0; i < flows; ++i)
    {
        leftDevs.push_back(accessLink.Install(senders.Get(i), r1));
        rightDevs.push_back(accessLink.Install(r2, receivers.Get(i)));
    }

    // --- Addresses
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    addr.Assign(bnDevs);
    std::vector<Ipv4InterfaceContainer> rightIfs;
    for (uint32_t i = 0; i < flows; ++i)
    {
        std::ostringstream l;
        l << "10.1." << i << ".0";
        addr.SetBase(l.str().c_str(), "255.255.255.0");
        addr.Assign(leftDevs[i]);
        std::ostringstream r;
        r << "10.2." << i << ".0";
        addr.SetBase(r.str().c_str(), "255.255.255.0");
        rightIfs.push_back(addr.Assign(rightDevs[i]));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    // --- Remove every queue disc: the device queues are the only buffers.
    TrafficControlHelper tch;
    tch.Uninstall(bnDevs);
    for (uint32_t i = 0; i < flows; ++i)
    {
        tch.Uninstall(leftDevs[i]);
        tch.Uninstall(rightDevs[i]);
    }

    // --- The bottleneck queue: R1's device on the R1-R2 link.
    Ptr<PointToPointNetDevice> bnFwd = DynamicCast<PointToPointNetDevice>(bnDevs.Get(0));
    Ptr<PointToPointNetDevice> bnRev = DynamicCast<PointToPointNetDevice>(bnDevs.Get(1));
    bnFwd->GetQueue()->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, queuePackets));
    bnFwd->GetQueue()->TraceConnectWithoutContext("Drop",
                                                  MakeBoundCallback(&CountDrop, &g_bottleneckQueueDrops));
    {
        bool ok = r1->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            MakeBoundCallback(&CountDrop, &g_bottleneckTcDrops));
        NS_ABORT_MSG_IF(!ok, "no TrafficControlLayer Drop trace");
    }
    // Every other device queue and TC layer: count drops to prove there are none.
    {
        std::vector<Ptr<NetDevice>> others{bnRev};
        for (uint32_t i = 0; i < flows; ++i)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                others.push_back(leftDevs[i].Get(k));
                others.push_back(rightDevs[i].Get(k));
            }
        }
        for (auto& d : others)
        {
            DynamicCast<PointToPointNetDevice>(d)->GetQueue()->TraceConnectWithoutContext(
                "Drop",
                MakeBoundCallback(&CountDrop, &g_otherQueueDrops));
        }
        for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
        {
            Ptr<Node> node = NodeList::GetNode(n);
            if (node != r1)
            {
                node->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
                    "TcDrop",
                    MakeBoundCallback(&CountDrop, &g_otherTcDrops));
            }
        }
    }

    for (const auto& rc : rateChanges)
    {
        Simulator::Schedule(Seconds(rc.first),
                            &SetBottleneckRate,
                            std::vector<Ptr<PointToPointNetDevice>>{bnFwd, bnRev},
                            rc.second);
    }

    // --- Applications
    std::ofstream cwndOut;
    if (!cwndTrace.empty())
    {
        cwndOut.open(cwndTrace);
        cwndOut << "time_s,flow,cwnd_bytes\n";
    }
    std::ofstream rateOut;
    if (!rateTrace.empty())
    {
        rateOut.open(rateTrace);
        g_rateOut = &rateOut;
    }
    std::ofstream dbgOut;
    if (!debugLog.empty())
    {
        dbgOut.open(debugLog);
        g_dbg = &dbgOut;
    }
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    g_flows.resize(flows);
    const uint16_t port = 5000;
    for (uint32_t i = 0; i < flows; ++i)
    {
        FlowStats& f = g_flows[i];
        f.id = i;
        f.cca = ccas[i];
        f.verify = verifyRtt;
        f.cwndOut = cwndTrace.empty() ? nullptr : &cwndOut;
        f.startTime = startTime;
        if (startJitter > 0 && i > 0)
        {
            f.startTime += jitter->GetValue(0.0, startJitter);
        }

        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sinkHelper.Install(receivers.Get(i));
        sinkApp.Start(Seconds(0.0));
        f.sink = DynamicCast<PacketSink>(sinkApp.Get(0));

        BulkSendHelper src("ns3::TcpSocketFactory",
                           InetSocketAddress(rightIfs[i].GetAddress(1), port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer srcApp = src.Install(senders.Get(i));
        srcApp.Start(Seconds(f.startTime));
        f.sender = DynamicCast<BulkSendApplication>(srcApp.Get(0));
        // The socket exists only after StartApplication; hook it 1 ns later
        // (before the SYN-ACK can return, so no data segment or ACK is missed).
        Simulator::Schedule(Seconds(f.startTime) + NanoSeconds(1), &HookSocket, &f);
    }

    auto setupEnd = std::chrono::steady_clock::now();
    Simulator::Schedule(MilliSeconds(100), &SampleRxBins, duration);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    auto runEnd = std::chrono::steady_clock::now();
    for (auto& f : g_flows)
    {
        f.rxBins.push_back(f.sink->GetTotalRx());
    }
    const uint64_t events = Simulator::GetEventCount();

    const double runWall = std::chrono::duration<double>(runEnd - setupEnd).count();

    // --- Metrics
    std::ostringstream js;
    js << std::setprecision(10);
    js << "{\n";
    js << "  \"simulator\": \"ns-3.44\",\n";
    js << "  \"scenario\": {";
    js << "\"case\": " << Quote(caseName) << ", ";
    js << "\"sack\": " << (sack ? "true" : "false") << ", ";
    js << "\"flows\": " << flows << ", ";
    js << "\"cca\": " << Quote(ShortTypeName(cca)) << ", ";
    js << "\"cca_list\": [";
    for (uint32_t i = 0; i < flows; ++i)
    {
        js << (i ? ", " : "") << Quote(ccas[i]);
    }
    js << "], ";
    js << "\"bottleneck_rate_bps\": " << bottleneckRate << ", ";
    js << "\"bottleneck_delay_ms\": " << Num(bottleneckDelayMs) << ", ";
    js << "\"access_rate_bps\": " << accessRate << ", ";
    js << "\"access_delay_ms\": " << Num(accessDelayMs) << ", ";
    js << "\"base_rtt_ms\": " << Num(baseRttS * 1e3) << ", ";
    js << "\"queue_packets\": " << queuePackets << ", ";
    js << "\"queue_bytes_at_full_mss\": " << queueBytes << ", ";
    js << "\"bdp_bytes\": " << Num(bdpBytes) << ", ";
    js << "\"mss\": " << mss << ", ";
    js << "\"mtu\": " << mtu << ", ";
    js << "\"snd_rcv_buf_bytes\": " << bufSize << ", ";
    js << "\"duration_s\": " << Num(duration) << ", ";
    js << "\"min_rto_s\": " << (minRtoS > 0 ? Num(minRtoS) : "1") << ", ";
    js << "\"rate_change\": [";
    for (size_t k = 0; k < rateChanges.size(); ++k)
    {
        js << (k ? ", " : "") << "[" << Num(rateChanges[k].first) << ", " << rateChanges[k].second
           << "]";
    }
    js << "], ";
    js << "\"seed\": " << seed << ", ";
    js << "\"start_time_s\": " << Num(startTime) << ", ";
    js << "\"start_jitter_s\": " << Num(startJitter) << ", ";
    js << "\"send_size\": " << (sendSize > 0 ? sendSize : 512) << "},\n";

    std::vector<double> goodputs;
    double total = 0;
    js << "  \"flows\": [\n";
    for (uint32_t i = 0; i < flows; ++i)
    {
        FlowStats& f = g_flows[i];
        double span = duration - f.startTime;
        double gp = f.sink->GetTotalRx() * 8.0 / span / 1e6;
        goodputs.push_back(gp);
        total += gp;
        js << "    {\"id\": " << i << ", \"cca\": " << Quote(f.cca)
           << ", \"start_s\": " << Num(f.startTime) << ", \"goodput_mbps\": " << Num(gp)
           << ", \"rx_bytes\": " << f.sink->GetTotalRx()
           << ", \"rtt_mean_ms\": " << Num(Mean(f.rttMs))
           << ", \"rtt_p50_ms\": " << Num(Percentile(f.rttMs, 50))
           << ", \"rtt_p95_ms\": " << Num(Percentile(f.rttMs, 95))
           << ", \"rtt_min_ms\": " << Num(Percentile(f.rttMs, 0))
           << ", \"rtt_max_ms\": " << Num(Percentile(f.rttMs, 100))
           << ", \"rtt_samples\": " << f.rttMs.size() << ", \"retx_segments\": " << f.retxSegments
           << ", \"retx_trace_segments\": " << f.retxTrace << ", \"fct_s\": null, \"tx_segments\": " << f.txSegments
           << ", \"tx_bytes\": " << f.txBytes << ", \"ack_segments\": " << f.ackSegments
           << ", \"non_advancing_acks\": " << f.dupAckLike
           << ", \"recovery_episodes\": " << f.recoveryEpisodes
           << ", \"rto_episodes\": " << f.lossEpisodes << ", \"rto_events\": " << f.rtoEvents
           << ", \"advancing_acks_without_rtt_sample\": " << f.advancesWithoutSample
           << ", \"first_data_tx_s\": " << Num(f.firstDataTxTime)
           << ", \"first_rtt_sample_s\": " << Num(f.firstRttTime)
           << ", \"rx_bytes_100ms\": [";
        for (size_t b = 0; b < f.rxBins.size(); ++b)
        {
            js << (b ? "," : "") << f.rxBins[b];
        }
        js << "], \"ack_tcp_header_bytes\": {";
        bool first = true;
        for (const auto& kv : f.ackHdrHist)
        {
            js << (first ? "" : ", ") << "\"" << kv.first << "\": " << kv.second;
            first = false;
        }
        js << "}";
        if (verifyRtt)
        {
            js << ", \"verify_rtt\": {\"changes\": " << f.verifyChanges
               << ", \"mismatches\": " << f.verifyMismatch
               << ", \"samples_not_taken_by_ns3\": " << f.verifyReverse << "}";
        }
        js << "}" << (i + 1 < flows ? "," : "") << "\n";
    }
    js << "  ],\n";
    double s1 = 0;
    double s2 = 0;
    for (double g : goodputs)
    {
        s1 += g;
        s2 += g * g;
    }
    double jain = s2 > 0 ? s1 * s1 / (goodputs.size() * s2) : std::nan("");
    js << "  \"total_goodput_mbps\": " << Num(total) << ",\n";
    js << "  \"jain_index\": " << Num(jain) << ",\n";
    js << "  \"queues\": [{\"id\": \"bottleneck\", \"drops\": "
       << (g_bottleneckQueueDrops + g_bottleneckTcDrops)
       << ", \"device_queue_drops\": " << g_bottleneckQueueDrops
       << ", \"tc_layer_drops\": " << g_bottleneckTcDrops << "}, {\"id\": \"other\", \"drops\": "
       << (g_otherQueueDrops + g_otherTcDrops) << "}],\n";
    js << "  \"events\": " << events << ",\n";
    auto wallEnd = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(wallEnd - wallStart).count();
    js << "  \"wall_s\": " << Num(wall) << ",\n";
    js << "  \"run_wall_s\": " << Num(runWall) << ",\n";
    js << "  \"events_per_s\": " << Num(events / runWall) << ",\n";
    js << "  \"peak_rss_mb\": " << Num(PeakRssMb()) << "\n";
    js << "}\n";

    if (out.empty())
    {
        std::cout << js.str();
    }
    else
    {
        std::ofstream o(out);
        o << js.str();
        std::cerr << "wrote " << out << "\n";
    }
    if (!rttOut.empty())
    {
        std::ofstream ro(rttOut);
        ro << "time_s,flow,rtt_ms\n";
        for (const auto& f : g_flows)
        {
            for (size_t k = 0; k < f.rttMs.size(); ++k)
            {
                ro << std::fixed << std::setprecision(9) << f.rttTimes[k] << "," << f.id << ","
                   << std::setprecision(3) << f.rttMs[k] << "\n";
            }
        }
    }
    if (cwndOut.is_open())
    {
        cwndOut.close();
    }
    Simulator::Destroy();
    return 0;
}
