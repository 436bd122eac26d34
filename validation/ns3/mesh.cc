// ccsim validation: ns-3.44 reference for the seed 004 mesh grid with OLSR (issue 14).
//
// The scenario is defined in validation/ns3/mesh/SCENARIO.md (the contract shared with
// ccsim's [mesh] scenario); validation/ns3/README.md ("Mesh reference") says what is
// measured and how. In short:
//
//   S --10G-- G ==1G== R0, R2, R4        5x5 grid of routers R0..R24, 500 Mb/s, 4 ms
//                      R_i --cell link-- C_i --10G-- UEs of cell i (UE k in cell k mod 25)
//
// OLSR runs on G and every R_i, on their mesh interfaces only; R_i announces its cell's
// network and G the server's network with HNA. S, C_i and the UEs use static routes, and
// there is no global routing, so packets into the mesh are dropped until OLSR knows a route.
// One 10 MB TCP download (BulkSend) from S to every UE; flow k starts at 1 s + k * 10 ms.
//
// Output: a JSON metrics file (--out); optional per-flow CSV traces (--cwndTrace, --rttOut).
//
// Written for the ccsim project; uses only the public ns-3.44 API.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/olsr-module.h"
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
#include <set>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t kRouters = 25;
constexpr uint32_t kGridSide = 5;
constexpr uint16_t kPort = 5000;
constexpr uint16_t kOlsrPort = 698;

// ----------------------------------------------------------------------------
// Per-flow measurement state
// ----------------------------------------------------------------------------

// Mirror of TcpSocketBase::m_history (ns-3.44), as in dumbbell.cc: one record per first
// transmission (the SYN with length 0, then each new data segment). An RTT sample is taken
// on an ACK that covers the oldest record (validation/ns3/README.md, "RTT samples").
struct HistEntry
{
    SequenceNumber32 seq;
    uint32_t count;
};

struct FlowStats
{
    uint32_t id{0};
    uint32_t cell{0};
    double startTime{0.0};
    Ptr<BulkSendApplication> sender;
    Ptr<PacketSink> sink;

    std::vector<double> synTimes; // every SYN the sender transmitted (s)
    double establishedTime{-1};   // SYN-ACK arrival at the sender
    double finishAt{-1};          // absolute time the last byte reached the UE
    uint64_t rxBytes{0};

    bool anyTx{false};
    SequenceNumber32 highTx{0};
    uint64_t txSegments{0};
    uint64_t retxSegments{0};
    uint64_t rtoEvents{0};

    std::deque<HistEntry> history;
    std::vector<double> rttMs;
    std::vector<double> rttTimes; // only with --rttOut
    std::ofstream* cwndOut{nullptr};
};

std::vector<FlowStats> g_flows;
uint32_t g_unfinished = 0;
uint64_t g_fileBytes = 10000000;
bool g_keepRttTimes = false;

// OLSR control traffic, measured on the wire of the routers' devices.
uint64_t g_olsrIpBytes = 0;
uint64_t g_olsrPackets = 0;
uint64_t g_olsrIpBytesAtConvergence = 0;
uint64_t g_olsrFragments = 0;              // IPv4 fragments among g_olsrPackets
std::set<uint64_t> g_olsrFragmentedIds;    // (source << 16 | id) of fragmented OLSR packets
// OLSR's own Tx trace: messages by type (originated or forwarded), and the IP bytes it
// hands to its sockets (one copy per OLSR interface) as a cross-check of the device count.
std::map<int, uint64_t> g_olsrMessages;
uint64_t g_olsrTraceIpBytes = 0;

// Ipv4L3Protocol drops.
uint64_t g_noRouteDrops = 0;
uint64_t g_noRouteDropsTcp = 0;
std::map<std::string, uint64_t> g_noRouteDropsByNode;
uint64_t g_otherIpDrops = 0;
// Queue drops (device queue + traffic-control layer; see README.md "Queues").
uint64_t g_queueDrops = 0;

// Convergence polling.
struct Router
{
    std::string name;
    Ptr<Node> node;
    Ptr<olsr::RoutingProtocol> olsr;
    uint32_t olsrInterfaces{0};
    double completeAt{-1}; // first poll at which it had a route to every HNA network
    std::vector<double> knownAt; // per g_hnaProbes entry: first poll with a route to it
};

std::vector<Router> g_routers;
std::vector<std::pair<std::string, Ipv4Address>> g_hnaProbes; // a host in each HNA network
double g_pollS = 0.01;
double g_convergence = -1;
uint64_t g_polls = 0;

// ----------------------------------------------------------------------------
// Traces
// ----------------------------------------------------------------------------

void
OnTx(FlowStats* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if ((h.GetFlags() & TcpHeader::SYN) && !(h.GetFlags() & TcpHeader::ACK))
    {
        f->synTimes.push_back(Simulator::Now().GetSeconds());
        return;
    }
    const uint32_t sz = p->GetSize();
    if (sz == 0)
    {
        return;
    }
    const SequenceNumber32 seq = h.GetSequenceNumber();
    f->txSegments++;
    if (f->anyTx && seq < f->highTx)
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
    const SequenceNumber32 end = seq + SequenceNumber32(sz);
    if (!f->anyTx || end > f->highTx)
    {
        f->highTx = end;
    }
    f->anyTx = true;
}

void
OnRx(FlowStats* f, Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (!(h.GetFlags() & TcpHeader::ACK) || p->GetSize() != 0)
    {
        return;
    }
    const double now = Simulator::Now().GetSeconds();
    if ((h.GetFlags() & TcpHeader::SYN) && f->establishedTime < 0)
    {
        f->establishedTime = now;
    }
    const SequenceNumber32 ack = h.GetAckNumber();
    if (f->history.empty())
    {
        return;
    }
    const HistEntry& front = f->history.front();
    if (ack >= front.seq + SequenceNumber32(front.count) && h.HasOption(TcpOption::TS))
    {
        auto ts = DynamicCast<const TcpOptionTS>(h.GetOption(TcpOption::TS));
        Time m = TcpOptionTS::ElapsedTimeFromTsValue(ts->GetEcho());
        if (m.IsZero())
        {
            m = MicroSeconds(1);
        }
        f->rttMs.push_back(m.GetSeconds() * 1e3);
        if (g_keepRttTimes)
        {
            f->rttTimes.push_back(now);
        }
    }
    while (!f->history.empty() &&
           f->history.front().seq + SequenceNumber32(f->history.front().count) <= ack)
    {
        f->history.pop_front();
    }
}

void
OnRto(FlowStats* f, Time oldV, Time newV)
{
    // TcpSocketBase::ReTxTimeout doubles m_rto (capped at 60 s) and empties its RTT history.
    // Before the connection is established m_rto follows the SYN back-off (3, 6, 12, ... s),
    // which does not touch the history, so only count doublings after the SYN-ACK.
    if (f->establishedTime < 0)
    {
        return;
    }
    if (oldV.IsStrictlyPositive() && newV > oldV && newV == Min(oldV + oldV, Seconds(60)))
    {
        f->rtoEvents++;
        f->history.clear();
    }
}

void
OnCwnd(FlowStats* f, uint32_t, uint32_t newV)
{
    *f->cwndOut << std::fixed << std::setprecision(9) << Simulator::Now().GetSeconds() << ","
                << f->id << "," << newV << "\n";
}

void
HookSocket(FlowStats* f)
{
    Ptr<TcpSocketBase> tcp = DynamicCast<TcpSocketBase>(f->sender->GetSocket());
    NS_ABORT_MSG_IF(!tcp, "sender socket is not a TcpSocketBase");
    bool ok = true;
    ok &= tcp->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, f));
    ok &= tcp->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, f));
    ok &= tcp->TraceConnectWithoutContext("RTO", MakeBoundCallback(&OnRto, f));
    if (f->cwndOut)
    {
        ok &= tcp->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, f));
    }
    NS_ABORT_MSG_IF(!ok, "failed to connect a socket trace source");
    // The first SYN left in StartApplication (Connect), 1 ns before this hook; it is the
    // first history record (ISN 0).
    f->synTimes.push_back(f->startTime);
    f->history.push_back(HistEntry{SequenceNumber32(0), 0});
}

void
OnSinkRx(FlowStats* f, Ptr<const Packet> p, const Address&)
{
    f->rxBytes += p->GetSize();
    if (f->finishAt < 0 && f->rxBytes >= g_fileBytes)
    {
        f->finishAt = Simulator::Now().GetSeconds();
        if (--g_unfinished == 0)
        {
            Simulator::Stop();
        }
    }
}

void
OnMacTx(Ptr<const Packet> p)
{
    // PointToPointNetDevice::Send fires MacTx after adding its 2-byte PPP header.
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    c->RemoveHeader(ppp);
    Ipv4Header ip;
    c->RemoveHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    // OLSR packets above the MTU (up to 64 messages each) leave as IPv4 fragments; only the
    // first carries the UDP header, so the others are recognised by (source, identification).
    const uint64_t key = (uint64_t{ip.GetSource().Get()} << 16) | ip.GetIdentification();
    bool olsrPacket;
    if (ip.GetFragmentOffset() == 0)
    {
        UdpHeader udp;
        c->PeekHeader(udp);
        olsrPacket = udp.GetDestinationPort() == kOlsrPort;
        if (olsrPacket && !ip.IsLastFragment())
        {
            g_olsrFragmentedIds.insert(key);
        }
    }
    else
    {
        olsrPacket = g_olsrFragmentedIds.count(key) > 0;
    }
    if (olsrPacket)
    {
        g_olsrPackets++;
        g_olsrIpBytes += p->GetSize() - ppp.GetSerializedSize();
        if (ip.GetFragmentOffset() != 0 || !ip.IsLastFragment())
        {
            g_olsrFragments++;
        }
    }
}

void
OnOlsrTx(uint32_t copies, const olsr::PacketHeader& h, const olsr::MessageList& msgs)
{
    for (const auto& m : msgs)
    {
        g_olsrMessages[m.GetMessageType()] += copies;
    }
    g_olsrTraceIpBytes += copies * (h.GetPacketLength() + 8 + 20);
}

void
OnIpDrop(std::string node,
         const Ipv4Header& h,
         Ptr<const Packet>,
         Ipv4L3Protocol::DropReason reason,
         Ptr<Ipv4>,
         uint32_t)
{
    if (reason == Ipv4L3Protocol::DROP_NO_ROUTE)
    {
        g_noRouteDrops++;
        g_noRouteDropsByNode[node]++;
        if (h.GetProtocol() == TcpL4Protocol::PROT_NUMBER)
        {
            g_noRouteDropsTcp++;
        }
    }
    else
    {
        g_otherIpDrops++;
    }
}

void
CountQueueDrop(Ptr<const Packet>)
{
    g_queueDrops++;
}

// True if `node`'s routing (OLSR, then static) gives a route towards `dst`.
bool
HasRoute(Ptr<Node> node, Ipv4Address dst)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    Ipv4Header h;
    h.SetDestination(dst);
    h.SetProtocol(TcpL4Protocol::PROT_NUMBER);
    Socket::SocketErrno err;
    Ptr<Packet> probe = Create<Packet>();
    return ipv4->GetRoutingProtocol()->RouteOutput(probe, h, nullptr, err) != nullptr;
}

// Every g_pollS: does every router have a route to every HNA network? Stops at the first
// poll where they all do (the convergence time).
void
PollRoutes()
{
    g_polls++;
    const double now = Simulator::Now().GetSeconds();
    bool all = true;
    for (auto& r : g_routers)
    {
        // Every probe is asked (no early exit) so that each router's first-known time per
        // network is recorded: the start-up study compares them with ccsim's.
        r.knownAt.resize(g_hnaProbes.size(), -1);
        bool complete = true;
        for (size_t p = 0; p < g_hnaProbes.size(); ++p)
        {
            if (HasRoute(r.node, g_hnaProbes[p].second))
            {
                if (r.knownAt[p] < 0)
                {
                    r.knownAt[p] = now;
                }
            }
            else
            {
                complete = false;
            }
        }
        if (complete && r.completeAt < 0)
        {
            r.completeAt = now;
        }
        all &= complete;
    }
    if (all)
    {
        g_convergence = now;
        g_olsrIpBytesAtConvergence = g_olsrIpBytes;
        return;
    }
    Simulator::Schedule(Seconds(g_pollS), &PollRoutes);
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
    const double rank = p / 100.0 * (v.size() - 1);
    const auto lo = static_cast<size_t>(std::floor(rank));
    const auto hi = static_cast<size_t>(std::ceil(rank));
    return v[lo] + (v[hi] - v[lo]) * (rank - lo);
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
    // Plain number = bit/s; otherwise an ns-3 DataRate string ("350Mbps").
    const bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E';
    });
    return digits ? static_cast<uint64_t>(std::llround(std::stod(s))) : DataRate(s).GetBitRate();
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

double
PeakRssMb()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

// User + system CPU time of this process: on a shared machine the wall time depends on the
// other jobs, the CPU time much less.
double
CpuSeconds()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

// Drop-tail size of 1 BDP in 1500 B packets, rounded up (SCENARIO.md, "Links").
uint32_t
BdpPackets(uint64_t bps, double delayMs)
{
    return static_cast<uint32_t>(std::ceil(bps * delayMs / 1e3 / 8.0 / 1500.0 - 1e-9));
}

Ipv4Address
Addr(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    return Ipv4Address((a << 24) | (b << 16) | (c << 8) | d);
}

struct LinkSpec
{
    std::string kind;
    uint64_t rate;
    double delayMs;
    uint32_t queue;
};

} // namespace

int
main(int argc, char* argv[])
{
    const auto wallStart = std::chrono::steady_clock::now();

    uint32_t ues = 25;
    uint32_t seed = 1;
    std::string cca = "TcpCubic";
    std::string cellRateS = "350000000";
    double duration = 200.0;
    double pollMs = 10.0;
    uint64_t bufSize = 4000000;
    std::string out;
    std::string cwndTrace;
    std::string rttOut;
    std::string caseName;

    CommandLine cmd(__FILE__);
    cmd.AddValue("ues", "number of UEs N (UE k in cell k mod 25, flow k starts at 1 s + k*10 ms)", ues);
    cmd.AddValue("seed", "RngRun (ns-3 default 1)", seed);
    cmd.AddValue("cca", "ns-3 congestion-control TypeId name (e.g. TcpCubic)", cca);
    cmd.AddValue("cellRate",
                 "R_i-C_i shared cell link rate, bit/s or DataRate string "
                 "(preset paper 350 Mb/s = default, lena 37 Mb/s)",
                 cellRateS);
    cmd.AddValue("fileBytes", "bytes per download (BulkSend MaxBytes)", g_fileBytes);
    cmd.AddValue("duration", "end of the run if some flow has not finished, s", duration);
    cmd.AddValue("pollMs", "OLSR route poll interval, ms", pollMs);
    cmd.AddValue("bufSize", "TcpSocket SndBufSize and RcvBufSize, bytes", bufSize);
    cmd.AddValue("out", "metrics JSON output file (default: stdout)", out);
    cmd.AddValue("cwndTrace", "per-flow cwnd CSV (time_s,flow,cwnd_bytes)", cwndTrace);
    cmd.AddValue("rttOut", "per-flow RTT sample CSV (time_s,flow,rtt_ms)", rttOut);
    cmd.AddValue("caseName", "free-form case label copied into the JSON", caseName);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(ues == 0, "--ues must be at least 1");
    RngSeedManager::SetRun(seed);
    g_keepRttTimes = !rttOut.empty();
    g_pollS = pollMs / 1e3;
    cca = ShortTypeName(cca);
    TypeId ccaTid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(FullTypeName(cca), &ccaTid),
                    "unknown congestion control " << cca);
    const uint64_t cellRate = ParseRate(cellRateS);

    // --- TCP: the dumbbell reference's settings (ns-3.44 defaults except MSS and buffers).
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(bufSize));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(bufSize));
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(ccaTid));

    // --- Nodes (ids in this order: S, G, R0..R24, C0..C24, U0..U{N-1}).
    Ptr<Node> server = CreateObject<Node>();
    Ptr<Node> gw = CreateObject<Node>();
    NodeContainer routers;
    routers.Create(kRouters);
    NodeContainer cells;
    cells.Create(kRouters);
    NodeContainer ueNodes;
    ueNodes.Create(ues);

    // OLSR (then static routes) on G and the routers; static routes only elsewhere.
    OlsrHelper olsrHelper;
    Ipv4StaticRoutingHelper staticHelper;
    Ipv4ListRoutingHelper meshRouting;
    meshRouting.Add(staticHelper, 0);
    meshRouting.Add(olsrHelper, 10);
    InternetStackHelper meshStack;
    meshStack.SetRoutingHelper(meshRouting);
    meshStack.Install(gw);
    meshStack.Install(routers);
    InternetStackHelper hostStack;
    hostStack.SetRoutingHelper(staticHelper);
    hostStack.Install(server);
    hostStack.Install(cells);
    hostStack.Install(ueNodes);

    // --- Links. Mesh links are created (and numbered) first, so that every OLSR node's
    // first interface, hence its OLSR main address, is a mesh interface.
    const LinkSpec sg{"server", 10000000000ULL, 5.0, BdpPackets(10000000000ULL, 5.0)};
    const LinkSpec gr{"gateway", 1000000000ULL, 0.5, BdpPackets(1000000000ULL, 0.5)};
    const LinkSpec grid{"grid", 500000000ULL, 4.0, BdpPackets(500000000ULL, 4.0)};
    const LinkSpec cell{"cell", cellRate, 1.0, 100};
    const LinkSpec ue{"ue", 10000000000ULL, 0.0, 100};

    std::vector<Ptr<NetDevice>> allDevices;
    std::vector<Ptr<NetDevice>> meshDevices; // devices on G-R and R-R links (OLSR sends here)
    auto connect = [&](const LinkSpec& l, Ptr<Node> a, Ptr<Node> b) {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(l.rate)));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(1500));
        p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(std::llround(l.delayMs * 1e3))));
        p2p.SetQueue("ns3::DropTailQueue",
                     "MaxSize",
                     QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, l.queue)));
        NetDeviceContainer d = p2p.Install(a, b);
        allDevices.push_back(d.Get(0));
        allDevices.push_back(d.Get(1));
        return d;
    };
    Ipv4AddressHelper addr;
    auto assign = [&](NetDeviceContainer d, Ipv4Address net) {
        addr.SetBase(net, "255.255.255.0");
        return addr.Assign(d);
    };

    // G-R0, G-R2, G-R4: 10.1.x.0/24.
    const uint32_t gwRouters[] = {0, 2, 4};
    for (uint32_t k = 0; k < 3; ++k)
    {
        auto d = connect(gr, gw, routers.Get(gwRouters[k]));
        meshDevices.push_back(d.Get(0));
        meshDevices.push_back(d.Get(1));
        assign(d, Addr(10, 1, k, 0));
    }
    // Grid: R_i-R_i+1 in each row, then R_i-R_i+5 in each column: 10.2.x.0/24.
    uint32_t gridLinks = 0;
    for (uint32_t i = 0; i < kRouters; ++i)
    {
        if (i % kGridSide + 1 < kGridSide)
        {
            auto d = connect(grid, routers.Get(i), routers.Get(i + 1));
            meshDevices.push_back(d.Get(0));
            meshDevices.push_back(d.Get(1));
            assign(d, Addr(10, 2, gridLinks++, 0));
        }
    }
    for (uint32_t i = 0; i + kGridSide < kRouters; ++i)
    {
        auto d = connect(grid, routers.Get(i), routers.Get(i + kGridSide));
        meshDevices.push_back(d.Get(0));
        meshDevices.push_back(d.Get(1));
        assign(d, Addr(10, 2, gridLinks++, 0));
    }
    NS_ABORT_MSG_IF(gridLinks != 40, "grid must have 40 links");
    // S-G: the server's network 10.0.0.0/24 (G .1, S .2).
    auto sgDev = connect(sg, gw, server);
    assign(sgDev, Addr(10, 0, 0, 0));
    const Ipv4Address serverAddr = Addr(10, 0, 0, 2);
    // Cell i's network 10.(100+i).0.0/16: R_i-C_i is 10.(100+i).0.0/24 (R .1, C .2),
    // C_i-U_k is 10.(100+i).(j+1).0/24 (C .1, U .2) for the j-th UE of the cell.
    std::vector<Ptr<NetDevice>> cellDevOnRouter(kRouters);
    for (uint32_t i = 0; i < kRouters; ++i)
    {
        auto d = connect(cell, routers.Get(i), cells.Get(i));
        cellDevOnRouter[i] = d.Get(0);
        assign(d, Addr(10, 100 + i, 0, 0));
    }
    std::vector<Ipv4Address> ueAddr(ues);
    for (uint32_t k = 0; k < ues; ++k)
    {
        const uint32_t c = k % kRouters;
        const uint32_t j = k / kRouters;
        NS_ABORT_MSG_IF(j + 1 > 255, "too many UEs per cell for the address plan");
        auto d = connect(ue, cells.Get(c), ueNodes.Get(k));
        assign(d, Addr(10, 100 + c, j + 1, 0));
        ueAddr[k] = Addr(10, 100 + c, j + 1, 2);
    }

    // --- No queue discs: the device drop-tail FIFOs are the only buffers (as dumbbell.cc).
    TrafficControlHelper tch;
    for (auto& d : allDevices)
    {
        tch.Uninstall(d);
        DynamicCast<PointToPointNetDevice>(d)->GetQueue()->TraceConnectWithoutContext(
            "Drop",
            MakeCallback(&CountQueueDrop));
    }

    // --- Static routes.
    auto staticOf = [&](Ptr<Node> n) { return staticHelper.GetStaticRouting(n->GetObject<Ipv4>()); };
    staticOf(server)->SetDefaultRoute(Addr(10, 0, 0, 1), 1);
    for (uint32_t i = 0; i < kRouters; ++i)
    {
        Ptr<Ipv4> rIp = routers.Get(i)->GetObject<Ipv4>();
        const uint32_t ifc = rIp->GetInterfaceForDevice(cellDevOnRouter[i]);
        staticOf(routers.Get(i))
            ->AddNetworkRouteTo(Addr(10, 100 + i, 0, 0), Ipv4Mask("255.255.0.0"), Addr(10, 100 + i, 0, 2), ifc);
        // C_i: its UEs are on its connected /24s; everything else goes to R_i.
        staticOf(cells.Get(i))->SetDefaultRoute(Addr(10, 100 + i, 0, 1), 1);
    }
    for (uint32_t k = 0; k < ues; ++k)
    {
        const uint32_t c = k % kRouters;
        staticOf(ueNodes.Get(k))->SetDefaultRoute(Addr(10, 100 + c, k / kRouters + 1, 1), 1);
    }

    // --- OLSR: exclude every non-mesh interface, announce the HNA networks.
    auto olsrOf = [](Ptr<Node> n) {
        Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(n->GetObject<Ipv4>()->GetRoutingProtocol());
        NS_ABORT_MSG_IF(!list, "OLSR node without list routing");
        for (uint32_t p = 0; p < list->GetNRoutingProtocols(); ++p)
        {
            int16_t prio;
            Ptr<olsr::RoutingProtocol> o =
                DynamicCast<olsr::RoutingProtocol>(list->GetRoutingProtocol(p, prio));
            if (o)
            {
                return o;
            }
        }
        NS_ABORT_MSG("no OLSR on node " << n->GetId());
        return Ptr<olsr::RoutingProtocol>();
    };
    std::set<Ptr<NetDevice>> meshSet(meshDevices.begin(), meshDevices.end());
    auto setupOlsr = [&](const std::string& name, Ptr<Node> n) {
        Router r;
        r.name = name;
        r.node = n;
        r.olsr = olsrOf(n);
        Ptr<Ipv4> ip = n->GetObject<Ipv4>();
        std::set<uint32_t> excluded;
        for (uint32_t ifc = 1; ifc < ip->GetNInterfaces(); ++ifc)
        {
            if (meshSet.count(ip->GetNetDevice(ifc)))
            {
                r.olsrInterfaces++;
            }
            else
            {
                excluded.insert(ifc);
            }
        }
        r.olsr->SetInterfaceExclusions(excluded);
        r.olsr->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnOlsrTx, r.olsrInterfaces));
        g_routers.push_back(r);
    };
    setupOlsr("G", gw);
    g_routers.back().olsr->AddHostNetworkAssociation(Addr(10, 0, 0, 0), Ipv4Mask("255.255.255.0"));
    g_hnaProbes.emplace_back("server", serverAddr);
    for (uint32_t i = 0; i < kRouters; ++i)
    {
        setupOlsr("R" + std::to_string(i), routers.Get(i));
        g_routers.back().olsr->AddHostNetworkAssociation(Addr(10, 100 + i, 0, 0), Ipv4Mask("255.255.0.0"));
        g_hnaProbes.emplace_back("cell" + std::to_string(i), Addr(10, 100 + i, 0, 2));
    }
    for (auto& d : meshDevices)
    {
        d->TraceConnectWithoutContext("MacTx", MakeCallback(&OnMacTx));
    }

    // --- IP-level drops on every node.
    for (uint32_t n = 0; n < NodeList::GetNNodes(); ++n)
    {
        Ptr<Node> node = NodeList::GetNode(n);
        std::string name;
        if (node == server)
        {
            name = "S";
        }
        else if (node == gw)
        {
            name = "G";
        }
        else if (n >= 2 && n < 2 + kRouters)
        {
            name = "R" + std::to_string(n - 2);
        }
        else if (n >= 2 + kRouters && n < 2 + 2 * kRouters)
        {
            name = "C" + std::to_string(n - 2 - kRouters);
        }
        else
        {
            name = "U" + std::to_string(n - 2 - 2 * kRouters);
        }
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("Drop",
                                                                     MakeBoundCallback(&OnIpDrop, name));
        node->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext("TcDrop",
                                                                          MakeCallback(&CountQueueDrop));
    }

    // --- Applications.
    std::ofstream cwndOut;
    if (!cwndTrace.empty())
    {
        cwndOut.open(cwndTrace);
        cwndOut << "time_s,flow,cwnd_bytes\n";
    }
    g_flows.resize(ues);
    g_unfinished = ues;
    for (uint32_t k = 0; k < ues; ++k)
    {
        FlowStats& f = g_flows[k];
        f.id = k;
        f.cell = k % kRouters;
        f.startTime = 1.0 + 0.01 * k;
        f.cwndOut = cwndTrace.empty() ? nullptr : &cwndOut;

        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), kPort));
        ApplicationContainer sinkApp = sinkHelper.Install(ueNodes.Get(k));
        sinkApp.Start(Seconds(0.0));
        f.sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        f.sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnSinkRx, &f));

        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(ueAddr[k], kPort));
        src.SetAttribute("MaxBytes", UintegerValue(g_fileBytes));
        ApplicationContainer srcApp = src.Install(server);
        srcApp.Start(Seconds(f.startTime));
        f.sender = DynamicCast<BulkSendApplication>(srcApp.Get(0));
        Simulator::Schedule(Seconds(f.startTime) + NanoSeconds(1), &HookSocket, &f);
    }

    const auto setupEnd = std::chrono::steady_clock::now();
    Simulator::Schedule(Seconds(0), &PollRoutes);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
    const auto runEnd = std::chrono::steady_clock::now();
    const double endTime = Simulator::Now().GetSeconds();
    const uint64_t events = Simulator::GetEventCount();
    const double runWall = std::chrono::duration<double>(runEnd - setupEnd).count();

    // --- Metrics.
    std::vector<double> finishes;
    std::vector<double> goodputs;
    for (auto& f : g_flows)
    {
        if (f.finishAt >= 0)
        {
            finishes.push_back(f.finishAt - f.startTime);
            goodputs.push_back(g_fileBytes * 8.0 / (f.finishAt - f.startTime) / 1e6);
        }
        else
        {
            // Unfinished at the end of the run: what it delivered over its lifetime.
            goodputs.push_back(f.rxBytes * 8.0 / (endTime - f.startTime) / 1e6);
        }
    }
    double s1 = 0;
    double s2 = 0;
    for (double g : goodputs)
    {
        s1 += g;
        s2 += g * g;
    }
    const double jain = s2 > 0 ? s1 * s1 / (goodputs.size() * s2) : std::nan("");

    std::ostringstream js;
    js << std::setprecision(10);
    js << "{\n";
    js << "  \"simulator\": \"ns-3.44\",\n";
    js << "  \"scenario\": {\"case\": " << Quote(caseName) << ", \"contract\": "
       << Quote("validation/ns3/mesh/SCENARIO.md") << ", \"ues\": " << ues
       << ", \"seed\": " << seed << ", \"cca\": " << Quote(cca)
       << ", \"cell_rate_bps\": " << cellRate << ", \"file_bytes\": " << g_fileBytes
       << ", \"duration_s\": " << Num(duration) << ", \"poll_ms\": " << Num(pollMs)
       << ", \"mss\": 1448, \"snd_rcv_buf_bytes\": " << bufSize << ", \"links\": [";
    {
        const LinkSpec* specs[] = {&sg, &gr, &grid, &cell, &ue};
        for (size_t k = 0; k < 5; ++k)
        {
            js << (k ? ", " : "") << "{\"kind\": " << Quote(specs[k]->kind)
               << ", \"rate_bps\": " << specs[k]->rate << ", \"delay_ms\": " << Num(specs[k]->delayMs)
               << ", \"queue_packets\": " << specs[k]->queue << "}";
        }
    }
    js << "]},\n";

    js << "  \"flows\": [\n";
    for (uint32_t k = 0; k < ues; ++k)
    {
        const FlowStats& f = g_flows[k];
        const double fct = f.finishAt >= 0 ? f.finishAt - f.startTime : std::nan("");
        js << "    {\"id\": " << k << ", \"cell\": " << f.cell << ", \"start_s\": " << Num(f.startTime)
           << ", \"finish_s\": " << Num(fct)
           << ", \"finished_at_s\": " << Num(f.finishAt >= 0 ? f.finishAt : std::nan(""))
           << ", \"goodput_mbps\": " << Num(goodputs[k]) << ", \"rx_bytes\": " << f.rxBytes
           << ", \"rtt_mean_ms\": " << Num(Mean(f.rttMs)) << ", \"rtt_samples\": " << f.rttMs.size()
           << ", \"retx_segments\": " << f.retxSegments << ", \"tx_segments\": " << f.txSegments
           << ", \"rto_events\": " << f.rtoEvents
           << ", \"established_s\": " << Num(f.establishedTime >= 0 ? f.establishedTime : std::nan(""))
           << ", \"syn_tx_s\": [";
        for (size_t s = 0; s < f.synTimes.size(); ++s)
        {
            js << (s ? ", " : "") << Num(f.synTimes[s]);
        }
        js << "]}" << (k + 1 < ues ? "," : "") << "\n";
    }
    js << "  ],\n";

    js << "  \"finish_time_s\": {\"mean\": " << Num(Mean(finishes))
       << ", \"p20\": " << Num(Percentile(finishes, 20)) << ", \"p80\": " << Num(Percentile(finishes, 80))
       << ", \"min\": " << Num(Percentile(finishes, 0)) << ", \"max\": " << Num(Percentile(finishes, 100))
       << ", \"finished\": " << finishes.size() << ", \"unfinished\": " << (ues - finishes.size()) << "},\n";
    js << "  \"jain_index\": " << Num(jain) << ",\n";
    js << "  \"olsr\": {\"convergence_s\": " << Num(g_convergence)
       << ", \"polls\": " << g_polls
       << ", \"control_ip_bytes\": " << g_olsrIpBytes << ", \"control_packets\": " << g_olsrPackets
       << ", \"control_ip_fragments\": " << g_olsrFragments
       << ", \"control_ip_bytes_at_convergence\": " << g_olsrIpBytesAtConvergence
       << ", \"control_ip_bytes_from_olsr_trace\": " << g_olsrTraceIpBytes << ", \"messages_sent\": {"
       << "\"hello\": " << g_olsrMessages[olsr::MessageHeader::HELLO_MESSAGE]
       << ", \"tc\": " << g_olsrMessages[olsr::MessageHeader::TC_MESSAGE]
       << ", \"mid\": " << g_olsrMessages[olsr::MessageHeader::MID_MESSAGE]
       << ", \"hna\": " << g_olsrMessages[olsr::MessageHeader::HNA_MESSAGE] << "}"
       << ", \"router_complete_s\": {";
    for (size_t r = 0; r < g_routers.size(); ++r)
    {
        const double at = g_routers[r].completeAt;
        js << (r ? ", " : "") << Quote(g_routers[r].name) << ": " << Num(at >= 0 ? at : std::nan(""));
    }
    js << "}, \"route_probes\": [";
    for (size_t p = 0; p < g_hnaProbes.size(); ++p)
    {
        js << (p ? ", " : "") << Quote(g_hnaProbes[p].first);
    }
    js << "], \"route_known_s\": {";
    for (size_t r = 0; r < g_routers.size(); ++r)
    {
        js << (r ? ", " : "") << Quote(g_routers[r].name) << ": [";
        for (size_t p = 0; p < g_routers[r].knownAt.size(); ++p)
        {
            const double at = g_routers[r].knownAt[p];
            js << (p ? ", " : "") << Num(at >= 0 ? at : std::nan(""));
        }
        js << "]";
    }
    js << "}, \"router_olsr_interfaces\": {";
    for (size_t r = 0; r < g_routers.size(); ++r)
    {
        js << (r ? ", " : "") << Quote(g_routers[r].name) << ": " << g_routers[r].olsrInterfaces;
    }
    js << "}},\n";
    js << "  \"drops\": {\"no_route\": " << g_noRouteDrops << ", \"no_route_tcp\": " << g_noRouteDropsTcp
       << ", \"no_route_by_node\": {";
    {
        bool first = true;
        for (const auto& [n, c] : g_noRouteDropsByNode)
        {
            js << (first ? "" : ", ") << Quote(n) << ": " << c;
            first = false;
        }
    }
    js << "}, \"other_ip\": " << g_otherIpDrops << ", \"queue\": " << g_queueDrops << "},\n";
    js << "  \"end_time_s\": " << Num(endTime) << ",\n";
    js << "  \"events\": " << events << ",\n";
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    js << "  \"wall_s\": " << Num(wall) << ",\n";
    js << "  \"run_wall_s\": " << Num(runWall) << ",\n";
    js << "  \"cpu_s\": " << Num(CpuSeconds()) << ",\n";
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
    Simulator::Destroy();
    return 0;
}
