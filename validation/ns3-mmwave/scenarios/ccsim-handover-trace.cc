/* Traced twin of ccsim-handover.cc (issue 15, "each miss traced to a named mechanism"): the same
 * scenario, set up statement for statement as ccsim-handover.cc does it (so a run with the same
 * seed takes the same random draws and reproduces the golden goodput), plus trace hooks that
 * follow every TCP segment and every RLC AM state variable through the secondary-cell handovers.
 * ccsim-handover.cc itself is left unchanged: the golden files record its hash.
 *
 * NS_LOG is compiled out of the optimized tree, so everything is read through trace sources and,
 * for the RLC AM state variables that have no accessor (VT(A), VT(S), VR(R), VR(H), the
 * reception buffer, the re-segmentation buffer), through the explicit-instantiation access rule
 * (C++11 [temp.explicit]/12: access checking does not apply to the names in an explicit
 * instantiation), so the tree is not modified: ccsim-handover-trace.h has that reader and the
 * output files.
 *
 * Output files, all `<out>.<name>.csv` (times in microseconds):
 *   tcp_tx     sender segments (seq, len; data only)
 *   tcp_ack    ACKs arriving at the sender (ack, window field, SACK blocks, highest SACKed byte)
 *   tcp_state  sender CongState / RTO / cwnd / ssthresh changes
 *   ue_ip      TCP data segments arriving at the UE's IP layer, and ACKs leaving it
 *   sink       in-order bytes handed to the UE's application
 *   pdcp       PDUs the UE's PDCP receives (McUePdcp RxPDU)
 *   x2         X2 PDUs received (EpcX2 RxPDU: from cell, to cell, bytes, kind)
 *   tb         downlink TBs decoded by the UE (cell, bytes, corrupt, redundancy version)
 *   rlc_ent    every RLC AM entity seen (id, side ue/enb, node, cell, rnti, first seen)
 *   rlc_pdu    RLC PDUs sent / received by each entity (id, dir, bytes, and for a received
 *              one the age of the sender's RLC timestamp)
 *   rlc_state  each entity's state, polled every ms and at each UE RLC re-creation, one row
 *              when it changes: VT(A) VT(S) VT(MS) VR(R) VR(H) VR(MS), reception buffer (SNs,
 *              incomplete SNs, byte segments held for VR(R), the lowest incomplete SN and the
 *              byte range it holds), the re-segmentation state of SN VT(A), and the txon /
 *              retx / txed buffer bytes
 *   events     RRC handover and RAT switch instants (as ccsim-handover.cc)
 *
 *   ./waf --run "ccsim-handover-trace --cc=TcpCubic --dc=1 --seed=2 --time=6.5 --x0=60 --out=/tmp/t"
 */
#include "ns3/applications-module.h"
#include "ns3/buildings-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/lte-common.h"
#include "ns3/lte-enb-net-device.h"
#include "ns3/lte-enb-rrc.h"
#include "ns3/lte-rlc-am.h"
#include "ns3/lte-rlc-am-header.h"
#include "ns3/mmwave-enb-net-device.h"
#include "ns3/mmwave-helper.h"
#include "ns3/mmwave-point-to-point-epc-helper.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/tcp-option-sack.h"

#include <fstream>
#include <map>
#include <memory>
#include <vector>

using namespace ns3;
using namespace mmwave;

namespace {

#include "ccsim-handover-trace.h"

// ---- TCP -----------------------------------------------------------------------------------------

void
OnTcpTx (Ptr<const Packet> p, const TcpHeader &h, Ptr<const TcpSocketBase>)
{
  if (p->GetSize () > 0)
    {
      File ("tcp_tx", "t_us,seq,len") << NowUs () << ',' << h.GetSequenceNumber ().GetValue ()
                                      << ',' << p->GetSize () << '\n';
    }
}

/** SACK blocks of a header: count and the highest right edge (0 if none). */
void
SackSummary (const TcpHeader &h, uint32_t &n, uint32_t &high)
{
  n = 0;
  high = 0;
  Ptr<const TcpOption> opt = h.GetOption (TcpOption::SACK);
  if (!opt)
    {
      return;
    }
  Ptr<const TcpOptionSack> sack = DynamicCast<const TcpOptionSack> (opt);
  for (const auto &blk : sack->GetSackList ())
    {
      n++;
      high = std::max (high, blk.second.GetValue ());
    }
}

void
OnTcpRx (Ptr<const Packet>, const TcpHeader &h, Ptr<const TcpSocketBase>)
{
  uint32_t n, high;
  SackSummary (h, n, high);
  File ("tcp_ack", "t_us,ack,win,sack_n,sack_high")
      << NowUs () << ',' << h.GetAckNumber ().GetValue () << ',' << h.GetWindowSize () << ','
      << n << ',' << high << '\n';
}

std::ofstream &
State ()
{
  return File ("tcp_state", "t_us,what,value");
}

void
OnCongState (TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t to)
{
  State () << NowUs () << ",cong_state," << TcpSocketState::TcpCongStateName[to] << '\n';
}

void
OnRto (Time, Time rto)
{
  State () << NowUs () << ",rto_ms," << rto.GetMilliSeconds () << '\n';
}

void
OnCwnd (uint32_t, uint32_t v)
{
  State () << NowUs () << ",cwnd," << v << '\n';
}

void
OnSsthresh (uint32_t, uint32_t v)
{
  State () << NowUs () << ",ssthresh," << v << '\n';
}

void
OnRwnd (uint32_t, uint32_t v)
{
  State () << NowUs () << ",rwnd," << v << '\n';
}

void
AttachSenderTraces (Ptr<BulkSendApplication> bulk)
{
  Ptr<Socket> sock = bulk->GetSocket ();
  NS_ABORT_MSG_UNLESS (sock, "the bulk sender has no socket yet");
  sock->TraceConnectWithoutContext ("Tx", MakeCallback (&OnTcpTx));
  sock->TraceConnectWithoutContext ("Rx", MakeCallback (&OnTcpRx));
  sock->TraceConnectWithoutContext ("CongState", MakeCallback (&OnCongState));
  sock->TraceConnectWithoutContext ("RTO", MakeCallback (&OnRto));
  sock->TraceConnectWithoutContext ("CongestionWindow", MakeCallback (&OnCwnd));
  sock->TraceConnectWithoutContext ("SlowStartThreshold", MakeCallback (&OnSsthresh));
  sock->TraceConnectWithoutContext ("RWND", MakeCallback (&OnRwnd));
}

/** The UE's IP layer: `dir` is "rx" (data arriving) or "tx" (ACKs leaving). */
void
OnUeIp (const char *dir, Ptr<const Packet> p, Ptr<Ipv4>, uint32_t)
{
  Ptr<Packet> c = p->Copy ();
  Ipv4Header ip;
  c->RemoveHeader (ip);
  if (ip.GetProtocol () != TcpL4Protocol::PROT_NUMBER)
    {
      return;
    }
  TcpHeader h;
  c->RemoveHeader (h);
  uint32_t n, high;
  SackSummary (h, n, high);
  File ("ue_ip", "t_us,dir,seq,len,ack,win,sack_n,sack_high")
      << NowUs () << ',' << dir << ',' << h.GetSequenceNumber ().GetValue () << ','
      << c->GetSize () << ',' << h.GetAckNumber ().GetValue () << ',' << h.GetWindowSize () << ','
      << n << ',' << high << '\n';
}

void
OnUeIpDrop (const Ipv4Header &, Ptr<const Packet> p, Ipv4L3Protocol::DropReason why, Ptr<Ipv4>,
            uint32_t)
{
  File ("ue_ip", "t_us,dir,seq,len,ack,win,sack_n,sack_high")
      << NowUs () << ",drop" << static_cast<int> (why) << ",0," << p->GetSize () << ",0,0,0,0\n";
}

void
OnSinkRx (Ptr<const Packet> p, const Address &)
{
  File ("sink", "t_us,bytes") << NowUs () << ',' << p->GetSize () << '\n';
}

// ---- PDCP, X2, TBs -------------------------------------------------------------------------------

void
OnUePdcpRx (uint16_t rnti, uint8_t, uint32_t bytes, uint64_t delayNs)
{
  File ("pdcp", "t_us,rnti,bytes,delay_us") << NowUs () << ',' << rnti << ',' << bytes << ','
                                            << delayNs / 1000 << '\n';
}

void
OnX2Rx (uint16_t from, uint16_t to, uint32_t bytes, uint64_t, bool data)
{
  File ("x2", "t_us,from_cell,to_cell,bytes,kind") << NowUs () << ',' << from << ',' << to << ','
                                                   << bytes << ',' << (data ? "data" : "ctrl")
                                                   << '\n';
}

void
OnUeTb (RxPacketTraceParams p)
{
  File ("tb", "t_us,cell,bytes,corrupt,rv") << NowUs () << ',' << p.m_cellId << ',' << p.m_tbSize
                                            << ',' << (p.m_corrupt ? 1 : 0) << ','
                                            << static_cast<int> (p.m_rv) << '\n';
}

// ---- RLC AM entities -----------------------------------------------------------------------------

/** An entity is known by its config path, address and (UE side) handover generation, never by
 * a Ptr: holding a Ptr would keep a released RLC alive with its timers running (its buffer
 * status reports for a removed RNTI then stop the tree's scheduler), i.e. change the run. */
struct RlcEntity
{
  uint32_t id;
  std::string last; // the last state row written, without its time
};

std::map<std::string, RlcEntity> g_rlcs;
uint32_t g_ueRlcGeneration = 0; // bumped at every UE RLC re-creation (SwitchToMmWave)
uint32_t g_ueNodeId = 0;
std::vector<uint32_t> g_enbNodeIds;

void
OnRlcTxPdu (uint32_t id, uint16_t, uint8_t, uint32_t bytes)
{
  File ("rlc_pdu", "t_us,id,dir,bytes,delay_us")
      << NowUs () << ',' << id << ",tx," << bytes << ",0\n";
}

/** `delay_us`: now minus the transmitting RLC's timestamp (RlcTag) of a received PDU. */
void
OnRlcRxPdu (uint32_t id, uint16_t, uint8_t, uint32_t bytes, uint64_t delayNs)
{
  File ("rlc_pdu", "t_us,id,dir,bytes,delay_us")
      << NowUs () << ',' << id << ",rx," << bytes << ',' << delayNs / 1000 << '\n';
}

uint16_t
CellIdOf (Ptr<NetDevice> dev)
{
  if (Ptr<MmWaveEnbNetDevice> mm = DynamicCast<MmWaveEnbNetDevice> (dev))
    {
      return mm->GetCellId ();
    }
  if (Ptr<LteEnbNetDevice> lte = DynamicCast<LteEnbNetDevice> (dev))
    {
      return lte->GetCellId ();
    }
  return 0;
}

/** Registers an entity the first time it is seen and writes its state row when it changed. */
void
Visit (Ptr<LteRlcAm> am, const std::string &path, const char *side, uint32_t nodeId,
       uint16_t cellId)
{
  std::ostringstream key;
  key << path << '@' << PeekPointer (am) << '#' << (side[0] == 'u' ? g_ueRlcGeneration : 0);
  auto it = g_rlcs.find (key.str ());
  if (it == g_rlcs.end ())
    {
      uint32_t id = static_cast<uint32_t> (g_rlcs.size ());
      it = g_rlcs.emplace (key.str (), RlcEntity{id, ""}).first;
      File ("rlc_ent", "id,side,node,cell,rnti,first_seen_us")
          << id << ',' << side << ',' << nodeId << ',' << cellId << ','
          << ReadRlcPrivate (*am).rnti << ',' << NowUs () << std::endl;
      am->TraceConnectWithoutContext ("TxPDU", MakeBoundCallback (&OnRlcTxPdu, id));
      am->TraceConnectWithoutContext ("RxPDU", MakeBoundCallback (&OnRlcRxPdu, id));
    }
  RlcPrivate s = ReadRlcPrivate (*am);
  std::ostringstream row;
  row << it->second.id << ',' << s.vtA << ',' << s.vtS << ',' << s.vtMs << ',' << s.vrR << ','
      << s.vrH << ',' << s.vrMs << ',' << s.rxonSns << ',' << s.rxonIncomplete << ','
      << s.vrRSegs << ',' << s.segPendingBytes << ',' << (s.segLastSent ? 1 : 0) << ','
      << s.incSn << ',' << s.incSegs << ',' << s.incFrom << ',' << s.incTo << ','
      << am->GetTxBufferSize () << ',' << am->GetRetxBufferSize () << ','
      << am->GetTxedBufferSize ();
  if (row.str () != it->second.last)
    {
      it->second.last = row.str ();
      File ("rlc_state", "t_us,id,vt_a,vt_s,vt_ms,vr_r,vr_h,vr_ms,rxon_sns,rxon_incomplete,"
                         "vr_r_segs,seg_pending_bytes,seg_last_sent,inc_sn,inc_segs,inc_from,"
                         "inc_to,txon_bytes,retx_bytes,"
                         "txed_bytes")
          << NowUs () << ',' << row.str () << '\n';
    }
}

/** RLC entities come and go with handovers: look them up every millisecond, on the UE (its DC
 * RLCs are in the LTE RRC's DataRadioRlcMap) and on every eNB (the LTE cell's in
 * DataRadioBearerMap, a mmWave secondary cell's in DataRadioRlcMap). */
void
VisitAll (bool enbs)
{
  std::vector<std::pair<std::string, const char *>> paths;
  std::ostringstream ue;
  ue << "/NodeList/" << g_ueNodeId << "/DeviceList/*/LteUeRrc/DataRadioRlcMap/*/LteRlc";
  paths.emplace_back (ue.str (), "ue");
  for (uint32_t nodeId : enbs ? g_enbNodeIds : std::vector<uint32_t> ())
    {
      for (const char *map : {"DataRadioBearerMap", "DataRadioRlcMap"})
        {
          std::ostringstream p;
          p << "/NodeList/" << nodeId << "/DeviceList/*/LteEnbRrc/UeMap/*/" << map << "/*/LteRlc";
          paths.emplace_back (p.str (), "enb");
        }
    }
  for (const auto &path : paths)
    {
      Config::MatchContainer m = Config::LookupMatches (path.first);
      for (size_t i = 0; i < m.GetN (); i++)
        {
          Ptr<LteRlcAm> am = DynamicCast<LteRlcAm> (m.Get (i));
          if (!am)
            {
              continue;
            }
          std::string p = m.GetMatchedPath (i);
          size_t n = p.find ("/NodeList/") + 10;
          uint32_t nodeId = std::stoul (p.substr (n, p.find ('/', n) - n));
          size_t d = p.find ("/DeviceList/") + 12;
          uint32_t devIdx = std::stoul (p.substr (d, p.find ('/', d) - d));
          uint16_t cellId = CellIdOf (NodeList::GetNode (nodeId)->GetDevice (devIdx));
          Visit (am, p, path.second, nodeId, cellId);
        }
    }
}

void
PollRlc ()
{
  VisitAll (true);
  Simulator::Schedule (MilliSeconds (1), &PollRlc);
}

// ---- RRC events (as ccsim-handover.cc) -----------------------------------------------------------

void
Record (const std::string &kind, uint64_t imsi, uint16_t cellId, uint16_t other)
{
  File ("events", "t_us,kind,imsi,cell_id,other")
      << NowUs () << ',' << kind << ',' << imsi << ',' << cellId << ',' << other << std::endl;
}

void
OnHandoverStart (std::string ctx, uint64_t imsi, uint16_t cellId, uint16_t, uint16_t target)
{
  bool ue = ctx.find ("UeRrc") != std::string::npos;
  Record (ue ? (ctx.find ("MmWaveUeRrc") != std::string::npos ? "ue_mmwave_ho_start" : "ue_lte_ho_start")
             : "enb_ho_start",
          imsi, cellId, target);
}

void
OnHandoverEndOk (std::string ctx, uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
  bool ue = ctx.find ("UeRrc") != std::string::npos;
  Record (ue ? (ctx.find ("MmWaveUeRrc") != std::string::npos ? "ue_mmwave_ho_end" : "ue_lte_ho_end")
             : "enb_ho_end",
          imsi, cellId, rnti);
}

void
OnSwitchToMmWave (std::string, uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
  g_ueRlcGeneration++; // the UE has just created a new RLC for the new secondary cell
  VisitAll (false); // hook it now: a PDU can reach it before the next poll
  Record ("switch_to_mmwave", imsi, cellId, rnti);
}

void
OnSwitchToLte (std::string, uint64_t imsi, uint16_t cellId, uint16_t rnti)
{
  Record ("switch_to_lte", imsi, cellId, rnti);
}

/** Hooks that need the UE's bearer, which exists only after the initial access. */
void
AttachLateTraces (Ptr<BulkSendApplication> bulk)
{
  AttachSenderTraces (bulk);
  std::ostringstream pdcp;
  pdcp << "/NodeList/" << g_ueNodeId << "/DeviceList/*/LteUeRrc/DataRadioBearerMap/*/LtePdcp/RxPDU";
  Config::ConnectWithoutContextFailSafe (pdcp.str (), MakeCallback (&OnUePdcpRx));
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
  std::string out = "ccsim-handover-trace";

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
  cmd.AddValue ("out", "output prefix: <out>.<name>.csv", out);
  cmd.Parse (argc, argv);
  g_out = out;

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

  g_ueNodeId = ueNodes.Get (0)->GetId ();
  for (uint32_t i = 0; i < allEnbNodes.GetN (); i++)
    {
      g_enbNodeIds.push_back (allEnbNodes.Get (i)->GetId ());
    }
  std::cout << "cells: lte " << DynamicCast<LteEnbNetDevice> (lteEnbDevs.Get (0))->GetCellId () << " mmwave_a "
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
  Simulator::Schedule (Seconds (0.3001), &AttachLateTraces, bulk);

  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/MmWaveComponentCarrierMapUe/*/MmWaveUePhy/DlSpectrumPhy/RxPacketTraceUe",
      MakeCallback (&OnUeTb));
  Ptr<Ipv4L3Protocol> ueIp = ueNodes.Get (0)->GetObject<Ipv4L3Protocol> ();
  ueIp->TraceConnectWithoutContext ("Rx", MakeBoundCallback (&OnUeIp, "rx"));
  ueIp->TraceConnectWithoutContext ("Tx", MakeBoundCallback (&OnUeIp, "tx"));
  ueIp->TraceConnectWithoutContext ("Drop", MakeCallback (&OnUeIpDrop));
  Config::ConnectWithoutContextFailSafe ("/NodeList/*/$ns3::EpcX2/RxPDU", MakeCallback (&OnX2Rx));
  for (const char *rrc : {"LteEnbRrc", "LteUeRrc", "MmWaveUeRrc"})
    {
      std::string base = std::string ("/NodeList/*/DeviceList/*/") + rrc;
      Config::ConnectFailSafe (base + "/HandoverStart", MakeCallback (&OnHandoverStart));
      Config::ConnectFailSafe (base + "/HandoverEndOk", MakeCallback (&OnHandoverEndOk));
    }
  Config::ConnectFailSafe ("/NodeList/*/DeviceList/*/LteUeRrc/SwitchToLte", MakeCallback (&OnSwitchToLte));
  Config::ConnectFailSafe ("/NodeList/*/DeviceList/*/LteUeRrc/SwitchToMmWave", MakeCallback (&OnSwitchToMmWave));

  Simulator::Schedule (MilliSeconds (1), &PollRlc);
  Simulator::Stop (Seconds (simTime));
  Simulator::Run ();

  for (auto &f : g_files)
    {
      f.second->close ();
    }
  std::cout << "ccsim-handover-trace: wrote " << g_files.size () << " files " << out << ".*.csv ("
            << g_rlcs.size () << " RLC AM entities)" << std::endl;
  Simulator::Destroy ();
  return 0;
}
