/* The seed 002 scenario with the sender's and the RLC's internal state traced (issue 15: the
 * reference's mechanisms behind seed 4's misses). validation/ns3-mmwave/trace_reference.py
 * runs it and reduces its output.
 *
 * This program runs ccsim-seed002.cc itself, unchanged: that file is included here with its
 * main () renamed, so the scenario, the order of object creation and the random draws are the
 * golden program's (the per-ms CSV it writes is comparable with the golden one bit for bit).
 * The extra traces only read state; they schedule no event that draws a random number.
 *
 * NS_LOG is compiled out of the tree's optimized build, and most of the state needed is
 * private (VT(A)/VT(S)/VT(MS), the pacing timer, BBR's bandwidth filter), so it is read
 * through the explicit-instantiation access rule (a template argument of an explicit
 * instantiation may name a private member, C++17 [temp.spec]/6): the tree is not modified.
 *
 * Extra options (removed from argv before the scenario's own CommandLine sees them):
 *   --traceOut=PREFIX   write PREFIX_{tcp,rate,rlc,pdu,tb,ip,harq}.csv
 *   --traceFrom=S --traceTo=S   window for the per-event files (all but rlc); the per-ms
 *                       RLC state (rlc.csv) covers the whole run
 *
 *   ./waf --run "ccsim-seed002-trace --cc=TcpBbr --rlcBuf=4000000 --seed=4 --stop=12.5
 *                --traceOut=/tmp/t --traceFrom=4.9 --traceTo=12.5"
 */
#define main ccsim_seed002_main
#include "ccsim-seed002.cc"
#undef main

#include "ns3/mmwave-component-carrier-enb.h"
#include "ns3/mmwave-enb-net-device.h"
#include "ns3/mmwave-flex-tti-mac-scheduler.h"
#include "ns3/mmwave-spectrum-phy.h"
#include "ns3/mmwave-ue-net-device.h"
#include "ns3/tcp-bbr.h"
#include "ns3/tcp-socket-base.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

/** Access to a private data member: Get (Tag ()) returns &Class::member. */
template <typename Tag, typename Tag::type M>
struct Rob
{
  friend typename Tag::type
  Get (Tag)
  {
    return M;
  }
};

#define CCSIM_ROB(TAG, CLASS, TYPE, MEMBER)                                                        \
  struct TAG                                                                                       \
  {                                                                                                \
    typedef TYPE CLASS::*type;                                                                     \
    friend type Get (TAG);                                                                         \
  };                                                                                               \
  template struct Rob<TAG, &CLASS::MEMBER>;

CCSIM_ROB (AmVtA, LteRlcAm, SequenceNumber10, m_vtA)
CCSIM_ROB (AmVtS, LteRlcAm, SequenceNumber10, m_vtS)
CCSIM_ROB (AmVtMs, LteRlcAm, SequenceNumber10, m_vtMs)
CCSIM_ROB (AmPollSn, LteRlcAm, SequenceNumber10, m_pollSn)
CCSIM_ROB (AmVrR, LteRlcAm, SequenceNumber10, m_vrR)
CCSIM_ROB (AmVrH, LteRlcAm, SequenceNumber10, m_vrH)
CCSIM_ROB (AmVrMs, LteRlcAm, SequenceNumber10, m_vrMs)
CCSIM_ROB (AmTxed, LteRlcAm, std::vector<LteRlcAm::RetxPdu>, m_txedBuffer)
CCSIM_ROB (AmRetx, LteRlcAm, std::vector<LteRlcAm::RetxPdu>, m_retxBuffer)
CCSIM_ROB (AmTxon, LteRlcAm, std::vector<Ptr<Packet>>, m_txonBuffer)
CCSIM_ROB (AmPollTimer, LteRlcAm, EventId, m_pollRetransmitTimer)
CCSIM_ROB (AmProhibitTimer, LteRlcAm, EventId, m_statusProhibitTimer)
CCSIM_ROB (AmReorderTimer, LteRlcAm, EventId, m_reorderingTimer)
CCSIM_ROB (AmStatusRequested, LteRlcAm, bool, m_statusPduRequested)
CCSIM_ROB (AmMaxRetx, LteRlcAm, uint16_t, m_maxRetxThreshold)

// HARQ (issue 15, harqtrig): the UE's expected TBs (their HARQ process) and the gNB
// scheduler's DL HARQ state (NACKs waiting for symbols, process status per RNTI).
CCSIM_ROB (PhyTbs, mmwave::MmWaveSpectrumPhy, mmwave::TbInfoMap_t, m_transportBlocks)
typedef std::vector<mmwave::DlHarqInfo> DlHarqInfoList;
typedef std::map<uint16_t, std::vector<uint8_t>> DlHarqStatusMap;
CCSIM_ROB (SchedDlHarqList, mmwave::MmWaveFlexTtiMacScheduler, DlHarqInfoList, m_dlHarqInfoList)
CCSIM_ROB (SchedDlHarqStatus, mmwave::MmWaveFlexTtiMacScheduler, DlHarqStatusMap,
           m_dlHarqProcessesStatus)

CCSIM_ROB (SockTcb, TcpSocketBase, Ptr<TcpSocketState>, m_tcb)
CCSIM_ROB (SockPacing, TcpSocketBase, Timer, m_pacingTimer)
CCSIM_ROB (SockTxBuf, TcpSocketBase, Ptr<TcpTxBuffer>, m_txBuffer)
CCSIM_ROB (SockRwnd, TcpSocketBase, TracedValue<uint32_t>, m_rWnd)
CCSIM_ROB (SockRecover, TcpSocketBase, SequenceNumber32, m_recover)
CCSIM_ROB (SockRto, TcpSocketBase, TracedValue<Time>, m_rto)
CCSIM_ROB (SockRetxEvent, TcpSocketBase, EventId, m_retxEvent)
CCSIM_ROB (SockCc, TcpSocketBase, Ptr<TcpCongestionOps>, m_congestionControl)
CCSIM_ROB (SockRateOps, TcpSocketBase, Ptr<TcpRateOps>, m_rateOps)

CCSIM_ROB (BbrState, TcpBbr, TcpBbr::BbrMode_t, m_state)
CCSIM_ROB (BbrFilter, TcpBbr, TcpBbr::MaxBandwidthFilter_t, m_maxBwFilter)
CCSIM_ROB (BbrPipeFilled, TcpBbr, bool, m_isPipeFilled)
CCSIM_ROB (BbrPacingGain, TcpBbr, double, m_pacingGain)
CCSIM_ROB (BbrTarget, TcpBbr, uint32_t, m_targetCWnd)
CCSIM_ROB (BbrRound, TcpBbr, uint32_t, m_roundCount)
CCSIM_ROB (BbrRtProp, TcpBbr, Time, m_rtProp)
CCSIM_ROB (BbrConservation, TcpBbr, bool, m_packetConservation)
CCSIM_ROB (BbrNextRound, TcpBbr, uint32_t, m_nextRoundDelivered)
CCSIM_ROB (BbrDelivered, TcpBbr, uint64_t, m_delivered)

struct TraceOptions
{
  std::string prefix;
  double from = 0;
  double to = 1e9;
};

TraceOptions g_opt;
FILE *g_tcp = nullptr;
FILE *g_rlc = nullptr;
FILE *g_pdu = nullptr;
FILE *g_tb = nullptr;
FILE *g_rate = nullptr;
FILE *g_ip = nullptr;
FILE *g_harq = nullptr;
Ptr<mmwave::MmWaveSpectrumPhy> g_ueDlPhy;
Ptr<mmwave::MmWaveFlexTtiMacScheduler> g_sched;
Ptr<TcpSocketBase> g_sock;
Ptr<LteRlcAm> g_enbRlc;
Ptr<LteRlcAm> g_ueRlc;

bool
InWindow ()
{
  double t = Simulator::Now ().GetSeconds ();
  return t >= g_opt.from && t < g_opt.to;
}

int64_t
NowUs ()
{
  return Simulator::Now ().GetMicroSeconds ();
}

int64_t
LeftUs (const EventId &e)
{
  return e.IsRunning () ? Simulator::GetDelayLeft (e).GetMicroSeconds () : -1;
}

/** One row of the sender's state; ev: tx, ack (before the ACK is processed), post (after). */
void
TcpRow (const char *ev, uint32_t seq, uint32_t len)
{
  if (!g_sock || !InWindow ())
    {
      return;
    }
  TcpSocketBase &s = *g_sock;
  Ptr<TcpSocketState> tcb = s.*Get (SockTcb ());
  Timer &pacing = s.*Get (SockPacing ());
  Ptr<TcpTxBuffer> txb = s.*Get (SockTxBuf ());
  uint32_t rwnd = (s.*Get (SockRwnd ())).Get ();
  Time rto = (s.*Get (SockRto ())).Get ();
  std::fprintf (g_tcp, "%lld,%s,%u,%u,%u,%u,%llu,%d,%lld,%d,%u,%u,%u,%lld,%lld,%u,%u,%u,%u,%u",
                (long long) NowUs (), ev, seq, len, tcb->m_cWnd.Get (), tcb->m_bytesInFlight.Get (),
                (unsigned long long) tcb->m_pacingRate.Get ().GetBitRate (),
                pacing.IsRunning () ? 1 : 0,
                (long long) (pacing.IsRunning () ? pacing.GetDelayLeft ().GetMicroSeconds () : -1),
                (int) tcb->m_congState.Get (), tcb->m_nextTxSequence.Get ().GetValue (),
                tcb->m_highTxMark.Get ().GetValue (), (s.*Get (SockRecover ())).GetValue (),
                (long long) rto.GetMicroSeconds (), (long long) LeftUs (s.*Get (SockRetxEvent ())),
                rwnd, txb->Size (), txb->GetLost (), txb->GetSacked (), txb->GetRetransmitsCount ());
  Ptr<TcpBbr> bbr = DynamicCast<TcpBbr> (s.*Get (SockCc ()));
  if (bbr)
    {
      TcpBbr &b = *bbr;
      std::fprintf (g_tcp, ",%d,%llu,%.3f,%u,%u,%lld,%d,%u,%llu\n", (int) (b.*Get (BbrState ())),
                    (unsigned long long) (b.*Get (BbrFilter ())).GetBest ().GetBitRate (),
                    b.*Get (BbrPacingGain ()), b.*Get (BbrTarget ()), b.*Get (BbrRound ()),
                    (long long) (b.*Get (BbrRtProp ())).GetMicroSeconds (),
                    (b.*Get (BbrConservation ())) ? 1 : 0, b.*Get (BbrNextRound ()),
                    (unsigned long long) (b.*Get (BbrDelivered ())));
    }
  else
    {
      std::fprintf (g_tcp, ",,,,,,,,,\n");
    }
}

void
OnTcpTx (Ptr<const Packet> p, const TcpHeader &h, Ptr<const TcpSocketBase>)
{
  if (p->GetSize () > 0)
    {
      TcpRow ("tx", h.GetSequenceNumber ().GetValue (), p->GetSize ());
    }
}

void
PostAck (uint32_t ack)
{
  TcpRow ("post", ack, 0);
}

void
OnTcpRx (Ptr<const Packet>, const TcpHeader &h, Ptr<const TcpSocketBase>)
{
  if (!(h.GetFlags () & TcpHeader::ACK))
    {
      return;
    }
  uint32_t ack = h.GetAckNumber ().GetValue ();
  TcpRow ("ack", ack, 0);
  // The socket processes the ACK after this trace fires, in the same event.
  Simulator::ScheduleNow (&PostAck, ack);
}

void
OnRtoChange (Time, Time)
{
  TcpRow ("rto", 0, 0);
}

/** Every update of the rate sample (per delivered segment in SkbDelivered, and the sample
 * GenerateSample hands to the congestion control). */
void
OnRateSample (const TcpRateOps::TcpRateSample &rs)
{
  if (!InWindow ())
    {
      return;
    }
  std::fprintf (g_rate, "%lld,%llu,%d,%lld,%d,%u,%lld,%lld,%lld,%u,%u\n", (long long) NowUs (),
                (unsigned long long) rs.m_deliveryRate.GetBitRate (), rs.m_isAppLimited ? 1 : 0,
                (long long) rs.m_interval.GetMicroSeconds (), rs.m_delivered, rs.m_priorDelivered,
                (long long) rs.m_priorTime.GetMicroSeconds (),
                (long long) rs.m_sendElapsed.GetMicroSeconds (),
                (long long) rs.m_ackElapsed.GetMicroSeconds (), rs.m_bytesLoss, rs.m_ackedSacked);
}

void
AttachTcpTraces ()
{
  for (uint32_t i = 0; i < NodeList::GetNNodes (); i++)
    {
      Ptr<Node> n = NodeList::GetNode (i);
      for (uint32_t a = 0; a < n->GetNApplications (); a++)
        {
          Ptr<BulkSendApplication> bulk = DynamicCast<BulkSendApplication> (n->GetApplication (a));
          if (bulk)
            {
              g_sock = DynamicCast<TcpSocketBase> (bulk->GetSocket ());
            }
        }
    }
  NS_ABORT_MSG_UNLESS (g_sock, "no bulk sender socket at 20.1 ms");
  g_sock->TraceConnectWithoutContext ("Tx", MakeCallback (&OnTcpTx));
  g_sock->TraceConnectWithoutContext ("Rx", MakeCallback (&OnTcpRx));
  g_sock->TraceConnectWithoutContext ("RTO", MakeCallback (&OnRtoChange));
  Ptr<TcpRateOps> rate = (*g_sock).*Get (SockRateOps ());
  NS_ABORT_MSG_UNLESS (rate->TraceConnectWithoutContext ("TcpRateSampleUpdated",
                                                         MakeCallback (&OnRateSample)),
                       "no TcpRateSampleUpdated trace");
}

/** Occupied entries of an SN-indexed buffer (the tree sizes them to 1024 and nulls the rest). */
size_t
Occupied (const std::vector<LteRlcAm::RetxPdu> &buf)
{
  size_t n = 0;
  for (const LteRlcAm::RetxPdu &r : buf)
    {
      n += r.m_pdu ? 1 : 0;
    }
  return n;
}

/** PDU rows: who (enb/ue), dir (tx/rx), bytes, then both entities' window state after it. */
void
PduRow (const char *who, const char *dir, uint32_t bytes)
{
  if (!InWindow () || !g_enbRlc || !g_ueRlc)
    {
      return;
    }
  LteRlcAm &e = *g_enbRlc;
  LteRlcAm &u = *g_ueRlc;
  std::fprintf (g_pdu, "%lld,%s,%s,%u,%u,%u,%zu,%zu,%u,%u\n", (long long) NowUs (), who, dir,
                bytes, (e.*Get (AmVtA ())).GetValue (), (e.*Get (AmVtS ())).GetValue (),
                Occupied (e.*Get (AmRetx ())), Occupied (e.*Get (AmTxed ())),
                (u.*Get (AmVrR ())).GetValue (), (u.*Get (AmVrH ())).GetValue ());
}

void
OnEnbTxPdu (uint16_t, uint8_t, uint32_t bytes)
{
  PduRow ("enb", "tx", bytes);
}
void
OnEnbRxPdu (uint16_t, uint8_t, uint32_t bytes, uint64_t)
{
  PduRow ("enb", "rx", bytes);
}
void
OnUeTxPdu (uint16_t, uint8_t, uint32_t bytes)
{
  PduRow ("ue", "tx", bytes);
}
void
OnUeRxPdu (uint16_t, uint8_t, uint32_t bytes, uint64_t)
{
  PduRow ("ue", "rx", bytes);
}

Ptr<LteRlcAm>
FindRlc (const std::string &path)
{
  Config::MatchContainer m = Config::LookupMatches (path);
  for (size_t i = 0; i < m.GetN (); i++)
    {
      Ptr<LteRlcAm> am = DynamicCast<LteRlcAm> (m.Get (i));
      if (am)
        {
          return am;
        }
    }
  return nullptr;
}

/** Largest retransmission count among the PDUs of a buffer. */
uint32_t
MaxRetxCount (const std::vector<LteRlcAm::RetxPdu> &buf)
{
  uint32_t m = 0;
  for (const LteRlcAm::RetxPdu &r : buf)
    {
      if (r.m_pdu)
        {
          m = std::max<uint32_t> (m, r.m_retxCount);
        }
    }
  return m;
}

/** Both RLC AM entities of the data bearer, every millisecond for the whole run. */
void
PollRlcState ()
{
  if (!g_enbRlc)
    {
      std::ostringstream p;
      p << "/NodeList/" << g_enbNodeId << "/DeviceList/*/LteEnbRrc/UeMap/*/DataRadioBearerMap/*/LteRlc";
      g_enbRlc = FindRlc (p.str ());
      g_ueRlc = FindRlc ("/NodeList/*/DeviceList/*/LteUeRrc/DataRadioBearerMap/*/LteRlc");
      if (!g_ueRlc)
        {
          g_ueRlc = FindRlc ("/NodeList/*/DeviceList/*/mmWaveUeRrc/DataRadioBearerMap/*/LteRlc");
        }
      if (g_enbRlc && g_ueRlc)
        {
          g_enbRlc->TraceConnectWithoutContext ("TxPDU", MakeCallback (&OnEnbTxPdu));
          g_enbRlc->TraceConnectWithoutContext ("RxPDU", MakeCallback (&OnEnbRxPdu));
          g_ueRlc->TraceConnectWithoutContext ("TxPDU", MakeCallback (&OnUeTxPdu));
          g_ueRlc->TraceConnectWithoutContext ("RxPDU", MakeCallback (&OnUeRxPdu));
          std::fprintf (stderr, "ccsim-seed002-trace: RLC AM entities found at %.3f s, maxRetx %u\n",
                        Simulator::Now ().GetSeconds (), (unsigned) ((*g_enbRlc).*Get (AmMaxRetx ())));
        }
      else
        {
          g_enbRlc = nullptr;
        }
    }
  if (g_enbRlc)
    {
      LteRlcAm &e = *g_enbRlc;
      LteRlcAm &u = *g_ueRlc;
      const std::vector<LteRlcAm::RetxPdu> &txed = e.*Get (AmTxed ());
      const std::vector<LteRlcAm::RetxPdu> &retx = e.*Get (AmRetx ());
      std::fprintf (g_rlc, "%lld,%u,%zu,%u,%zu,%u,%zu,%u,%u,%u,%u,%u,%lld,%u,%u,%u,%d,%lld,%lld\n",
                    (long long) NowUs (), e.GetTxBufferSize (), (e.*Get (AmTxon ())).size (),
                    e.GetTxedBufferSize (), Occupied (txed), e.GetRetxBufferSize (), Occupied (retx),
                    std::max (MaxRetxCount (txed), MaxRetxCount (retx)),
                    (e.*Get (AmVtA ())).GetValue (), (e.*Get (AmVtS ())).GetValue (),
                    (e.*Get (AmVtMs ())).GetValue (), (e.*Get (AmPollSn ())).GetValue (),
                    (long long) LeftUs (e.*Get (AmPollTimer ())), (u.*Get (AmVrR ())).GetValue (),
                    (u.*Get (AmVrH ())).GetValue (), (u.*Get (AmVrMs ())).GetValue (),
                    (u.*Get (AmStatusRequested ())) ? 1 : 0,
                    (long long) LeftUs (u.*Get (AmProhibitTimer ())),
                    (long long) LeftUs (u.*Get (AmReorderTimer ())));
    }
  Simulator::Schedule (MilliSeconds (1), &PollRlcState);
}

void
OnTb (RxPacketTraceParams p)
{
  if (!InWindow ())
    {
      return;
    }
  std::fprintf (g_tb, "%lld,%u,%u,%u,%u,%.2f,%.4f,%u,%u\n", (long long) NowUs (), p.m_tbSize,
                (unsigned) p.m_mcs, (unsigned) p.m_rv, p.m_corrupt ? 1u : 0u,
                10 * std::log10 (p.m_sinr), p.m_tbler, (unsigned) p.m_symStart, (unsigned) p.m_numSym);
  // The TB's HARQ process and NDI (the UE's expected TB, still in its map while the trace
  // fires) and the gNB scheduler's DL HARQ state now: the NACKs it holds for want of symbols
  // (process:rv) and the status of every process of this RNTI (0 free, k = k-th transmission).
  if (g_harq && g_ueDlPhy && g_sched)
    {
      const mmwave::TbInfoMap_t &tbs = (*g_ueDlPhy).*Get (PhyTbs ());
      auto it = tbs.find (p.m_rnti);
      int harqId = it == tbs.end () ? -1 : (int) it->second.m_expected.m_harqProcessId;
      int ndi = it == tbs.end () ? -1 : (int) it->second.m_expected.m_ndi;
      std::string pending, status;
      for (const mmwave::DlHarqInfo &h : (*g_sched).*Get (SchedDlHarqList ()))
        {
          pending += (pending.empty () ? "" : " ") + std::to_string (h.m_harqProcessId) + ":" +
                     std::to_string (h.m_numRetx) +
                     (h.m_harqStatus == mmwave::DlHarqInfo::NACK ? "N" : "A");
        }
      const DlHarqStatusMap &st = (*g_sched).*Get (SchedDlHarqStatus ());
      auto s = st.find (p.m_rnti);
      if (s != st.end ())
        {
          for (uint8_t v : s->second)
            {
              status += std::to_string (v);
            }
        }
      std::fprintf (g_harq, "%lld,%d,%d,%u,%u,%u,%s,%s\n", (long long) NowUs (), harqId, ndi,
                    (unsigned) p.m_rv, p.m_tbSize, p.m_corrupt ? 1u : 0u, pending.c_str (),
                    status.c_str ());
    }
}

/** The UE's IPv4 layer: every packet (an IP fragment) from the device, and every drop.
 * Columns of a `deliver` row: ip_id, then the TCP sequence number, payload and datagram
 * bytes in the frag_offset, more_frags and bytes columns. */
void
IpRow (const char *ev, const Ipv4Header &h, uint32_t bytes, int reason)
{
  std::fprintf (g_ip, "%lld,%s,%u,%u,%d,%u,%d\n", (long long) NowUs (), ev,
                (unsigned) h.GetIdentification (), (unsigned) h.GetFragmentOffset (),
                h.IsLastFragment () ? 0 : 1, bytes, reason);
}

void
OnUeIpRx (Ptr<const Packet> p, Ptr<Ipv4>, uint32_t)
{
  Ipv4Header h;
  if (InWindow () && p->PeekHeader (h))
    {
      IpRow ("rx", h, p->GetSize (), 0);
    }
}

void
OnUeIpDrop (const Ipv4Header &h, Ptr<const Packet> p, Ipv4L3Protocol::DropReason r, Ptr<Ipv4>,
            uint32_t)
{
  if (InWindow ())
    {
      IpRow ("drop", h, p->GetSize (), (int) r);
    }
}

/** A datagram reassembled and handed to TCP: its IP identification and TCP sequence number
 * (maps TCP segments to the fragments the UE received). */
void
OnUeIpDeliver (const Ipv4Header &h, Ptr<const Packet> p, uint32_t)
{
  TcpHeader th;
  if (InWindow () && p->PeekHeader (th))
    {
      std::fprintf (g_ip, "%lld,deliver,%u,%u,%u,%u,0\n", (long long) NowUs (),
                    (unsigned) h.GetIdentification (), th.GetSequenceNumber ().GetValue (),
                    p->GetSize () - th.GetSerializedSize (), p->GetSize ());
    }
}

/** Connected once the scenario has built its devices (they do not exist before its main runs). */
void
ConnectTbTrace ()
{
  Config::ConnectWithoutContextFailSafe (
      "/NodeList/*/DeviceList/*/ComponentCarrierMap/*/MmWaveUePhy/DlSpectrumPhy/RxPacketTraceUe",
      MakeCallback (&OnTb));
  for (uint32_t n = 0; n < NodeList::GetNNodes (); n++)
    {
      Ptr<Node> node = NodeList::GetNode (n);
      for (uint32_t d = 0; d < node->GetNDevices (); d++)
        {
          if (auto ue = DynamicCast<mmwave::MmWaveUeNetDevice> (node->GetDevice (d)))
            {
              g_ueDlPhy = ue->GetPhy ()->GetDlSpectrumPhy ();
            }
          if (auto enb = DynamicCast<mmwave::MmWaveEnbNetDevice> (node->GetDevice (d)))
            {
              auto cc = DynamicCast<mmwave::MmWaveComponentCarrierEnb> (enb->GetCcMap ().at (0));
              g_sched = DynamicCast<mmwave::MmWaveFlexTtiMacScheduler> (cc->GetMacScheduler ());
            }
        }
    }
  NS_ABORT_MSG_UNLESS (g_ueDlPhy && g_sched, "no UE DL phy or flex-TTI scheduler found");
  // The UE is the first node the scenario creates.
  Ptr<Ipv4L3Protocol> ip = NodeList::GetNode (0)->GetObject<Ipv4L3Protocol> ();
  NS_ABORT_MSG_UNLESS (ip, "node 0 (the UE) has no IPv4 stack");
  ip->TraceConnectWithoutContext ("Rx", MakeCallback (&OnUeIpRx));
  ip->TraceConnectWithoutContext ("Drop", MakeCallback (&OnUeIpDrop));
  ip->TraceConnectWithoutContext ("LocalDeliver", MakeCallback (&OnUeIpDeliver));
}

FILE *
Open (const char *suffix, const char *header)
{
  std::string path = g_opt.prefix + suffix;
  FILE *f = std::fopen (path.c_str (), "w");
  NS_ABORT_MSG_UNLESS (f, "cannot write " << path);
  std::fputs (header, f);
  return f;
}

/** Removes --traceOut/--traceFrom/--traceTo from argv; returns the new argc. */
int
TakeTraceOptions (int argc, char *argv[])
{
  int out = 1;
  for (int i = 1; i < argc; i++)
    {
      std::string a = argv[i];
      auto value = [&a] (const char *key) -> const char * {
        size_t n = std::strlen (key);
        return a.compare (0, n, key) == 0 ? a.c_str () + n : nullptr;
      };
      if (const char *v = value ("--traceOut="))
        {
          g_opt.prefix = v;
        }
      else if (const char *v = value ("--traceFrom="))
        {
          g_opt.from = std::stod (v);
        }
      else if (const char *v = value ("--traceTo="))
        {
          g_opt.to = std::stod (v);
        }
      else
        {
          argv[out++] = argv[i];
        }
    }
  NS_ABORT_MSG_IF (g_opt.prefix.empty (), "--traceOut=PREFIX is required");
  return out;
}

} // namespace

int
main (int argc, char *argv[])
{
  argc = TakeTraceOptions (argc, argv);
  g_tcp = Open ("_tcp.csv",
                "t_us,ev,seq,len,cwnd,inflight,pacing_bps,pacing_timer,pacing_left_us,cong_state,"
                "next_tx,high_tx,recover,rto_us,retx_timer_left_us,rwnd,txbuf_bytes,lost_bytes,"
                "sacked_bytes,retrans_bytes,bbr_state,bbr_btlbw_bps,bbr_pacing_gain,"
                "bbr_target_cwnd,bbr_round,bbr_rtprop_us,bbr_conservation,bbr_next_round_delivered,"
                "bbr_delivered\n");
  g_rate = Open ("_rate.csv", "t_us,delivery_rate_bps,app_limited,interval_us,delivered,"
                              "prior_delivered,prior_time_us,send_elapsed_us,ack_elapsed_us,"
                              "bytes_loss,acked_sacked\n");
  g_rlc = Open ("_rlc.csv",
                "t_us,txon_bytes,txon_n,txed_bytes,txed_n,retx_bytes,retx_n,max_retx_count,vt_a,vt_s,"
                "vt_ms,poll_sn,poll_timer_left_us,ue_vr_r,ue_vr_h,ue_vr_ms,ue_status_requested,"
                "ue_prohibit_left_us,ue_reordering_left_us\n");
  g_ip = Open ("_ip.csv", "t_us,ev,ip_id,frag_offset,more_frags,bytes,drop_reason\n");
  g_pdu = Open ("_pdu.csv", "t_us,who,dir,bytes,vt_a,vt_s,retx_n,txed_n,ue_vr_r,ue_vr_h\n");
  g_tb = Open ("_tb.csv", "t_us,tb_bytes,mcs,rv,corrupt,sinr_db,tbler,sym_start,num_sym\n");
  g_harq = Open ("_harq.csv", "t_us,harq_id,ndi,rv,tb_bytes,corrupt,sched_pending,sched_status\n");
  // Queued before the scenario builds its objects; they only read state and draw no random
  // numbers, so the scenario's own events keep their order (same time: insertion order).
  Simulator::Schedule (MicroSeconds (1), &ConnectTbTrace);
  Simulator::Schedule (Seconds (0.0202), &AttachTcpTraces);
  Simulator::Schedule (MicroSeconds (1001), &PollRlcState);
  int rc = ccsim_seed002_main (argc, argv);
  for (FILE *f : {g_tcp, g_rlc, g_pdu, g_tb, g_rate, g_ip, g_harq})
    {
      std::fclose (f);
    }
  return rc;
}
