/* ccsim reference scenario for seed 000 §III-B (TCP over mmWave: one UE behind a building,
 * Fig. III-B's RLC buffer and minimum RTO settings), run inside the seed 002 authors' ns-3.33 +
 * mmwave tree (validation/ns3-mmwave/setup.sh copies this file into its scratch/).
 *
 * Geometry of ns3-mmwave's mmwave-tcp-building-example.cc (master, 2017; ANCHORS §1.1) as
 * ccsim's experiments/seed000_single_building.toml takes it: gNB at (0, 0, 3), the UE at
 * (150, -0.2, 1), static 2 s, walking +y at 1.5 m/s for 21 s, static 2 s (25 s); a building
 * Box(40, 60, 0, 5.2, 0, 15) hides the gNB for 13 s (2.13-15.13 s). Remote host 100 Gb/s, 10 ms
 * one way, MTU 1500; bulk CUBIC download, MSS 1400, buffers 131072*50 B. Below TCP the tree's
 * defaults as ccsim-seed002.cc sets them (28 GHz, 200 MHz numerology 2, 3GPP channel redrawn
 * every 100 ms, HARQ, RLC AM with 4/1/2 ms timers, flex-TTI scheduler), with the building
 * deciding LOS/NLOS for both the channel and the path loss (BuildingsChannelConditionModel +
 * TR 38.901 UMi street canyon, as ccsim's file).
 *
 * The per-millisecond CSV has the same columns as ccsim-seed002.cc's (the trace code is the
 * same, repeated so each program stays one file that the tree compiles alone).
 *
 *   ./waf --run "ccsim-seed000 --rlcBuf=7000000 --minRtoMs=200 --seed=1 --out=/tmp/x.csv"
 */
#include "ns3/applications-module.h"
#include "ns3/buildings-module.h"
#include "ns3/config-store.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/lte-rlc-am.h"
#include "ns3/mmwave-helper.h"
#include "ns3/mmwave-point-to-point-epc-helper.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <vector>

using namespace ns3;
using namespace mmwave;

namespace {

/** Everything measured in one millisecond. */
struct Bin
{
  uint64_t rxBytes = 0;
  uint64_t rttSumUs = 0;
  uint32_t rttN = 0;
  uint32_t cwnd = 0; // last value seen, 0 = unchanged in this ms
  uint32_t tbN = 0;
  uint64_t tbBytes = 0;
  uint32_t tbCorrupt = 0;
  uint32_t tbRetx = 0;
  double sinrSumDb = 0;
  double sinrMinDb = std::numeric_limits<double>::infinity ();
  double sinrMaxDb = -std::numeric_limits<double>::infinity ();
  uint32_t mcsSum = 0;
  uint32_t rlcTxon = 0;
  uint32_t rlcRetx = 0;
  uint32_t rlcTxed = 0;
  uint32_t recoveries = 0;
  uint32_t rtos = 0;
};

std::vector<Bin> g_bins;
uint32_t g_enbNodeId = 0;
std::vector<Ptr<LteRlcAm>> g_rlcs;

Bin &
Now ()
{
  size_t i = static_cast<size_t> (Simulator::Now ().GetMicroSeconds () / 1000);
  if (i >= g_bins.size ())
    {
      g_bins.resize (i + 1);
    }
  return g_bins[i];
}

void
OnSinkRx (Ptr<const Packet> p, const Address &)
{
  Now ().rxBytes += p->GetSize ();
}

void
OnRtt (Time, Time rtt)
{
  Bin &b = Now ();
  b.rttSumUs += rtt.GetMicroSeconds ();
  b.rttN++;
}

void
OnCwnd (uint32_t, uint32_t cwnd)
{
  Now ().cwnd = cwnd;
}

void
OnCongState (TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t to)
{
  if (to == TcpSocketState::CA_RECOVERY)
    {
      Now ().recoveries++;
    }
  else if (to == TcpSocketState::CA_LOSS)
    {
      Now ().rtos++;
    }
}

void
AttachSenderTraces (Ptr<BulkSendApplication> bulk)
{
  Ptr<Socket> sock = bulk->GetSocket ();
  NS_ABORT_MSG_UNLESS (sock, "the bulk sender has no socket at 20.1 ms");
  sock->TraceConnectWithoutContext ("RTT", MakeCallback (&OnRtt));
  sock->TraceConnectWithoutContext ("CongestionWindow", MakeCallback (&OnCwnd));
  sock->TraceConnectWithoutContext ("CongState", MakeCallback (&OnCongState));
}

void
OnUeTb (RxPacketTraceParams p)
{
  Bin &b = Now ();
  double sinrDb = 10 * std::log10 (p.m_sinr);
  b.tbN++;
  b.tbBytes += p.m_corrupt ? 0 : p.m_tbSize; // decoded bytes: the radio's delivered capacity
  b.tbCorrupt += p.m_corrupt ? 1 : 0;
  b.tbRetx += p.m_rv > 0 ? 1 : 0;
  b.sinrSumDb += sinrDb;
  b.sinrMinDb = std::min (b.sinrMinDb, sinrDb);
  b.sinrMaxDb = std::max (b.sinrMaxDb, sinrDb);
  b.mcsSum += p.m_mcs;
}

/** The gNB's RLC AM entities are created when the bearer is set up: look them up until found,
 * then read their buffer sizes every millisecond. */
void
PollRlc ()
{
  if (g_rlcs.empty ())
    {
      std::ostringstream path;
      path << "/NodeList/" << g_enbNodeId
           << "/DeviceList/*/LteEnbRrc/UeMap/*/DataRadioBearerMap/*/LteRlc";
      Config::MatchContainer m = Config::LookupMatches (path.str ());
      for (size_t i = 0; i < m.GetN (); i++)
        {
          Ptr<LteRlcAm> am = DynamicCast<LteRlcAm> (m.Get (i));
          if (am)
            {
              g_rlcs.push_back (am);
            }
        }
    }
  Bin &b = Now ();
  for (Ptr<LteRlcAm> am : g_rlcs)
    {
      b.rlcTxon += am->GetTxBufferSize ();
      b.rlcRetx += am->GetRetxBufferSize ();
      b.rlcTxed += am->GetTxedBufferSize ();
    }
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
}

void
WriteCsv (const std::string &out)
{
  std::ofstream f (out);
  f << "t_ms,rx_bytes,rtt_sum_us,rtt_n,cwnd_bytes,tb_n,tb_bytes,tb_corrupt,tb_retx,"
       "sinr_sum_db,sinr_min_db,sinr_max_db,mcs_sum,rlc_txon_bytes,rlc_retx_bytes,"
       "rlc_txed_bytes,recoveries,rtos\n";
  f.setf (std::ios::fixed);
  f.precision (2);
  for (size_t i = 0; i < g_bins.size (); i++)
    {
      const Bin &b = g_bins[i];
      f << i << ',' << b.rxBytes << ',' << b.rttSumUs << ',' << b.rttN << ',' << b.cwnd << ','
        << b.tbN << ',' << b.tbBytes << ',' << b.tbCorrupt << ',' << b.tbRetx << ','
        << b.sinrSumDb << ',';
      if (b.tbN > 0)
        {
          f << b.sinrMinDb << ',' << b.sinrMaxDb;
        }
      else
        {
          f << ',';
        }
      f << ',' << b.mcsSum << ',' << b.rlcTxon << ',' << b.rlcRetx << ',' << b.rlcTxed << ','
        << b.recoveries << ',' << b.rtos << '\n';
    }
}

} // namespace

namespace {

void
SetUeVelocity (Ptr<ConstantVelocityMobilityModel> m, double vy)
{
  m->SetVelocity (Vector (0, vy, 0));
}

} // namespace

int
main (int argc, char *argv[])
{
  std::string cc = "TcpCubic";
  uint32_t rlcBuf = 7000000;
  uint32_t seed = 1;
  uint32_t run = 0;
  uint32_t minRtoMs = 200;
  double stop = 25.0;
  double ueX = 150; // §III-B: 150 m from the AP
  std::string pathloss = "ns3::ThreeGppUmiStreetCanyonPropagationLossModel";
  std::string out = "ccsim-seed000.csv";

  CommandLine cmd;
  cmd.AddValue ("cc", "TCP congestion control TypeId without ns3:: (TcpCubic, TcpYeah, ...)", cc);
  cmd.AddValue ("rlcBuf", "RLC MaxTxBufferSize [B] (Fig. III-B: 7 MB; baseline 1 MB)", rlcBuf);
  cmd.AddValue ("seed", "RngSeedManager seed", seed);
  cmd.AddValue ("run", "RngSeedManager run", run);
  cmd.AddValue ("minRtoMs", "TcpSocketBase::MinRto [ms] (RLC + RTO: 200; otherwise 1000)", minRtoMs);
  cmd.AddValue ("stop", "stop the run here [s] (the scenario: 25)", stop);
  cmd.AddValue ("pathloss", "MmWaveHelper::PathlossModel", pathloss);
  cmd.AddValue ("ueX", "the UE's distance from the AP along x [m] (§III-B: 150)", ueX);
  cmd.AddValue ("out", "CSV file written at the end", out);
  cmd.Parse (argc, argv);

  Config::SetDefault ("ns3::TcpL4Protocol::SocketType", TypeIdValue (TypeId::LookupByName ("ns3::" + cc)));
  Config::SetDefault ("ns3::ThreeGppAntennaArrayModel::IsotropicElements", BooleanValue (true));
  Config::SetDefault ("ns3::MmWavePhyMacCommon::CenterFreq", DoubleValue (28e9));
  Config::SetDefault ("ns3::TcpSocketBase::MinRto", TimeValue (MilliSeconds (minRtoMs)));
  Config::SetDefault ("ns3::TcpSocket::SegmentSize", UintegerValue (1400));
  Config::SetDefault ("ns3::TcpSocket::SndBufSize", UintegerValue (131072 * 50));
  Config::SetDefault ("ns3::TcpSocket::RcvBufSize", UintegerValue (131072 * 50));
  Config::SetDefault ("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcUmLowLat::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcAm::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcAm::ReportBufferStatusTimer", TimeValue (MicroSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcUmLowLat::ReportBufferStatusTimer", TimeValue (MicroSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcUm::ReportBufferStatusTimer", TimeValue (MicroSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcUm::ReorderingTimer", TimeValue (MilliSeconds (2.0)));
  Config::SetDefault ("ns3::ThreeGppChannelModel::UpdatePeriod", TimeValue (MilliSeconds (100.0)));
  Config::SetDefault ("ns3::LteRlcAm::PollRetransmitTimer", TimeValue (MilliSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcAm::StatusProhibitTimer", TimeValue (MilliSeconds (1.0)));
  Config::SetDefault ("ns3::LteRlcAm::ReorderingTimer", TimeValue (MilliSeconds (2.0)));
  Config::SetDefault ("ns3::MmWaveHelper::RlcAmEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveHelper::HarqEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveFlexTtiMacScheduler::HarqEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveFlexTtiMacScheduler::CqiTimerThreshold", UintegerValue (1000));
  Config::SetDefault ("ns3::MmWaveFlexTtiMaxWeightMacScheduler::HarqEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveFlexTtiMaxWeightMacScheduler::FixedTti", BooleanValue (false));
  Config::SetDefault ("ns3::MmWaveFlexTtiMaxWeightMacScheduler::SymPerSlot", UintegerValue (6));
  Config::SetDefault ("ns3::MmWavePhyMacCommon::TbDecodeLatency", UintegerValue (200.0));
  Config::SetDefault ("ns3::LteEnbRrc::SystemInformationPeriodicity", TimeValue (MilliSeconds (5.0)));
  Config::SetDefault ("ns3::LteEnbRrc::SrsPeriodicity", UintegerValue (320));
  Config::SetDefault ("ns3::LteEnbRrc::FirstSibTime", UintegerValue (2));
  Config::SetDefault ("ns3::LteRlcAm::EnableAQM", BooleanValue (false));
  Config::SetDefault ("ns3::MmWaveHelper::PathlossModel", StringValue (pathloss));

  NodeContainer ueNodes, enbNodes, srvNodes;
  ueNodes.Create (1);
  enbNodes.Create (1);
  Ptr<MmWavePointToPointEpcHelper> epc = CreateObject<MmWavePointToPointEpcHelper> ();
  Ptr<MmWaveHelper> mmw = CreateObject<MmWaveHelper> ();
  mmw->SetSchedulerType ("ns3::MmWaveFlexTtiMacScheduler");
  mmw->SetChannelConditionModelType ("ns3::BuildingsChannelConditionModel");
  mmw->Initialize ();
  mmw->SetEpcHelper (epc);
  mmw->SetHarqEnabled (true);
  Ptr<Node> pgw = epc->GetPgwNode ();
  srvNodes.Create (1);
  g_enbNodeId = enbNodes.Get (0)->GetId ();

  RngSeedManager::SetSeed (seed);
  RngSeedManager::SetRun (run);
  GlobalValue::Bind ("ChecksumEnabled", BooleanValue (true));

  Ptr<Building> building = Create<Building> ();
  building->SetBoundaries (Box (40, 60, 0, 5.2, 0, 15));
  building->SetExtWallsType (Building::ConcreteWithoutWindows);

  Ptr<ListPositionAllocator> enbPos = CreateObject<ListPositionAllocator> ();
  enbPos->Add (Vector (0, 0, 3));
  MobilityHelper enbMob;
  enbMob.SetMobilityModel ("ns3::ConstantPositionMobilityModel");
  enbMob.SetPositionAllocator (enbPos);
  enbMob.Install (enbNodes);
  BuildingsHelper::Install (enbNodes);

  MobilityHelper ueMob;
  ueMob.SetMobilityModel ("ns3::ConstantVelocityMobilityModel");
  ueMob.Install (ueNodes);
  Ptr<ConstantVelocityMobilityModel> cv = ueNodes.Get (0)->GetObject<ConstantVelocityMobilityModel> ();
  cv->SetPosition (Vector (ueX, -0.2, 1));
  cv->SetVelocity (Vector (0, 0, 0));
  Simulator::Schedule (Seconds (2), &SetUeVelocity, cv, 1.5);
  Simulator::Schedule (Seconds (23), &SetUeVelocity, cv, 0.0);
  BuildingsHelper::Install (ueNodes);
  BuildingsHelper::MakeMobilityModelConsistent ();

  NetDeviceContainer enbDevs = mmw->InstallEnbDevice (enbNodes);
  NetDeviceContainer ueDevs = mmw->InstallUeDevice (ueNodes);

  InternetStackHelper internet;
  internet.Install (srvNodes);
  internet.Install (ueNodes);
  Ipv4InterfaceContainer ueIfs = epc->AssignUeIpv4Address (ueDevs);
  mmw->AttachToClosestEnb (ueDevs, enbDevs);

  PointToPointHelper p2p;
  p2p.SetDeviceAttribute ("DataRate", DataRateValue (DataRate ("100Gb/s")));
  p2p.SetDeviceAttribute ("Mtu", UintegerValue (1500));
  p2p.SetChannelAttribute ("Delay", TimeValue (Seconds (0.010)));
  NetDeviceContainer wan = p2p.Install (pgw, srvNodes.Get (0));
  Ipv4AddressHelper ipv4;
  ipv4.SetBase ("2.0.0.0", "255.255.0.0");
  ipv4.Assign (wan);

  Ipv4StaticRoutingHelper routing;
  routing.GetStaticRouting (srvNodes.Get (0)->GetObject<Ipv4> ())
      ->AddNetworkRouteTo (Ipv4Address ("7.0.0.0"), Ipv4Mask ("255.0.0.0"), 1);
  routing.GetStaticRouting (ueNodes.Get (0)->GetObject<Ipv4> ())
      ->SetDefaultRoute (epc->GetUeDefaultGatewayAddress (), 1);

  uint16_t port = 2201;
  Ptr<BulkSendApplication> bulk = CreateObject<BulkSendApplication> ();
  bulk->SetAttribute ("Remote", AddressValue (InetSocketAddress (ueIfs.GetAddress (0), port)));
  bulk->SetAttribute ("SendSize", UintegerValue (1400));
  srvNodes.Get (0)->AddApplication (bulk);
  // Start after the UE's data bearer exists (~33 ms): a SYN reaching the gNB before it is
  // dropped and retried only after ns-3's 3 s connection timeout.
  bulk->SetStartTime (Seconds (0.1));
  PacketSinkHelper sinkHelper ("ns3::TcpSocketFactory", InetSocketAddress (Ipv4Address::GetAny (), port));
  ApplicationContainer sinks = sinkHelper.Install (ueNodes.Get (0));
  sinks.Start (Seconds (0.01));
  sinks.Get (0)->TraceConnectWithoutContext ("Rx", MakeCallback (&OnSinkRx));
  Simulator::Schedule (Seconds (0.1001), &AttachSenderTraces, bulk);

  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/ComponentCarrierMap/*/MmWaveUePhy/DlSpectrumPhy/RxPacketTraceUe",
      MakeCallback (&OnUeTb));

  g_bins.resize (static_cast<size_t> (stop * 1000) + 1);
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
  Simulator::Stop (Seconds (stop));
  Simulator::Run ();

  WriteCsv (out);
  std::cout << "ccsim-seed000: wrote " << out << " (" << g_bins.size () << " ms, "
            << g_rlcs.size () << " RLC AM entities)" << std::endl;
  Simulator::Destroy ();
  return 0;
}
