/* ccsim reference scenario for seed 002 (Scharnitzky et al., TCP SIAD vs BBR over 5G mmWave),
 * run inside the authors' ns-3.33 + mmwave tree (validation/ns3-mmwave/setup.sh copies this
 * file into its scratch/).
 *
 * The scenario is the one of the authors' scratch/test-mmw.cc (one gNB at (0, 0, 30), a
 * concrete building Box(40, 45, -4, 4, 0, 30), the UE walking (50, 15, 1.5) -> (50, -15, 1.5)
 * over the run, a remote host 100 Gb/s / 12.5 ms behind the PGW, a bulk TCP download), with
 * the same module defaults, but with the paper's Table 1 TCP values as defaults (MSS 10000,
 * min RTO 1 s) instead of the published script's (1500, 200 ms), and with traces instead of
 * the module's text trace files: one CSV row per millisecond with
 *   - the bytes the UE's sink received (goodput),
 *   - the RTT samples and the congestion window of the sender's socket,
 *   - every downlink transport block to the UE (count, bytes of the decoded ones, corrupt,
 *     HARQ retransmission, SINR in dB: mean/min/max, MCS),
 *   - the gNB's RLC AM buffers for the UE's bearer (txon, retx, txed bytes), polled each ms,
 *   - the sender's entries into fast recovery and RTO loss state.
 *
 *   ./waf --run "ccsim-seed002 --cc=TcpBbr --rlcBuf=4000000 --seed=2 --out=/tmp/x.csv"
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

int
main (int argc, char *argv[])
{
  double simTime = 15;
  double stopTime = -1; // < 0: simTime
  std::string cc = "TcpBbr";
  uint32_t rlcBuf = 7000000;
  uint32_t seed = 2;
  uint32_t run = 0;
  uint32_t mss = 10000; // Table 1 (test-mmw.cc: 1500)
  uint32_t minRtoMs = 1000; // Table 1 (test-mmw.cc: 200)
  std::string out = "ccsim-seed002.csv";

  CommandLine cmd;
  cmd.AddValue ("time", "duration of the UE's 30 m walk [s] (the scenario: 15)", simTime);
  cmd.AddValue ("stop", "stop the run here [s] (default: time); a prefix of the full run", stopTime);
  cmd.AddValue ("cc", "TCP congestion control TypeId without ns3:: (TcpBbr, TcpSiad, ...)", cc);
  cmd.AddValue ("rlcBuf", "RLC MaxTxBufferSize [B]", rlcBuf);
  cmd.AddValue ("seed", "RngSeedManager seed", seed);
  cmd.AddValue ("run", "RngSeedManager run", run);
  cmd.AddValue ("mss", "TcpSocket::SegmentSize [B]", mss);
  cmd.AddValue ("minRtoMs", "TcpSocketBase::MinRto [ms]", minRtoMs);
  cmd.AddValue ("out", "CSV file written at the end", out);
  cmd.Parse (argc, argv);

  // Module and TCP defaults exactly as the authors' test-mmw.cc sets them, except MSS and min RTO.
  Config::SetDefault ("ns3::TcpL4Protocol::SocketType", TypeIdValue (TypeId::LookupByName ("ns3::" + cc)));
  Config::SetDefault ("ns3::ThreeGppAntennaArrayModel::IsotropicElements", BooleanValue (true));
  Config::SetDefault ("ns3::MmWavePhyMacCommon::CenterFreq", DoubleValue (28e9));
  Config::SetDefault ("ns3::TcpSocketBase::MinRto", TimeValue (MilliSeconds (minRtoMs)));
  Config::SetDefault ("ns3::TcpSocket::SegmentSize", UintegerValue (mss));
  Config::SetDefault ("ns3::TcpSocket::DelAckCount", UintegerValue (1));
  Config::SetDefault ("ns3::TcpSocket::SndBufSize", UintegerValue (131072 * 50));
  Config::SetDefault ("ns3::TcpSocket::RcvBufSize", UintegerValue (131072 * 50));
  Config::SetDefault ("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcUmLowLat::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcAm::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcAm::ReportBufferStatusTimer", TimeValue (MicroSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcUmLowLat::ReportBufferStatusTimer", TimeValue (MicroSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcUm::ReportBufferStatusTimer", TimeValue (MicroSeconds (4.0)));
  Config::SetDefault ("ns3::ThreeGppChannelModel::UpdatePeriod", TimeValue (MilliSeconds (100.0)));
  Config::SetDefault ("ns3::LteRlcAm::PollRetransmitTimer", TimeValue (MilliSeconds (4.0)));
  Config::SetDefault ("ns3::LteRlcAm::StatusProhibitTimer", TimeValue (MilliSeconds (1.0)));
  Config::SetDefault ("ns3::LteRlcAm::ReorderingTimer", TimeValue (MilliSeconds (2.0)));
  Config::SetDefault ("ns3::LteRlcUm::ReorderingTimer", TimeValue (MilliSeconds (2.0)));
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
  Config::SetDefault ("ns3::CoDelQueueDisc::Target", StringValue ("5ms"));
  Config::SetDefault ("ns3::MmWaveHelper::PathlossModel", StringValue ("ns3::MmWavePropagationLossModel"));

  // Same creation order as test-mmw.cc (UE, eNB, EPC, then the server), so node ids match.
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
  building->SetBoundaries (Box (40, 45, -4, 4, 0, 30));
  building->SetNFloors (4);
  building->SetNRoomsX (4);
  building->SetNRoomsY (4);
  building->SetExtWallsType (Building::ConcreteWithoutWindows);

  Ptr<ListPositionAllocator> enbPos = CreateObject<ListPositionAllocator> ();
  enbPos->Add (Vector (0, 0, 30));
  MobilityHelper enbMob;
  enbMob.SetMobilityModel ("ns3::ConstantPositionMobilityModel");
  enbMob.SetPositionAllocator (enbPos);
  enbMob.Install (enbNodes);
  BuildingsHelper::Install (enbNodes);

  MobilityHelper ueMob;
  ueMob.SetMobilityModel ("ns3::WaypointMobilityModel");
  ueMob.Install (ueNodes);
  Ptr<WaypointMobilityModel> wp = ueNodes.Get (0)->GetObject<WaypointMobilityModel> ();
  wp->AddWaypoint (Waypoint (Seconds (0), Vector (50, 15, 1.5)));
  wp->AddWaypoint (Waypoint (Seconds (simTime), Vector (50, -15, 1.5)));
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
  p2p.SetChannelAttribute ("Delay", TimeValue (Seconds (0.0125)));
  NetDeviceContainer wan = p2p.Install (pgw, srvNodes.Get (0));
  Ipv4AddressHelper ipv4;
  ipv4.SetBase ("2.0.0.0", "255.255.0.0");
  ipv4.Assign (wan);

  Ipv4StaticRoutingHelper routing;
  routing.GetStaticRouting (srvNodes.Get (0)->GetObject<Ipv4> ())
      ->AddNetworkRouteTo (Ipv4Address ("7.0.0.0"), Ipv4Mask ("255.0.0.0"), 1);
  routing.GetStaticRouting (ueNodes.Get (0)->GetObject<Ipv4> ())
      ->SetDefaultRoute (epc->GetUeDefaultGatewayAddress (), 1);

  // Bulk download remote -> UE. BulkSendApplication creates its socket when it starts (0.02 s);
  // the traces are attached 0.1 ms later, before the SYN-ACK can arrive (RTT >= 25 ms).
  uint16_t port = 2201;
  Ptr<BulkSendApplication> bulk = CreateObject<BulkSendApplication> ();
  bulk->SetAttribute ("Remote", AddressValue (InetSocketAddress (ueIfs.GetAddress (0), port)));
  bulk->SetAttribute ("SendSize", UintegerValue (1400)); // as test-mmw.cc's sender
  srvNodes.Get (0)->AddApplication (bulk);
  bulk->SetStartTime (Seconds (0.02));
  PacketSinkHelper sinkHelper ("ns3::TcpSocketFactory", InetSocketAddress (Ipv4Address::GetAny (), port));
  ApplicationContainer sinks = sinkHelper.Install (ueNodes.Get (0));
  sinks.Start (Seconds (0.01));
  sinks.Get (0)->TraceConnectWithoutContext ("Rx", MakeCallback (&OnSinkRx));
  Simulator::Schedule (Seconds (0.0201), &AttachSenderTraces, bulk);

  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/ComponentCarrierMap/*/MmWaveUePhy/DlSpectrumPhy/RxPacketTraceUe",
      MakeCallback (&OnUeTb));

  // The authors' script stops 0.1 s after the walk; --stop cuts the same run short.
  double stop = stopTime < 0 ? simTime + 0.1 : stopTime;
  g_bins.resize (static_cast<size_t> (stop * 1000) + 1);
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
  Simulator::Stop (Seconds (stop));
  Simulator::Run ();

  WriteCsv (out);
  uint64_t tbs = 0;
  for (const Bin &b : g_bins)
    {
      tbs += b.tbN;
    }
  std::cout << "ccsim-seed002: wrote " << out << " (" << g_bins.size () << " ms, " << tbs
            << " DL TBs, " << g_rlcs.size () << " RLC AM entities)" << std::endl;
  Simulator::Destroy ();
  return 0;
}
