/* Traced run of ccsim-handover.cc (issue 15, "each miss traced to a named mechanism"): trace
 * hooks that follow every TCP segment and every RLC AM state variable through the secondary-cell
 * handovers.
 *
 * This program runs ccsim-handover.cc itself, unchanged (the golden files record its hash): that
 * file is included here with its main () renamed, as ccsim-seed002-trace.cc includes
 * ccsim-seed002.cc, so the scenario, the order of object creation and the random draws are the
 * golden program's. Its own per-ms CSV (--out) is written as in a golden run. The hooks only
 * read state: they are connected by config path at 1 us and 0.3001 s (events scheduled before
 * the scenario's own, drawing no random number), and no Ptr to an RLC entity is kept.
 *
 * NS_LOG is compiled out of the optimized tree, so everything is read through trace sources and,
 * for the RLC AM state variables that have no accessor (VT(A), VT(S), VR(R), VR(H), the
 * reception buffer, the re-segmentation buffer), through the explicit-instantiation access rule
 * (C++11 [temp.explicit]/12: access checking does not apply to the names in an explicit
 * instantiation), so the tree is not modified: ccsim-handover-trace.h has that reader and the
 * output files.
 *
 * Extra option (removed from argv before the scenario's own CommandLine sees it):
 *   --traceOut=PREFIX   write the traces to PREFIX.<name>.csv
 *
 * Output files, all `<PREFIX>.<name>.csv` (times in microseconds):
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
 *   ./waf --run "ccsim-handover-trace --cc=TcpCubic --dc=1 --seed=2 --time=6.5 --x0=60
 *                --out=/tmp/t.csv --traceOut=/tmp/t"
 */
#define main ccsim_handover_main
#include "ccsim-handover.cc"
#undef main

#include "ns3/lte-rlc-am-header.h"
#include "ns3/mc-ue-net-device.h"
#include "ns3/tcp-option-sack.h"

#include <cstring>
#include <map>
#include <memory>

// A named namespace: the included scenario's helpers (OnSinkRx, PollRlc, ...) live in the
// anonymous one, and these hooks shadow them here without a clash.
namespace ccsim_trace {

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
std::vector<uint32_t> g_enbNodeIds; // every eNB node (LTE and mmWave)

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

/** The scenario's nodes, found by what they carry (its NodeContainers are local to its main). */
void
FindNodes ()
{
  for (uint32_t n = 0; n < NodeList::GetNNodes (); n++)
    {
      Ptr<Node> node = NodeList::GetNode (n);
      for (uint32_t d = 0; d < node->GetNDevices (); d++)
        {
          Ptr<NetDevice> dev = node->GetDevice (d);
          if (DynamicCast<McUeNetDevice> (dev))
            {
              g_ueNodeId = n;
            }
          else if (CellIdOf (dev) != 0)
            {
              g_enbNodeIds.push_back (n);
              break;
            }
        }
    }
}

/** Hooks on objects that exist once the scenario has built its devices (queued at 1 us). */
void
AttachEarlyTraces ()
{
  FindNodes ();
  std::ostringstream ue;
  ue << "/NodeList/" << g_ueNodeId;
  Config::ConnectWithoutContextFailSafe (ue.str () + "/ApplicationList/*/$ns3::PacketSink/Rx",
                                         MakeCallback (&OnSinkRx));
  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/MmWaveComponentCarrierMapUe/*/MmWaveUePhy/DlSpectrumPhy/RxPacketTraceUe",
      MakeCallback (&OnUeTb));
  Ptr<Ipv4L3Protocol> ueIp = NodeList::GetNode (g_ueNodeId)->GetObject<Ipv4L3Protocol> ();
  NS_ABORT_MSG_UNLESS (ueIp, "the UE node has no IPv4 stack");
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
  Simulator::Schedule (MilliSeconds (1) - MicroSeconds (1), &PollRlc);
}

/** Hooks that need the sender's socket and the UE's bearer, which exist only after the bulk
 * sender starts (0.3 s) and the initial access. */
void
AttachLateTraces ()
{
  Config::MatchContainer m = Config::LookupMatches ("/NodeList/*/ApplicationList/*/$ns3::BulkSendApplication");
  NS_ABORT_MSG_UNLESS (m.GetN () == 1, "expected one bulk sender, found " << m.GetN ());
  AttachSenderTraces (DynamicCast<BulkSendApplication> (m.Get (0)));
  std::ostringstream pdcp;
  pdcp << "/NodeList/" << g_ueNodeId << "/DeviceList/*/LteUeRrc/DataRadioBearerMap/*/LtePdcp/RxPDU";
  Config::ConnectWithoutContextFailSafe (pdcp.str (), MakeCallback (&OnUePdcpRx));
}

/** Removes --traceOut=PREFIX from argv (into g_out); returns the new argc. */
int
TakeTraceOptions (int argc, char *argv[])
{
  int out = 1;
  for (int i = 1; i < argc; i++)
    {
      if (std::strncmp (argv[i], "--traceOut=", 11) == 0)
        {
          g_out = argv[i] + 11;
        }
      else
        {
          argv[out++] = argv[i];
        }
    }
  NS_ABORT_MSG_IF (g_out.empty (), "--traceOut=PREFIX is required");
  return out;
}

} // namespace ccsim_trace

int
main (int argc, char *argv[])
{
  using namespace ccsim_trace;
  argc = TakeTraceOptions (argc, argv);
  // Queued before the scenario builds its objects; they only read state and draw no random
  // numbers, so the scenario's own events keep their order.
  Simulator::Schedule (MicroSeconds (1), &AttachEarlyTraces);
  Simulator::Schedule (Seconds (0.3001), &AttachLateTraces);
  int rc = ccsim_handover_main (argc, argv);
  for (auto &f : g_files)
    {
      f.second->close ();
    }
  std::cout << "ccsim-handover-trace: wrote " << g_files.size () << " files " << g_out
            << ".*.csv (" << g_rlcs.size () << " RLC AM entities)" << std::endl;
  return rc;
}
