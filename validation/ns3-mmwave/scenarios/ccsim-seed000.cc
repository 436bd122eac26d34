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
 * The per-millisecond CSV has the same columns as ccsim-seed002.cc's (the trace code of both is
 * ccsim-traces.h).
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

#include "ccsim-traces.h"

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
