/* ccsim reference scenario for issue 15: a UE walking past a blocker between two mmWave gNBs,
 * with an LTE eNB for dual connectivity (or hard LTE<->mmWave handover), bulk TCP download.
 * Run inside the seed 002 authors' ns-3.33 + mmwave tree (validation/ns3-mmwave/setup.sh
 * copies this file into its scratch/). Written for ccsim; the module's API was learnt from the
 * tree's src/mmwave/examples/mc-twoenbs.cc, whose channel and RRC settings it keeps.
 *
 * Geometry (x along the street, metres):
 *   mmWave gNB A (cell of the first mmWave device) at (0, 30, 10), the LTE eNB next to it;
 *   mmWave gNB B at (200, 30, 10);
 *   a 15 m high building Box(70, 130, 5, 10, 0, 15) along the street between the UE and both;
 *   the UE at 1.6 m walks y = 0 from x = x0 at `speed` m/s.
 * The building blocks A for x >= 84 m and B for x <= 116 m (both blocked 84-116 m).
 *
 * Output, one CSV row per millisecond (`--out`), plus `<out>.events.csv` with every RRC
 * handover / RAT switch instant:
 *   - sink bytes (goodput), sender RTT samples, cwnd, TCP retransmitted segments and bytes,
 *     fast-recovery and RTO (CA_LOSS) entries;
 *   - per cell (index = cell id 1..3): downlink TBs to the UE (n, decoded bytes, corrupt,
 *     HARQ retransmissions, SINR sum in dB, MCS sum) for the mmWave cells, and for the LTE
 *     cell the MAC's scheduled TBs (n, bytes, MCS sum);
 *   - the UE's SINR towards each mmWave cell as the LTE coordinator receives it (report table,
 *     every CrtPeriod = 1.6 ms) and the LTE PHY's SINR of its serving cell;
 *   - per cell, the RLC AM buffers (txon, retx, txed bytes) of every data bearer, polled.
 *
 *   ./waf --run "ccsim-handover --cc=TcpCubic --dc=1 --seed=1 --out=/tmp/x.csv"
 */
#include "ns3/applications-module.h"
#include "ns3/buildings-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/lte-common.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-rlc-am.h"
#include "ns3/mmwave-enb-net-device.h"
#include "ns3/mmwave-helper.h"
#include "ns3/mmwave-point-to-point-epc-helper.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cmath>
#include <fstream>
#include <vector>

using namespace ns3;
using namespace mmwave;

namespace {

const size_t kCells = 4; // cell ids 1..3 (index 0 unused)

struct CellBin
{
  uint32_t tbN = 0;
  uint64_t tbBytes = 0;
  uint32_t tbCorrupt = 0;
  uint32_t tbRetx = 0;
  double tbSinrSumDb = 0;
  uint32_t mcsSum = 0;
  double rtSinrSumDb = 0; // report-table SINR (mmWave) or LTE PHY SINR (LTE)
  uint32_t rtSinrN = 0;
  uint32_t rlcTxon = 0;
  uint32_t rlcRetx = 0;
  uint32_t rlcTxed = 0;
};

/** Everything measured in one millisecond. */
struct Bin
{
  uint64_t rxBytes = 0;
  uint64_t rttSumUs = 0;
  uint32_t rttN = 0;
  uint32_t cwnd = 0; // last value seen, 0 = unchanged in this ms
  uint32_t retxSegs = 0;
  uint64_t retxBytes = 0;
  uint32_t recoveries = 0;
  uint32_t rtos = 0;
  CellBin cell[kCells];
};

struct Event
{
  double t;
  std::string kind;
  uint64_t imsi;
  uint16_t cellId;
  uint16_t other; // target cell for a handover start, rnti otherwise
};

std::vector<Bin> g_bins;
std::vector<Event> g_events;
std::vector<uint32_t> g_enbNodeIds;
SequenceNumber32 g_highestSent (0);
bool g_anySent = false;

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

CellBin &
Cell (uint64_t cellId)
{
  NS_ABORT_MSG_UNLESS (cellId > 0 && cellId < kCells, "unexpected cell id " << cellId);
  return Now ().cell[cellId];
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

/** A data segment that starts below the highest byte sent so far is a retransmission. */
void
OnTcpTx (Ptr<const Packet> p, const TcpHeader &h, Ptr<const TcpSocketBase>)
{
  uint32_t len = p->GetSize ();
  if (len == 0)
    {
      return;
    }
  SequenceNumber32 end = h.GetSequenceNumber () + len;
  if (g_anySent && h.GetSequenceNumber () < g_highestSent)
    {
      Bin &b = Now ();
      b.retxSegs++;
      b.retxBytes += len;
    }
  if (!g_anySent || end > g_highestSent)
    {
      g_highestSent = end;
      g_anySent = true;
    }
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
  NS_ABORT_MSG_UNLESS (sock, "the bulk sender has no socket yet");
  sock->TraceConnectWithoutContext ("RTT", MakeCallback (&OnRtt));
  sock->TraceConnectWithoutContext ("CongestionWindow", MakeCallback (&OnCwnd));
  sock->TraceConnectWithoutContext ("CongState", MakeCallback (&OnCongState));
  sock->TraceConnectWithoutContext ("Tx", MakeCallback (&OnTcpTx));
}

void
OnUeTb (RxPacketTraceParams p)
{
  CellBin &c = Cell (p.m_cellId);
  c.tbN++;
  c.tbBytes += p.m_corrupt ? 0 : p.m_tbSize;
  c.tbCorrupt += p.m_corrupt ? 1 : 0;
  c.tbRetx += p.m_rv > 0 ? 1 : 0;
  c.tbSinrSumDb += 10 * std::log10 (p.m_sinr);
  c.mcsSum += p.m_mcs;
}

void
OnMmWaveSinr (uint64_t, uint16_t cellId, long double sinr)
{
  CellBin &c = Cell (cellId);
  c.rtSinrSumDb += 10 * std::log10 (static_cast<double> (sinr));
  c.rtSinrN++;
}

void
OnLteSinr (uint16_t cellId, uint16_t, double, double sinr, uint8_t)
{
  CellBin &c = Cell (cellId);
  c.rtSinrSumDb += 10 * std::log10 (sinr);
  c.rtSinrN++;
}

uint16_t g_lteCellId = 0;

void
OnLteDlSched (DlSchedulingCallbackInfo info)
{
  CellBin &c = Cell (g_lteCellId);
  c.tbN++;
  c.tbBytes += info.sizeTb1 + info.sizeTb2;
  c.mcsSum += info.mcsTb1;
}

void
Record (const std::string &kind, std::string, uint64_t imsi, uint16_t cellId, uint16_t other)
{
  g_events.push_back ({Simulator::Now ().GetSeconds (), kind, imsi, cellId, other});
}

void
OnHandoverStart (std::string ctx, uint64_t imsi, uint16_t cellId, uint16_t, uint16_t target)
{
  bool ue = ctx.find ("UeRrc") != std::string::npos;
  Record (ue ? (ctx.find ("MmWaveUeRrc") != std::string::npos ? "ue_mmwave_ho_start" : "ue_lte_ho_start")
             : "enb_ho_start",
          ctx, imsi, cellId, target);
}

void
OnHandoverEndOk (std::string ctx, uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
  bool ue = ctx.find ("UeRrc") != std::string::npos;
  Record (ue ? (ctx.find ("MmWaveUeRrc") != std::string::npos ? "ue_mmwave_ho_end" : "ue_lte_ho_end")
             : "enb_ho_end",
          ctx, imsi, cellId, rnti);
}

void
OnSwitchToLte (std::string ctx, uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
  Record ("switch_to_lte", ctx, imsi, cellId, rnti);
}

void
OnSwitchToMmWave (std::string ctx, uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
  Record ("switch_to_mmwave", ctx, imsi, cellId, rnti);
}

/** RLC AM entities come and go with handovers: look them up every millisecond. The LTE cell's
 * are in its DataRadioBearerMap; a mmWave secondary cell's in its DataRadioRlcMap (DC) or its
 * DataRadioBearerMap (single connectivity). */
void
PollRlc ()
{
  Bin &b = Now ();
  for (uint32_t nodeId : g_enbNodeIds)
    {
      for (const char *map : {"DataRadioBearerMap", "DataRadioRlcMap"})
        {
          std::ostringstream path;
          path << "/NodeList/" << nodeId << "/DeviceList/*/LteEnbRrc/UeMap/*/" << map
               << "/*/LteRlc";
          Config::MatchContainer m = Config::LookupMatches (path.str ());
          for (size_t i = 0; i < m.GetN (); i++)
            {
              Ptr<LteRlcAm> am = DynamicCast<LteRlcAm> (m.Get (i));
              if (!am)
                {
                  continue;
                }
              // The cell id comes from the device in the matched path.
              std::string p = m.GetMatchedPath (i);
              size_t d = p.find ("/DeviceList/") + 12;
              uint32_t devIdx = std::stoul (p.substr (d, p.find ('/', d) - d));
              Ptr<NetDevice> dev = NodeList::GetNode (nodeId)->GetDevice (devIdx);
              uint16_t cellId = 0;
              if (Ptr<MmWaveEnbNetDevice> mm = DynamicCast<MmWaveEnbNetDevice> (dev))
                {
                  cellId = mm->GetCellId ();
                }
              else if (Ptr<LteEnbNetDevice> lte = DynamicCast<LteEnbNetDevice> (dev))
                {
                  cellId = lte->GetCellId ();
                }
              CellBin &c = b.cell[cellId];
              c.rlcTxon += am->GetTxBufferSize ();
              c.rlcRetx += am->GetRetxBufferSize ();
              c.rlcTxed += am->GetTxedBufferSize ();
            }
        }
    }
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
}

void
WriteCsv (const std::string &out)
{
  std::ofstream f (out);
  f << "t_ms,rx_bytes,rtt_sum_us,rtt_n,cwnd_bytes,retx_segs,retx_bytes,recoveries,rtos";
  for (size_t c = 1; c < kCells; c++)
    {
      for (const char *col : {"tb_n", "tb_bytes", "tb_corrupt", "tb_retx", "tb_sinr_sum_db",
                              "mcs_sum", "rt_sinr_sum_db", "rt_sinr_n", "rlc_txon_bytes",
                              "rlc_retx_bytes", "rlc_txed_bytes"})
        {
          f << ",c" << c << '_' << col;
        }
    }
  f << '\n';
  f.setf (std::ios::fixed);
  f.precision (2);
  for (size_t i = 0; i < g_bins.size (); i++)
    {
      const Bin &b = g_bins[i];
      f << i << ',' << b.rxBytes << ',' << b.rttSumUs << ',' << b.rttN << ',' << b.cwnd << ','
        << b.retxSegs << ',' << b.retxBytes << ',' << b.recoveries << ',' << b.rtos;
      for (size_t c = 1; c < kCells; c++)
        {
          const CellBin &x = b.cell[c];
          f << ',' << x.tbN << ',' << x.tbBytes << ',' << x.tbCorrupt << ',' << x.tbRetx << ','
            << x.tbSinrSumDb << ',' << x.mcsSum << ',' << x.rtSinrSumDb << ',' << x.rtSinrN
            << ',' << x.rlcTxon << ',' << x.rlcRetx << ',' << x.rlcTxed;
        }
      f << '\n';
    }
  std::ofstream e (out + ".events.csv");
  e << "t_s,kind,imsi,cell_id,other\n";
  e.precision (9);
  for (const Event &ev : g_events)
    {
      e << ev.t << ',' << ev.kind << ',' << ev.imsi << ',' << ev.cellId << ',' << ev.other << '\n';
    }
}

} // namespace

int
main (int argc, char *argv[])
{
  double simTime = 12;
  double x0 = 40;
  double speed = 10;
  bool dc = true;
  std::string cc = "TcpCubic";
  uint32_t rlcBuf = 10000000;
  uint32_t seed = 1;
  uint32_t run = 0;
  uint32_t mss = 1400;
  uint32_t minRtoMs = 200;
  std::string out = "ccsim-handover.csv";

  CommandLine cmd;
  cmd.AddValue ("time", "simulated time [s]", simTime);
  cmd.AddValue ("x0", "UE start x [m]", x0);
  cmd.AddValue ("speed", "UE speed along x [m/s]", speed);
  cmd.AddValue ("dc", "1: dual connectivity (McUeNetDevice); 0: single connectivity, hard "
                      "LTE<->mmWave handover (InterRatHoCapable UE)", dc);
  cmd.AddValue ("cc", "TCP congestion control TypeId without ns3:: (TcpCubic, TcpNewReno, ...)", cc);
  cmd.AddValue ("rlcBuf", "RLC MaxTxBufferSize [B]", rlcBuf);
  cmd.AddValue ("seed", "RngSeedManager seed", seed);
  cmd.AddValue ("run", "RngSeedManager run", run);
  cmd.AddValue ("mss", "TcpSocket::SegmentSize [B]", mss);
  cmd.AddValue ("minRtoMs", "TcpSocketBase::MinRto [ms]", minRtoMs);
  cmd.AddValue ("out", "CSV file written at the end (events in <out>.events.csv)", out);
  cmd.Parse (argc, argv);

  Config::SetDefault ("ns3::TcpL4Protocol::SocketType", TypeIdValue (TypeId::LookupByName ("ns3::" + cc)));
  Config::SetDefault ("ns3::TcpSocket::SegmentSize", UintegerValue (mss));
  Config::SetDefault ("ns3::TcpSocketBase::MinRto", TimeValue (MilliSeconds (minRtoMs)));
  Config::SetDefault ("ns3::TcpSocket::SndBufSize", UintegerValue (131072 * 50));
  Config::SetDefault ("ns3::TcpSocket::RcvBufSize", UintegerValue (131072 * 50));

  // Radio, RLC and RRC settings as mc-twoenbs.cc (the module's DC example) sets them.
  Config::SetDefault ("ns3::MmWaveUeMac::UpdateUeSinrEstimatePeriod", DoubleValue (0));
  Config::SetDefault ("ns3::MmWaveHelper::RlcAmEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveHelper::HarqEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveFlexTtiMacScheduler::HarqEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveFlexTtiMaxWeightMacScheduler::HarqEnabled", BooleanValue (true));
  Config::SetDefault ("ns3::MmWaveFlexTtiMaxWeightMacScheduler::FixedTti", BooleanValue (false));
  Config::SetDefault ("ns3::MmWaveFlexTtiMaxWeightMacScheduler::SymPerSlot", UintegerValue (6));
  Config::SetDefault ("ns3::MmWavePhyMacCommon::TbDecodeLatency", UintegerValue (200.0));
  Config::SetDefault ("ns3::MmWavePhyMacCommon::NumHarqProcess", UintegerValue (100));
  Config::SetDefault ("ns3::ThreeGppChannelModel::UpdatePeriod", TimeValue (MilliSeconds (100.0)));
  Config::SetDefault ("ns3::LteEnbRrc::SystemInformationPeriodicity", TimeValue (MilliSeconds (5.0)));
  Config::SetDefault ("ns3::LteRlcAm::ReportBufferStatusTimer", TimeValue (MicroSeconds (100.0)));
  Config::SetDefault ("ns3::LteRlcUmLowLat::ReportBufferStatusTimer", TimeValue (MicroSeconds (100.0)));
  Config::SetDefault ("ns3::LteEnbRrc::SrsPeriodicity", UintegerValue (320));
  Config::SetDefault ("ns3::LteEnbRrc::FirstSibTime", UintegerValue (2));
  Config::SetDefault ("ns3::MmWavePointToPointEpcHelper::X2LinkDelay", TimeValue (MicroSeconds (500)));
  Config::SetDefault ("ns3::MmWavePointToPointEpcHelper::X2LinkDataRate", DataRateValue (DataRate ("1000Gb/s")));
  Config::SetDefault ("ns3::MmWavePointToPointEpcHelper::X2LinkMtu", UintegerValue (10000));
  Config::SetDefault ("ns3::MmWavePointToPointEpcHelper::S1uLinkDelay", TimeValue (MicroSeconds (1000)));
  Config::SetDefault ("ns3::MmWavePointToPointEpcHelper::S1apLinkDelay", TimeValue (MicroSeconds (10000)));
  Config::SetDefault ("ns3::LteRlcUm::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcUmLowLat::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcAm::MaxTxBufferSize", UintegerValue (rlcBuf));
  Config::SetDefault ("ns3::LteRlcAm::StatusProhibitTimer", TimeValue (MilliSeconds (10.0)));
  Config::SetDefault ("ns3::LteEnbRrc::SecondaryCellHandoverMode", EnumValue (LteEnbRrc::DYNAMIC_TTT));
  Config::SetDefault ("ns3::LteEnbRrc::FixedTttValue", UintegerValue (150));
  const int crtPeriodUs = 1600;
  Config::SetDefault ("ns3::LteEnbRrc::CrtPeriod", IntegerValue (crtPeriodUs));
  Config::SetDefault ("ns3::LteEnbRrc::OutageThreshold", DoubleValue (-5));
  Config::SetDefault ("ns3::MmWaveEnbPhy::UpdateSinrEstimatePeriod", IntegerValue (crtPeriodUs));
  Config::SetDefault ("ns3::MmWaveEnbPhy::Transient", IntegerValue (150 * crtPeriodUs));
  Config::SetDefault ("ns3::MmWaveEnbPhy::NoiseAndFilter", BooleanValue (false));
  Config::SetDefault ("ns3::MmWaveHelper::UseIdealRrc", BooleanValue (true));
  Config::SetDefault ("ns3::McUePdcp::LteUplink", BooleanValue (false));
  Config::SetDefault ("ns3::ThreeGppChannelModel::Blockage", BooleanValue (true));
  Config::SetDefault ("ns3::ThreeGppChannelModel::PortraitMode", BooleanValue (true));
  Config::SetDefault ("ns3::ThreeGppChannelModel::NumNonselfBlocking", IntegerValue (4));
  Config::SetDefault ("ns3::McUeNetDevice::AntennaNum", UintegerValue (16));
  Config::SetDefault ("ns3::MmWaveNetDevice::AntennaNum", UintegerValue (64));
  Config::SetDefault ("ns3::ThreeGppAntennaArrayModel::IsotropicElements", BooleanValue (true));

  RngSeedManager::SetSeed (seed);
  RngSeedManager::SetRun (run);

  Ptr<MmWaveHelper> mmw = CreateObject<MmWaveHelper> ();
  mmw->SetPathlossModelType ("ns3::ThreeGppUmiStreetCanyonPropagationLossModel");
  mmw->SetChannelConditionModelType ("ns3::BuildingsChannelConditionModel");
  Ptr<MmWavePointToPointEpcHelper> epc = CreateObject<MmWavePointToPointEpcHelper> ();
  mmw->SetEpcHelper (epc);
  mmw->SetHarqEnabled (true);
  mmw->Initialize ();

  Ptr<Node> pgw = epc->GetPgwNode ();
  NodeContainer srvNodes;
  srvNodes.Create (1);
  InternetStackHelper internet;
  internet.Install (srvNodes);
  PointToPointHelper p2p;
  p2p.SetDeviceAttribute ("DataRate", DataRateValue (DataRate ("100Gb/s")));
  p2p.SetDeviceAttribute ("Mtu", UintegerValue (2500));
  p2p.SetChannelAttribute ("Delay", TimeValue (MilliSeconds (10)));
  NetDeviceContainer wan = p2p.Install (pgw, srvNodes.Get (0));
  Ipv4AddressHelper ipv4;
  ipv4.SetBase ("1.0.0.0", "255.0.0.0");
  ipv4.Assign (wan);
  Ipv4StaticRoutingHelper routing;
  routing.GetStaticRouting (srvNodes.Get (0)->GetObject<Ipv4> ())
      ->AddNetworkRouteTo (Ipv4Address ("7.0.0.0"), Ipv4Mask ("255.0.0.0"), 1);

  NodeContainer ueNodes, mmwEnbNodes, lteEnbNodes, allEnbNodes;
  mmwEnbNodes.Create (2);
  lteEnbNodes.Create (1);
  ueNodes.Create (1);
  allEnbNodes.Add (lteEnbNodes);
  allEnbNodes.Add (mmwEnbNodes);

  Ptr<Building> blocker = Create<Building> ();
  blocker->SetBoundaries (Box (70, 130, 5, 10, 0, 15));

  Ptr<ListPositionAllocator> enbPos = CreateObject<ListPositionAllocator> ();
  enbPos->Add (Vector (0, 30, 10)); // LTE eNB, next to mmWave gNB A
  enbPos->Add (Vector (0, 30, 10)); // mmWave gNB A
  enbPos->Add (Vector (200, 30, 10)); // mmWave gNB B
  MobilityHelper enbMob;
  enbMob.SetMobilityModel ("ns3::ConstantPositionMobilityModel");
  enbMob.SetPositionAllocator (enbPos);
  enbMob.Install (allEnbNodes);
  BuildingsHelper::Install (allEnbNodes);

  MobilityHelper ueMob;
  ueMob.SetMobilityModel ("ns3::ConstantVelocityMobilityModel");
  ueMob.Install (ueNodes);
  BuildingsHelper::Install (ueNodes);
  Ptr<ConstantVelocityMobilityModel> ueMm = ueNodes.Get (0)->GetObject<ConstantVelocityMobilityModel> ();
  ueMm->SetPosition (Vector (x0, 0, 1.6));
  ueMm->SetVelocity (Vector (speed, 0, 0));

  NetDeviceContainer lteEnbDevs = mmw->InstallLteEnbDevice (lteEnbNodes);
  NetDeviceContainer mmwEnbDevs = mmw->InstallEnbDevice (mmwEnbNodes);
  NetDeviceContainer ueDevs = dc ? mmw->InstallMcUeDevice (ueNodes) : mmw->InstallInterRatHoCapableUeDevice (ueNodes);
  internet.Install (ueNodes);
  Ipv4InterfaceContainer ueIfs = epc->AssignUeIpv4Address (ueDevs);
  routing.GetStaticRouting (ueNodes.Get (0)->GetObject<Ipv4> ())
      ->SetDefaultRoute (epc->GetUeDefaultGatewayAddress (), 1);
  mmw->AddX2Interface (lteEnbNodes, mmwEnbNodes);
  if (dc)
    {
      mmw->AttachToClosestEnb (ueDevs, mmwEnbDevs, lteEnbDevs);
    }
  else
    {
      mmw->AttachIrToClosestEnb (ueDevs, mmwEnbDevs, lteEnbDevs);
    }

  g_lteCellId = DynamicCast<LteEnbNetDevice> (lteEnbDevs.Get (0))->GetCellId ();
  for (uint32_t i = 0; i < allEnbNodes.GetN (); i++)
    {
      g_enbNodeIds.push_back (allEnbNodes.Get (i)->GetId ());
    }
  std::cout << "cells: lte " << g_lteCellId << " mmwave_a "
            << DynamicCast<MmWaveEnbNetDevice> (mmwEnbDevs.Get (0))->GetCellId () << " mmwave_b "
            << DynamicCast<MmWaveEnbNetDevice> (mmwEnbDevs.Get (1))->GetCellId () << std::endl;

  // Bulk download remote -> UE, from 0.3 s (after the initial access of both RATs).
  uint16_t port = 2201;
  Ptr<BulkSendApplication> bulk = CreateObject<BulkSendApplication> ();
  bulk->SetAttribute ("Remote", AddressValue (InetSocketAddress (ueIfs.GetAddress (0), port)));
  bulk->SetAttribute ("SendSize", UintegerValue (mss));
  srvNodes.Get (0)->AddApplication (bulk);
  bulk->SetStartTime (Seconds (0.3));
  PacketSinkHelper sinkHelper ("ns3::TcpSocketFactory", InetSocketAddress (Ipv4Address::GetAny (), port));
  ApplicationContainer sinks = sinkHelper.Install (ueNodes.Get (0));
  sinks.Start (Seconds (0.2));
  sinks.Get (0)->TraceConnectWithoutContext ("Rx", MakeCallback (&OnSinkRx));
  Simulator::Schedule (Seconds (0.3001), &AttachSenderTraces, bulk);

  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/MmWaveComponentCarrierMapUe/*/MmWaveUePhy/DlSpectrumPhy/RxPacketTraceUe",
      MakeCallback (&OnUeTb));
  Config::ConnectWithoutContextFailSafe ("/NodeList/*/DeviceList/*/LteEnbRrc/NotifyMmWaveSinr",
                                         MakeCallback (&OnMmWaveSinr));
  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/LteComponentCarrierMapUe/*/LteUePhy/ReportCurrentCellRsrpSinr",
      MakeCallback (&OnLteSinr));
  std::ostringstream ltePath;
  ltePath << "/NodeList/" << lteEnbNodes.Get (0)->GetId ()
          << "/DeviceList/*/ComponentCarrierMap/*/LteEnbMac/DlScheduling";
  Config::ConnectWithoutContextFailSafe (ltePath.str (), MakeCallback (&OnLteDlSched));
  for (const char *rrc : {"LteEnbRrc", "LteUeRrc", "MmWaveUeRrc"})
    {
      std::string base = std::string ("/NodeList/*/DeviceList/*/") + rrc;
      Config::ConnectFailSafe (base + "/HandoverStart", MakeCallback (&OnHandoverStart));
      Config::ConnectFailSafe (base + "/HandoverEndOk", MakeCallback (&OnHandoverEndOk));
    }
  Config::ConnectFailSafe ("/NodeList/*/DeviceList/*/LteUeRrc/SwitchToLte", MakeCallback (&OnSwitchToLte));
  Config::ConnectFailSafe ("/NodeList/*/DeviceList/*/LteUeRrc/SwitchToMmWave", MakeCallback (&OnSwitchToMmWave));

  g_bins.resize (static_cast<size_t> (simTime * 1000) + 1);
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
  Simulator::Stop (Seconds (simTime));
  Simulator::Run ();

  WriteCsv (out);
  std::cout << "ccsim-handover: wrote " << out << " (" << g_bins.size () << " ms, "
            << g_events.size () << " RRC events)" << std::endl;
  Simulator::Destroy ();
  return 0;
}
